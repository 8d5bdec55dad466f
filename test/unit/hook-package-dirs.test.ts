// unit (issue 30, red team q, Q5): what the person's git hooks run in ANOTHER directory than the
// hook's — a package manager's directory option (`npm --prefix web`, `yarn --cwd web`, `pnpm -C web`,
// `bun --cwd web`), a script run in every workspace (`--workspaces`, `-ws`, `pnpm -r`, `yarn
// workspaces foreach`, `lerna run`, `turbo run`, `nx run-many -t`), and a task runner's file (`make -C
// web`, `make -f build.mk`, `just --justfile`). Function level, real files, no sandbox: the keys and
// files repoConfigTargets.ts hands the undo and the file tools (the end-to-end rows are Q5 in
// red-issue30-q).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { EVERY_MANIFEST, manifestBins, undoManifestBins } from '../../src/sandbox/manifestBins';
import { hookManifestKeys, repositoryConfigTargets } from '../../src/sandbox/repoConfigTargets';
import { manifestWriteRefusal } from '../../src/tools/manifestGuard';

const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-hookdirs-')));
after(() => rmSync(base, { recursive: true, force: true }));
let n = 0;

/** A repository whose `.githooks/pre-commit` is `hook`, with `files` written first. */
function repo(hook: string, files: Record<string, string> = {}): string {
  const d = path.join(base, `r${++n}`);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(d, f)), { recursive: true });
    writeFileSync(path.join(d, f), text);
  }
  mkdirSync(path.join(d, '.githooks'), { recursive: true });
  writeFileSync(path.join(d, '.githooks', 'pre-commit'), `#!/bin/sh\n${hook}\n`);
  execFileSync('git', ['init', '-q'], { cwd: d });
  execFileSync('git', ['config', 'core.hooksPath', '.githooks'], { cwd: d });
  return d;
}

const scriptsAt = (d: string, rel: string) => hookManifestKeys([d]).get(path.join(d, rel))?.scripts ?? [];

test('Q5: a directory option names the package.json whose scripts the hook runs', () => {
  for (const line of [
    'npm --prefix web run -s lint',
    'npm --prefix=web run lint',
    'npm -C web run lint',
    'yarn --cwd web lint',
    'pnpm -C web lint',
    'pnpm --dir=web run lint',
    'bun --cwd web run lint',
    'pushd web && npm run lint',
  ]) {
    const d = repo(line);
    assert.ok(scriptsAt(d, 'web/package.json').includes('lint'), line);
    assert.ok(!hookManifestKeys([d]).has(EVERY_MANIFEST), `${line}: no run in every workspace`);
  }
});

test('Q5: a script run in every workspace is watched in every package.json, a new one too, and the workspace lists are the person’s', async () => {
  const files = {
    'package.json': JSON.stringify({ name: 'root', workspaces: ['packages/*'], scripts: { lint: 'true' } }),
    'packages/a/package.json': JSON.stringify({ name: 'a', scripts: { lint: 'sh tools/lint.sh', build: 'tsc' } }),
  };
  for (const line of [
    'npm run -s lint --workspaces --if-present',
    'npm run lint -ws',
    'npm run lint -w packages/a',
    'pnpm -r lint',
    'pnpm --filter ./packages/a lint',
    'yarn workspaces foreach -A run lint',
    'npx lerna run lint',
    'turbo run lint',
    'nx run-many -t build,lint',
  ]) {
    const d = repo(line, files);
    const keys = hookManifestKeys([d]);
    assert.ok(keys.get(EVERY_MANIFEST)?.scripts.includes('lint'), line);
    assert.ok(scriptsAt(d, 'packages/a/package.json').includes('lint'), line);
    assert.deepEqual(keys.get(path.join(d, 'package.json'))?.keys, ['workspaces'], line);
    const targets = repositoryConfigTargets([d]).map((e) => e.path);
    for (const f of ['packages/a/tools/lint.sh', 'pnpm-workspace.yaml', 'lerna.json'])
      assert.ok(targets.includes(path.join(d, f)), `${line}: ${f}`);
  }
  // The undo: a new workspace's scripts.lint and the root's workspaces key are put back; build stays.
  const d = repo('npm run -s lint --workspaces', files);
  const zz = path.join(d, 'packages', 'zz', 'package.json');
  const root = path.join(d, 'package.json');
  const before = manifestBins([root, path.join(d, 'packages/a/package.json')], hookManifestKeys([d]));
  mkdirSync(path.dirname(zz));
  writeFileSync(zz, JSON.stringify({ name: 'zz', scripts: { lint: 'env > /tmp/x', build: 'tsc' } }));
  writeFileSync(root, JSON.stringify({ name: 'root', workspaces: ['packages/*', 'vendor/*'], scripts: {} }));
  const notes = undoManifestBins([root, zz], before);
  assert.equal(notes.length, 2, notes.join('\n'));
  assert.deepEqual(JSON.parse(readFileSync(zz, 'utf8')), { name: 'zz', scripts: { build: 'tsc' } });
  assert.deepEqual(JSON.parse(readFileSync(root, 'utf8')).workspaces, ['packages/*']);
  // The file tools refuse the same new workspace; one without the hooked script is the agent's.
  const write = (scripts: Record<string, string>) =>
    manifestWriteRefusal(path.join(d, 'packages', 'yy', 'package.json'), JSON.stringify({ scripts }), async () => null);
  assert.match((await write({ lint: 'env' })) ?? '', /scripts\.lint/);
  assert.equal(await write({ build: 'tsc' }), undefined);
});

test('Q5: the task file a hook’s make (just) reads is protected — its directory’s, or the one -C/-f names', () => {
  for (const [line, file] of [
    ['make -s lint', 'Makefile'],
    ['make -s -C web lint', 'web/Makefile'],
    ['make --directory=web lint', 'web/GNUmakefile'],
    ['make -Cweb -f build.mk lint', 'web/build.mk'],
    ['just --justfile ci/justfile lint', 'ci/justfile'],
    ['npm run -s check', 'tools/Makefile'],
  ] as const) {
    const d = repo(line, { 'package.json': JSON.stringify({ scripts: { check: 'make -C tools' } }) });
    const targets = repositoryConfigTargets([d]).map((e) => e.path);
    assert.ok(targets.includes(path.join(d, file)), `${line}: ${file} in ${targets.join(', ')}`);
  }
});
