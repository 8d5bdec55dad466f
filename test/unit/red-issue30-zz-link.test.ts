// unit (red team zz, issue 30, ZZ3 in process): one long (background-like) sandboxed command makes a
// nested repository `sub`, waits for the live guard to clean its new config (kept: it runs nothing),
// hard-links `sub/.git/config` to `sub/notes.txt` and appends `core.fsmonitor = <payload>` through
// the link — no event names the config's path — and keeps running. The person's editor runs `git
// status` in the nested repository meanwhile. Oracles: the config on disk while the command still
// runs, and a marker the fsmonitor would write outside the project. End to end (a background task,
// the CLI on Temporal): integration/red-issue30-zz ZZ3.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { initialContext } from '../../src/core/context';
import { SandboxHost } from '../../src/sandbox/host';
import { toolResultText } from '../../src/core/apiMessages';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import { createToolPool } from '../../src/permissions/toolPool';
import { BUILTIN_TOOLS } from '../../src/tools';
import type { ResultStore } from '../../src/toolProtocol/Tool';
import { sessionPermission } from '../../src/toolCall/toolSession';
import { sandboxSkip } from '../support/systemPackages';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-zz-link-')));
const saved = { HOME: process.env.HOME };
let sandboxHost: SandboxHost;
let skip: string | false = false;

before(async () => {
  mkdirSync(path.join(base, 'home'), { recursive: true });
  process.env.HOME = path.join(base, 'home');
  sandboxHost = new SandboxHost();
  skip = await sandboxSkip(sandboxHost, 'the red team zz hard-link test');
});
after(async () => {
  await sandboxHost?.close();
  process.env.HOME = saved.HOME;
  rmSync(base, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('ZZ3 (dontAsk): a command links the cleaned config of a repository it made to notes.txt and appends core.fsmonitor through the link, then keeps running — meanwhile the config holds no fsmonitor and the person’s git status there runs nothing', async (t) => {
  if (skip) return t.skip(skip);
  const root = path.join(base, 'p');
  mkdirSync(root);
  const mark = path.join(base, 'fsmonitor-ran');
  const written = path.join(root, 'written');
  const cfg = Buffer.from(`[core]\n\tfsmonitor = "sh -c 'env > ${mark}; cat' --"\n`).toString('base64');
  const permission = sessionPermission(
    { mode: 'dontAsk', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [root], sandbox: {} },
    {} as ResultStore,
    {},
    root,
  );
  const command = [
    'mkdir -p sub && cd sub && git init -q . && echo hi > a.txt && cd ..',
    'sleep 1.5', // the guard has cleaned the new config by now
    'ln sub/.git/config sub/notes.txt',
    `echo ${cfg} | base64 -d >> sub/notes.txt`,
    'touch written',
    'sleep 4',
  ].join('; ');
  const call = runToolPipeline({ type: 'tool_use', id: 'toolu_zz_link', name: 'Bash', input: { command } }, {
    pool: createToolPool(BUILTIN_TOOLS, permission),
    sessionId: `zz-link-${process.pid}`,
    agent: initialContext(root),
    permission,
    sandboxHost,
  } as Parameters<typeof runToolPipeline>[1]);
  for (let i = 0; i < 200 && !existsSync(written); i++) await sleep(50);
  assert.ok(existsSync(written), 'the command reached its write');
  await sleep(1000); // the guard's looks come every few tens of milliseconds
  const config = path.join(root, 'sub', '.git', 'config');
  const during = existsSync(config) ? readFileSync(config, 'utf8') : '';
  try {
    // The person's editor: git status in the nested repository it found (no global config of the test machine).
    execFileSync('git', ['status', '--short'], {
      cwd: path.join(root, 'sub'),
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
      stdio: 'ignore',
    });
  } catch {
    // a config the guard removed meanwhile: git looks further up
  }
  const o = await call;
  t.diagnostic(`${o.status}: ${o.result ? toolResultText(o.result).slice(0, 400) : ''}`);
  assert.deepEqual(
    { fsmonitorInConfig: /fsmonitor/.test(during), ranOnHost: existsSync(mark) },
    { fsmonitorInConfig: false, ranOnHost: false },
  );
});
