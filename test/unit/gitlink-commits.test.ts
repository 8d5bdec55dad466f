// unit (issue 30, red team y, Y4): gitlinkCommits.ts in process on real repositories (no sandbox): the
// forms a gitlink arrives in — added in a subdirectory, its commit in another submodule's store (the
// name `.gitmodules` gives is not trusted), absent, nested past the depth bound — and the raw listings'
// parse (a merge's combined header, a patch's `Subproject commit`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { tipChangesControl } from '../../src/sandbox/controlCommits';
import { MAX_DEPTH, patchGitlinks, rawListing } from '../../src/sandbox/gitlinkCommits';

const ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'a',
  GIT_AUTHOR_EMAIL: 'a@x',
  GIT_COMMITTER_NAME: 'a',
  GIT_COMMITTER_EMAIL: 'a@x',
};
const git = (cwd: string, args: string[], input?: string) =>
  execFileSync('git', args, { cwd, env: ENV, ...(input === undefined ? {} : { input }) })
    .toString()
    .trim();
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'da-gitlinks-')));
test.after(() => fs.rmSync(base, { recursive: true, force: true }));
let seq = 0;

/** A repository with one commit (`a.txt`); its path. */
function repo(gitDir?: string): string {
  const dir = path.join(base, `r${++seq}`);
  fs.mkdirSync(dir);
  git(dir, ['init', '-q', '-b', 'main', ...(gitDir ? [`--separate-git-dir=${gitDir}`] : [])]);
  fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n');
  git(dir, ['add', 'a.txt']);
  git(dir, ['commit', '-qm', 'init']);
  return dir;
}

/** In the repository whose git directory is `gitDir`: a commit (no ref) on `parent` adding `name` (and `extra` entries). */
function commitWith(gitDir: string, name: string, parent?: string, extra = ''): string {
  const g = (args: string[], input?: string) => git('/', [`--git-dir=${gitDir}`, ...args], input);
  const b = g(['hash-object', '-w', '--stdin'], 'x\n');
  const t = g(['mktree'], `100644 blob ${b}\t${name}\n${extra}`);
  return g(['commit-tree', t, ...(parent ? ['-p', parent] : []), '-m', 'c']);
}

/** A superproject commit on HEAD adding a gitlink `link` to `oid` (plumbing); its id. */
function linkCommit(root: string, link: string, oid: string): string {
  const idx = path.join(base, `idx${++seq}`);
  const g = (args: string[]) =>
    execFileSync('git', args, { cwd: root, env: { ...ENV, GIT_INDEX_FILE: idx } })
      .toString()
      .trim();
  g(['read-tree', 'HEAD']);
  g(['update-index', '--add', '--cacheinfo', `160000,${oid},${link}`]);
  return g(['commit-tree', g(['write-tree']), '-p', 'HEAD', '-m', 'link']);
}

/** A superproject and a submodule store `.git/modules/<name>` (a bare repository there, as git's). */
function superproject(name = 'sub'): { root: string; gitDir: string; store: string; head: string } {
  const root = repo();
  const gitDir = path.join(root, '.git');
  const store = path.join(gitDir, 'modules', ...name.split('/'));
  fs.mkdirSync(path.dirname(store), { recursive: true });
  git(base, ['init', '-q', '--bare', store]);
  return { root, gitDir, store, head: git(root, ['rev-parse', 'HEAD']) };
}

for (const harmless of [false, true])
  test(`a gitlink ADDED in a subdirectory (libs/x) to a commit adding ${harmless ? 'readme.txt: kept' : '.envrc: carries one'}`, () => {
    const s = superproject('libs/x');
    const c = commitWith(s.store, harmless ? 'readme.txt' : '.envrc');
    assert.equal(tipChangesControl(s.gitDir, linkCommit(s.root, 'libs/x', c), s.head), !harmless);
  });

for (const harmless of [false, true])
  test(`the commit in ANOTHER submodule's store than the gitlink's path names (${harmless ? 'harmless: kept' : '.claude: carries one'})`, () => {
    const s = superproject('other');
    const c = commitWith(s.store, harmless ? 'notes' : '.claude');
    assert.equal(tipChangesControl(s.gitDir, linkCommit(s.root, 'sub', c), s.head), !harmless);
  });

