// The task runners and package.json script runners a hook line may run (hookPackageRuns.ts reads the
// lines): the task file each one evaluates or takes its commands from (red team q, Q5; v, V19; w, W7), and
// the programs that run package.json scripts by name (red team w, W6).
/** Task runners whose task file a line runs, and their options naming its directory and file. */
const MAKE = { dir: ['--directory', '-C'], file: ['--makefile', '--file', '-f'] };
export const TASK_RUNNERS: Record<string, { dir: string[]; file: string[] }> = {
  make: MAKE,
  gmake: MAKE,
  just: { dir: ['--working-directory', '-d'], file: ['--justfile', '-f'] },
  task: { dir: ['--dir', '-d'], file: ['--taskfile', '-t'] },
  // `bundle exec rubocop` evaluates the Gemfile, `swift package plugin x` builds Package.swift (red team v, V19).
  bundle: { dir: [], file: ['--gemfile'] },
  swift: { dir: ['--package-path'], file: [] },
  // The other runners whose task file is code or holds the commands (red team w, W7).
  rake: { dir: ['--directory', '-C'], file: ['--rakefile', '-f'] },
  gulp: { dir: ['--cwd'], file: ['--gulpfile', '-f'] },
  grunt: { dir: ['--base'], file: ['--gruntfile'] },
  jake: { dir: ['--directory', '-C'], file: ['--jakefile', '-f'] },
  composer: { dir: ['--working-dir', '-d'], file: [] },
  nox: { dir: [], file: ['--noxfile', '-f'] },
  invoke: { dir: ['--search-root', '-r'], file: [] },
  inv: { dir: ['--search-root', '-r'], file: [] },
  'cargo-make': { dir: ['--cwd'], file: ['--makefile'] },
  makers: { dir: ['--cwd'], file: ['--makefile'] },
  mise: { dir: ['--cd', '-C'], file: [] },
  nps: { dir: [], file: ['--config', '-c'] },
  deno: { dir: ['--cwd'], file: ['--config', '-c'] },
};
/** The task files of W7's runners (commandFiles.ts RUNNER_FILES has the permission rules' ones). */
export const TASK_FILES: Record<string, readonly string[]> = {
  rake: ['Rakefile', 'rakefile', 'Rakefile.rb', 'rakefile.rb'],
  gulp: ['gulpfile.js', 'gulpfile.cjs', 'gulpfile.mjs', 'gulpfile.ts', 'gulpfile.babel.js', 'gulpfile.js/index.js'],
  grunt: ['Gruntfile.js', 'gruntfile.js', 'Gruntfile.cjs', 'Gruntfile.coffee', 'Gruntfile.ts'],
  jake: ['Jakefile', 'Jakefile.js', 'jakefile', 'jakefile.js'],
  invoke: ['tasks.py', 'tasks/__init__.py', 'invoke.yaml', 'invoke.yml', 'invoke.json', 'invoke.py'],
  'cargo-make': ['Makefile.toml'],
  mise: [
    'mise.toml',
    '.mise.toml',
    'mise.local.toml',
    '.mise.local.toml',
    '.config/mise.toml',
    '.config/mise/config.toml',
    'mise/config.toml',
    '.mise/config.toml',
    'mise-tasks',
    '.mise-tasks',
    '.mise/tasks',
    'mise/tasks',
    '.config/mise/tasks',
  ],
  nps: [
    'package-scripts.js',
    'package-scripts.cjs',
    'package-scripts.mjs',
    'package-scripts.yml',
    'package-scripts.yaml',
    'package-scripts.json',
  ],
};
TASK_FILES['inv'] = TASK_FILES['invoke']!;
TASK_FILES['makers'] = TASK_FILES['cargo-make']!;
/**
 * Runners of package.json scripts by name (red team w, W6): npm-run-all's `run-s`, `run-p`, `npm-run-all`
 * (each word a script name, or a glob of names: `lint:*`), Rush's `rushx`, and `wsrun` (every workspace's).
 */
export const NAME_RUNNERS: Record<string, { wide: boolean }> = {
  'run-s': { wide: false },
  'run-p': { wide: false },
  'npm-run-all': { wide: false },
  'npm-run-all2': { wide: false },
  rushx: { wide: false },
  wsrun: { wide: true },
};
/** npm-run-all's and wsrun's options that take a value. */
export const NAME_RUNNER_VALUES = [
  '--max-parallel',
  '--npm-path',
  '--print-name',
  '--concurrency',
  '--exclude',
  '--stages',
  '-x',
];
/** concurrently's shorthand for a package manager's script (`npm:lint`, `yarn:test:*`). */
export const SHORTHAND = /^(?:npm|yarn|pnpm|bun):(.+)$/;
