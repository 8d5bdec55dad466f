// unit (red team, issue 30, round t: rule rows — no sandbox, each in well under a second but the two
// child-process rows (5 s each)): what the protection reads from the person's configurations (ssh's
// %d, lefthook's rc/templates/root, CaptainHook), and reads of files a command can replace that block
// the worker's one thread (a FIFO as `.git/index`, as `package.json`). Hole rows carry
// `closed('T<n>: …')` (skipped unless R30T_HOLES=1). The findings: /work/helper-notes/redt-findings.md.
// Round t's other rows: red-issue30-t, red-issue30-t-git.
// Rows of round t's closed findings run by default where their fixes landed: red-issue30-st (T3, T4, T5,
// T6, T10, T13, T14, T17), nested-repositories (T2, T12, T18, T19), live-writers (T1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { redTeamUnit } from '../support/redTeamUnit';
import { repositoryConfigTargets } from '../../src/sandbox/repoConfigTargets';

const red = redTeamUnit({ round: 'T', tag: 'r30tr', label: 't-rules', bait: false });
const { project, exe } = red;

// T16 (rule): hookFrameworks.ts reads lefthook's `run:`, `extends:` and `source_dir`s. lefthook also
// sources the `rc:` file (an sh script) before its commands, substitutes `templates:` values into
// `run:` lines (`{wrap} fmt`), and runs a command with `root: web` from `web/` (lefthook.dev
// configuration: rc, templates, root). None of those files is protected: `./lint.sh` under `root:
// web` is taken from the top (the wrong file), `.lefthookrc` and `bin/wrap` not at all. lefthook
// is not installed here: a rule row on repositoryConfigTargets.
test(
  'T16 rule: what lefthook’s rc:, templates: and a command’s root: make each commit run is protected',
  // Closed by hookfx (hookFrameworks.ts reads rc:, templates:, root:); failed on main 56d1f14.
  {},
  () => {
    const root = project((r) => {
      for (const f of ['.lefthookrc', 'bin/wrap', 'web/lint.sh']) exe(path.join(r, f), '#!/bin/sh\n');
      writeFileSync(
        path.join(r, 'lefthook.yml'),
        'rc: ./.lefthookrc\ntemplates:\n  wrap: ./bin/wrap\npre-commit:\n  commands:\n    lint:\n      root: web\n      run: ./lint.sh\n    fmt:\n      run: "{wrap} fmt"\n',
      );
    });
    exe(
      path.join(root, '.git', 'hooks', 'pre-commit'),
      '#!/bin/sh\ncall_lefthook()\n{\n  lefthook "$@"\n}\ncall_lefthook run "pre-commit" "$@"\n',
    );
    const got = new Set(repositoryConfigTargets([root]).map((e) => path.relative(root, e.path)));
    assert.deepEqual(
      ['.lefthookrc', 'bin/wrap', 'web/lint.sh'].filter((f) => !got.has(f)),
      [],
      `protected: ${[...got].filter((f) => !/lefthook/.test(f)).join(', ')}`,
    );
  },
);

// U7's remainder (red team u; its rows are in red-issue30-u): lefthook's `extends:` takes globs, and an
// extended file may extend again; each file reached is read like the main configuration.
test('U7 rule, globs and chains: the run: lines of every configuration lefthook’s extends: reaches are read, and runner: lines', () => {
  const root = project((r) => {
    for (const f of ['scripts/a.sh', 'scripts/b.sh']) exe(path.join(r, f), '#!/bin/sh\n');
    exe(path.join(r, 'config', 'one.yml'), 'extends:\n  - config/deeper/two.yml\n');
    exe(path.join(r, 'config', 'deeper', 'two.yml'), 'pre-commit:\n  commands:\n    b:\n      run: sh scripts/b.sh\n');
    exe(path.join(r, 'config', 'x.yml'), 'pre-commit:\n  commands:\n    a:\n      run: sh scripts/a.sh\n');
    exe(path.join(r, 'tools', 'wrap.js'), '');
    writeFileSync(
      path.join(r, 'lefthook.yml'),
      'extends:\n  - config/*.yml\npre-push:\n  scripts:\n    "check.sh":\n      runner: node tools/wrap.js\n',
    );
  });
  exe(
    path.join(root, '.git', 'hooks', 'pre-commit'),
    '#!/bin/sh\ncall_lefthook()\n{\n  lefthook "$@"\n}\ncall_lefthook run "pre-commit" "$@"\n',
  );
  const got = new Set(repositoryConfigTargets([root]).map((e) => path.relative(root, e.path)));
  const want = [
    'config/one.yml',
    'config/x.yml',
    'config/deeper/two.yml',
    'scripts/a.sh',
    'scripts/b.sh',
    'tools/wrap.js',
  ];
  assert.deepEqual(
    want.filter((f) => !got.has(f)),
    [],
    `protected: ${[...got].join(', ')}`,
  );
});

