// unit (issue 30, red team q's Q7, Q8 and Q11, fixed on branch refsq): the ref screens' undo goes through
// pinned directories, the reflog screen applies P1's hooks test, and a linked worktree's import refuses
// a commit that changes the repository's hooks directory. The rows are red team q's
// (test/unit/red-issue30-q.test.ts), copied with the harness they need and run by default. Real OS
// sandbox, real git, no allow rule in any row; oracles: what the person's own git ran, or what was
// removed in the person's directory.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { refSnapshots, undoCarriedRefs } from '../../src/sandbox/movedRefs';
import { BashTool } from '../../src/tools/bash';
import type { ToolUseContext } from '../../src/toolProtocol/Tool';
import { createOrReuseWorktree } from '../../src/worktree/worktrees';
import { prepareWorktreeGit } from '../../src/worktree/git';
import { redTeamUnit } from '../support/redTeamUnit';
import { plantCommit } from '../support/plantCommit';

const red = redTeamUnit({ round: 'Q', tag: 'r30qrefs', label: 'q, refs', projectPrefix: 'q' });
const { base, marks, GIT_ENV, read, git, project, exe, personGit, tool } = red;
let skip: string | false = false;
before(async () => (skip = await red.setUp()));

// ---------------------------------------------------------------------------------------------------
// Q7: P1 again, from a linked worktree (an isolated agent, EnterWorktree, `run --worktree`). The
// worker brings a worktree's new commits into the repository unless they change a protected path
// (worktree/git/refs.ts protectedChanges → isProtectedRepositoryPath: protected NAMES only). The
// repository's hooks directory `core.hooksPath = .githooks` is protected by the repository's
// config (repoConfigTargets.ts), not by name: a commit on the worktree's own branch that adds
// `.githooks/post-merge` comes in, and the person's `git merge` of the agent's branch — what one does
// with an isolated agent's work — runs it.

const PLANT_ON_HEAD = (file: string, body: string) => plantCommit(file, body, 'HEAD', 'git log --oneline -1');

