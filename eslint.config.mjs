// `npm run lint`: typed rules that catch real bugs here — above all floating promises (a forgotten
// await in workflow code is a determinism bug; in an activity, a lost error) — unused code, and the
// rooms of docs/architecture.md (which room may import which: scripts/rooms.mjs).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { limitsPlugin } from './scripts/limits.mjs';
import { roomsPlugin } from './scripts/rooms.mjs';

const nodeTest = [
  {
    from: 'package',
    package: 'node:test',
    name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'demo/**', 'test/fixtures/**', '**/*.mjs', '**/*.js'] },
  // A disable comment that disables nothing is an error: it would hide the next real finding on that line.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { allowForKnownSafeCalls: nodeTest }],
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      // Off, each for a reason: the sanitisers match control characters on purpose; tests match
      // aligned columns of spaces; a rethrown error here says what failed in its own words (the
      // cause's message is in it), where ESLint 10's preserve-caught-error wants { cause }.
      'no-control-regex': 'off',
      'no-regex-spaces': 'off',
      'preserve-caught-error': 'off',
    },
  },
  {
    // The limits of src/ (issue 32; docs/architecture.md "Limits"): a file, a class and a function
    // stay short enough to hold in one's head, one concept each, and no two files import each
    // other even for a type (scripts/limits.mjs). Every line counts — comments and blank lines
    // too: a comment is read like code, and a limit that skips them rewards moving code into
    // them. Nested functions count towards the function around them (IIFEs too).
    files: ['src/**/*.ts'],
    plugins: { limits: limitsPlugin },
    rules: {
      'max-lines': ['error', { max: 500, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 100, skipBlankLines: false, skipComments: false, IIFEs: true }],
      'limits/max-class-lines': ['error', { max: 300 }],
      'limits/no-import-cycle': 'error',
    },
  },
  // --- The rooms (docs/architecture.md "Rooms of the code"): which room may import which rooms and
  // packages, no cycle between rooms, and the doc's table the same as the rules (scripts/rooms.mjs). ---
  {
    files: ['src/**/*.ts'],
    plugins: { rooms: roomsPlugin },
    rules: { 'rooms/imports': 'error' },
  },
  {
    // The in-process scheduler runs the same engine without Temporal ("one algorithm, two
    // schedulers"): no Temporal package, no workflow code, no client or worker start-up. The rooms
    // rule already forbids their runtime imports; this forbids their types too.
    files: ['src/inprocess/**/*.ts', 'src/tasks/inprocess/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@temporalio/|(\\.\\./)+temporal(/|$))',
              message:
                'src/inprocess (and src/tasks/inprocess) is the scheduler without Temporal: it imports no @temporalio/* and nothing of src/temporal (docs/architecture.md); shared code lives in src/core, src/runtime or src/sessionInput.',
            },
          ],
        },
      ],
    },
  },
  {
    // The test and demo utilities (src/testing) are imported only by the demo and the CLI.
    files: ['src/**/*.ts'],
    ignores: ['src/testing/**', 'src/demo/**', 'src/cli/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/testing', '**/testing/*'],
              message: 'src/testing is a test and demo utility: only src/demo and src/cli import it.',
            },
          ],
        },
      ],
    },
  },
  {
    // The Tool protocol's defaults: a tool of any input and output type must be assignable to
    // AnyTool (its call() takes its own Input: contravariant), which `unknown` would forbid.
    files: ['src/toolProtocol/Tool.ts', 'test/unit/tools-harness.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