// T19b: the same class in what each tool call computes: toolSession.ts sessionPermission → the files
// the session's hooks run (commandFiles.ts hookControlFiles → packageScriptFiles), which reads
// `<root>/package.json` with a bare readFileSync (no stat) when a hook runs `npm run <x>` (a
// PostToolUse `npm run lint`, a common settings hook). The agent's `rm package.json && mkfifo
// package.json` blocks the worker at the session's next tool call.
test(
  'T19b (sessions apart): package.json made a FIFO, a session hook `npm run lint` — the files the hooks run are computed (the worker’s thread is not blocked)',
  {}, // closed: commandFiles.ts regularText (open without blocking, checked on the descriptor)
  () => {
    const root = project();
    execFileSync('mkfifo', [path.join(root, 'package.json')]);
    const lib = path.resolve(__dirname, '..', '..', 'src', 'permissions', 'commandFiles.js');
    const call = `require(${JSON.stringify(lib)}).hookControlFiles([{ command: 'npm run lint' }], ${JSON.stringify(root)}, [${JSON.stringify(root)}])`;
    const r = spawnSync(process.execPath, ['-e', call], { timeout: 5_000 });
    assert.equal(r.error === undefined && r.status === 0, true, `computed: ${r.error?.message ?? r.status}`);
  },
);

// T20 (rule): hook frameworks beyond pre-commit, lefthook and lint-staged. CaptainHook (PHP's: its hook
// runs `vendor/bin/captainhook … --configuration=captainhook.json … hook:pre-commit`) runs the `action`s
// of `captainhook.json` at each commit: neither the configuration (no protected name, not taken from
// the `--configuration=` word) nor the scripts its actions name are protected. (Overcommit's
// `.overcommit.yml` is the same shape, but signed by overcommit itself; its `command:` files are not.)
test(
  'T20 rule: CaptainHook’s configuration and the scripts its actions run are protected when the person’s hook launches it',
  // Closed by hookfx (hookFrameworks.ts captainHook); failed on main 56d1f14.
  {},
  () => {
    const root = project((r) => {
      for (const f of ['vendor/bin/captainhook', 'tools/check.sh']) exe(path.join(r, f), '#!/bin/sh\n');
      const config = { 'pre-commit': { enabled: true, actions: [{ action: 'tools/check.sh' }] } };
      writeFileSync(path.join(r, 'captainhook.json'), JSON.stringify(config));
    });
    exe(
      path.join(root, '.git', 'hooks', 'pre-commit'),
      '#!/bin/sh\n\n# installed by CaptainHook 5.23.0\n\nINTERACTIVE="--no-interaction"\nvendor/bin/captainhook $INTERACTIVE --configuration=captainhook.json --bootstrap=vendor/autoload.php hook:pre-commit "$@" <&0\n',
    );
    const got = new Set(repositoryConfigTargets([root]).map((e) => path.relative(root, e.path)));
    assert.deepEqual(
      ['captainhook.json', 'tools/check.sh'].filter((f) => !got.has(f)),
      [],
      `protected: ${[...got].join(', ')}`,
    );
  },
);
