// unit (issue 30, red team v, V1): the ref screen's readers never throw on a tree a command made
// unreadable (a chain of directories longer than PATH_MAX below `.git/refs` or `.git/logs/refs`:
// ENAMETOOLONG), and when the screen throws anyway its fallback puts every ref back as the command
// found it (refsUnscreened.ts). Function level, real git, no sandbox (the end-to-end row is V1 in
// red-issue30-v).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { readLogs } from '../../src/sandbox/movedLogs';
import { readRefState, resolveName } from '../../src/sandbox/refFiles';
import { refSnapshots, undoCarriedRefs } from '../../src/sandbox/movedRefs';
import { undoRefsUnscreened } from '../../src/sandbox/refsUnscreened';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-refdeep-')));
// GNU rm walks a chain longer than PATH_MAX; fs.rmSync does not.
after(() => execFileSync('rm', ['-rf', base]));
let n = 0;

function repo(): string {
  const d = path.join(base, `r${++n}`);
  execFileSync('git', ['init', '-q', d]);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@x', ...args], { cwd: d, encoding: 'utf8' }).trim();
  writeFileSync(path.join(d, 'a.txt'), 'a\n');
  git('add', 'a.txt');
  git('commit', '-qm', 'one');
  return d;
}

/** A chain of 24 directories of 200 characters below `dir` of `root` (longer than PATH_MAX). */
const deepChain = (root: string, dir: string) =>
  execFileSync('sh', [
    '-c',
    `n=$(printf 'd%.0s' $(seq 1 200)); cd "$1" && mkdir -p ${dir} && cd ${dir} && for i in $(seq 1 24); do mkdir "$n" && cd "$n"; done; echo x > ref`,
    'sh',
    root,
  ]);

/**
 * Below `dir` of `root`: directories up to a path of 4,000 characters (listable), and in the last one
 * a ref named with 200 (its path longer than PATH_MAX: listed, but its lstat throws).
 */
function nearLimit(root: string, dir: string): void {
  const names: string[] = [];
  let len = path.join(root, dir).length;
  while (len < 4000) {
    const k = Math.min(200, 4000 - len - 1);
    if (k < 1) break;
    names.push('d'.repeat(k));
    len += k + 1;
  }
  execFileSync('sh', [
    '-c',
    `cd "$1" && mkdir -p ${dir} && cd ${dir} && shift && for n in "$@"; do mkdir "$n" && cd "$n"; done; echo 0000000000000000000000000000000000000000 > ${'r'.repeat(200)}`,
    'sh',
    root,
    ...names,
  ]);
}

test('V1: a reflog or ref chain longer than PATH_MAX is read without a throw (refs: truncated, logs: an entry of no known kind)', () => {
  const d = repo();
  deepChain(d, '.git/logs/refs/x');
  const gitDir = path.join(d, '.git');
  nearLimit(d, '.git/refs/heads/y');
  assert.equal(readRefState(gitDir).truncated, true, 'a ref whose path is longer than PATH_MAX');
  deepChain(d, '.git/refs/heads/z');
  const logs = readLogs(gitDir);
  assert.ok(
    [...logs.values()].some((l) => l.ino === -1),
    [...logs.keys()].join(', ').slice(0, 300),
  );
  const state = readRefState(gitDir);
  assert.equal(state.truncated, true);
  assert.ok(state.files.has('HEAD'));
});

test('V1: the fallback of a ref screen that threw puts every ref back as the command found it', () => {
  const d = repo();
  const gitDir = path.join(d, '.git');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@x', ...args], { cwd: d, encoding: 'utf8' }).trim();
  git('branch', 'keep');
  const before = refSnapshots([d]);
  const main = readFileSync(path.join(gitDir, 'refs', 'heads', 'keep'), 'utf8');
  writeFileSync(path.join(d, 'a.txt'), 'b\n');
  git('commit', '-qam', 'two');
  const two = git('rev-parse', 'HEAD');
  git('branch', 'fix');
  git('update-ref', 'refs/heads/keep', two);
  writeFileSync(path.join(gitDir, 'FETCH_HEAD'), `${two}\t\tbranch 'fix' of origin\n`);
  const notes = undoRefsUnscreened(before);
  assert.equal(notes.length, 1, notes.join('\n'));
  assert.match(notes[0]!, /was put back as the call found them/);
  assert.equal(existsSync(path.join(gitDir, 'refs', 'heads', 'fix')), false);
  assert.equal(existsSync(path.join(gitDir, 'FETCH_HEAD')), false);
  assert.equal(readFileSync(path.join(gitDir, 'refs', 'heads', 'keep'), 'utf8'), main);
  assert.notEqual(git('rev-parse', 'HEAD'), two);
});

// V3: git's `merge FETCH_HEAD` reads every line of FETCH_HEAD; the screen read 8 KiB and 64 lines.
test('V3: every line of a FETCH_HEAD is read; one over 1 MiB is not read, and put back unscreened', () => {
  const d = repo();
  const gitDir = path.join(d, '.git');
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: d, encoding: 'utf8' }).trim();
  const p1 = 'e'.repeat(40);
  const line = (oid: string, what: string) => `${oid}\t\tbranch '${what}' of origin\n`;
  writeFileSync(path.join(gitDir, 'FETCH_HEAD'), line(head, 'x'.repeat(9000)) + line(p1, 'fix'));
  assert.ok(resolveName(readRefState(gitDir), 'FETCH_HEAD').oids.includes(p1), 'past 8 KiB');
  writeFileSync(path.join(gitDir, 'FETCH_HEAD'), line(head, 'a').repeat(70) + line(p1, 'fix'));
  assert.ok(resolveName(readRefState(gitDir), 'FETCH_HEAD').oids.includes(p1), 'past 64 lines');
  rmSync(path.join(gitDir, 'FETCH_HEAD'));
  const before = refSnapshots([d]);
  writeFileSync(path.join(gitDir, 'FETCH_HEAD'), line(head, 'a'.repeat(2 << 20)));
  assert.equal(readRefState(gitDir).files.get('FETCH_HEAD')?.kind === 'file', true);
  const notes = undoCarriedRefs(before);
  assert.match(notes.join('\n'), /FETCH_HEAD was a symbolic link, a replace ref or a ref file too big to read/);
  assert.equal(existsSync(path.join(gitDir, 'FETCH_HEAD')), false);
});

// W8 (red team w): readLogs stops at 20,000 reflog files, and in the directory's order a directory of
// 20,000 empty reflogs listed before `heads` hid main's reflog from both snapshots. The reflogs of the refs
// there are are read first: main's is in the snapshot, whatever the order.
test('unit: W8 — the reflog of an existing ref is read whatever 20,000 other reflog files come first', () => {
  const d = repo();
  const g = path.join(d, '.git');
  const branch = execFileSync('git', ['symbolic-ref', '--short', 'HEAD'], { cwd: d, encoding: 'utf8' }).trim();
  execFileSync('sh', [
    '-c',
    'for i in 0 1 2 3; do mkdir -p "$1/logs/refs/d$i" && (cd "$1/logs/refs/d$i" && seq 5100 | xargs touch); done',
    'sh',
    g,
  ]);
  const state = readRefState(g);
  assert.equal(state.logs?.has(`logs/refs/heads/${branch}`), true, 'the branch’s reflog was not read');
  assert.ok((state.logs?.get(`logs/refs/heads/${branch}`)?.names?.size ?? 0) > 0);
});
