// unit: which repository worker-side git runs in, and which worktree a session may enter (issue 30,
// classes 1 and 2; DESIGN invariants 13 and 15; docs/security.md "Worktrees"). Real git, real
// files, Bash in the real OS sandbox, every call through runToolPipeline, in every permission mode
// (two rows sample them: ATTACKS_WT_ALL_MODES=1 for all), with bait secrets in the worker's
// environment. The session's repository is the one recorded at its start (the sandbox settings'
// `repository`, as src/sessionInput.ts records it):
// - class 1: sandboxed Bash builds a nested repository whose filters and hooks would run as the
//   worker (in node_modules, deeper than the protection scan, in the session's task-output
//   directory, under a temp directory holding a `.git`), cds there, then EnterWorktree and an
//   isolated agent's worktree — the filter never runs and no secret reaches a file of the project;
// - class 2: a forged `.git/worktrees/<x>/gitdir` (written by sandboxed Bash: denied; planted before
//   the session or during it: refused) — EnterWorktree never moves the session outside the project;
// - the session's own worktrees still work (made, left, entered again, removed; an isolated agent's).
// Each oracle is the file system (markers, the project's bytes, git's registrations) or the
// session's context after its modifiers, never a tool's words.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { applyContextModifiers, initialContext, sessionRootOf, type AgentContext } from '../../src/core/context';
import { toolResultText } from '../../src/core/apiMessages';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import { createToolPool } from '../../src/permissions/toolPool';
import { SandboxHost, sessionTasksPath, sessionTempPath } from '../../src/sandbox/host';
import type { SandboxSettings } from '../../src/sandbox/settings';
import { BUILTIN_TOOLS, EnterWorktreeTool, ExitWorktreeTool } from '../../src/tools';
import type { PermissionMode, ToolPermissionContext } from '../../src/toolProtocol/permissionTypes';
import { projectRepositoryOf } from '../../src/worktree/repository';
import { prepareAgentWorktree, settleAgentWorktree } from '../../src/runtime/agentWorktree';
import { sessionInput } from '../../src/sessionInput';
import { sandboxSkip } from '../support/systemPackages';
import { makeTmpDir, removeDir } from './tools-harness';

const sandboxHost = new SandboxHost();
let skip: string | false = false;
const dirs: string[] = [];
const TOOLS = [...BUILTIN_TOOLS, EnterWorktreeTool, ExitWorktreeTool];
const MODES: PermissionMode[] = ['default', 'acceptEdits', 'dontAsk', 'bypassPermissions', 'plan'];
/**
 * The nested-repository and forged-gitdir rows (several sandboxed commands each, 6-8 s a mode) run in
 * every mode with ATTACKS_WT_ALL_MODES=1; by default (issue 32: the suite's CPU) each in plan and two
 * of the four modes whose Bash runs, the two complementary, so every mode runs one of them: the
 * sandbox decides alike in the four (as test/support/controlAttacks.ts samples its rows' modes).
 */
const modesOf = (sample: PermissionMode[]): PermissionMode[] =>
  process.env.ATTACKS_WT_ALL_MODES === '1' ? MODES : sample;
const BAIT: Record<string, string> = {
  ANTHROPIC_API_KEY: 'sk-ant-api03-BAIT-wtrepo-7f3a9c',
  DATABASE_URL: 'postgres://admin:BAIT-wtrepo-pw@db.internal:5432/prod',
  CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-BAIT-wtrepo-e81d',
};
const saved: Record<string, string | undefined> = {};

before(async () => {
  skip = await sandboxSkip(sandboxHost, 'the worktree repository attack tests');
  for (const [k, v] of Object.entries(BAIT)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
});

after(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await sandboxHost.close();
  for (const d of dirs) await removeDir(d);
});

const ID = ['-c', 'user.email=h@example.com', '-c', 'user.name=h'];
const gitIn = (cwd: string, ...a: string[]) => execFileSync('git', [...ID, ...a], { cwd, encoding: 'utf8' }).trim();