test('Q7 (an isolated agent’s worktree): a commit adding .githooks/post-merge on the worktree’s own branch — the person’s git merge of that branch runs nothing of the agent’s', async (t) => {
  if (skip) return t.skip(skip);
  const repo = project((r) => exe(path.join(r, '.githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n'));
  git(repo, 'config', 'core.hooksPath', '.githooks');
  const wt = await createOrReuseWorktree(repo, 'agent-q7', { agentInvoked: true });
  await prepareWorktreeGit(wt, wt.branch);
  const mark = path.join(marks, 'q7');
  const c: ToolUseContext = {
    sessionId: `q7-${process.pid}`,
    toolUseId: 'toolu_q7',
    idempotencyKey: `q7-${process.pid}/toolu_q7`,
    agent: {
      cwd: wt.path,
      additionalDirectories: [],
      readFiles: {},
      projectDir: wt.path,
      worktree: { ...wt, created: true, originalCwd: wt.repoRoot },
    },
    permission: { mode: 'dontAsk', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [wt.path] },
    abortSignal: new AbortController().signal,
    sandboxHost: red.host(),
  } as unknown as ToolUseContext;
  const out = (
    await BashTool.call(
      { command: PLANT_ON_HEAD('.githooks/post-merge', `#!/bin/sh\nenv > ${mark}\n`) },
      c,
      () => undefined,
    )
  ).data;
  t.diagnostic(`${out.exitCode}: ${out.output.slice(0, 300)} ${out.worktreeGitNote ?? ''}`);
  personGit(repo, 'merge', '-q', '--ff-only', wt.branch);
  assert.deepEqual({ hookRan: existsSync(mark) }, { hookRan: false }, read(mark).slice(0, 300));
});

// W9 (red team w) from the same worktree: the commit changes no hook path but package.json's `scripts.lint`,
// which the person's hook runs with `npm run -s lint` (manifestCommits.ts judges the commits brought in).
test('W9 (an isolated agent’s worktree): a commit changing the scripts.lint the person’s hook runs — their merge of the branch and next commit run nothing of the agent’s', async (t) => {
  if (skip) return t.skip(skip);
  const repo = project((r) => {
    exe(path.join(r, '.githooks', 'pre-commit'), '#!/bin/sh\nnpm run -s lint\n');
    writeFileSync(path.join(r, 'package.json'), `${JSON.stringify({ name: 'p', scripts: { lint: 'true' } })}\n`);
  });
  git(repo, 'config', 'core.hooksPath', '.githooks');
  const wt = await createOrReuseWorktree(repo, 'agent-w9', { agentInvoked: true });
  await prepareWorktreeGit(wt, wt.branch);
  const mark = path.join(marks, 'w9');
  const c = {
    sessionId: `w9-${process.pid}`,
    toolUseId: 'toolu_w9',
    idempotencyKey: `w9-${process.pid}/toolu_w9`,
    agent: {
      cwd: wt.path,
      additionalDirectories: [],
      readFiles: {},
      projectDir: wt.path,
      worktree: { ...wt, created: true, originalCwd: wt.repoRoot },
    },
    permission: { mode: 'dontAsk', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [wt.path] },
    abortSignal: new AbortController().signal,
    sandboxHost: red.host(),
  } as unknown as ToolUseContext;
  const body = `{"name":"p","scripts":{"lint":"env > ${mark}"}}`;
  const out = (await BashTool.call({ command: PLANT_ON_HEAD('package.json', body) }, c, () => undefined)).data;
  t.diagnostic(`${out.exitCode}: ${out.output.slice(0, 300)} ${out.worktreeGitNote ?? ''}`);
  personGit(repo, 'merge', '-q', '--ff-only', wt.branch);
  writeFileSync(path.join(repo, 'src', 'app', 'b.txt'), 'b\n');
  personGit(repo, 'add', 'src');
  personGit(repo, 'commit', '-qm', 'person work');
  assert.deepEqual({ ran: existsSync(mark) }, { ran: false }, read(mark).slice(0, 300));
});

// ---------------------------------------------------------------------------------------------------
// Q8: P1 through the reflog. movedLogs.ts (N3d) screens the reflog lines a command adds, but only for
// a commit carrying a git directory (movedRefs.ts undoCarriedLogs → carriesGitDirectory), not for
// P1's hooks (carriesHooks). A command writes a commit adding `.githooks/post-checkout` (no ref
// names it) and a line `checkout: moving from <that commit> to main` in `.git/logs/HEAD`: the
// person's `git checkout -` ("back to where I was") checks it out and git runs the hook.

/** Q8's plant: P1's commit named by a reflog line of `logs/HEAD`; `before` runs first (S7: `logs` made a link). */
const reflogPlant = (mark: string, before = 'true') =>
  [
    'set -e',
    'export GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@x GIT_COMMITTER_NAME=a GIT_COMMITTER_EMAIL=a@x',
    'export GIT_INDEX_FILE="${TMPDIR:-/tmp}/q8-idx-$$"',
    `b=$(printf '%s' '#!/bin/sh\nenv > ${mark}\n' | git hash-object -w --stdin)`,
    'git read-tree HEAD',
    'git update-index --add --cacheinfo "100755,$b,.githooks/post-checkout"',
    'c=$(git commit-tree "$(git write-tree)" -p HEAD -m wip)',
    'h=$(git rev-parse HEAD)',
    before,
    'printf "%s %s a <a@x> %s +0000\\tcheckout: moving from %s to main\\n" $h $h $(date +%s) $c >> .git/logs/HEAD',
    'tail -n1 .git/logs/HEAD',
  ].join('\n');

for (const [name, before] of [
  ['Q8 (dontAsk)', 'true'],
  // Red team s, S7 (gitq): behind a `.git/logs` made a link the anchored undo could not take the line out (failed on main 4e4631d).
  ['S7 (dontAsk, .git/logs made a symlink)', 'mv .git/logs .git/reflogs && ln -s reflogs .git/logs'],
] as const)
  test(`${name}: a reflog line naming a commit that adds .githooks/post-checkout — the person’s git checkout - runs nothing of the agent’s`, async (t) => {
    if (skip) return t.skip(skip);
    const root = project((r) => exe(path.join(r, '.githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n'));
    git(root, 'config', 'core.hooksPath', '.githooks');
    const mark = path.join(marks, name.slice(0, 2).toLowerCase());
    const out = await tool(root, 'dontAsk', 'Bash', { command: reflogPlant(mark, before) });
    t.diagnostic(`${out.status}: ${out.text.slice(0, 400)}`);
    personGit(root, 'checkout', '-q', '-');
    assert.deepEqual({ hookRan: existsSync(mark) }, { hookRan: false }, read(mark).slice(0, 300));
  });

// ---------------------------------------------------------------------------------------------------
// Q11: P5 again, in the ref screen's undo (movedRefs.ts, not moved to anchored.ts): a ref put back or
// removed is handled by path from the git directory — `realParents` (an lstat of each directory on
// the way), then `writeBack`: `fs.rmSync(<gitDir>/refs/heads/<name>, {recursive: true})`. A command
// (a background task beside the call that made the ref) exchanges `.git/refs/heads` with a symlink
// to the person's HOME; a new branch named like an entry of HOME (`notes.txt`; `Documents`,
// `projects`, `bin` are removed recursively) that the screen removes (P1: it carries a hook) makes
// the worker remove the person's entry of that name.
// This row drives the function the after-call check calls, in the worker's process, against such a
// command (a child process here).

test('Q11 (the ref screen’s undo, raced): a command exchanging .git/refs/heads with a symlink to HOME never makes the worker remove an entry of HOME', async (t) => {
  if (skip) return t.skip(skip);
  const root = project((r) => exe(path.join(r, '.githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n'));
  git(root, 'config', 'core.hooksPath', '.githooks');
  const idx = path.join(base, 'q11-index');
  const genv = { ...GIT_ENV, GIT_INDEX_FILE: idx };
  const g = (...a: string[]) => execFileSync('git', a, { cwd: root, env: genv }).toString().trim();
  const hook = path.join(base, 'q11-hook');
  writeFileSync(hook, '#!/bin/sh\nexit 0\n');
  const blob = g('hash-object', '-w', hook);
  g('read-tree', 'HEAD');
  g('update-index', '--add', '--cacheinfo', `100755,${blob},.githooks/post-checkout`);
  const commit = execFileSync(
    'git',
    ['-c', 'user.name=a', '-c', 'user.email=a@x', 'commit-tree', g('write-tree'), '-p', 'HEAD', '-m', 'x'],
    { cwd: root, env: genv },
  )
    .toString()
    .trim();
  const person = path.join(base, 'q11-person');
  const name = 'notes.txt';
  const victim = path.join(person, name);
  const plant = () => {
    mkdirSync(person, { recursive: true });
    writeFileSync(victim, 'mine\n');
  };
  plant();
  const before = refSnapshots([root]);
  const refs = path.join(root, '.git', 'refs');
  const flipper = [
    'import ctypes, os, time',
    'libc = ctypes.CDLL(None, use_errno=True)',
    `os.chdir(${JSON.stringify(path.dirname(refs))})`,
    'L, D, E = os.path.islink, os.path.isdir, os.path.lexists',
    'end = time.time() + 8',
    'k = 0',
    'while time.time() < end:',
    '    try:',
    "        if L('refs/heads'):",
    "            os.rename('refs/heads', 'hl') if not E('hl') else os.unlink('refs/heads')",
    "        if not E('refs/heads'):",
    "            os.rename('hl', 'refs/heads') if D('hl') and not L('hl') else os.mkdir('refs/heads')",
    "        if E('hl') and not L('hl'):",
    "            k += 1; os.rename('hl', 'trash%d' % k)",
    "        E('hl') or os.symlink(" + JSON.stringify(person) + ", 'hl')",
    "        h = os.open('refs/heads', os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)",
    `        fd = os.open('${name}', os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644, dir_fd=h); os.write(fd, b'${commit}\\n'); os.close(fd); os.close(h)`,
    '    except OSError:',
    '        continue',
    '    for _ in range(2000):',
    "        libc.renameat2(-100, b'refs/heads', -100, b'hl', 2)",
  ].join('\n');
  const child = spawn('/usr/bin/python3', ['-c', flipper], { stdio: 'ignore' });
  let removed = 0;
  let tries = 0;
  const t0 = Date.now();
  await new Promise((r) => setTimeout(r, 300));
  while (Date.now() - t0 < 7000 && removed === 0) {
    try {
      undoCarriedRefs(before);
    } catch {
      // an undo that failed midway is not a removal outside
    }
    tries++;
    if (!existsSync(victim)) {
      removed++;
      plant();
    }
    if (tries % 10 === 0) await new Promise((r) => setImmediate(r));
  }
  child.kill();
  t.diagnostic(`${tries} undos`);
  assert.deepEqual({ removedInHome: removed }, { removedInHome: 0 });
});
