// unit (issue 30, red team w, W9): the commits a moved ref brings in are judged for package.json keys by
// the file tools' rule (manifestCommits.ts): a change to a script the person's hook runs, or to a control
// key, counts; the agent's ordinary package.json work (dependencies, a script no hook runs) does not.
// Function level, real git, no sandbox (the end-to-end row is W9 in red-issue30-w).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { tempBase } from '../support/redTeamUnit';
import { rangeChangesManifestKeys } from '../../src/sandbox/manifestCommits';
import { screenGit, withScreenBudget } from '../../src/sandbox/screenGit';

const base = tempBase('mancommits');
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'a',
  GIT_AUTHOR_EMAIL: 'a@x',
  GIT_COMMITTER_NAME: 'a',
  GIT_COMMITTER_EMAIL: 'a@x',
};
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, encoding: 'utf8' }).trim();

test('W9: a new commit changing a hooked script or a control key counts; dependencies and other scripts do not', () => {
  const root = path.join(base, 'r');
  mkdirSync(path.join(root, 'web'), { recursive: true });
  git(root, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nnpm run -s lint\n', { mode: 0o755 });
  const manifest = (o: object, rel = 'package.json') => writeFileSync(path.join(root, rel), `${JSON.stringify(o)}\n`);
  manifest({ name: 'p', scripts: { lint: 'true' }, dependencies: {} });
  manifest({ name: 'w' }, 'web/package.json');
  git(root, 'add', '-A');
  git(root, 'commit', '-qn', '-m', 'base');
  const head = git(root, 'rev-parse', 'HEAD');
  const commitOf = (o: object, rel = 'package.json') => {
    git(root, 'checkout', '-q', '--detach', head);
    manifest(o, rel);
    git(root, 'commit', '-qn', '-am', 'x');
    return git(root, 'rev-parse', 'HEAD');
  };
  const judge = (oid: string) => rangeChangesManifestKeys(path.join(root, '.git'), oid, new Set([head]));
  const cases: [string, string, boolean][] = [
    ['a dependency', commitOf({ name: 'p', scripts: { lint: 'true' }, dependencies: { x: '1' } }), false],
    ['scripts.build', commitOf({ name: 'p', scripts: { lint: 'true', build: 'tsc' } }), false],
    ['scripts.lint', commitOf({ name: 'p', scripts: { lint: 'sh x.sh' } }), true],
    ['prettier in web/', commitOf({ name: 'w', prettier: './evil.js' }, 'web/package.json'), true],
  ];
  // The hooked change below a clean tip (the person's rebase of the parent would bring it back: U5's class).
  git(root, 'checkout', '-q', '--detach', cases[2]![1]);
  manifest({ name: 'p', scripts: { lint: 'true' }, dependencies: {} });
  git(root, 'commit', '-qn', '-am', 'tidy');
  cases.push(['scripts.lint on the way', git(root, 'rev-parse', 'HEAD'), true], ['HEAD itself', head, false]);
  assert.deepEqual(
    cases.map(([what, oid]) => [what, judge(oid)]),
    cases.map(([what, , want]) => [what, want]),
  );
});

// Red team y, Y3: the judge's bounds (a blob once however many paths name it; 1 MiB each, 4 MiB a range; 1 s),
// past any of them the range counts as changing one; a root commit's manifests (ls-tree) are read by blob id too.
test('Y3: package.json blobs are judged within their bounds, and past them the range counts as changing a key', () => {
  const root = path.join(base, 'y3');
  mkdirSync(root, { recursive: true });
  git(root, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nnpm run -s lint\n', { mode: 0o755 });
  writeFileSync(path.join(root, 'package.json'), '{"name":"p","scripts":{"lint":"true"}}\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-qn', '-m', 'base');
  const head = git(root, 'rev-parse', 'HEAD');
  const gitDir = path.join(root, '.git');
  /** A commit on HEAD adding `files` (path → text). */
  const commitOf = (files: Record<string, string>, parent: string | undefined = head) => {
    git(root, 'read-tree', parent ?? '--empty');
    for (const [rel, text] of Object.entries(files)) {
      const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: root, input: text, encoding: 'utf8' });
      git(root, 'update-index', '--add', '--cacheinfo', `100644,${blob.trim()},${rel}`);
    }
    const tree = git(root, 'write-tree');
    return git(root, 'commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', 'x');
  };
  const big = (bytes: number, tag: string) => {
    const keys = Math.ceil(bytes / 14);
    return `{${Array.from({ length: keys }, (_, i) => `"${tag}${i}":[0]`).join(',')}}`;
  };
  const same = big(600_000, 'k');
  const judge = (oid: string) => rangeChangesManifestKeys(gitDir, oid, new Set([head]));
  const cases: [string, string, boolean][] = [
    [
      'one 600 kB blob at 8 paths',
      commitOf(Object.fromEntries([...Array(8).keys()].map((i) => [`m${i}/package.json`, same]))),
      false,
    ],
    ['a 1.5 MiB manifest', commitOf({ 'a/package.json': big(1_600_000, 'k') }), true],
    [
      'five 900 kB manifests',
      commitOf(Object.fromEntries([...Array(5).keys()].map((i) => [`m${i}/package.json`, big(900_000, `k${i}_`)]))),
      true,
    ],
    [
      'a root commit with the hooked script',
      commitOf({ 'package.json': '{"scripts":{"lint":"sh x"}}' }, undefined),
      true,
    ],
    [
      'a root commit without',
      commitOf({ 'package.json': '{"scripts":{"lint":"true"}}', 'w/package.json': '{}' }, undefined),
      false,
    ],
  ];
  const started = performance.now();
  assert.deepEqual(
    cases.map(([what, oid]) => [what, judge(oid)]),
    cases.map(([what, , want]) => [what, want]),
  );
  assert.ok(performance.now() - started < 10_000, 'judged in time');
  // No time left: nothing is run, and the range counts as changing one.
  assert.equal(
    withScreenBudget(0, () => rangeChangesManifestKeys(gitDir, cases[0]![1], new Set([head]))),
    true,
  );
  const r = withScreenBudget(0, () => screenGit(gitDir, ['rev-parse', 'HEAD']));
  assert.deepEqual([r.timedOut, r.overBudget, r.stdout], [true, true, '']);
});
