// unit (issue 30, red team v, V11): the readers of the person's hook configuration never throw on a
// glob a sandboxed command wrote (`extends: ["["]` in lefthook-local.yml, `packages: ['[']` in
// pnpm-workspace.yaml), and every hook-path screen treats an unreadable configuration (HOOKS_UNREAD)
// as "may change a hook": fail closed, never "no hook paths". Function level, real files, no sandbox
// (the end-to-end row is V11 in red-issue30-v).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { segmentTest } from '../../src/sandbox/globSegment';
import { HOOKS_UNREAD, hookPathspecs } from '../../src/sandbox/hookPathspecs';
import { rangeChangesHooks } from '../../src/sandbox/refRange';
import { repositoryConfigTargets } from '../../src/sandbox/repoConfigTargets';
import { touchesHooks } from '../../src/sandbox/sequencerPatches';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-hookglobs-')));
after(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

/** A repository whose `.githooks/pre-commit` is `hook`, with `files` written first. */
function repo(hook: string, files: Record<string, string>): string {
  const d = path.join(base, `r${++n}`);
  for (const [f, text] of Object.entries({ ...files, '.githooks/pre-commit': `#!/bin/sh\n${hook}\n` })) {
    mkdirSync(path.dirname(path.join(d, f)), { recursive: true });
    writeFileSync(path.join(d, f), text);
  }
  execFileSync('git', ['init', '-q'], { cwd: d });
  execFileSync('git', ['config', 'core.hooksPath', '.githooks'], { cwd: d });
  return d;
}

test('V11: a glob segment is tested without a throw, whatever its brackets', () => {
  const cases: [string, string, boolean][] = [
    ['[', '[', true],
    ['[', 'a', false],
    ['x[', 'x[', true],
    ['[ab].yml', 'a.yml', true],
    ['[!ab].yml', 'a.yml', false],
    ['[!ab].yml', 'c.yml', true],
    ['[z-a]', '[z-a]', true],
    ['[]a]', ']', true],
    ['*.yml', 'one.yml', true],
    ['a.b', 'axb', false],
    ['(?', '(x', true],
  ];
  for (const [seg, name, want] of cases)
    assert.equal(segmentTest(seg, '[^/]*', '[^/]')(name), want, `${seg} ~ ${name}`);
});

test('V11: an extends: or workspace glob "[" leaves the hook configuration readable', () => {
  const lefthook = repo('lefthook run pre-commit "$@"', {
    'lefthook.yml': 'pre-commit:\n  commands:\n    lint:\n      run: sh scripts/lint.sh\n',
    'lefthook-local.yml': 'extends:\n  - "["\n  - "conf/[ab].yml"\n',
    'conf/a.yml': 'pre-commit:\n  commands:\n    b:\n      run: sh scripts/b.sh\n',
    'scripts/lint.sh': '',
    'scripts/b.sh': '',
  });
  const got = new Set(repositoryConfigTargets([lefthook]).map((e) => path.relative(lefthook, e.path)));
  for (const f of ['scripts/lint.sh', 'conf/a.yml', 'scripts/b.sh']) assert.ok(got.has(f), `${f}: ${[...got]}`);
  assert.notEqual(hookPathspecs(path.join(lefthook, '.git')), HOOKS_UNREAD);

  const pnpm = repo('pnpm -r run lint', {
    'package.json': JSON.stringify({ name: 'root' }),
    'pnpm-workspace.yaml': "packages:\n  - '['\n  - 'pkg/[a-b]'\n",
    'pkg/a/package.json': JSON.stringify({ name: 'a', scripts: { lint: 'sh tools/lint.sh' } }),
  });
  const files = new Set(repositoryConfigTargets([pnpm]).map((e) => path.relative(pnpm, e.path)));
  assert.ok(files.has('pkg/a/tools/lint.sh'), [...files].join(', '));
  assert.notEqual(hookPathspecs(path.join(pnpm, '.git')), HOOKS_UNREAD);
});

test('V11: an unreadable hook configuration makes every screen answer "may change a hook"', () => {
  const d = repo('true', { 'a.txt': 'a\n' });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@x', ...args], { cwd: d, encoding: 'utf8' }).trim();
  git('add', 'a.txt');
  git('commit', '-qm', 'one');
  const head = git('rev-parse', 'HEAD');
  writeFileSync(path.join(d, 'a.txt'), 'b\n');
  git('commit', '-qam', 'two');
  const tip = git('rev-parse', 'HEAD');
  const gitDir = path.join(d, '.git');
  assert.equal(rangeChangesHooks(gitDir, tip, new Set([head]), []), false);
  assert.equal(rangeChangesHooks(gitDir, tip, new Set([head]), HOOKS_UNREAD), true);
  assert.equal(touchesHooks(['a.txt'], []), false);
  assert.equal(touchesHooks(['a.txt'], HOOKS_UNREAD), true);
});
