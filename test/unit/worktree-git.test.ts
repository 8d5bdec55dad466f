// unit: a worktree's git while commands run in it (src/sandbox/worktreeGit.ts), with real git and
// real files, no sandbox: the shadow common directory each command's git writes to, what comes
// into the repository after, and what the person sees between commands. The attacks on it (in the
// OS sandbox) are in unit/attacks-worktree.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createOrReuseWorktree, removeWorktree, type Worktree } from '../../src/worktree/worktrees';
import {
  activateWorktreeGit,
  deactivateWorktreeGit,
  prepareWorktreeGit,
  removeWorktreeGit,
  settleWorktreeGit,
  shadowDirOf,
} from '../../src/worktree/git';
import { makeTmpDir, removeDir } from './tools-harness';

const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await removeDir(d);
});

type Git = (...a: string[]) => string;
const ID = ['-c', 'user.email=a@example.com', '-c', 'user.name=agent'];

async function setup(
  format: 'sha1' | 'sha256' = 'sha1',
): Promise<{ repo: string; wt: Worktree; git: Git; wtGit: Git }> {
  const repo = await makeTmpDir('da-wtgit-');
  dirs.push(repo);
  const git: Git = (...a) => execFileSync('git', [...ID, ...a], { cwd: repo, encoding: 'utf8' });
  git('init', '-q', '-b', 'main', ...(format === 'sha256' ? ['--object-format=sha256'] : []));
  await fs.writeFile(path.join(repo, 'a.txt'), 'hello\n');
  git('add', 'a.txt');
  git('commit', '-qm', 'init');
  const wt = await createOrReuseWorktree(repo, 'job', { agentInvoked: true });
  await prepareWorktreeGit(wt, wt.branch);
  const wtGit: Git = (...a) => execFileSync('git', [...ID, ...a], { cwd: wt.path, encoding: 'utf8' });
  return { repo, wt, git, wtGit };
}

const commondir = (wt: Worktree) => fs.readFile(path.join(wt.gitDir, 'commondir'), 'utf8');

test('while a command runs the worktree’s git writes to its shadow; after it, the repository has the work and the worktree is plain again', async () => {
  const { git, wt, wtGit } = await setup();
  const lease = await activateWorktreeGit(wt);
  assert.equal((await commondir(wt)).trim(), shadowDirOf(wt));
  assert.equal(
    wtGit('rev-parse', '--abbrev-ref', 'HEAD').trim(),
    wt.branch,
    'on its branch, as git worktree add left it',
  );
  await fs.writeFile(path.join(wt.path, 'b.txt'), 'b\n');
  wtGit('add', 'b.txt');
  wtGit('commit', '-qm', 'b');
  const tip = wtGit('rev-parse', 'HEAD').trim();
  assert.equal(git('rev-parse', wt.branch).trim(), wt.base, 'the repository sees nothing while the command runs');
  const sync = await deactivateWorktreeGit(lease);
  assert.deepEqual(sync.applied, [{ ref: `refs/heads/${wt.branch}`, to: tip }]);
  assert.deepEqual(sync.refused, []);
  assert.equal(await commondir(wt), '../..\n');
  assert.equal(git('rev-parse', wt.branch).trim(), tip);
  assert.equal(git('show', `${wt.branch}:b.txt`), 'b\n');
  // The objects moved: the shadow keeps none of them.
  const left = execFileSync('find', [path.join(shadowDirOf(wt), 'objects'), '-type', 'f', '!', '-name', 'alternates'], {
    encoding: 'utf8',
  });
  assert.equal(left.trim(), '');
});

