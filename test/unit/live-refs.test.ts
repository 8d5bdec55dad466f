// unit: the live guard's ref screen (src/sandbox/liveRefs.ts; red team v, V8) — a branch moved to a commit
// that changes the hooks is put back while the command still runs, what it lets stand is judged again after
// the call (the snapshot is not moved on: the objects are verified after the call only), a command that moves it back again and again is stopped,
// and rounds run at most about once a second however fast refs move. No sandbox: the test writes the refs
// the command would.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { guardWhileRunning } from '../../src/sandbox/liveGuard';
import { refSnapshots, undoCarriedRefs } from '../../src/sandbox/movedRefs';
import { resolveName } from '../../src/sandbox/refFiles';
import { closeTreeWatches } from '../../src/sandbox/treeWatch';
import { watchRefs } from '../../src/sandbox/liveRefs';

const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'live-refs-')));
after(() => {
  closeTreeWatches();
  rmSync(base, { recursive: true, force: true });
});

const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'a',
  GIT_AUTHOR_EMAIL: 'a@x',
  GIT_COMMITTER_NAME: 'a',
  GIT_COMMITTER_EMAIL: 'a@x',
};
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, encoding: 'utf8' }).trim();

/** A repository whose hooks are `.githooks` (core.hooksPath), one commit. */
function repo(name: string): string {
  const root = path.join(base, name);
  mkdirSync(path.join(root, '.githooks'), { recursive: true });
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'config', 'core.hooksPath', '.githooks');
  writeFileSync(path.join(root, '.githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  writeFileSync(path.join(root, 'README'), 'hello\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'init');
  return root;
}

/** A commit on HEAD with `file` = `body` (plumbing: no file of the work tree written). */
function plant(root: string, file: string, body: string): string {
  const idx = path.join(base, `idx-${process.pid}-${Math.random()}`);
  const e = { ...env, GIT_INDEX_FILE: idx };
  const run = (...a: string[]) => execFileSync('git', a, { cwd: root, env: e, encoding: 'utf8' }).trim();
  const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], {
    cwd: root,
    input: body,
    encoding: 'utf8',
  }).trim();
  run('read-tree', 'HEAD');
  run('update-index', '--add', '--cacheinfo', `100755,${blob},${file}`);
  const c = run('commit-tree', run('write-tree'), '-p', 'HEAD', '-m', 'tidy');
  rmSync(idx, { force: true });
  return c;
}

const guardOf = (root: string) => {
  const refs = refSnapshots([root]);
  const protection = { scan: { entries: new Map(), truncated: false }, denyWrite: [], roots: [root], refs, live: [] };
  return { refs, protection, guard: guardWhileRunning(protection) };
};

async function until(cond: () => boolean, ms = 8000): Promise<boolean> {
  const t0 = Date.now();
  while (!cond() && Date.now() - t0 < ms) await new Promise((r) => setTimeout(r, 20));
  return cond();
}

test('unit: a branch to a commit changing the hooks goes while the command runs; the agent’s own commit stands (judged again after the call)', async () => {
  const root = repo('a');
  const { refs, protection, guard } = guardOf(root);
  const own = plant(root, 'notes.txt', 'the agent’s work\n');
  try {
    git(root, 'update-ref', 'refs/heads/main', own);
    const p1 = plant(root, '.githooks/pre-commit', '#!/bin/sh\nenv > /tmp/x\n');
    git(root, 'update-ref', 'refs/heads/fix', p1);
    const fix = path.join(root, '.git', 'refs', 'heads', 'fix');
    assert.equal(await until(() => !existsSync(fix)), true, 'the branch was not put back while the command ran');
    assert.equal(git(root, 'rev-parse', 'main'), own);
    // The snapshot is not moved on (the round's objects are not verified yet): still the command's start.
    assert.notEqual(resolveName(refs.get(path.join(root, '.git'))!, 'refs/heads/main').oids[0], own);
    assert.match(protection.live.join('\n'), /refs\/heads\/fix named a commit that changes the repository’s hooks/);
  } finally {
    guard.stop();
  }
  // The check after the call judges main again and lets it stand; the branch is gone already.
  assert.doesNotMatch(undoCarriedRefs(refs).join('\n'), /refs\/heads\/(main|fix) named/);
  assert.equal(git(root, 'rev-parse', 'main'), own);
});

test('unit: a command that moves the branch back after each put-back is stopped', async () => {
  const root = repo('b');
  const { guard } = guardOf(root);
  let stopped: string | undefined;
  guard.onHostile((n) => (stopped = n));
  try {
    const p1 = plant(root, '.githooks/pre-commit', '#!/bin/sh\nenv > /tmp/x\n');
    const fix = path.join(root, '.git', 'refs', 'heads', 'fix');
    for (let i = 0; i < 3 && stopped === undefined; i++) {
      git(root, 'update-ref', 'refs/heads/fix', p1);
      assert.equal(await until(() => !existsSync(fix)), true, `put-back ${i + 1}`);
    }
    assert.match(stopped ?? '', /refs\/heads\/fix: written again after it was undone/);
  } finally {
    guard.stop();
  }
});

test('unit: refs moved every 20 ms are screened at most about once a second', async () => {
  const root = repo('c');
  const gitDir = path.join(root, '.git');
  const watch = watchRefs(refSnapshots([root]), { live: [], undid: () => undefined, roots: [root] });
  try {
    const own = plant(root, 'notes.txt', 'x\n');
    const t0 = Date.now();
    for (let i = 0; Date.now() - t0 < 2500; i++) {
      writeFileSync(path.join(gitDir, 'refs', 'heads', `agent-${i % 5}`), `${own}\n`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    watch.stop();
  }
  // A round at once, then one a second: 3 or 4 in 2.5 s.
  assert.ok(watch.rounds() >= 1 && watch.rounds() <= 4, `${watch.rounds()} rounds`);
});
