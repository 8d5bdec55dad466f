// unit: Bash inside the real OS sandbox (@anthropic-ai/sandbox-runtime: bubblewrap + proxy on
// Linux), called through the tool and the permission decision, no Temporal. Needs bwrap, socat
// and ripgrep; under CI=true their absence fails the test, elsewhere it is skipped with the reason.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs, existsSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { BashTool, type BashOutput } from '../../src/tools/bash';
import { SandboxHost } from '../../src/sandbox/host';
import { sandboxSkip } from '../support/systemPackages';
import { decidePermission } from '../../src/permissions/decide';
import type { SandboxSettings } from '../../src/sandbox/settings';
import type { PermissionMode } from '../../src/toolProtocol/permissionTypes';
import type { ToolResult, ToolUseContext } from '../../src/toolProtocol/Tool';
import { makeTmpDir, removeDir } from './tools-harness';

/** Bash's sandbox in these tests (the worker's start-up owns one: src/runtime/callDeps.ts). */
const sandboxHost = new SandboxHost();

let skip: string | false = false;
let root = '';
let server: http.Server;
let port = 0;
let requests = 0;
const savedHome = process.env.HOME;

before(async () => {
  skip = await sandboxSkip(sandboxHost, 'the sandboxed Bash unit tests');
  if (skip) return;
  root = await makeTmpDir('da-sbx-');
  await fs.mkdir(path.join(root, 'home', '.ssh'), { recursive: true });
  await fs.writeFile(path.join(root, 'home', '.ssh', 'id_rsa'), 'FAKE-PRIVATE-KEY\n');
  await fs.mkdir(path.join(root, 'work'));
  await fs.mkdir(path.join(root, 'other'));
  await fs.mkdir(path.join(root, 'outside'));
  process.env.HOME = path.join(root, 'home'); // the worker's home: its ~/.ssh is a default credential path
  server = http.createServer((_req, res) => {
    requests++;
    res.end('HOST-SECRET\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as { port: number }).port;
});

after(async () => {
  process.env.HOME = savedHome;
  server?.close();
  await sandboxHost.close();
  if (root) await removeDir(root);
});

function ctx(
  sandbox: SandboxSettings | undefined,
  cwd = path.join(root, 'work'),
  mode: PermissionMode = 'bypassPermissions',
  allow: string[] = [],
): ToolUseContext {
  return {
    sessionId: `sbx-${cwd}`,
    toolUseId: 'toolu_x',
    idempotencyKey: 'k',
    agent: { cwd, additionalDirectories: [], readFiles: {} },
    permission: {
      mode,
      rules: { allow, ask: [], deny: [] },
      workingDirectories: [cwd],
      ...(sandbox ? { sandbox } : {}),
    },
    abortSignal: new AbortController().signal,
    sandboxHost,
  };
}

async function bash(
  command: string,
  sandbox: SandboxSettings | undefined,
  cwd?: string,
  extra: Record<string, unknown> = {},
): Promise<ToolResult<BashOutput>> {
  return BashTool.call({ command, ...extra }, ctx(sandbox, cwd), () => undefined);
}

test('unit: sandboxed Bash writes inside the working directory and its temp dir, nowhere else', async (t) => {
  if (skip) return t.skip(skip);
  const inside = await bash('echo inside > made.txt && echo tmp > "$TMPDIR/t" && cat made.txt "$TMPDIR/t"', {});
  assert.equal(inside.data.exitCode, 0, inside.data.output);
  assert.equal(inside.data.output, 'inside\ntmp\n');
  assert.deepEqual(
    inside.sandbox,
    { sandboxed: true, reason: 'sandboxed' },
    'no violation reported for allowed writes',
  );
  assert.equal(await fs.readFile(path.join(root, 'work', 'made.txt'), 'utf8'), 'inside\n');

  const outside = path.join(root, 'outside', 'x.txt');
  const out = await bash(`echo pwned > ${outside}`, {});
  assert.notEqual(out.data.exitCode, 0);
  assert.match(out.data.output, /Read-only file system|Permission denied/);
  assert.equal(existsSync(outside), false);
  assert.equal(out.sandbox?.sandboxed, true);
  assert.ok(
    out.sandbox?.violations?.some((v) => v.includes(outside)),
    JSON.stringify(out.sandbox),
  );
  assert.match(
    BashTool.mapToolResultToToolResultBlockParam(out.data, 'toolu_x').content as string,
    /<sandbox_violations>[\s\S]*x\.txt[\s\S]*<\/sandbox_violations>/,
  );

  // The same command with the sandbox off for the session does write: the sandbox is what stopped it.
  const off = await bash(`echo written > ${outside}`, { enabled: false });
  assert.equal(off.data.exitCode, 0);
  assert.deepEqual([off.sandbox?.sandboxed, existsSync(outside)], [false, true]);
});

test("unit: credentials are unreadable: ~/.ssh by default, filesystem.denyRead, and the worker's API keys", async (t) => {
  if (skip) return t.skip(skip);
  const key = await bash('cat ~/.ssh/id_rsa', {});
  assert.notEqual(key.data.exitCode, 0);
  assert.doesNotMatch(key.data.output, /FAKE-PRIVATE-KEY/);
  await fs.writeFile(path.join(root, 'other', 'token'), 'TOKEN-TEXT\n');
  const denied = await bash(`cat ${path.join(root, 'other', 'token')}`, {
    filesystem: { denyRead: [path.join(root, 'other')] },
  });
  assert.doesNotMatch(denied.data.output, /TOKEN-TEXT/);
  const readable = await bash(`cat ${path.join(root, 'other', 'token')}`, {});
  assert.match(readable.data.output, /TOKEN-TEXT/, 'not a credential path: readable');
  process.env.ANTHROPIC_API_KEY = 'sk-ant-FAKE';
  try {
    const env = await bash('echo "key=[${ANTHROPIC_API_KEY:-}]"', {});
    assert.equal(env.data.output, 'key=[]\n');
  } finally {
    delete process.env.ANTHROPIC_API_KEY;
  }
});

test('unit: network only to allowed hosts; a denied host is reported as a violation', async (t) => {
  if (skip) return t.skip(skip);
  const before = requests;
  const direct = await bash(`curl -fsS --max-time 5 http://127.0.0.1:${port}/`, {});
  assert.notEqual(direct.data.exitCode, 0, direct.data.output);
  const proxied = await bash(`curl -fsS --max-time 5 --noproxy '' http://127.0.0.1:${port}/`, {});
  assert.notEqual(proxied.data.exitCode, 0, proxied.data.output);
  assert.doesNotMatch(direct.data.output + proxied.data.output, /HOST-SECRET/);
  assert.ok(
    proxied.sandbox?.violations?.some((v) => /deny network-outbound 127\.0\.0\.1:\d+/.test(v)),
    JSON.stringify(proxied.sandbox),
  );
  assert.equal(requests, before, 'nothing reached the server');
  const allowed = await bash(`curl -fsS --max-time 5 --noproxy '' http://localhost:${port}/`, {
    network: { allowedDomains: ['localhost'] },
  });
  assert.equal(allowed.data.output, 'HOST-SECRET\n', 'an allowed host is reached through the sandbox proxy');
  assert.equal(requests, before + 1);
});

test('unit: sessions with different sandbox settings run side by side on one worker', async (t) => {
  if (skip) return t.skip(skip);
  const a = path.join(root, 'work');
  const b = path.join(root, 'other');
  const [ra, rb, rc] = await Promise.all([
    bash(`sleep 0.3; echo a > ${b}/from-a.txt; echo a > ${a}/from-a.txt`, {}, a),
    bash(`sleep 0.3; echo b > ${a}/from-b.txt; echo b > ${b}/from-b.txt`, {}, b),
    // A different worker-wide part (a deny list): runs at once, on a runtime of its own (runtimePool.ts).
    bash('echo c', { network: { deniedDomains: ['evil.example'] } }, b),
  ]);
  assert.deepEqual([existsSync(`${b}/from-a.txt`), existsSync(`${a}/from-a.txt`)], [false, true], ra.data.output);
  assert.deepEqual([existsSync(`${a}/from-b.txt`), existsSync(`${b}/from-b.txt`)], [false, true], rb.data.output);
  assert.equal(rc.data.output, 'c\n');
});

test('unit: the permission decision with the sandbox: auto-allow, escapes always ask, dontAsk denies them', async (t) => {
  if (skip) return t.skip(skip);
  const cwd = path.join(root, 'work');
  const decide = (
    command: string,
    sandbox: SandboxSettings | undefined,
    mode: PermissionMode,
    allow: string[] = [],
    extra: Record<string, unknown> = {},
  ) => decidePermission(BashTool, { command, ...extra }, ctx(sandbox, cwd, mode, allow));
  const auto = await decide('rm -f build.log', {}, 'dontAsk');
  assert.deepEqual([auto.behavior, auto.decisionReason?.type], ['allow', 'sandbox']);
  assert.equal((await decide('rm -f build.log', { autoAllowBashIfSandboxed: false }, 'default')).behavior, 'ask');
  assert.equal((await decide('rm -f build.log', { autoAllowBashIfSandboxed: false }, 'dontAsk')).behavior, 'deny');
  assert.equal(
    (await decide('rm -f build.log', undefined, 'default')).behavior,
    'ask',
    'no sandbox outside a session: the modes decide',
  );
  const excluded = await decide('docker ps', { excludedCommands: ['docker'] }, 'default', ['Bash(docker:*)']);
  assert.deepEqual(
    [excluded.behavior, excluded.decisionReason?.type],
    ['ask', 'sandbox'],
    'an allow rule does not lift an escape',
  );
  assert.equal(
    (await decide('docker ps', { excludedCommands: ['docker'] }, 'dontAsk', ['Bash(docker:*)'])).behavior,
    'deny',
  );
  assert.equal((await decide('ls', {}, 'dontAsk', [], { dangerouslyDisableSandbox: true })).behavior, 'deny');
  assert.equal(
    (await decide('ls', { allowUnsandboxedCommands: false }, 'dontAsk', [], { dangerouslyDisableSandbox: true }))
      .behavior,
    'allow',
    'the request is ignored: it runs sandboxed',
  );
  assert.equal(
    (await decide('docker ps', { excludedCommands: ['docker'] }, 'bypassPermissions')).behavior,
    'allow',
    'bypassPermissions asks nobody',
  );
  const requested = await decide('ls', {}, 'bypassPermissions', [], { dangerouslyDisableSandbox: true });
  assert.deepEqual(
    [requested.behavior, requested.decisionReason?.type],
    ['ask', 'sandbox'],
    'bypassPermissions never lifts the wall the model asked to leave',
  );
  assert.equal(
    (
      await decide('ls', { allowUnsandboxedCommands: false }, 'bypassPermissions', [], {
        dangerouslyDisableSandbox: true,
      })
    ).behavior,
    'allow',
    'ignored request: runs sandboxed',
  );
  const plan = await decide('echo x > f', {}, 'plan');
  assert.equal(plan.behavior, 'deny', 'plan mode still denies what is not read-only');

  // dangerouslyDisableSandbox, when allowed and approved, really runs outside (and says so).
  const outside = path.join(root, 'outside', 'escape.txt');
  const escaped = await bash(`echo out > ${outside}`, {}, cwd, { dangerouslyDisableSandbox: true });
  assert.deepEqual([escaped.sandbox?.sandboxed, existsSync(outside)], [false, true]);
  assert.match(escaped.sandbox?.reason ?? '', /dangerouslyDisableSandbox/);
});

/** Host pids whose command line contains `marker` (the sandbox's pid namespace hides them from `$$`). */
async function pidsWith(marker: string): Promise<number[]> {
  const out: number[] = [];
  for (const name of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cmd = await fs.readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmd.includes(marker) && Number(name) !== process.pid) out.push(Number(name));
  }
  return out;
}

test('unit: an aborted sandboxed command dies with everything it started', async (t) => {
  if (skip) return t.skip(skip);
  if (process.platform !== 'linux') return t.skip('reads /proc');
  const marker = `${Date.now() % 100000}.5`; // a sleep duration no other process uses
  const controller = new AbortController();
  const c = { ...ctx({}), abortSignal: controller.signal };
  const running = BashTool.call({ command: `sleep ${marker} & sleep ${marker}; echo never` }, c, () => undefined);
  const deadline = Date.now() + 10_000;
  while ((await pidsWith(`sleep\0${marker}`)).length < 2 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  assert.equal((await pidsWith(`sleep\0${marker}`)).length, 2, 'both sleeps started inside the sandbox');
  controller.abort();
  const r = await running;
  assert.equal(r.data.interrupted, true);
  assert.equal(r.data.sandbox?.sandboxed, true);
  const gone = Date.now() + 5_000;
  while ((await pidsWith(`sleep\0${marker}`)).length > 0 && Date.now() < gone)
    await new Promise((r2) => setTimeout(r2, 50));
  assert.deepEqual(await pidsWith(`sleep\0${marker}`), [], 'no sandboxed process survives the abort');
});