test('the person’s changes between commands are what the next command sees (main, and the worktree’s own branch)', async () => {
  const { git, wt, wtGit, repo } = await setup();
  await deactivateWorktreeGit(await activateWorktreeGit(wt));
  await fs.writeFile(path.join(repo, 'h.txt'), 'h\n');
  git('add', 'h.txt');
  git('commit', '-qm', 'human');
  const human = git('rev-parse', 'main').trim();
  // The person commits in the worktree between commands, on its branch.
  await fs.writeFile(path.join(wt.path, 'p.txt'), 'p\n');
  wtGit('add', 'p.txt');
  wtGit('commit', '-qm', 'person in the worktree');
  const personTip = git('rev-parse', wt.branch).trim();
  const lease = await activateWorktreeGit(wt);
  assert.equal(wtGit('rev-parse', 'main').trim(), human, 'the command sees main as it is now');
  assert.equal(wtGit('rev-parse', 'HEAD').trim(), personTip, 'and its branch as the person left it');
  wtGit('commit', '-qm', 'agent', '--allow-empty');
  await deactivateWorktreeGit(lease);
  assert.equal(git('rev-parse', `${wt.branch}~1`).trim(), personTip);
});

test('two commands at once: the first to end brings its work in, the worktree stays redirected until the last ends', async () => {
  const { git, wt, wtGit } = await setup();
  const a = await activateWorktreeGit(wt);
  const b = await activateWorktreeGit(wt);
  wtGit('commit', '-qm', 'by b', '--allow-empty');
  const tip = wtGit('rev-parse', 'HEAD').trim();
  await deactivateWorktreeGit(b);
  assert.equal(git('rev-parse', wt.branch).trim(), tip, 'b’s commit came in when b ended');
  assert.equal((await commondir(wt)).trim(), shadowDirOf(wt), 'a still runs: its git still writes to the shadow');
  wtGit('commit', '-qm', 'by a', '--allow-empty');
  const tip2 = wtGit('rev-parse', 'HEAD').trim();
  await deactivateWorktreeGit(a);
  assert.equal(git('rev-parse', wt.branch).trim(), tip2);
  assert.equal(await commondir(wt), '../..\n');
});

test('a worker lost mid-command: its work comes in at the next command, or when the worktree is settled', async () => {
  for (const next of ['command', 'settle'] as const) {
    const { git, wt, wtGit } = await setup();
    await activateWorktreeGit(wt);
    wtGit('commit', '-qm', 'before the crash', '--allow-empty');
    const tip = wtGit('rev-parse', 'HEAD').trim();
    // The lease of a process that is gone (the worker was SIGKILLed).
    const dead = spawnSync('true').pid!;
    const leases = path.join(shadowDirOf(wt), 'leases');
    for (const l of await fs.readdir(leases)) await fs.rm(path.join(leases, l));
    await fs.writeFile(path.join(leases, 'lost'), `${(await import('node:os')).hostname()} ${dead}\n`);
    if (next === 'command') {
      const lease = await activateWorktreeGit(wt);
      assert.equal(git('rev-parse', wt.branch).trim(), tip, 'came in before the next command');
      assert.equal(wtGit('rev-parse', 'HEAD').trim(), tip, 'and the next command starts from it');
      await deactivateWorktreeGit(lease);
    } else {
      const sync = await settleWorktreeGit(wt);
      assert.deepEqual(
        sync?.applied.map((x) => x.to),
        [tip],
      );
    }
    assert.equal(git('rev-parse', wt.branch).trim(), tip);
    assert.equal(await commondir(wt), '../..\n', next);
  }
});

test('packs the command made in the shadow (git repack, gc) come in too', async () => {
  const { git, wt, wtGit } = await setup();
  const lease = await activateWorktreeGit(wt);
  for (let i = 0; i < 5; i++) {
    await fs.writeFile(path.join(wt.path, `f${i}.txt`), `${i}\n`.repeat(100));
    wtGit('add', '.');
    wtGit('commit', '-qm', `c${i}`);
  }
  wtGit('repack', '-a', '-d', '-l', '-q');
  const packs = await fs.readdir(path.join(shadowDirOf(wt), 'objects', 'pack'));
  assert.ok(
    packs.some((p) => p.endsWith('.pack')),
    `a pack in the shadow: ${packs.join(', ')}`,
  );
  const tip = wtGit('rev-parse', 'HEAD').trim();
  await deactivateWorktreeGit(lease);
  assert.equal(git('rev-parse', wt.branch).trim(), tip);
  assert.equal(git('show', `${wt.branch}:f4.txt`), '4\n'.repeat(100));
  git('fsck', '--no-dangling', '--no-progress');
});

