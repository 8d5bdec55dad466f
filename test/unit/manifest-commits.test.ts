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
