// unit (red team, issue 30, round w: rules, no sandbox). What the person's hooks make each commit run, as
// repositoryConfigTargets and hookManifestKeys compute it (the files and package.json keys they protect).
// A row the current code lets through carries `hole('W<n>: …')` (skipped unless R30W_HOLES=1); each has a
// control in a form the readers do read. The sandboxed rows are in red-issue30-w; the findings in
// /work/helper-notes/redw-findings.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { tempBase } from '../support/redTeamUnit';
import { hookManifestKeys, repositoryConfigTargets } from '../../src/sandbox/repoConfigTargets';
import { rangeChangesControl, tipChangesControl } from '../../src/sandbox/controlCommits';

const base = tempBase('r30wr');
let seq = 0;

/** A repository whose pre-commit hook is `hook` and which holds `files`: what is left unprotected of `want` (a path, or `scripts.<name>` of its package.json). */
function unprotected(hook: string, files: Record<string, string>, want: readonly string[]): string[] {
  const root = path.join(base, `r${++seq}`);
  mkdirSync(root, { recursive: true });
  execFileSync('git', ['init', '-q', root]);
  for (const [f, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    writeFileSync(path.join(root, f), body);
  }
  writeFileSync(path.join(root, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\n${hook}\n`);
  chmodSync(path.join(root, '.git', 'hooks', 'pre-commit'), 0o755);
  const names = new Set(repositoryConfigTargets([root]).map((e) => path.relative(root, e.path)));
  const keys = hookManifestKeys([root]);
  const scripts = [...(keys.get(path.join(root, 'package.json'))?.scripts ?? []), ...(keys.get('*')?.scripts ?? [])];
  return want
    .filter((w) => (w.startsWith('scripts.') ? !scripts.includes(w.slice(8)) : !names.has(w)))
    .map((w) => `${hook}: ${w}`);
}

const PACKAGE = {
  'package.json': JSON.stringify({ scripts: { lint: 'sh scripts/x.sh' } }),
  'scripts/x.sh': '#!/bin/sh\n',
};

// W5: V17's fix reads a hook's `deno task lint` as package.json's `scripts.lint` — but deno task runs the
// `tasks` of deno.json (or deno.jsonc) first, and package.json's scripts only when no such task is there.
// Neither file is protected (the line's `task` word is even read as go-task's, protecting Taskfile.yml): the
// agent adds `"tasks": {"lint": "sh tools/evil.sh"}` to deno.json — or writes a new deno.json — and the
// person's next commit runs it. Control: the package.json key and its script, which V17's fix protects.
test('W5 rule: the deno.json / deno.jsonc whose tasks a hook’s deno task lint runs are protected', () => {
  assert.deepEqual(unprotected('deno task lint', PACKAGE, ['scripts.lint', 'scripts/x.sh']), [], 'control');
  const deno = { 'deno.json': JSON.stringify({ tasks: { lint: 'sh scripts/y.sh' } }), 'scripts/y.sh': '' };
  const denoc = { 'deno.jsonc': '// tasks\n{ "tasks": { "lint": "sh scripts/y.sh" } }\n', 'scripts/y.sh': '' };
  const left = [
    ...unprotected('deno task lint', { ...PACKAGE, ...deno }, ['deno.json', 'scripts/y.sh']),
    ...unprotected('deno task lint', denoc, ['deno.jsonc', 'scripts/y.sh']),
    // absent: deno looks for it in the hook's directory first, a new one is the agent's to write
    ...unprotected('deno task lint', PACKAGE, ['deno.json', 'deno.jsonc']),
  ];
  assert.deepEqual(left, [], 'files deno task reads for its task, unprotected');
});

// W6: V17's class — package.json script runners hookPackageRuns.ts does not know: npm-run-all's `run-s` /
// `run-p` / `npm-run-all` (a common husky line: `run-s lint test`), concurrently's `npm:lint` shorthand,
// Rush's `rushx`, `wsrun`. Each runs package.json's `scripts.lint`; neither the key (manifestBins.ts watches
// only the keys the hooks name) nor the file it runs is protected: one call rewrites `scripts.lint`, the
// person's next commit runs it. Control: `npm run lint`.
test('W6 rule: a hook’s run-s lint / run-p lint / npm-run-all lint / concurrently npm:lint / rushx lint / wsrun lint protects scripts.lint and the file it runs', () => {
  const want = ['scripts.lint', 'scripts/x.sh'];
  assert.deepEqual(unprotected('npm run lint', PACKAGE, want), [], 'control: npm run lint');
  const left = [
    'run-s lint',
    'run-p lint',
    'npm-run-all lint',
    'npx run-s lint',
    'concurrently "npm:lint"',
    'rushx lint',
    'wsrun lint',
  ].flatMap((h) => unprotected(h, PACKAGE, want));
  assert.deepEqual(left, [], 'hook lines whose script key or file is not protected');
});

// W7: Q5's and V19's class (a task file the hook's runner evaluates is protected whole: Makefile, justfile,
// Taskfile, Gemfile, Package.swift) for the other task runners. commandFiles.ts RUNNER_FILES knows several of
// them for the permission rules (rake, nox, composer…), but the hook readings protect only TASK_RUNNERS'
// files: a hook's `rake lint` (Rakefile: Ruby), `gulp lint` (gulpfile.js), `grunt lint` (Gruntfile.js),
// `composer lint` (composer.json's scripts), `nox -s lint` (noxfile.py), `invoke lint` (tasks.py),
// `cargo make lint` (Makefile.toml), `mise run lint` (mise.toml's tasks), `nps lint` (package-scripts.js)
// runs code from a file the agent may rewrite. Control: `make lint` (the Makefile).
test('W7 rule: the task file a hook’s rake / gulp / grunt / composer / nox / invoke / cargo make / mise run / nps evaluates is protected', () => {
  const one = (hook: string, file: string) => unprotected(hook, { [file]: '# the person’s\n' }, [file]);
  assert.deepEqual(one('make lint', 'Makefile'), [], 'control: make lint');
  const left = [
    one('rake lint', 'Rakefile'),
    one('gulp lint', 'gulpfile.js'),
    one('grunt lint', 'Gruntfile.js'),
    one('composer lint', 'composer.json'),
    one('nox -s lint', 'noxfile.py'),
    one('invoke lint', 'tasks.py'),
    one('cargo make lint', 'Makefile.toml'),
    one('mise run lint', 'mise.toml'),
    one('nps lint', 'package-scripts.js'),
  ].flat();
  assert.deepEqual(left, [], 'task files evaluated by the hook’s runner and not protected');
});

// W12: closed by the protected-path screen of commits (red team x, X1: sandbox/controlCommits.ts): the 16
// names of lint-staged's configurations are protected wherever they are, and a commit a ref, reflog line
// or todo names that adds one at any depth is put back, whatever the hook-path list holds.
test('W12 rule: a lint-staged configuration a commit adds in a subdirectory is screened as the hook paths are (the ref, reflog and todo screens put it back)', () => {
  const root = path.join(base, `l${++seq}`);
  mkdirSync(path.join(root, '.githooks'), { recursive: true });
  const g = (...a: string[]) =>
    execFileSync('git', ['-C', root, '-c', 'user.email=a@x', '-c', 'user.name=a', ...a], { encoding: 'utf8' }).trim();
  execFileSync('git', ['init', '-q', root]);
  g('config', 'core.hooksPath', '.githooks');
  writeFileSync(path.join(root, '.githooks', 'pre-commit'), '#!/bin/sh\nnpx lint-staged\n');
  chmodSync(path.join(root, '.githooks', 'pre-commit'), 0o755);
  g('add', '-A');
  g('commit', '-qm', 'init', '--no-verify');
  const head = g('rev-parse', 'HEAD');
  const gitDir = path.join(root, '.git');
  const adds = (file: string): { tip: boolean; range: boolean } => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), '{"*.js": "node scripts/x.js"}\n');
    g('add', '--', file);
    const tree = g('write-tree');
    const commit = g('commit-tree', '-m', 'x', '-p', head, tree);
    g('rm', '-q', '--cached', '--', file);
    return {
      tip: tipChangesControl(gitDir, commit, head),
      range: rangeChangesControl(gitDir, commit, new Set([head])),
    };
  };
  assert.deepEqual(adds('src/app.js'), { tip: false, range: false }, 'control: an ordinary file');
  for (const f of ['src/.lintstagedrc.json', 'packages/web/lint-staged.config.js', 'src/.lintstagedrc'])
    assert.deepEqual(adds(f), { tip: true, range: true }, f);
});