async function project(): Promise<{ base: string; proj: string; victim: string }> {
  const base = await makeTmpDir('da-atk-wtrepo-');
  dirs.push(base);
  const proj = path.join(base, 'proj');
  const victim = path.join(base, 'victim');
  mkdirSync(proj);
  mkdirSync(victim);
  writeFileSync(path.join(victim, 'keep.txt'), 'the victim\n');
  gitIn(proj, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(proj, 'a.txt'), 'hello\n');
  gitIn(proj, 'add', 'a.txt');
  gitIn(proj, 'commit', '-qm', 'init');
  return { base, proj, victim };
}

let n = 0;

/** A session as the worker runs its calls: its context moves with each call's modifiers. */
class Session {
  readonly id = `atk-wtrepo-${process.pid}-${++n}`;
  agent: AgentContext;
  readonly permission: ToolPermissionContext;
  constructor(
    cwd: string,
    readonly mode: PermissionMode,
    opts: { allow?: string[]; pin?: boolean } = {},
  ) {
    this.agent = initialContext(cwd);
    // As src/sessionInput.ts records it at the start (absent: a session started before it was recorded).
    const sandbox: SandboxSettings = opts.pin === false ? {} : { repository: projectRepositoryOf(cwd) ?? false };
    this.permission = {
      mode,
      rules: { allow: opts.allow ?? [], ask: [], deny: [] },
      // The session's task-output directory is a working directory (toolCall/toolSession.ts withTaskDirectory).
      workingDirectories: [cwd, sessionTasksPath(this.id)],
      sandbox,
    };
  }
  async run(name: string, input: Record<string, unknown>): Promise<{ text: string; status: string }> {
    const o = await runToolPipeline(
      { type: 'tool_use', id: `toolu_${++n}`, name, input },
      {
        pool: createToolPool(TOOLS, this.permission),
        sessionId: this.id,
        agent: this.agent,
        permission: this.permission,
        sandboxHost,
      },
    );
    this.agent = applyContextModifiers(this.agent, o.contextModifiers);
    return { text: o.result ? toolResultText(o.result) : `(${o.status})`, status: o.status };
  }
}

/** Every file under `dir` (symlinks not followed), with its bytes. */
function filesUnder(dir: string, out: Array<[string, Buffer]> = []): Array<[string, Buffer]> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) filesUnder(p, out);
    else if (e.isFile()) out.push([p, readFileSync(p)]);
  }
  return out;
}

function noSecretIn(dir: string, why: string): void {
  for (const [p, bytes] of filesUnder(dir))
    for (const v of Object.values(BAIT)) assert.equal(bytes.includes(v), false, `${why}: ${v} in ${p}`);
}

/**
 * The nested repository's shell script: files and `.gitattributes` committed first (no filter yet:
 * nothing runs in the sandbox), then the filters and a post-checkout hook that would dump the
 * environment and leave a marker in the project — if they ever ran as the worker.
 */
function nestedRepoScript(dir: string, proj: string, tag: string): string {
  const mark = path.join(proj, `MARKER-${tag}`);
  const leak = path.join(proj, `leak-${tag}.txt`);
  const payload = `env > '${leak}'; touch '${mark}'`;
  return [
    `mkdir -p '${dir}' && cd '${dir}' && git init -q . `,
    `printf '* filter=x\\n*.y filter=y\\n*.d diff=d merge=d\\n' > .gitattributes`,
    `echo payload > f.txt && echo p > g.y && echo d > h.d`,
    `git add -A && git -c user.email=a@example.com -c user.name=a commit -qm x`,
    `git config filter.x.smudge "sh -c \\"${payload}; cat\\""`,
    `git config filter.x.clean "sh -c \\"${payload}; cat\\""`,
    `git config filter.x.required true`,
    `git config filter.y.process "sh -c \\"${payload}\\""`,
    `git config diff.d.textconv "sh -c \\"${payload}\\""`,
    `git config merge.d.driver "sh -c \\"${payload}\\""`,
    `git config core.fsmonitor "sh -c \\"${payload}\\""`,
    `mkdir -p .git/hooks && printf '#!/bin/sh\\n${payload}\\n' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout`,
    `cp .git/hooks/post-checkout .git/hooks/reference-transaction`,
    `echo built`,
  ].join(' && ');
}

type Place = 'node_modules' | 'deep' | 'task-output' | 'temp-root';

