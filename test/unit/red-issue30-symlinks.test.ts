// unit (issue 30, round d's new class): a symlink in the project to a repository (or a settings file)
// built in a directory every sandboxed command may write outside its project — the session's temp
// directory, the sandbox runtime's `/tmp/claude` — used AFTER the call: worker-side git, a hook
// process, the next session started through the link. The door resolves the real path and refuses
// (src/hostProcess/door.ts `scratchHolding`); the session start refuses (src/sessionInput.ts
// `checkoutAtStart`). Oracles: marker files the planted programs would write (a filter, an
// fsmonitor, a post-checkout hook, a SessionStart hook), and a control that shows plain git through
// the same link does run them (the attack is real).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { hostGit, runHostGit } from '../../src/hostProcess/git';
import { runHostProcess, scratchHolding } from '../../src/hostProcess/door';
import { sessionTempDir } from '../../src/sandbox/sessionTemp';
import { checkoutAtStart } from '../../src/sessionInput';
import { runLocalSession } from '../../src/inprocess/runSession';
import { startFakeAnthropic, textResponse } from '../../src/testing/fakeAnthropic';

const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const cleanup: string[] = [];
let base = '';
before(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-r30sym-')));
  cleanup.push(base);
});
after(() => {
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

let n = 0;
/** A project with a link `link` to an armed repository in the session's temp directory (as sandboxed Bash leaves it when the guard's window was won). */
async function planted(): Promise<{ root: string; link: string; evil: string; marks: string }> {
  const id = `r30sym-${process.pid}-${++n}`;
  const tmp = await sessionTempDir(id);
  cleanup.push(tmp);
  const root = path.join(base, `proj${n}`);
  const marks = path.join(base, `marks${n}`);
  mkdirSync(root);
  mkdirSync(marks);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root, env: GIT_ENV });
  const evil = path.join(tmp, 'evil');
  const g = (...a: string[]) =>
    execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...a], { cwd: evil, env: GIT_ENV });
  mkdirSync(evil);
  g('init', '-q', '-b', 'main');
  writeFileSync(path.join(evil, '.gitattributes'), '* filter=x\n');
  writeFileSync(path.join(evil, 'a.txt'), 'a\n');
  g('add', '.');
  g('commit', '-qm', 'x');
  g('config', 'core.fsmonitor', `touch ${marks}/fsmonitor; false`);
  g('config', 'filter.x.smudge', `sh -c 'touch ${marks}/smudge; cat'`);
  g('config', 'filter.x.clean', `sh -c 'touch ${marks}/clean; cat'`);
  writeFileSync(path.join(evil, '.git', 'hooks', 'post-checkout'), `#!/bin/sh\ntouch ${marks}/hook\n`, {
    mode: 0o755,
  });
  mkdirSync(path.join(evil, '.claude'));
  writeFileSync(
    path.join(evil, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `touch ${marks}/session-start` }] }] },
    }),
  );
  const link = path.join(root, 'link');
  symlinkSync(evil, link);
  return { root, link, evil, marks };
}

test('door: the real path of a directory in the session temp dir (through a project symlink) is a scratch directory', async () => {
  const { root, link, evil } = await planted();
  assert.ok(scratchHolding(link), 'the link leads into the sessions’ temp root');
  assert.ok(scratchHolding(evil));
  assert.equal(scratchHolding(root), undefined, 'the project itself is not');
});

test('door: worker-side git through a project symlink to a repository in the session temp dir is refused; no filter, fsmonitor or hook runs', async () => {
  const { link, marks } = await planted();
  await assert.rejects(runHostGit(link, ['status', '--porcelain']), /which every sandboxed command may write/);
  await assert.rejects(
    hostGit('/', [`--git-dir=${path.join(link, '.git')}`, `--work-tree=${link}`, 'checkout', '-q', '-b', 'w']),
    /which every sandboxed command may write/,
  );
  const r = await hostGit(path.dirname(link), [
    `--git-dir=${path.join(link, '.git')}`,
    `--work-tree=${link}`,
    'worktree',
    'add',
    '-q',
    path.join(path.dirname(link), 'wt'),
  ]).catch((e: Error) => e);
  assert.ok(r instanceof Error && /sandboxed command may write/.test(r.message), String(r));
  assert.deepEqual(readdirSync(marks), []);
  // Control: the person's own git through the same link runs what was planted (the attack is real).
  spawnSync('git', ['status', '--porcelain'], { cwd: link, env: GIT_ENV, stdio: 'ignore' });
  spawnSync('git', ['checkout', '-q', '-b', 'other'], { cwd: link, env: GIT_ENV, stdio: 'ignore' });
  assert.ok(readdirSync(marks).includes('fsmonitor'), `control: ${readdirSync(marks).join()}`);
});

test('door: a hook or an MCP server process whose directory is the link runs nothing', async () => {
  const { link, marks } = await planted();
  for (const purpose of ['hook', 'mcp-server'] as const) {
    const r = await runHostProcess({ purpose, command: 'sh', args: ['-c', `touch ${marks}/${purpose}`], cwd: link });
    assert.match(r.spawnError ?? '', /which every sandboxed command may write/, purpose);
  }
  assert.deepEqual(readdirSync(marks), []);
});

test('next session: a session started through the link is refused before anything runs (its settings’ SessionStart hook, its repository)', async () => {
  const { link, marks } = await planted();
  await assert.rejects(
    checkoutAtStart({ cwd: link }),
    /nothing was started: .*which every sandboxed command may write/,
  );
  await assert.rejects(
    checkoutAtStart({ cwd: path.dirname(link), additionalDirectories: [link] }),
    /nothing was started/,
  );
  const fake = await startFakeAnthropic();
  const store = mkdtempSync(path.join(tmpdir(), 'da-r30sym-store-'));
  cleanup.push(store);
  try {
    fake.enqueue(textResponse('done'));
    const started = runLocalSession(
      {
        prompt: 'hello',
        cwd: link,
        tools: ['Bash'],
        permissionMode: 'default',
        sandbox: { enabled: false },
        hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `touch ${marks}/session-start` }] }] },
        model: { model: 'claude-test', maxTokens: 64 },
      },
      { storeDir: store, anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
    );
    await assert.rejects(started, /nothing was started/);
  } finally {
    await fake.close();
  }
  assert.deepEqual(readdirSync(marks), []);
  assert.equal(fake.requests.length, 0, 'no model call');
  assert.equal(existsSync(path.join(marks, 'session-start')), false);
});
