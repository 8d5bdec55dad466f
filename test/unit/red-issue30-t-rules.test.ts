// unit (red team, issue 30, round t: rule rows — no sandbox, each in well under a second but the two
// child-process rows (5 s each)): what the protection reads from the person's configurations (ssh's
// %d, lefthook's rc/templates/root, CaptainHook), and reads of files a command can replace that block
// the worker's one thread (a FIFO as `.git/index`, as `package.json`). Hole rows carry
// `closed('T<n>: …')` (skipped unless R30T_HOLES=1). The findings: /work/helper-notes/redt-findings.md.
// Round t's other rows: red-issue30-t, red-issue30-t-git.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import * as path from 'node:path';
import { envGate, redTeamUnit } from '../support/redTeamUnit';
import { startupTargets } from '../../src/permissions/startupSources';
import { repositoryConfigTargets } from '../../src/sandbox/repoConfigTargets';

const red = redTeamUnit({ round: 'T', tag: 'r30tr', label: 't-rules', bait: false });
const { project, exe } = red;
/** Closed on main; a copy of the row runs by default (red-issue30-st, nested-repositories, …): R30T_CLOSED=1 runs it here. */
const closed = (line: string) => envGate(['R30T_HOLES', 'R30T_CLOSED'], `closed on main: ${line} (R30T_CLOSED=1)`);

// T10 (a session in HOME; S2's rule): startupSources.ts namedHomePaths reads `$HOME`, `${HOME}`, `~`,
// systemd's `%h` and the literal home. ssh names the home directory `%d` (ssh_config TOKENS:
// `ProxyCommand %d/bin/proxy %h %p`, `KnownHostsCommand`, `LocalCommand`, `Match exec`), and git
// and the shells expand `~<user>/` — the person's own name — to it too (`core.hooksPath =
// ~alice/githooks`). Those programs stay the agent's to rewrite in a session in HOME.
test(
  'T10 rule (a session in HOME): startupTargets reads ssh’s %d and git’s ~<user>/ as the home directory',
  closed('T10: namedHomePaths knows $HOME, ~, %h and the literal path, not ssh’s %d nor ~<user>/'),
  () => {
    const h = path.join(red.base, 't10-home');
    for (const d of ['.ssh', 'proxy', 'kh', 'githooks']) mkdirSync(path.join(h, d), { recursive: true });
    writeFileSync(
      path.join(h, '.ssh', 'config'),
      'Host *\n  ProxyCommand %d/proxy/run %h %p\n  KnownHostsCommand %d/kh/run %H\n',
    );
    writeFileSync(path.join(h, '.gitconfig'), `[core]\n\thooksPath = ~${userInfo().username}/githooks\n`);
    const got = new Set(startupTargets(h).map((p) => path.relative(h, p)));
    assert.deepEqual(
      ['proxy', 'kh', 'githooks'].filter((d) => !got.has(d)),
      [],
      `what the person’s ssh and git run from HOME: ${[...got].join(', ')}`,
    );
  },
);

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

// T19 (sessions apart: availability): Q16's index screen keeps `.git/index` when each command
// starts (stagedHooks.ts stagedSnapshots: lstat, then readFileSync of the path). `.git/` is the
// sandbox's to write: `rm .git/index && mkfifo .git/index` (checked by hand: allowed, and the check
// after that call blocks the worker ~10 s on the door's `git ls-files` with its timeout, synchronously:
// the call took 12.4 s). The NEXT command's start opens the FIFO with no writer: the worker's one
// JS thread blocks for good — every session on it. A child process stands in for the worker here.
test(
  'T19 (sessions apart): a FIFO left as .git/index — the next command’s index snapshot returns (the worker’s thread is not blocked)',
  closed('T19: stagedSnapshots reads .git/index by path with a blocking open; a FIFO there blocks the worker'),
  () => {
    const root = project();
    rmSync(path.join(root, '.git', 'index'));
    execFileSync('mkfifo', [path.join(root, '.git', 'index')]);
    const snap = path.resolve(__dirname, '..', '..', 'src', 'sandbox', 'stagedHooks.js');
    const r = spawnSync(
      process.execPath,
      ['-e', `require(${JSON.stringify(snap)}).stagedSnapshots([${JSON.stringify(root)}])`],
      {
        timeout: 5_000,
      },
    );
    assert.equal(
      r.error === undefined && r.status === 0,
      true,
      `the snapshot returned: ${r.error?.message ?? r.status}`,
    );
  },
);

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