/** Where the nested repository goes, and the directory the agent cds to. */
function placeOf(place: Place, proj: string, s: Session): { repo: string; cd: string } {
  switch (place) {
    case 'node_modules':
      return { repo: path.join(proj, 'node_modules', 'pkg'), cd: path.join(proj, 'node_modules', 'pkg') };
    case 'deep': {
      const d = path.join(proj, 'a', 'b', 'c', 'd', 'e', 'f', 'g');
      return { repo: d, cd: d };
    }
    case 'task-output': {
      const d = path.join(sessionTasksPath(s.id), 'r');
      return { repo: d, cd: d };
    }
    case 'temp-root':
      // A `.git` in the session's temp directory; the agent works below it, in its task-output directory.
      return { repo: sessionTempPath(s.id), cd: path.join(sessionTasksPath(s.id), 'sub') };
  }
}

for (const mode of modesOf(['acceptEdits', 'bypassPermissions', 'plan'])) {
  test(`attack (${mode}): a nested repository with filters and hooks, the agent cds into it, then EnterWorktree and an isolated agent — the worker's git never runs there`, async (t) => {
    if (skip) return t.skip(skip);
    for (const place of ['node_modules', 'deep', 'task-output', 'temp-root'] as const) {
      const { proj } = await project();
      const s = new Session(proj, mode, { allow: ['EnterWorktree'] });
      const tag = `${mode}-${place}`;
      const where = placeOf(place, proj, s);
      const script = `${nestedRepoScript(where.repo, proj, tag)} && mkdir -p '${where.cd}'`;
      const built = await s.run('Bash', { command: script });
      if (!existsSync(path.join(where.repo, '.git', 'hooks', 'post-checkout'))) {
        // Bash did not run (plan mode, or an ask nobody answers), or the check after the call undid
        // what it armed (a working directory's nested repository): a previous session, or a
        // background command still running, left it armed.
        execFileSync('sh', ['-c', `rm -rf '${path.join(where.repo, '.git')}' && ${script}`]);
      }
      assert.ok(existsSync(path.join(where.repo, '.git', 'hooks', 'post-checkout')), `${tag}: ${built.text}`);
      // The agent's cwd is now the nested repository (a `cd` the session followed).
      s.agent = applyContextModifiers(s.agent, [{ type: 'setCwd', cwd: where.cd }]);
      const nestedHead = gitIn(where.repo, 'rev-parse', 'HEAD');

      const entered = await s.run('EnterWorktree', { name: `w-${place}` });
      const isolated = await prepareAgentWorktree({
        cwd: where.cd,
        name: `agent-${place}`,
        projectDir: sessionRootOf(s.agent),
        repository: s.permission.sandbox!.repository!,
      });

      const why = `${tag} (EnterWorktree: ${entered.text}; agent: ${JSON.stringify(isolated)})`;
      assert.equal(existsSync(path.join(proj, `MARKER-${tag}`)), false, `a filter or hook ran as the worker: ${why}`);
      assert.equal(existsSync(path.join(proj, `leak-${tag}.txt`)), false, why);
      noSecretIn(proj, why);
      // The nested repository got no worktree, no branch, no moved HEAD.
      assert.equal(existsSync(path.join(where.repo, '.git', 'worktrees', `w-${place}`)), false, why);
      assert.equal(existsSync(path.join(where.repo, '.claude')), false, why);
      assert.equal(gitIn(where.repo, 'rev-parse', 'HEAD'), nestedHead);
      assert.equal(gitIn(where.repo, 'branch', '--list', 'worktree-*'), '', why);
      // What was made, was made in the project's repository (its own place, its own branches).
      if (s.agent.worktree) {
        assert.equal(s.agent.cwd, path.join(proj, '.claude', 'worktrees', `w-${place}`), why);
        assert.equal(s.agent.worktree.repoRoot, proj);
      }
      if (!('error' in isolated)) {
        assert.equal(isolated.path, path.join(proj, '.claude', 'worktrees', `agent-${place}`));
        assert.equal(isolated.repoRoot, proj);
        assert.equal(await settleAgentWorktree({ worktree: isolated }), null, 'unchanged: removed');
      }
      for (const wt of gitIn(proj, 'worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree ')))
        assert.ok(wt.slice('worktree '.length).startsWith(proj), `${wt}: ${why}`);
    }
  });
}

