// unit: git worktrees (issue 19, deliverable 4): the reference's name rules, location and branch
// naming (src/worktree/worktrees.ts), the context modifiers that move a session into one and back
// (core/context.ts), and EnterWorktree/ExitWorktree through the one pipeline on a real git
// repository: the cwd every later call sees, what is protected inside a worktree, and what
// removing one refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { applyContextModifiers, initialContext, type AgentContext } from '../../src/core/context';
import { toolResultText } from '../../src/core/apiMessages';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import type { PermissionMode } from '../../src/toolProtocol/permissionTypes';
import { BUILTIN_TOOLS, EnterWorktreeTool, ExitWorktreeTool } from '../../src/tools';
import {
  createOrReuseWorktree,
  randomWorktreeName,
  worktreeBranch,
  worktreeDirName,
  worktreeNameProblem,
} from '../../src/worktree/worktrees';
import { makeEnv, use } from './pipelineFixtures';
import { BashTool, type BashOutput } from '../../src/tools/bash';
import { SandboxHost } from '../../src/sandbox/host';
import type { SandboxSettings } from '../../src/sandbox/settings';
import type { ToolUseContext } from '../../src/toolProtocol/Tool';
import { worktreeSandbox } from '../../src/cli/worktree';
import { isCI } from '../support/systemPackages';

/** Bash's sandbox in these tests (the worker's start-up owns one: src/runtime/callDeps.ts). */
const sandboxHost = new SandboxHost();

const TOOLS = [...BUILTIN_TOOLS, EnterWorktreeTool, ExitWorktreeTool];

function repo(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-wt-')));
  const g = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  g('init', '-q', '-b', 'main');
  g('config', 'user.email', 't@example.com');
  g('config', 'user.name', 't');
  writeFileSync(path.join(dir, 'a.txt'), 'main\n');
  g('add', '.');
  g('commit', '-qm', 'init');
  return dir;
}
const gitOut = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

test('unit: worktree names follow the reference rules', () => {
  for (const ok of ['feat/x-1', 'a.b_c-d', 'x', 'a'.repeat(64), 'v1.2/fix'])
    assert.equal(worktreeNameProblem(ok), undefined, ok);
  const bad: Array<[string, RegExp]> = [
    ['', /empty/],
    ['bad name!', /only letters, digits, dots, underscores, and dashes/],
    ['../esc', /"\." or "\.\." path segments/],
    ['a/./b', /"\." or "\.\." path segments/],
    ['..', /"\." or "\.\." path segments/],
    ['a//b', /non-empty/],
    ['/abs', /non-empty/],
    ['trail/', /non-empty/],
    ['a'.repeat(65), /must be 64 characters or fewer \(got 65\)/],
    ['x;rm -rf', /only letters/],
    ['tab\tname', /only letters/],
    ['é', /only letters/],
  ];
  for (const [name, why] of bad) assert.match(worktreeNameProblem(name) ?? '(valid)', why, JSON.stringify(name));
  assert.equal(worktreeDirName('feat/x-1'), 'feat+x-1');
  assert.equal(worktreeBranch('feat/x-1'), 'worktree-feat+x-1');
  for (let i = 0; i < 20; i++) assert.equal(worktreeNameProblem(randomWorktreeName()), undefined);
  assert.match(
    randomWorktreeName(() => 0),
    /^[a-z]+-[a-z]+ing-[a-z]+$/,
  );
});

test('unit: worktreeEntered moves cwd and the project directory; worktreeExited restores both', () => {
  const start: AgentContext = { ...initialContext('/repo/sub', ['/extra']), projectDir: '/repo' };
  const wt = { path: '/repo/.claude/worktrees/a', branch: 'worktree-a', base: 'abc', created: true, repoRoot: '/repo' };
  const inside = applyContextModifiers(start, [{ type: 'worktreeEntered', worktree: wt }]);
  assert.equal(inside.cwd, wt.path);
  assert.equal(inside.projectDir, wt.path);
  assert.deepEqual(inside.additionalDirectories, ['/extra']);
  assert.equal(inside.worktree?.originalCwd, '/repo/sub');
  // Switching to another worktree keeps what the first entry saved.
  const switched = applyContextModifiers(inside, [
    { type: 'worktreeEntered', worktree: { ...wt, path: '/elsewhere', created: false } },
  ]);
  assert.equal(switched.worktree?.originalCwd, '/repo/sub');
  assert.equal(switched.worktree?.originalProjectDir, '/repo');
  const back = applyContextModifiers(switched, [{ type: 'worktreeExited' }]);
  assert.deepEqual(back, start);
  // Without a project directory before, none after (setCwd's first-cwd anchor is not invented).
  const plain = initialContext('/p');
  assert.deepEqual(
    applyContextModifiers(plain, [{ type: 'worktreeEntered', worktree: wt }, { type: 'worktreeExited' }]),
    plain,
  );
  assert.deepEqual(applyContextModifiers(plain, [{ type: 'worktreeExited' }]), plain);
});