test('a gitlink to a commit in no store carries one (what the person’s git would fetch was not screened)', () => {
  const s = superproject();
  const absent = 'a'.repeat(40);
  assert.equal(tipChangesControl(s.gitDir, linkCommit(s.root, 'sub', absent), s.head), true);
});

test(`a chain of ${MAX_DEPTH + 1} nested submodule commits carries one (too deep); of ${MAX_DEPTH}, harmless, is kept`, () => {
  for (const [levels, carries] of [
    [MAX_DEPTH, false],
    [MAX_DEPTH + 1, true],
  ] as const) {
    const s = superproject('l0');
    // Each level's commit holds a gitlink `l<n+1>` to the next one's (all in one store: any store answers).
    let c = commitWith(s.store, 'readme.txt');
    for (let n = levels - 1; n > 0; n--)
      c = commitWith(s.store, 'readme.txt', undefined, `160000 commit ${c}\tl${n}\n`);
    assert.equal(tipChangesControl(s.gitDir, linkCommit(s.root, 'l0', c), s.head), carries, `${levels} levels`);
  }
});

test('a submodule whose .git is a directory in the work tree (not absorbed) is looked in', () => {
  const root = repo();
  const sub = path.join(root, 'sub');
  fs.mkdirSync(sub);
  git(sub, ['init', '-q']);
  const c = commitWith(path.join(sub, '.git'), '.mcp.json');
  const head = git(root, ['rev-parse', 'HEAD']);
  assert.equal(tipChangesControl(path.join(root, '.git'), linkCommit(root, 'sub', c), head), true);
});

test('rawListing: a merge’s combined header gives the result’s gitlink, old the first parent’s; patchGitlinks reads Subproject lines', () => {
  const [o1, o2, n] = ['1'.repeat(40), '2'.repeat(40), '3'.repeat(40)];
  const l = rawListing(`::160000 160000 160000 ${o1} ${o2} ${n} MM\0libs/x\0:100644 100644 ${o1} ${o2} M\0a.txt\0`);
  assert.deepEqual(l, { paths: ['libs/x', 'a.txt'], gitlinks: [{ path: 'libs/x', oid: n, old: o1 }] });
  const patch = `diff --git a/sub b/sub\nindex 1111111..3333333 160000\n--- a/sub\n+++ b/sub\n@@ -1 +1 @@\n-Subproject commit ${o1}\n+Subproject commit ${n}\n`;
  assert.deepEqual(patchGitlinks(patch), [{ path: 'sub', oid: n, old: o1 }]);
  assert.equal(
    patchGitlinks('+++ b/sub\n+Subproject commit 3333333\n'),
    undefined,
    'an abbreviated id: not screenable',
  );
});

test('submodule stores whose git hangs (alternates a FIFO) share one budget: carries one, in under 3 s', () => {
  const s = superproject('m0');
  for (let i = 0; i < 8; i++) {
    const store = path.join(s.gitDir, 'modules', `m${i}`);
    if (i > 0) git(base, ['init', '-q', '--bare', store]);
    fs.mkdirSync(path.join(store, 'objects', 'info'), { recursive: true });
    execFileSync('mkfifo', [path.join(store, 'objects', 'info', 'alternates')]);
  }
  const c = 'b'.repeat(40);
  const link = linkCommit(s.root, 'm0', c);
  const t0 = Date.now();
  assert.equal(tipChangesControl(s.gitDir, link, s.head), true);
  assert.ok(Date.now() - t0 < 3_000, `${Date.now() - t0} ms`);
});

test('rawListing: a name holding a newline and a forged header does not swallow the next gitlink (its lines are checked too)', () => {
  const [o, n] = ['1'.repeat(40), '3'.repeat(40)];
  const forged = `x\n:000000 100644 ${'0'.repeat(40)} ${o} A`;
  const l = rawListing(`:000000 100644 ${'0'.repeat(40)} ${o} A\0${forged}\0:160000 160000 ${o} ${n} M\0sub\0`);
  assert.deepEqual(l.gitlinks, [{ path: 'sub', oid: n, old: o }]);
  assert.ok(rawListing(`:000000 100644 ${'0'.repeat(40)} ${o} A\0a/.envrc\n\0`).paths.includes('a/.envrc'));
});
