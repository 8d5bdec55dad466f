// unit (issue 30, red team w, W5-W7): what the task runners and script runners a person's hook line runs
// make protected, beyond the rows of red-issue30-w-rules: a glob of script names (`run-s lint:*`) watches
// the whole `scripts` key; a runner's other task-file names that are absent (`GNUmakefile` beside the
// person's `Makefile`, `rakefile` beside `Rakefile`) are undone when a command makes one, never held by an
// empty placeholder (make and rake would read the empty file first and the agent's own `make` would
// fail); deno's tasks are read from the hook's directory up. Function level, real files, no sandbox.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { tempBase } from '../support/redTeamUnit';
import { hookManifestKeys, repositoryConfigTargets } from '../../src/sandbox/repoConfigTargets';

const base = tempBase('taskrunners');
let seq = 0;

function repo(hook: string, files: Record<string, string>): string {
  const root = path.join(base, `r${++seq}`);
  mkdirSync(root, { recursive: true });
  execFileSync('git', ['init', '-q', root]);
  for (const [f, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    writeFileSync(path.join(root, f), body);
  }
  writeFileSync(path.join(root, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\n${hook}\n`, { mode: 0o755 });
  return root;
}

/** The protected entries, relative, ` (absent)` after one undone when made. */
const targets = (root: string) =>
  repositoryConfigTargets([root]).map((e) => path.relative(root, e.path) + (e.absentUndone ? ' (absent)' : ''));

test('W7: a task runner’s absent task-file names are undone when made, the present one denied', () => {
  const make = targets(repo('make lint', { Makefile: 'lint:\n\ttrue\n' }));
  for (const f of ['Makefile', 'makefile (absent)', 'GNUmakefile (absent)'])
    assert.ok(make.includes(f), `${f} in ${make.join(', ')}`);
  const rake = targets(repo('bundle exec rake lint', { Rakefile: 'task :lint\n' }));
  for (const f of ['Rakefile', 'rakefile (absent)', 'Rakefile.rb (absent)', 'Gemfile (absent)'])
    assert.ok(rake.includes(f), `${f} in ${rake.join(', ')}`);
  const cargo = targets(repo('cargo make --cwd tools lint', { 'tools/Makefile.toml': '' }));
  assert.ok(cargo.includes('tools/Makefile.toml'), cargo.join(', '));
  assert.ok(
    !cargo.includes('Makefile') && !cargo.includes('tools/Makefile'),
    `cargo make is no make: ${cargo.join(', ')}`,
  );
});

test('W6: a glob of script names watches the whole scripts key and reads every script', () => {
  const root = repo('npx run-p "lint:*"', {
    'package.json': JSON.stringify({ scripts: { 'lint:js': 'sh scripts/a.sh', build: 'tsc' } }),
    'scripts/a.sh': '',
  });
  const keys = hookManifestKeys([root]).get(path.join(root, 'package.json'));
  assert.ok(keys?.keys?.includes('scripts'), JSON.stringify(keys));
  assert.ok(targets(root).includes('scripts/a.sh'));
  const plain = repo('run-s lint test', {
    'package.json': JSON.stringify({ scripts: { lint: 'true', test: 'true' } }),
  });
  const k = hookManifestKeys([plain]).get(path.join(plain, 'package.json'));
  assert.deepEqual(
    [k?.scripts.includes('lint'), k?.scripts.includes('test'), k?.keys?.includes('scripts') ?? false],
    [true, true, false],
  );
});

test('W5: deno task reads deno.json and deno.jsonc from the hook’s directory up, object-form tasks too', () => {
  const root = repo('cd web && deno task lint', {
    'deno.jsonc':
      '{\n  // the person’s\n  "tasks": { "lint": { "command": "sh scripts/y.sh", "dependencies": ["fmt"] } },\n}\n',
    'scripts/y.sh': '',
    'web/main.ts': '',
  });
  const got = targets(root);
  for (const f of ['deno.jsonc', 'deno.json (absent)', 'scripts/y.sh'])
    assert.ok(got.includes(f), `${f} in ${got.join(', ')}`);
});
