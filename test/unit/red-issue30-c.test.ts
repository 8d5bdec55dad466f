// unit (red team, issue 30, the live guard): while a sandboxed command runs, the person's own git in
// the project — an editor polling `git status`, a shell prompt — must run nothing the command wrote
// (src/sandbox/liveGuard.ts, the `commondir` placeholder of src/sandbox/placeholders.ts). Each attack
// arms a configuration during a long command while git runs meanwhile as the person runs it; the
// oracle is a marker file the payload would write, and git's own exit status (the placeholder must
// not break the person's git). Needs bwrap, socat and ripgrep (skipped with the reason elsewhere).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { initialContext } from '../../src/core/context';
import { SandboxHost } from '../../src/sandbox/host';
import { BashTool, type BashOutput } from '../../src/tools/bash';
import type { ToolUseContext } from '../../src/toolProtocol/Tool';
import { hostGit } from '../../src/hostProcess/git';
import { sandboxSkip } from '../support/systemPackages';
import { HOLD, afterGuard, configClean, guardReacted } from '../support/guardHold';

const NOT_REACTED = 'the guard did not undo the plant while the command ran';
const read = (p: string): string | undefined => (existsSync(p) ? readFileSync(p, 'utf8') : undefined);

const sandboxHost = new SandboxHost();
let skip: string | false = false;
const cleanup: string[] = [];
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

before(async () => {
  skip = await sandboxSkip(sandboxHost, 'the red team issue 30 (c) tests');
});
after(async () => {
  await sandboxHost.close();
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

function project(): { base: string; root: string; marks: string } {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-r30c-')));
  cleanup.push(base);
  const root = path.join(base, 'proj');
  const marks = path.join(base, 'marks');
  mkdirSync(root);
  mkdirSync(marks);
  const g = (...a: string[]) =>
    execFileSync('git', ['-c', 'user.email=h@example.com', '-c', 'user.name=h', ...a], { cwd: root, env: GIT_ENV });
  g('init', '-q', '-b', 'main');
  writeFileSync(path.join(root, 'a.txt'), 'hello\n');
  g('add', '.');
  g('commit', '-qm', 'init');
  return { base, root, marks };
}

let n = 0;
async function bash(cwd: string, command: string): Promise<BashOutput> {
  const ctx: ToolUseContext = {
    sessionId: `red30c-${process.pid}`,
    toolUseId: `toolu_r30c_${++n}`,
    idempotencyKey: 'k',
    agent: { ...initialContext(cwd), projectDir: cwd },
    permission: { mode: 'dontAsk', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [cwd], sandbox: {} },
    abortSignal: new AbortController().signal,
    sandboxHost,
  };
  return (await BashTool.call({ command }, ctx, () => undefined)).data as BashOutput;
}

/** The person's git polling `dir` while `call` runs: the exit statuses it got (null: no repository there yet). */
async function pollWhile(call: Promise<unknown>, dirs: () => string[]): Promise<number[]> {
  let done = false;
  void call.finally(() => (done = true));
  const codes: number[] = [];
  while (!done) {
    await new Promise((r) => setTimeout(r, 150));
    for (const d of dirs()) {
      if (!existsSync(d)) continue;
      codes.push(spawnSync('git', ['status', '--porcelain'], { cwd: d, stdio: 'ignore', env: GIT_ENV }).status ?? -1);
    }
  }
  await call;
  return codes;
}

test('live guard: a `.git` FILE written two directories deep, naming a git directory with core.fsmonitor in the session temp dir — once the guard has reacted, the person’s git there runs nothing', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marks } = project();
  const dir = path.join(root, 'a', 'b');
  const call = bash(
    root,
    `set -e; e="$TMPDIR/evil"; git init -q "$e"; git -C "$e" config core.fsmonitor "touch ${marks}/gitfile"; ` +
      `mkdir -p a/b; printf 'gitdir: %s/.git\\n' "$e" > a/b/.git; ${HOLD}`,
  );
  const { result, reacted } = await afterGuard(root, call, () => !existsSync(path.join(dir, '.git')), [dir], GIT_ENV);
  assert.match(result.output, /armed/, result.output);
  assert.equal(existsSync(path.join(dir, '.git')), false);
  assert.deepEqual(readdirSync(marks), []);
  assert.ok(reacted, NOT_REACTED);
});