test('attack (no recorded repository: a session started before issue 30): the repository is found from the start directory, never the cwd', async (t) => {
  if (skip) return t.skip(skip);
  const { proj } = await project();
  const s = new Session(proj, 'dontAsk', { pin: false, allow: ['EnterWorktree'] });
  const where = placeOf('node_modules', proj, s);
  const script = nestedRepoScript(where.repo, proj, 'nopin');
  await s.run('Bash', { command: script });
  assert.ok(existsSync(path.join(where.repo, '.git', 'config')));
  s.agent = applyContextModifiers(s.agent, [{ type: 'setCwd', cwd: where.cd }]);
  const entered = await s.run('EnterWorktree', { name: 'w' });
  const isolated = await prepareAgentWorktree({ cwd: where.cd, name: 'agent-w', projectDir: sessionRootOf(s.agent) });
  // The old request shape (the agent's cwd only) is refused: it names no session repository.
  const old = await prepareAgentWorktree({ cwd: where.cd, name: 'agent-old' });
  const why = `(EnterWorktree: ${entered.text}; agent: ${JSON.stringify(isolated)}; old: ${JSON.stringify(old)})`;
  assert.equal(existsSync(path.join(proj, 'MARKER-nopin')), false, why);
  noSecretIn(proj, why);
  assert.equal(s.agent.worktree?.repoRoot, proj, why);
  assert.ok(!('error' in isolated) && isolated.repoRoot === proj, why);
  assert.ok('error' in old, why);
  assert.equal(existsSync(path.join(where.repo, '.git', 'worktrees')), false, why);
});

/** Spellings of a forged registration of `victim` as a worktree of the project, from sandboxed Bash in the main checkout. */
function forgeries(victim: string): string[] {
  return [
    `mkdir -p .git/worktrees/evil1 && printf '%s\\n' '${victim}/.git' > .git/worktrees/evil1/gitdir && printf '../..\\n' > .git/worktrees/evil1/commondir && git rev-parse HEAD > .git/worktrees/evil1/HEAD`,
    `git worktree add -q -b evil2 '${victim}/evil2'`,
    `mkdir -p "$TMPDIR/reg" && echo '${victim}/.git' > "$TMPDIR/reg/gitdir" && echo ../.. > "$TMPDIR/reg/commondir" && mv "$TMPDIR/reg" .git/worktrees/evil3`,
    `ln -s "$TMPDIR" .git/worktrees/evil4`,
    `cd .git && sh -c 'mkdir worktrees/evil5; echo ${victim}/.git > worktrees/evil5/gitdir'`,
    `rm -rf .git/worktrees && mkdir .git/worktrees && mkdir .git/worktrees/evil6 && echo ${victim}/.git > .git/worktrees/evil6/gitdir`,
    `mv .git/worktrees .git/wt-old; mkdir -p .git/worktrees/evil7 && echo ${victim}/.git > .git/worktrees/evil7/gitdir`,
  ];
}

