// unit (red team, issue 30, round v: rules, no sandbox). What the person's hooks make each commit run,
// as repositoryConfigTargets computes it (the files it protects). A row the current code lets through
// carries `hole('V<n>: …')` (skipped unless R30V_HOLES=1); each has a control in a form the reader does
// read. The sandboxed rows are in red-issue30-v; the findings in /work/helper-notes/redv-findings.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { holeGate, tempBase } from '../support/redTeamUnit';
import { hookManifestKeys, repositoryConfigTargets } from '../../src/sandbox/repoConfigTargets';
import { toolConfigTargets } from '../../src/sandbox/toolConfigTargets';

const base = tempBase('r30vr');
const _hole = holeGate('R30V_HOLES');
let seq = 0;

/** Is `scripts/x.sh` protected in a repository whose pre-commit hook is `hook` and which holds `files`? */
function protects(hook: string, files: Record<string, string>): boolean {
  const root = path.join(base, `p${++seq}`);
  mkdirSync(path.join(root, 'scripts'), { recursive: true });
  execFileSync('git', ['init', '-q', root]);
  for (const [f, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    writeFileSync(path.join(root, f), body);
  }
  writeFileSync(path.join(root, 'scripts', 'x.sh'), '#!/bin/sh\nexit 0\n');
  writeFileSync(path.join(root, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\n${hook}\n`);
  chmodSync(path.join(root, '.git', 'hooks', 'pre-commit'), 0o755);
  return repositoryConfigTargets([root]).some((e) => path.relative(root, e.path) === path.join('scripts', 'x.sh'));
}

/** The forms of `cases` whose `scripts/x.sh` is not protected. */
const open = (hook: string, cases: Record<string, Record<string, string>>) =>
  Object.entries(cases)
    .filter(([, files]) => !protects(hook, files))
    .map(([name]) => name);

/** lefthook's generated hook. */
const LEFTHOOK = 'call_lefthook()\n{\n  lefthook "$@"\n}\ncall_lefthook run "pre-commit" "$@"';

// V4: lefthook reads lefthook.toml, .json and .jsonc (and their `.lefthook`, `.config/lefthook`, `-local`
// forms) as well as YAML, and hookFrameworks.ts protects those names — but reads their `run:` lines with
// yamlValues only: TOML's `run = "…"` and JSON's `"run": "…"` match neither its block nor its flow
// pattern. The script a TOML or JSON lefthook configuration runs at every commit is the agent's to
// rewrite (the person's next `git commit` runs it). Control: the same command in lefthook.yml. Fixed
// (session 28): every reader tried on every format (hookFrameworks.ts configValues, configText.ts).
test('V4 rule: the script a lefthook.toml / lefthook.json / lefthook.jsonc command runs is protected', () => {
  assert.ok(
    protects(LEFTHOOK, { 'lefthook.yml': 'pre-commit:\n  commands:\n    x:\n      run: sh scripts/x.sh\n' }),
    'control: lefthook.yml',
  );
  const left = open(LEFTHOOK, {
    'lefthook.toml': { 'lefthook.toml': '[pre-commit.commands.x]\nrun = "sh scripts/x.sh"\n' },
    'lefthook.json': { 'lefthook.json': '{"pre-commit": {"commands": {"x": {"run": "sh scripts/x.sh"}}}}\n' },
    'lefthook.jsonc': {
      'lefthook.jsonc': '{\n  // lint\n  "pre-commit": {"commands": {"x": {"run": "sh scripts/x.sh"}}}\n}\n',
    },
  });
  assert.deepEqual(left, [], 'lefthook configurations whose run: script is not protected');
});

// V5: lint-staged's and husky 1-4's JavaScript configurations (lint-staged.config.js/.mjs/.cjs,
// .lintstagedrc.js/.cjs/.mjs; .huskyrc.js, husky.config.js) are protected but not read (hookFrameworks.ts:
// `if (/\.[mc]?[jt]s$/.test(name)) continue`, "the JavaScript ones are protected, not read"). They are
// lint-staged's most common form (`module.exports = { '*.js': 'node scripts/check.js' }`): the files their
// command strings name — and the local modules they require — are the agent's to rewrite, and the
// person's next commit runs them. Control: the same command in `.lintstagedrc` / `.huskyrc.json`. Fixed
// (session 28): their string literals read as hook lines, their local modules followed (jsConfigs.ts).
test('V5 rule: the script a lint-staged.config.js / .lintstagedrc.cjs / husky.config.js / .huskyrc.js command runs is protected', () => {
  const husky = '. "$(dirname "$0")/husky.sh"';
  assert.ok(protects('npx lint-staged', { '.lintstagedrc': "'*.js': sh scripts/x.sh\n" }), 'control: .lintstagedrc');
  assert.ok(
    protects(husky, { '.huskyrc.json': '{"hooks": {"pre-commit": "sh scripts/x.sh"}}' }),
    'control: .huskyrc.json',
  );
  const cjs = "module.exports = { '*.js': 'sh scripts/x.sh' };\n";
  const hooks = "module.exports = { hooks: { 'pre-commit': 'sh scripts/x.sh' } };\n";
  const left = [
    ...open('npx lint-staged', {
      'lint-staged.config.js': { 'lint-staged.config.js': cjs },
      'lint-staged.config.mjs': { 'lint-staged.config.mjs': "export default { '*.js': ['sh scripts/x.sh'] };\n" },
      '.lintstagedrc.cjs': { '.lintstagedrc.cjs': cjs },
    }),
    ...open(husky, { 'husky.config.js': { 'husky.config.js': hooks }, '.huskyrc.js': { '.huskyrc.js': hooks } }),
  ];
  assert.deepEqual(left, [], 'JavaScript configurations whose command’s script is not protected');
});

// V6: pre-commit reads `.pre-commit-config.yaml` with a YAML parser: a key may be quoted, and a JSON text is
// YAML. hookFrameworks.ts yamlValues matches `entry:` unquoted at a line's start (or after `{`/`,` in
// flow style): `"entry": scripts/x.sh` and a configuration written as JSON (generators and some editors
// write it so) are not read, and the script their `repo: local` hook runs is the agent's to rewrite.
// Control: `entry: scripts/x.sh`. Fixed (session 28): quoted keys, JSON, block scalars, flow lists and
// aliases read (configText.ts), and every path-like word of the file besides (configWords).
test('V6 rule: the script a pre-commit or lint-staged YAML configuration runs is protected whatever YAML form names it (quoted key, JSON, block scalar, flow sequence, alias)', () => {
  const hook = 'exec pre-commit hook-impl --config=.pre-commit-config.yaml --hook-type=pre-commit';
  const local = (entry: string) =>
    `repos:\n  - repo: local\n    hooks:\n      - id: c\n        name: c\n        ${entry}\n        language: script\n`;
  assert.ok(protects(hook, { '.pre-commit-config.yaml': local('entry: scripts/x.sh') }), 'control');
  const left = open(hook, {
    'quoted key': { '.pre-commit-config.yaml': local('"entry": scripts/x.sh') },
    JSON: {
      '.pre-commit-config.yaml':
        '{"repos": [{"repo": "local", "hooks": [{"id": "c", "name": "c", "entry": "scripts/x.sh", "language": "script"}]}]}\n',
    },
  });
  // The same rough readers on lint-staged's YAML: a block scalar and a flow sequence are YAML too.
  const lintStaged = open('npx lint-staged', {
    'block scalar': { '.lintstagedrc.yaml': "'*.js': >\n  sh scripts/x.sh\n" },
    'flow sequence': { '.lintstagedrc.yaml': "'*.js': [sh scripts/x.sh]\n" },
  });
  const alias = open(hook, {
    alias: {
      '.pre-commit-config.yaml': `x: &e scripts/x.sh\n${local('entry: *e')}`,
    },
  });
  assert.deepEqual([...left, ...lintStaged, ...alias], [], 'YAML configurations whose script is not protected');
});

// V7: hook frameworks the readers do not know: overcommit (Ruby; its hook loads `.overcommit.yml`, whose
// `command:` runs at each commit — overcommit signs its own plugins, not the scripts a command names) and
// GrumPHP (`grumphp git:pre-commit` runs grumphp.yml's `shell` task scripts). The script their
// configuration names is the agent's to rewrite. (CaptainHook, the control, is read.) Fixed (session 28):
// otherHookFrameworks.ts.
test('V7 rule: the script an overcommit or GrumPHP configuration runs at each commit is protected', () => {
  assert.ok(
    protects('vendor/bin/captainhook hook:pre-commit', {
      'captainhook.json': '{"pre-commit": {"enabled": true, "actions": [{"action": "sh scripts/x.sh"}]}}',
    }),
    'control: CaptainHook',
  );
  const left = [
    ...open('# Entrypoint for Overcommit hook integration.\nexec ruby -e "require \'overcommit\'"', {
      overcommit: {
        '.overcommit.yml': "PreCommit:\n  CustomScript:\n    enabled: true\n    command: ['scripts/x.sh']\n",
      },
    }),
    ...open('exec "vendor/bin/grumphp" "git:pre-commit" "--skip-success-output"', {
      grumphp: {
        'grumphp.yml': 'grumphp:\n  tasks:\n    shell:\n      scripts:\n        - ["-c", "sh scripts/x.sh"]\n',
      },
    }),
  ];
  assert.deepEqual(left, [], 'frameworks whose configured script is not protected');
});

/** Which of `want` toolConfigTargets leaves unprotected in a project holding `files`. */
function toolOpen(files: Record<string, string>, want: readonly string[]): string[] {
  const root = path.join(base, `n${++seq}`);
  for (const [f, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    writeFileSync(path.join(root, f), body);
  }
  const got = new Set(toolConfigTargets([root]).map((e) => path.relative(root, e.path)));
  return want.filter((w) => !got.has(w));
}

// V12: envrcNames.ts follows the Nix code `use nix` / `use flake` evaluates through path literals ending in
// `.nix`, `.sh` or `.bash` only (NIX_PATHS). A path literal naming a DIRECTORY is Nix's most common import —
// `import ./nix { inherit pkgs; }` and `callPackage ./tools/mytool {}` evaluate `<dir>/default.nix` — and a
// flake's `inputs.x.url = "path:./nix/dev"` evaluates `nix/dev/flake.nix`: none is protected, and the
// person's next prompt in the project (direnv's hook) evaluates the agent's Nix (which runs what it likes
// through the shellHook it returns). Control: `import ./nix/dev.nix`. Fixed (session 28): extension-less
// literals (a directory: its default.nix; a file: itself), flake `path:` / `git+file:` inputs (flake.nix and
// flake.lock), and the files a shellHook's lines run (read like a hook's).
test('V12 rule: the Nix a use nix / use flake evaluates through a directory import or a path: input is protected', () => {
  const shell = (body: string) => `{ pkgs ? import <nixpkgs> {} }: ${body}\n`;
  assert.deepEqual(
    toolOpen(
      { '.envrc': 'use nix\n', 'shell.nix': shell('import ./nix/dev.nix { inherit pkgs; }'), 'nix/dev.nix': 'x' },
      ['nix/dev.nix'],
    ),
    [],
    'control: import ./nix/dev.nix',
  );
  const left = [
    ...toolOpen(
      { '.envrc': 'use nix\n', 'shell.nix': shell('import ./nix { inherit pkgs; }'), 'nix/default.nix': 'x' },
      ['nix/default.nix'],
    ),
    ...toolOpen(
      {
        '.envrc': 'use nix\n',
        'shell.nix': shell('pkgs.mkShell { buildInputs = [ (pkgs.callPackage ./tools/mytool {}) ]; }'),
        'tools/mytool/default.nix': 'x',
      },
      ['tools/mytool/default.nix'],
    ),
    ...toolOpen(
      {
        '.envrc': 'use flake\n',
        'flake.nix': '{ inputs.dev.url = "path:./nix/dev"; outputs = { self, dev }: dev.outputs; }\n',
        'nix/dev/flake.nix': 'x',
      },
      ['nix/dev/flake.nix'],
    ),
    ...toolOpen(
      {
        '.envrc': 'use flake\n',
        'flake.nix': '{ inputs = { dev = { url = "git+file:.?dir=nix/dev"; }; }; outputs = _: {}; }\n',
        'nix/dev/flake.nix': 'x',
      },
      ['nix/dev/flake.nix', 'nix/dev/flake.lock'],
    ),
    ...toolOpen(
      {
        '.envrc': 'use nix\n',
        'shell.nix': shell(
          "pkgs.mkShell { shellHook = ''\n  source dev/env\n  python3 tools/setup.py --quiet\n  export X=${pkgs.hello}\n''; }",
        ),
        'dev/env': 'x',
        'tools/setup.py': 'x',
      },
      ['dev/env', 'tools/setup.py'],
    ),
  ];
  assert.deepEqual(left, [], 'Nix files evaluated at the person’s prompt and not protected');
});

// V17: script runners hookPackageRuns.ts does not know. Node 22's `node --run <name>` runs package.json's
// `scripts.<name>` (stable since Node 22.3), as do `deno task <name>` (Deno 2: a package.json script when
// deno.json has no such task) and @antfu/ni's `nr <name>`. A hook line using one names neither the script
// key (manifestBins.ts watches only the keys the hooks name: the agent may rewrite `scripts.lint`) nor the
// files the script runs. Control: `npm run lint`.
test('V17 rule: a hook’s node --run lint / deno task lint / nr lint protects scripts.lint and the file it runs', () => {
  const open = (hook: string): string[] => {
    const root = path.join(base, `r${++seq}`);
    mkdirSync(path.join(root, 'scripts'), { recursive: true });
    execFileSync('git', ['init', '-q', root]);
    writeFileSync(path.join(root, 'package.json'), JSON.stringify({ scripts: { lint: 'sh scripts/x.sh' } }));
    writeFileSync(path.join(root, 'scripts', 'x.sh'), '#!/bin/sh\n');
    writeFileSync(path.join(root, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\n${hook}\n`);
    chmodSync(path.join(root, '.git', 'hooks', 'pre-commit'), 0o755);
    const file = repositoryConfigTargets([root]).some((e) => path.relative(root, e.path) === 'scripts/x.sh');
    const key = hookManifestKeys([root]).get(path.join(root, 'package.json'))?.scripts.includes('lint') ?? false;
    return [...(file ? [] : [`${hook}: scripts/x.sh`]), ...(key ? [] : [`${hook}: scripts.lint`])];
  };
  assert.deepEqual(open('npm run lint'), [], 'control: npm run lint');
  const left = ['node --run lint', 'deno task lint', 'nr lint'].flatMap(open);
  assert.deepEqual(left, [], 'hook lines whose script key or file is not protected');
});

// V19: Q5's class (the task file a hook's `make` reads is protected whole) for Ruby's bundler and Swift's
// package manager. `bundle exec <tool>` evaluates the project's Gemfile (Ruby code; `.bundle/config`'s
// BUNDLE_GEMFILE may name another) before it runs anything — a hook's `bundle exec rubocop`, overcommit's
// `bundle exec overcommit --run`, lefthook's own launcher when no lefthook is on PATH (`bundle exec lefthook`)
// — and `swift package plugin …` (lefthook's launcher too) compiles and runs Package.swift. commandFiles.ts
// RUNNER_FILES names neither. Control: `make lint` (its Makefile).
test(
  'V19 rule: the Gemfile a hook’s bundle exec evaluates, and the Package.swift its swift package runs, are protected',
  {}, // closed (fixv): bundle and swift are task runners (commandFiles.ts RUNNER_FILES, hookPackageRuns.ts TASK_RUNNERS)
  () => {
    const got = (hook: string, files: readonly string[]) => {
      const root = path.join(base, `g${++seq}`);
      mkdirSync(root, { recursive: true });
      execFileSync('git', ['init', '-q', root]);
      for (const f of files) writeFileSync(path.join(root, f), '# the person’s\n');
      writeFileSync(path.join(root, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\n${hook}\n`);
      chmodSync(path.join(root, '.git', 'hooks', 'pre-commit'), 0o755);
      const names = new Set(repositoryConfigTargets([root]).map((e) => path.relative(root, e.path)));
      return files.filter((f) => !names.has(f)).map((f) => `${hook}: ${f}`);
    };
    assert.deepEqual(got('make lint', ['Makefile']), [], 'control: make lint');
    const left = [
      ...got('bundle exec rubocop', ['Gemfile']),
      ...got('swift package --disable-sandbox plugin lefthook "$@"', ['Package.swift']),
    ];
    assert.deepEqual(left, [], 'files evaluated by the hook’s runner and not protected');
  },
);