test('live guard: a nested repository three levels deep whose hook, then fsmonitor, are written after the guard reacted to the first plant — neither runs for the person meanwhile', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marks } = project();
  const dir = path.join(root, 'x', 'y', 'z');
  const hook = path.join(dir, '.git', 'hooks', 'post-checkout');
  // Two phases, each waited on: the command plants the hook and holds; once the guard removed it, the
  // test lets it go on; it then writes core.fsmonitor into the same (already known) repository and holds.
  const call = bash(
    root,
    `git init -q x/y/z && printf '#!/bin/sh\\ntouch ${marks}/hook\\n' > x/y/z/.git/hooks/post-checkout; ` +
      `chmod +x x/y/z/.git/hooks/post-checkout 2>/dev/null; touch phase1; i=0; while [ ! -e next ] && [ $i -lt 1800 ]; do sleep 0.05; i=$((i+1)); done; ` +
      `git -C x/y/z config core.fsmonitor "touch ${marks}/fsm"; ${HOLD}`,
  );
  const first = await guardReacted(
    root,
    call,
    () => existsSync(path.join(root, 'phase1')) && !existsSync(hook),
    'phase1',
  );
  writeFileSync(path.join(root, 'next'), '');
  const { result, reacted } = await afterGuard(
    root,
    call,
    () => configClean(path.join(dir, '.git', 'config')),
    [dir],
    GIT_ENV,
  );
  assert.match(result.output, /armed/, result.output);
  spawnSync('git', ['checkout', '-q', '-b', 'other'], { cwd: dir, env: GIT_ENV });
  assert.deepEqual(readdirSync(marks), []);
  assert.equal(existsSync(hook), false);
  assert.doesNotMatch(readFileSync(path.join(dir, '.git', 'config'), 'utf8'), /fsmonitor/);
  assert.ok(first, 'the guard did not remove the hook while the command ran');
  assert.ok(reacted, NOT_REACTED);
});

test('placeholder: while a command runs, the project’s .git/commondir names the git directory itself; the person’s git and the worker’s git both work meanwhile', async (t) => {
  if (skip) return t.skip(skip);
  const { root } = project();
  // The command says it runs (a file), then holds until the test has looked (a flag): no pause to outlast.
  const call = bash(
    root,
    `printf '../x\\n' > .git/commondir 2>/dev/null || echo denied; touch running; until [ -e go ]; do sleep 0.05; done; sleep 1`,
  );
  for (let i = 0; i < 1200 && !existsSync(path.join(root, 'running')); i++) await new Promise((r) => setTimeout(r, 50));
  const during = existsSync(path.join(root, '.git', 'commondir'))
    ? readFileSync(path.join(root, '.git', 'commondir'), 'utf8')
    : undefined;
  const worker = await hostGit(root, [`--git-dir=${root}/.git`, `--work-tree=${root}`, 'rev-parse', 'HEAD']);
  const first = spawnSync('git', ['status', '--porcelain'], { cwd: root, stdio: 'ignore', env: GIT_ENV }).status ?? -1;
  writeFileSync(path.join(root, 'go'), '');
  const codes = [first, ...(await pollWhile(call, () => [root]))];
  assert.match((await call).output, /denied/);
  assert.equal(during, '.\n');
  assert.match(worker.trim(), /^[0-9a-f]{40}$/, worker);
  assert.ok(codes.length > 0 && codes.every((c) => c === 0), `the person's git failed meanwhile: ${codes}`);
  assert.equal(existsSync(path.join(root, '.git', 'commondir')), false, 'the placeholder is removed after the call');
});

test('an existing nested repository’s absent commondir and config.worktree are held too — while the command holds, the person’s git there runs nothing', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marks } = project();
  execFileSync('git', ['init', '-q', 'vendor/lib'], { cwd: root, env: GIT_ENV });
  execFileSync('git', ['-C', 'vendor/lib', 'config', 'extensions.worktreeConfig', 'true'], { cwd: root, env: GIT_ENV });
  const lib = path.join(root, 'vendor', 'lib');
  const commondir = path.join(lib, '.git', 'commondir');
  const worktreeConfig = path.join(lib, '.git', 'config.worktree');
  const call = bash(
    root,
    `mkdir -p evil && cp -r vendor/lib/.git/objects vendor/lib/.git/refs vendor/lib/.git/HEAD evil/; ` +
      `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "touch ${marks}/nested-commondir"\\n' > evil/config; ` +
      `printf '../../../evil\\n' > vendor/lib/.git/commondir 2>/dev/null; ` +
      `printf '[core]\\n\\tfsmonitor = "touch ${marks}/nested-cw"\\n' > vendor/lib/.git/config.worktree 2>/dev/null; ${HOLD}`,
  );
  // Held (denied while the command runs): the placeholder `.` and an empty config.worktree.
  const held = () => read(commondir) === '.\n' && (read(worktreeConfig) ?? '') === '';
  const { result, reacted } = await afterGuard(root, call, held, [lib], GIT_ENV);
  assert.match(result.output, /armed/, result.output);
  assert.deepEqual(readdirSync(marks), []);
  assert.ok(reacted, 'the absent commondir and config.worktree were not held while the command ran');
});

test('a repository the command makes for its own work still works in the sandbox (init, safe config, commit)', async (t) => {
  if (skip) return t.skip(skip);
  const { root } = project();
  const out = await bash(
    root,
    `set -e; git init -q w; cd w; git config user.name n; git config user.email n@example.com; ` +
      `echo x > f; git add f; git commit -qm one; git config remote.origin.url https://example.com/r.git; git log --oneline | wc -l`,
  );
  assert.equal(out.exitCode, 0, out.output);
  assert.match(out.output, /^1$/m);
  const cfg = readFileSync(path.join(root, 'w', '.git', 'config'), 'utf8');
  assert.match(cfg, /example\.com\/r\.git/);
  assert.match(cfg, /n@example\.com/);
});