for (const mode of modesOf(['default', 'dontAsk', 'plan'])) {
  test(`attack (${mode}): sandboxed Bash forges .git/worktrees/<x>/gitdir naming a directory outside the project — nothing is registered, EnterWorktree never goes there`, async (t) => {
    if (skip) return t.skip(skip);
    const { proj, victim } = await project();
    writeFileSync(path.join(victim, '.git'), `gitdir: ${path.join(proj, '.git', 'worktrees', 'evil1')}\n`);
    // Twice: with no worktree yet (no .git/worktrees), then with one of the session's own.
    for (const round of ['none yet', 'own worktree'] as const) {
      const s = new Session(proj, mode, { allow: ['EnterWorktree', 'ExitWorktree', 'Bash'] });
      if (round === 'own worktree') {
        const own = await s.run('EnterWorktree', { name: 'own' });
        if (s.agent.worktree) await s.run('ExitWorktree', { action: 'keep' });
        else gitIn(proj, 'worktree', 'add', '-q', '-b', 'worktree-own', path.join(proj, '.claude', 'worktrees', 'own'));
        assert.ok(existsSync(path.join(proj, '.git', 'worktrees', 'own', 'gitdir')), own.text);
      }
      const list = () =>
        existsSync(path.join(proj, '.git', 'worktrees'))
          ? readdirSync(path.join(proj, '.git', 'worktrees')).sort()
          : [];
      const before = list();
      for (const cmd of forgeries(victim)) {
        const out = await s.run('Bash', { command: cmd });
        assert.deepEqual(list(), before, `${mode}/${round}: the registrations changed after: ${cmd}\n${out.text}`);
        assert.equal(existsSync(path.join(proj, '.git', 'wt-old')), false, out.text);
      }
      const entered = await s.run('EnterWorktree', { path: victim });
      assert.equal(s.agent.cwd, proj, `${mode}/${round}: the session moved: ${entered.text}`);
      assert.equal(s.agent.worktree, undefined);
      assert.deepEqual(readdirSync(victim).sort(), ['.git', 'keep.txt']);
      // The session's own worktree is untouched and still enterable.
      if (round === 'own worktree') {
        const back = await s.run('EnterWorktree', { path: path.join(proj, '.claude', 'worktrees', 'own') });
        if (mode !== 'default' && mode !== 'plan')
          assert.equal(s.agent.cwd, path.join(proj, '.claude', 'worktrees', 'own'), back.text);
      }
    }
  });
}

/** A registration of `dir` as the project's worktree `name`, consistent both ways (its `.git` file leads back), as git would write it. */
function plantRegistration(proj: string, name: string, dir: string): void {
  const gitDir = path.join(proj, '.git', 'worktrees', name);
  mkdirSync(gitDir, { recursive: true });
  writeFileSync(path.join(gitDir, 'gitdir'), `${path.join(dir, '.git')}\n`);
  writeFileSync(path.join(gitDir, 'commondir'), '../..\n');
  writeFileSync(path.join(gitDir, 'HEAD'), `${gitIn(proj, 'rev-parse', 'HEAD')}\n`);
  writeFileSync(path.join(dir, '.git'), `gitdir: ${gitDir}\n`);
}

for (const mode of MODES) {
  test(`attack (${mode}): registrations planted by a previous session or meanwhile (outside the project, through symlinks, under it after the start) — EnterWorktree refuses, the session stays`, async (t) => {
    if (skip) return t.skip(skip);
    const { proj, victim } = await project();
    // Before the session: the victim outside, and a symlink inside the project that leads to it.
    plantRegistration(proj, 'evil', victim);
    symlinkSync(victim, path.join(proj, 'link'));
    mkdirSync(path.join(victim, 'in'));
    symlinkSync(path.join(victim, 'in'), path.join(proj, 'inlink'));
    plantRegistration(proj, 'evil-inlink', path.join(proj, 'inlink'));
    assert.match(gitIn(proj, 'worktree', 'list'), /victim/, 'git itself takes the planted registration');
    const s = new Session(proj, mode, { allow: ['EnterWorktree'] });
    // During the session (after its start was recorded): one under the project, outside .claude/worktrees.
    const later = path.join(proj, 'sub');
    mkdirSync(later);
    plantRegistration(proj, 'later', later);
    for (const p of [
      victim,
      '../victim',
      path.join(proj, 'link'),
      'link',
      'inlink',
      path.join(proj, 'inlink'),
      'sub',
      later,
    ]) {
      const r = await s.run('EnterWorktree', { path: p });
      assert.equal(s.agent.cwd, proj, `${mode}: EnterWorktree ${p} moved the session: ${r.text}`);
      assert.equal(s.agent.worktree, undefined, r.text);
    }
    assert.deepEqual(readdirSync(victim).sort(), ['.git', 'in', 'keep.txt']);
  });
}