test('a SHA-256 repository: the shadow keeps its object format', async () => {
  const { git, wt, wtGit } = await setup('sha256');
  const lease = await activateWorktreeGit(wt);
  wtGit('commit', '-qm', 'x', '--allow-empty');
  const tip = wtGit('rev-parse', 'HEAD').trim();
  assert.equal(tip.length, 64);
  await deactivateWorktreeGit(lease);
  assert.equal(git('rev-parse', wt.branch).trim(), tip);
});

test('a worktree the person made (entered by path): the branch it has checked out is its own; removing it removes the shadow', async () => {
  const { git, repo } = await setup();
  const dir = path.join(repo, 'side');
  git('worktree', 'add', '-q', '-b', 'side-branch', dir);
  const gitDir = path.join(repo, '.git', 'worktrees', 'side');
  const w = { commonDir: path.join(repo, '.git'), gitDir };
  const sideGit: Git = (...a) => execFileSync('git', [...ID, ...a], { cwd: dir, encoding: 'utf8' });
  const lease = await activateWorktreeGit(w);
  sideGit('commit', '-qm', 'side', '--allow-empty');
  const tip = sideGit('rev-parse', 'HEAD').trim();
  await deactivateWorktreeGit(lease);
  assert.equal(git('rev-parse', 'side-branch').trim(), tip);
  await removeWorktree({ root: repo, commonDir: w.commonDir }, dir, 'side-branch', { agentInvoked: true });
  await removeWorktreeGit(w);
  await assert.rejects(fs.stat(shadowDirOf(w)));
});

test('a merge of main (whose own commits change .claude/) into the worktree’s branch comes in; a tag the command made does not; a HEAD left on main is detached', async () => {
  const { git, wt, wtGit, repo } = await setup();
  await fs.mkdir(path.join(repo, '.claude'), { recursive: true });
  await fs.writeFile(path.join(repo, '.claude', 'settings.json'), '{}\n');
  git('add', '.claude/settings.json');
  git('commit', '-qm', 'the person’s settings');
  const lease = await activateWorktreeGit(wt);
  wtGit('merge', '-q', '--no-edit', 'main');
  wtGit('tag', 'v9');
  wtGit('branch', 'feature/ñ#1,x'); // any name git accepts comes in
  const merged = wtGit('rev-parse', 'HEAD').trim();
  const sync = await deactivateWorktreeGit(lease);
  assert.equal(git('rev-parse', wt.branch).trim(), merged, JSON.stringify(sync));
  assert.deepEqual(
    sync.refused.map((r) => [r.ref, r.why]),
    [['refs/tags/v9', 'a tag']],
  );
  assert.throws(() => git('rev-parse', '--verify', '-q', 'refs/tags/v9'));
  assert.equal(git('rev-parse', 'feature/ñ#1,x').trim(), merged);
  // The worktree's HEAD pointed at main (checked out in the main checkout): detached where main was.
  const l2 = await activateWorktreeGit(wt);
  await fs.writeFile(path.join(wt.gitDir, 'HEAD'), 'ref: refs/heads/main\n');
  const s2 = await deactivateWorktreeGit(l2);
  assert.equal(s2.detachedHead, git('rev-parse', 'main').trim());
  assert.equal((await fs.readFile(path.join(wt.gitDir, 'HEAD'), 'utf8')).trim(), s2.detachedHead);
});

