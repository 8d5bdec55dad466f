// unit (issue 30, red team v, V4-V7): a hook framework's configuration is read in every form its
// framework reads — the forms beyond the rows of red-issue30-v-rules (a JavaScript configuration's
// local modules, literals joined by `+`, escapes, TOML and JSON chains and templates, overcommit's
// plugin directory and Gemfile, GrumPHP's imports) — and an ordinary configuration of each framework
// protects its own files, never the person's work it only names as data (globs, `files:` patterns,
// excluded directories). Function level (repositoryConfigTargets), real files, no sandbox.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { tempBase } from '../support/redTeamUnit';
import { flowItems, jsonStrings, scalar, tomlValues, yamlLines, yamlValues } from '../../src/sandbox/configText';
import { jsStrings } from '../../src/sandbox/jsConfigs';
import { repositoryConfigTargets } from '../../src/sandbox/repoConfigTargets';

const base = tempBase('hookformats');
let seq = 0;

/** The protected entries (relative paths, ` (absent)` after one undone when made) of a repository whose pre-commit hook is `hook`. */
function targets(hook: string, files: Record<string, string>): string[] {
  const root = path.join(base, `p${++seq}`);
  mkdirSync(root, { recursive: true });
  execFileSync('git', ['init', '-q', root]);
  for (const [f, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    writeFileSync(path.join(root, f), body);
  }
  writeFileSync(path.join(root, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\n${hook}\n`, { mode: 0o755 });
  return repositoryConfigTargets([root]).map((e) => path.relative(root, e.path) + (e.absentUndone ? ' (absent)' : ''));
}

const LEFTHOOK = 'call_lefthook run "pre-commit" "$@"';
const LINT_STAGED = 'npx lint-staged';
const PRE_COMMIT = 'exec pre-commit hook-impl --config=.pre-commit-config.yaml --hook-type=pre-commit';
const OVERCOMMIT = '# Entrypoint for Overcommit hook integration.\nexec ruby -e "require \'overcommit\'"';
const GRUMPHP = 'exec "vendor/bin/grumphp" "git:pre-commit" "--skip-success-output"';
const SCRIPT = { 'scripts/x.sh': '#!/bin/sh\nexit 0\n' };

test('unit: the YAML, JSON, TOML and JavaScript readers read each form as its framework does', () => {
  assert.equal(scalar('"scripts\\x2fx.sh" # c'), 'scripts/x.sh');
  assert.equal(scalar('&e !!str scripts/x.sh'), 'scripts/x.sh');
  assert.deepEqual(flowItems('["-c", "sh scripts/x.sh", {k: v}]'), ['-c', 'sh scripts/x.sh', 'v']);
  assert.deepEqual(yamlValues('a: &r sh scripts/x.sh\nb:\n  "entry": *r\n', 'entry'), ['sh scripts/x.sh']);
  assert.deepEqual(yamlValues('args: [\n  --a,\n  scripts/x.sh\n]\n', 'args'), ['--a scripts/x.sh']);
  assert.deepEqual(yamlValues('entry: >-\n  sh\n  scripts/x.sh\nid: c\n', 'entry'), ['sh\nscripts/x.sh']);
  assert.deepEqual(yamlLines("'*.js': |\n  sh scripts/x.sh\n'*.ts': [a, 'b c']\n"), ['sh scripts/x.sh', 'a', 'b c']);
  assert.deepEqual(
    tomlValues('extends = [\n  "a.toml",\n  "b.toml",\n]\n', 'extends').flatMap((v) => v.split(/\s+/)),
    ['a.toml', 'b.toml'],
  );
  assert.deepEqual(tomlValues('x = { run = "sh scripts/x.sh" }\n"run" = """\nsh y.sh\n"""\n', 'run').sort(), [
    'sh scripts/x.sh',
    'sh y.sh',
  ]);
  assert.deepEqual(jsonStrings('{\n  // c\n  "a": ["x", /* y */ "z",],\n}\n'), ['x', 'z']);
  assert.deepEqual(
    jsStrings(
      "module.exports = {\n  '*.js': ['sh ' + 'scripts/x.sh', `node ${d} b.js`], // 'c'\n  k: a ? 'p' : 'q',\n};\n",
    ),
    ['sh scripts/x.sh', 'node   b.js', 'p', 'q'],
  );
});

test('V5: the local modules a JavaScript configuration loads are protected and read (absent names undone when made)', () => {
  const got = targets(LINT_STAGED, {
    ...SCRIPT,
    'lint-staged.config.js':
      "const c = require('./tools/cmds');\nconst { name } = require('./package.json');\nmodule.exports = { '*.js': c.lint };\n",
    'package.json': '{"name": "p"}',
    'tools/cmds.js': "import x from '../lib/more.mjs';\nmodule.exports = { lint: 'sh scripts/x.sh' };\n",
    'lib/more.mjs': "export default 'sh lib/y.sh';\n",
    'lib/y.sh': '#!/bin/sh\n',
  });
  for (const f of [
    'tools/cmds.js',
    'lib/more.mjs',
    'scripts/x.sh',
    'lib/y.sh',
    'tools/cmds.json (absent)',
    'tools/cmds.ts (absent)',
  ])
    assert.ok(got.includes(f), `${f} in ${got.join(', ')}`);
  // A package.json loaded as data is not protected whole (its keys that run something are watched one by one).
  assert.ok(!got.includes('package.json'), got.join(', '));
});

test('V4: lefthook TOML and JSON chains, templates and roots are read like YAML ones', () => {
  const toml = targets(LEFTHOOK, {
    ...SCRIPT,
    'lefthook.toml': 'extends = [\n  "ci/more.toml",\n]\n[templates]\nwrap = "sh scripts/wrap.sh"\n',
    'ci/more.toml': '[pre-commit.commands.x]\nroot = "sub"\nrun = "{wrap} sh ./y.sh"\n',
    'sub/y.sh': '#!/bin/sh\n',
  });
  for (const f of ['ci/more.toml', 'scripts/wrap.sh', 'sub/y.sh'])
    assert.ok(toml.includes(f), `${f} in ${toml.join(', ')}`);
  const json = targets(LEFTHOOK, {
    ...SCRIPT,
    'lefthook.jsonc': '{\n  "templates": {"wrap": "sh scripts/x.sh"}, // c\n  "rc": "tools/rc.sh",\n}\n',
  });
  for (const f of ['scripts/x.sh', 'tools/rc.sh (absent)']) assert.ok(json.includes(f), `${f} in ${json.join(', ')}`);
});

test('V7: overcommit plugin directory, Gemfile and local configuration; GrumPHP imports and every default name', () => {
  const oc = targets(OVERCOMMIT, {
    '.overcommit.yml':
      'gemfile: tools/Gemfile\nplugin_directory: hooks/oc\nPreCommit:\n  X:\n    required_executable: scripts/x.sh\n',
    ...SCRIPT,
  });
  for (const f of [
    '.overcommit.yml',
    '.local-overcommit.yml (absent)',
    'tools/Gemfile (absent)',
    'hooks/oc (absent)',
    '.git-hooks (absent)',
    'scripts/x.sh',
  ])
    assert.ok(oc.includes(f), `${f} in ${oc.join(', ')}`);
  const grumphp = targets(GRUMPHP, {
    'grumphp.yml.dist': 'imports:\n  - { resource: ci/tasks.yml }\n',
    'ci/tasks.yml': 'grumphp:\n  tasks:\n    shell:\n      scripts:\n        - scripts/x.sh\n',
    ...SCRIPT,
  });
  for (const f of ['grumphp.yml (absent)', 'grumphp.yml.dist', 'ci/tasks.yml', 'scripts/x.sh'])
    assert.ok(grumphp.includes(f), `${f} in ${grumphp.join(', ')}`);
});

test('unit: an ordinary configuration of each framework protects none of the files it only names as data', () => {
  const work = {
    'src/app.ts': 'x',
    'src/legacy/old.ts': 'x',
    'tests/fixtures/f.json': '{}',
    'app/user.rb': 'x',
    'src/A.php': 'x',
  };
  const configs: [string, Record<string, string>][] = [
    [
      LEFTHOOK,
      {
        'lefthook.toml':
          '[pre-commit.commands.lint]\nglob = "*.{js,ts}"\nexclude = ["src/legacy/**"]\nrun = "npx eslint {staged_files}"\n',
        'lefthook.json':
          '{"pre-commit": {"jobs": [{"glob": "src/**/*.ts", "run": "npx prettier --check {staged_files}"}]}}',
      },
    ],
    [
      LINT_STAGED,
      {
        'lint-staged.config.mjs':
          "import path from 'node:path';\nexport default {\n  '*.{js,ts}': ['eslint --fix', 'prettier --write'],\n  'src/**/*.css': (files) => `stylelint ${files.join(' ')}`,\n};\n",
      },
    ],
    [
      PRE_COMMIT,
      {
        '.pre-commit-config.yaml':
          'repos:\n  - repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v4.5.0\n    hooks:\n      - id: trailing-whitespace\n        files: ^src/\n        exclude: ^tests/fixtures/\n      - id: check-yaml\n        args: [--allow-multiple-documents]\n',
      },
    ],
    [
      OVERCOMMIT,
      {
        '.overcommit.yml':
          'PreCommit:\n  RuboCop:\n    enabled: true\n    command: ["rubocop"]\n    include: "**/*.rb"\n    exclude:\n      - "app/legacy/**/*"\n',
      },
    ],
    [
      GRUMPHP,
      {
        'grumphp.yml':
          'grumphp:\n  tasks:\n    phpcs:\n      standard: PSR12\n      ignore_patterns: ["tests/", "src/Legacy/*.php"]\n',
      },
    ],
  ];
  for (const [hook, files] of configs) {
    const got = targets(hook, { ...work, ...files });
    const person = got.filter((f) => /^(src|tests|app)(\/|$)|[*?[{]/.test(f));
    assert.deepEqual(person, [], `${Object.keys(files).join(', ')}: ${got.join(', ')}`);
    for (const f of Object.keys(files)) assert.ok(got.includes(f), `${f} protected`);
  }
});

test('unit: every reader reads 256 KB of what a command may write in linear time (no backtracking over spaces)', () => {
  const KB = 256 * 1024;
  const texts = [
    `a${' '.repeat(KB)}`,
    `${' '.repeat(KB)}x`,
    `- ${' '.repeat(KB)}`,
    'run = [\n'.repeat(KB / 8),
    'run: [\n'.repeat(KB / 7),
    'run = """\n'.repeat(KB / 10),
    "'*.js': [\n".repeat(KB / 10),
    'entry: "'.repeat(KB / 8),
    'import '.repeat(KB / 7),
    "'a' ".repeat(KB / 4),
    '{"a": "b", '.repeat(KB / 11),
    'templates:\n' + `  ${' '.repeat(KB)}\n`,
  ];
  for (const text of texts) {
    const started = Date.now();
    yamlValues(text, 'run');
    yamlLines(text);
    tomlValues(text, 'run');
    jsonStrings(text);
    jsStrings(text);
    flowItems(text.slice(0, 64 * 1024));
    scalar(text);
    const ms = Date.now() - started;
    assert.ok(ms < 2_000, `${JSON.stringify(text.slice(0, 20))}…: ${ms} ms`);
  }
});