test('the session’s own worktrees still work: made, left, entered again, a command commits there, removed; an isolated agent’s', async (t) => {
  if (skip) return t.skip(skip);
  const { proj } = await project();
  const s = new Session(proj, 'bypassPermissions');
  const made = await s.run('EnterWorktree', { name: 'mine' });
  const wt = path.join(proj, '.claude', 'worktrees', 'mine');
  assert.equal(s.agent.cwd, wt, made.text);
  assert.equal(gitIn(wt, 'branch', '--show-current'), 'worktree-mine');
  await s.run('ExitWorktree', { action: 'keep' });
  assert.equal(s.agent.cwd, proj);
  const again = await s.run('EnterWorktree', { path: wt });
  assert.equal(s.agent.cwd, wt, again.text);
  // Sandboxed Bash in the worktree still writes its own git directory (its index, HEAD) and commits.
  const commit = await s.run('Bash', {
    command: `echo w > w.txt && git add w.txt && git -c user.email=a@example.com -c user.name=a commit -qm w && echo done`,
  });
  assert.equal(gitIn(proj, 'show', 'worktree-mine:w.txt'), 'w', commit.text);
  // "remove" of a worktree entered by path (created: false) is refused: the session stays, the work too.
  await s.run('ExitWorktree', { action: 'remove', discard_changes: true });
  assert.equal(s.agent.cwd, wt);
  await s.run('ExitWorktree', { action: 'keep' });
  assert.equal(s.agent.cwd, proj);
  assert.equal(gitIn(proj, 'show', 'worktree-mine:w.txt'), 'w');
  // One made and removed in the same entry.
  await s.run('EnterWorktree', { name: 'brief' });
  assert.equal(s.agent.worktree?.created, true);
  const removed = await s.run('ExitWorktree', { action: 'remove' });
  assert.equal(s.agent.cwd, proj, removed.text);
  assert.equal(existsSync(path.join(proj, '.claude', 'worktrees', 'brief')), false);
  assert.equal(gitIn(proj, 'branch', '--list', 'worktree-brief'), '');
  // An isolated agent's worktree: made in the project, removed when unchanged, kept when changed.
  const repo = s.permission.sandbox!.repository!;
  const a = await prepareAgentWorktree({ cwd: proj, name: 'agent-a', projectDir: proj, repository: repo });
  assert.ok(!('error' in a), JSON.stringify(a));
  assert.equal(a.path, path.join(proj, '.claude', 'worktrees', 'agent-a'));
  assert.equal(await settleAgentWorktree({ worktree: a }), null);
  assert.equal(existsSync(a.path), false);
  const b = await prepareAgentWorktree({ cwd: proj, name: 'agent-b', projectDir: proj, repository: repo });
  assert.ok(!('error' in b));
  await fs.writeFile(path.join(b.path, 'new.txt'), 'x\n');
  assert.deepEqual(await settleAgentWorktree({ worktree: b }), { path: b.path, branch: b.branch });
  // A session started outside any repository makes none, even after a `git init` of its own.
  const { base } = await project();
  const plain = path.join(base, 'plain');
  mkdirSync(plain);
  const p = new Session(plain, 'bypassPermissions');
  assert.equal(p.permission.sandbox!.repository, false);
  await p.run('Bash', {
    command: 'git init -q . && echo x > x && git add x && git -c user.email=a@example.com -c user.name=a commit -qm x',
  });
  const r = await p.run('EnterWorktree', { name: 'x' });
  assert.equal(p.agent.cwd, plain, r.text);
  assert.equal(existsSync(path.join(plain, '.claude')), false);
});

test('the edge records the session’s repository at its start (sessionInput): its root, git directory and identity; false outside one; a child keeps its parent’s', async () => {
  const { base, proj } = await project();
  const sub = path.join(proj, 'sub');
  mkdirSync(sub);
  const input = sessionInput({ prompt: 'x', cwd: sub });
  const repo = input.sandbox?.repository;
  assert.ok(repo, 'recorded');
  assert.equal(repo.root, proj);
  assert.equal(repo.commonDir, path.join(proj, '.git'));
  assert.equal(repo.ino, String((await fs.stat(path.join(proj, '.git'), { bigint: true })).ino));
  const plain = path.join(base, 'plain');
  mkdirSync(plain);
  assert.equal(sessionInput({ prompt: 'x', cwd: plain }).sandbox?.repository, false);
  const child = sessionInput({ prompt: 'x', cwd: plain, sandbox: { repository: repo } });
  assert.deepEqual(child.sandbox?.repository, repo);
});