test('an object the repository refuses (a tree with a .git entry) blocks nothing else: the next command’s work comes in', async () => {
  const { git, wt, wtGit } = await setup();
  const before = git('rev-parse', wt.branch).trim();
  const l1 = await activateWorktreeGit(wt);
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], {
    cwd: wt.path,
    input: 'x\n',
    encoding: 'utf8',
  }).trim();
  const bad = execFileSync('git', ['mktree'], {
    cwd: wt.path,
    input: `100644 blob ${blob}\t.git\n`,
    encoding: 'utf8',
  }).trim();
  const commit = wtGit('commit-tree', '-m', 'bad', '-p', 'HEAD', bad).trim();
  wtGit('update-ref', 'HEAD', commit);
  const s1 = await deactivateWorktreeGit(l1);
  assert.match(s1.objectsError ?? '', /hasDotgit/);
  assert.deepEqual(
    s1.refused.map((r) => r.why),
    ['some of its objects were not brought into the repository'],
  );
  assert.equal(git('rev-parse', wt.branch).trim(), before);
  assert.equal(await commondir(wt), '../..\n', 'a refusal does not keep the worktree on its shadow');
  // The next command starts from the repository's branch; its ordinary commit comes in.
  const l2 = await activateWorktreeGit(wt);
  wtGit('reset', '-q', '--hard', before);
  await fs.writeFile(path.join(wt.path, 'fine.txt'), 'fine\n');
  wtGit('add', 'fine.txt');
  wtGit('commit', '-qm', 'fine');
  const s2 = await deactivateWorktreeGit(l2);
  assert.equal(s2.objectsError, undefined, 'the refused object is not offered again');
  assert.equal(git('show', `${wt.branch}:fine.txt`), 'fine\n');
});

test('a worktree removed by hand and made again under its name on another branch: the old shadow’s branch is not the new one’s', async () => {
  const { git, wt, wtGit } = await setup();
  await deactivateWorktreeGit(await activateWorktreeGit(wt));
  git('worktree', 'remove', '--force', wt.path);
  git('branch', '-q', 'other');
  git('worktree', 'add', '-q', wt.path, 'other');
  const w = { commonDir: wt.commonDir, gitDir: wt.gitDir };
  const lease = await activateWorktreeGit(w); // entered by path: its own branch is the one checked out
  wtGit('commit', '-qm', 'on other', '--allow-empty');
  wtGit('update-ref', `refs/heads/${wt.branch}`, 'HEAD');
  const sync = await deactivateWorktreeGit(lease);
  assert.deepEqual(
    sync.applied.map((a) => a.ref),
    ['refs/heads/other'],
  );
  assert.deepEqual(
    sync.refused.map((r) => r.ref),
    [`refs/heads/${wt.branch}`],
  );
});

test('eight commands at once in one worktree, ending in any order: each one’s branch comes in once, the redirect ends with the last', async () => {
  const { git, wt, wtGit } = await setup();
  const leases = await Promise.all(Array.from({ length: 8 }, () => activateWorktreeGit(wt)));
  assert.equal(new Set(leases.map((l) => l.name)).size, 8);
  const branch = (i: number) =>
    wtGit('update-ref', `refs/heads/job-${i}`, wtGit('commit-tree', '-m', `c${i}`, 'HEAD^{tree}').trim());
  branch(7);
  await Promise.all(
    leases.slice(0, 7).map(async (lease, i) => {
      branch(i);
      await new Promise((r) => setTimeout(r, (i * 37) % 50));
      const sync = await deactivateWorktreeGit(lease);
      assert.deepEqual(sync.refused, []);
      assert.equal((await commondir(wt)).trim(), shadowDirOf(wt), 'the eighth still runs: still redirected');
    }),
  );
  await deactivateWorktreeGit(leases[7]!);
  assert.equal(await commondir(wt), '../..\n');
  const branches = git('for-each-ref', '--format=%(refname:short)', 'refs/heads/job-*').trim().split('\n');
  assert.equal(branches.length, 8, branches.join(' '));
});