/** Runs one call through the pipeline and folds its modifiers into the context, as a scheduler does. */
async function step(
  ctx: { agent: AgentContext; cwd: string; mode?: PermissionMode },
  name: string,
  input: unknown,
): Promise<{ text: string; isError: boolean; status: string }> {
  const env = makeEnv(ctx.cwd, { tools: TOOLS, mode: ctx.mode ?? 'bypassPermissions' });
  const o = await runToolPipeline(use(name, input), { ...env, agent: ctx.agent });
  ctx.agent = applyContextModifiers(ctx.agent, o.contextModifiers);
  return {
    text: o.result ? toolResultText(o.result) : `(${o.status})`,
    isError: o.result?.is_error === true,
    status: o.status,
  };
}

test('unit: EnterWorktree creates .claude/worktrees/<name> on worktree-<name>; later calls work there; ExitWorktree keep/remove', async () => {
  const root = repo();
  try {
    const s = { agent: initialContext(root), cwd: root };
    const r = await step(s, 'EnterWorktree', { name: 'feat/x-1' });
    const wt = path.join(root, '.claude', 'worktrees', 'feat+x-1');
    assert.equal(r.isError, false, r.text);
    assert.equal(
      r.text,
      `Created worktree at “${wt}” on branch “worktree-feat+x-1”. The session is now working in the worktree. Use ExitWorktree to leave mid-session.`,
    );
    assert.equal(s.agent.cwd, wt);
    assert.equal(gitOut(wt, 'branch', '--show-current'), 'worktree-feat+x-1');
    assert.match(readFileSync(path.join(wt, '.git'), 'utf8'), /^gitdir: .*\/\.git\/worktrees\/feat\+x-1/);
    // A relative Write lands in the worktree, not in the main checkout.
    assert.equal((await step(s, 'Write', { file_path: 'a.txt', content: 'wt\n' })).isError, true, 'needs a read first');
    await step(s, 'Read', { file_path: 'a.txt' });
    assert.equal((await step(s, 'Write', { file_path: 'a.txt', content: 'wt\n' })).isError, false);
    assert.equal(readFileSync(path.join(wt, 'a.txt'), 'utf8'), 'wt\n');
    assert.equal(readFileSync(path.join(root, 'a.txt'), 'utf8'), 'main\n');
    // A second EnterWorktree while in one is refused.
    assert.match((await step(s, 'EnterWorktree', { name: 'other' })).text, /Already in a worktree session/);
    // remove refuses to lose the uncommitted file; discard_changes removes worktree and branch.
    const refused = await step(s, 'ExitWorktree', { action: 'remove' });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /Worktree has 1 uncommitted file\. Removing will discard this work permanently/);
    assert.equal(s.agent.cwd, wt, 'a refused exit stays');
    const removed = await step(s, 'ExitWorktree', { action: 'remove', discard_changes: true });
    assert.equal(
      removed.text,
      `Exited and removed worktree at “${wt}”. Discarded 1 uncommitted file. Session is now back in “${root}”.`,
    );
    assert.equal(s.agent.cwd, root);
    assert.equal(existsSync(wt), false);
    assert.equal(gitOut(root, 'branch', '--list', 'worktree-feat+x-1'), '');
    // Nothing to exit now.
    const noop = await step(s, 'ExitWorktree', { action: 'keep' });
    assert.equal(noop.isError, true);
    assert.match(noop.text, /No-op: there is no active EnterWorktree session/);
    // keep leaves worktree and branch; a commit made in it counts as work a remove would lose.
    await step(s, 'EnterWorktree', { name: 'k' });
    const k = path.join(root, '.claude', 'worktrees', 'k');
    execFileSync('git', ['commit', '-q', '--allow-empty', '-m', 'work'], { cwd: k });
    assert.match((await step(s, 'ExitWorktree', { action: 'remove' })).text, /Worktree has 1 commit\./);
    assert.equal(
      (await step(s, 'ExitWorktree', { action: 'keep' })).text,
      `Exited worktree. Your work is preserved at “${k}” on branch “worktree-k”. Session is now back in “${root}”.`,
    );
    assert.equal(gitOut(k, 'branch', '--show-current'), 'worktree-k');
    // Entering the same name again reuses it (and, not made by this entry, is never removed).
    const again = await step(s, 'EnterWorktree', { name: 'k' });
    assert.match(again.text, /^Entered worktree at/);
    assert.match((await step(s, 'ExitWorktree', { action: 'remove', discard_changes: true })).text, /did not create/);
    assert.equal(existsSync(k), true);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('unit: bad EnterWorktree input is an is_error result and creates nothing', async () => {
  const root = repo();
  try {
    const s = { agent: initialContext(root), cwd: root };
    for (const [input, why] of [
      [{ name: 'bad name!' }, /only letters, digits/],
      [{ name: '../../escape' }, /\\"\.\\" or \\"\.\.\\" path segments/], // zod's issues as JSON, as the reference
      [{ name: 'a', path: '/tmp' }, /at most one of `name` or `path`/],
      [{ name: 'a', extra: 1 }, /extra|Unrecognized/i],
      [{ path: '/tmp' }, /outside the session's repository/],
      [{ path: root }, /is the main checkout/],
      [{ path: path.join(root, 'nowhere') }, /not a registered worktree/],
    ] as const) {
      const r = await step(s, 'EnterWorktree', input);
      assert.equal(r.isError, true, JSON.stringify(input));
      assert.match(r.text, why);
      assert.equal(s.agent.cwd, root);
    }
    assert.equal(existsSync(path.join(root, '.claude')), false);
    assert.equal(existsSync(path.join(root, '..', 'escape')), false);
    // Outside a repository.
    const plain = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-wt-plain-')));
    try {
      const p = { agent: initialContext(plain), cwd: plain };
      assert.match((await step(p, 'EnterWorktree', { name: 'x' })).text, /not in a git repository/);
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('unit: inside a worktree its .git pointer and the main repository .git stay protected from the file tools', async () => {
  const root = repo();
  try {
    const s = { agent: initialContext(root), cwd: root, mode: 'acceptEdits' as PermissionMode };
    await step({ ...s, mode: 'bypassPermissions' }, 'EnterWorktree', { name: 'p' }).then(() => undefined);
    s.agent = applyContextModifiers(initialContext(root), [
      {
        type: 'worktreeEntered',
        worktree: { path: path.join(root, '.claude', 'worktrees', 'p'), created: true, repoRoot: root },
      },
    ]);
    const wt = s.agent.cwd;
    const pointer = readFileSync(path.join(wt, '.git'), 'utf8');
    // acceptEdits allows ordinary edits in the worktree…
    assert.equal((await step(s, 'Write', { file_path: 'new.txt', content: 'x' })).isError, false);
    // …but a write to the .git pointer, the main repository's config or hooks, or through
    // .claude/worktrees into another control file asks (and nobody answers in dontAsk).
    for (const target of [
      path.join(wt, '.git'),
      path.join(root, '.git', 'config'),
      path.join(root, '.git', 'hooks', 'pre-commit'),
      path.join(root, '.git', 'worktrees', 'p', 'commondir'),
      path.join(wt, '.claude', 'settings.json'),
      path.join(root, '.claude', 'settings.json'),
    ]) {
      const r = await step({ ...s, mode: 'dontAsk' }, 'Write', { file_path: target, content: 'gitdir: /tmp/evil\n' });
      assert.equal(r.isError, true, target);
      const asked = await step(s, 'Write', { file_path: target, content: 'x' });
      assert.equal(asked.status, 'ask', `${target}: ${asked.text}`);
    }
    assert.equal(readFileSync(path.join(wt, '.git'), 'utf8'), pointer);
    assert.equal(existsSync(path.join(root, '.git', 'hooks', 'pre-commit')), false);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('unit: ExitWorktree remove never follows a symlink planted in place of the worktree', async () => {
  const root = repo();
  const victim = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-wt-victim-')));
  try {
    writeFileSync(path.join(victim, 'keep.txt'), 'precious');
    const s = { agent: initialContext(root), cwd: root };
    await step(s, 'EnterWorktree', { name: 'v' });
    const wt = s.agent.cwd;
    execFileSync('git', ['worktree', 'remove', '--force', wt], { cwd: root });
    symlinkSync(victim, wt);
    const r = await step(s, 'ExitWorktree', { action: 'remove', discard_changes: true });
    assert.equal(r.isError, true);
    assert.match(r.text, /no longer a worktree/);
    assert.equal(readFileSync(path.join(victim, 'keep.txt'), 'utf8'), 'precious');
    // A symlink higher up (.claude/worktrees → elsewhere, the worktree moved along) is refused too.
    rmSync(wt);
    const moved = path.join(victim, 'moved');
    execFileSync('git', ['worktree', 'add', '-q', moved, 'worktree-v'], { cwd: root });
    rmSync(path.join(root, '.claude', 'worktrees'), { recursive: true });
    symlinkSync(victim, path.join(root, '.claude', 'worktrees'));
    execFileSync('git', ['worktree', 'move', moved, path.join(victim, 'v')], { cwd: root });
    const up = await step(s, 'ExitWorktree', { action: 'remove', discard_changes: true });
    assert.equal(up.isError, true, up.text);
    assert.equal(existsSync(path.join(victim, 'v', 'a.txt')), true);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(victim, { recursive: true, force: true });
  }
});

test('unit: EnterWorktree path outside the working directories asks; outside the repository is refused; run --worktree reuse keeps the branch', async () => {
  const root = repo();
  const outside = path.join(path.dirname(root), `${path.basename(root)}-side`);
  try {
    execFileSync('git', ['worktree', 'add', '-q', '-b', 'side', outside], { cwd: root });
    const inRepo = path.join(root, '.claude', 'worktrees', 'mine');
    execFileSync('git', ['worktree', 'add', '-q', '-b', 'mine', inRepo], { cwd: root });
    const sub = path.join(root, 'sub');
    execFileSync('mkdir', [sub]);
    // A worktree outside the repository (issue 30): refused in every mode, before anyone is asked.
    for (const mode of ['default', 'dontAsk', 'bypassPermissions'] as const) {
      const s = { agent: initialContext(root), cwd: root, mode };
      const r = await step(s, 'EnterWorktree', { path: outside });
      assert.equal(r.isError, true, `${mode}: ${r.text}`);
      assert.match(r.text, /outside the session's repository/);
      assert.equal(s.agent.cwd, root);
    }
    // One under the repository but outside the session's working directory (it started in sub/): a person decides.
    const s = { agent: initialContext(sub), cwd: sub, mode: 'default' as PermissionMode };
    assert.equal((await step(s, 'EnterWorktree', { path: inRepo })).status, 'ask');
    assert.equal((await step({ ...s, mode: 'dontAsk' }, 'EnterWorktree', { path: inRepo })).isError, true);
    assert.equal(s.agent.cwd, sub);
    const entered = await step({ ...s, mode: 'bypassPermissions' }, 'EnterWorktree', { path: inRepo });
    assert.equal(entered.text.startsWith(`Entered worktree at “${inRepo}” on branch “mine”.`), true, entered.text);
    // createOrReuseWorktree (run --worktree): the second time the same worktree comes back.
    const a = await createOrReuseWorktree(root, 'job');
    const b = await createOrReuseWorktree(path.join(root, '.claude', 'worktrees', 'job'), 'job');
    assert.equal(a.created, true);
    assert.equal(b.created, false);
    assert.equal(b.path, a.path);
    assert.equal(b.branch, 'worktree-job');
    await assert.rejects(createOrReuseWorktree(root, 'bad name'), /Invalid worktree name/);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  }
});

test('unit: sandboxed Bash in a worktree (run --worktree and EnterWorktree) commits on its branch and cannot write the main checkout, git config, hooks or pointers', async (t) => {
  const available = await sandboxHost.availability();
  if (!available.available) {
    if (isCI()) throw new Error(`the sandbox must be available in CI: ${available.reason}`);
    return t.skip(`sandbox unavailable: ${available.reason}`);
  }
  const root = repo();
  try {
    const wt = await createOrReuseWorktree(root, 'sbx');
    const modes: Array<[string, ToolUseContext]> = [
      // run --worktree: the worktree is the session's only working directory; the CLI adds git's access.
      ['run --worktree', sandboxCtx(wt.path, [wt.path], worktreeSandbox({}, wt))],
      // EnterWorktree from the main checkout: the checkout stays a working directory of the session.
      ['EnterWorktree', sandboxCtx(wt.path, [root], {}, { ...wt, originalCwd: root, created: true })],
    ];
    for (const [mode, ctx] of modes) {
      const bash = async (command: string) =>
        (await BashTool.call({ command }, ctx, () => undefined)).data as BashOutput;
      const file = `f-${mode.replace(/\W/g, '')}.txt`;
      const commit = await bash(
        `echo x > ${file} && git add ${file} && git commit -qm ${file} && git branch --show-current`,
      );
      assert.equal(commit.exitCode, 0, `${mode}: ${commit.output}`);
      assert.match(commit.output, /worktree-sbx/);
      assert.equal(gitOut(root, 'log', '-1', '--format=%s', 'worktree-sbx'), file, mode);
      const pointer = readFileSync(path.join(wt.path, '.git'), 'utf8');
      const config = readFileSync(path.join(root, '.git', 'config'), 'utf8');
      const commondir = readFileSync(path.join(wt.gitDir, 'commondir'), 'utf8');
      await bash(
        [
          `echo 'gitdir: /tmp/evil' > .git`,
          `git config core.fsmonitor 'touch /tmp/pwned'`,
          `printf '[core]\\n\\tpager = evil\\n' >> ${root}/.git/config`,
          `mkdir -p ${root}/.git/hooks; echo evil > ${root}/.git/hooks/post-checkout`,
          `echo /tmp/evil > ${wt.gitDir}/commondir`,
          `echo evil > ${wt.gitDir}/config.worktree`,
          `echo main-touched > ${root}/a.txt`,
          `echo new > ${root}/planted.txt`,
        ].join('; '),
      );
      assert.equal(readFileSync(path.join(wt.path, '.git'), 'utf8'), pointer, `${mode}: .git pointer`);
      assert.equal(readFileSync(path.join(root, '.git', 'config'), 'utf8'), config, `${mode}: main config`);
      assert.equal(readFileSync(path.join(wt.gitDir, 'commondir'), 'utf8'), commondir, `${mode}: commondir`);
      assert.equal(existsSync(path.join(root, '.git', 'hooks', 'post-checkout')), false, `${mode}: hook`);
      const perWorktree = path.join(wt.gitDir, 'config.worktree');
      assert.equal(existsSync(perWorktree) ? readFileSync(perWorktree, 'utf8') : '', '', `${mode}: config.worktree`);
      assert.equal(readFileSync(path.join(root, 'a.txt'), 'utf8'), 'main\n', `${mode}: main checkout`);
      assert.equal(existsSync(path.join(root, 'planted.txt')), false, `${mode}: main checkout`);
    }
  } finally {
    await sandboxHost.close();
    rmSync(root, { recursive: true, force: true });
  }
});

function sandboxCtx(
  cwd: string,
  workingDirectories: string[],
  sandbox: SandboxSettings,
  worktree?: AgentContext['worktree'],
): ToolUseContext {
  return {
    sessionId: 'wt-session',
    toolUseId: 'toolu_wt',
    idempotencyKey: 'k',
    agent: { cwd, projectDir: cwd, additionalDirectories: [], readFiles: {}, ...(worktree ? { worktree } : {}) },
    permission: {
      mode: 'bypassPermissions',
      rules: { allow: [], ask: [], deny: [] },
      workingDirectories,
      sandbox,
    },
    abortSignal: new AbortController().signal,
    sandboxHost,
  };
}
