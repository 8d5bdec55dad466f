// unit (issue 30, session 26: round t's leads that had no row, /work/helper-notes/s25-old/redt-findings.md
// "## Leads"): each row failed before its fix (said at the row). Real OS sandbox, real files, real git,
// a bait HOME where a row runs a sandboxed call; oracles: what the person's tools read or run later.
//  - L1 lefthook's `remotes:` cache under the git directory's `info/lefthook-remotes`;
//  - L2 mise `[tools] x = "path:./dir"` and `.tool-versions` `path:` versions: the named directory's bin;
//  - L3 direnv `use nix <file>` / `use flake <dir>` with an argument;
//  - L4 lstat-then-read: a FIFO swapped in between no longer holds the worker (files/regularText.ts);
//  - L5 one after-call screen's throw no longer skips the others (red-issue30-u U1), and fails closed (afterCall.ts).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runScreens, uncheckedNote } from '../../src/sandbox/afterCall';
import { sessionSandboxPlan } from '../../src/sandbox/sessionPlan';
import { recordUnchecked } from '../../src/sandbox/uncheckedCalls';
import { redTeamUnit } from '../support/redTeamUnit';

const red = redTeamUnit({
  round: 'U',
  tag: 'r30lu',
  label: 'leads u',
  bait: { ANTHROPIC_API_KEY: 'sk-ant-BAIT-U-api', ZEPHYR_LEDGER_SECRET: 'BAIT-U-ledger' },
});
const { base } = red;
let skip: string | false = false;
before(async () => (skip = await red.setUp()));

/**
 * In a fresh node: `module`'s `fn(...args)` while `target` is swapped for a FIFO at the first look at it
 * (after an lstat or stat of it returned, before an open of it), as a background task racing the screen
 * would. The child's status, output and whether the swap happened; a reader that blocks on the FIFO is
 * killed after `timeoutMs` (only the failing case waits).
 */
function withFifoSwap(target: string, module: string, fn: string, args: unknown[], timeoutMs = 30_000) {
  const script = `
    const fs = require('node:fs');
    const { execFileSync } = require('node:child_process');
    const [target, mod, fn, args] = process.argv.slice(1);
    let swapped = false;
    const swap = () => {
      if (swapped) return;
      swapped = true;
      fs.unlinkSync(target);
      execFileSync('mkfifo', [target]);
    };
    for (const name of ['lstatSync', 'statSync']) {
      const real = fs[name];
      fs[name] = function (p, ...rest) {
        const r = real.call(this, p, ...rest);
        if (String(p) === target) swap();
        return r;
      };
    }
    const open = fs.openSync;
    fs.openSync = function (p, ...rest) {
      if (String(p) === target) swap();
      return open.call(this, p, ...rest);
    };
    require(mod)[fn](...JSON.parse(args));
    console.log(swapped ? 'swapped' : 'untouched');
  `;
  const mod = path.join(__dirname, '..', '..', 'src', module);
  return spawnSync(process.execPath, ['-e', script, target, mod, fn, JSON.stringify(args)], {
    encoding: 'utf8',
    timeout: timeoutMs,
  });
}

// L4: lstat-then-readFileSync(path) in five readers of the person's control files (hookFrameworks.ts
// `text`, repoConfigTargets.ts `readConfig`, toolConfigTargets.ts `readSmall`, startupSources.ts,
// hookPackageRuns.ts `manifestOf`): a FIFO swapped in after the check blocked the worker's thread
// in `open` (no writer ever comes). Each now reads through files/regularText.ts (O_NONBLOCK, fstat).
// Failed before (each child killed at the timeout, `untouched` never printed) with main's readers.
test('L4: a FIFO swapped in between a reader’s check and its read does not hold the worker', async (t) => {
  const dir = path.join(base, 'l4');
  mkdirSync(path.join(dir, 'home'), { recursive: true });
  const file = (rel: string, body: string) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), body);
    return path.join(dir, rel);
  };
  const lefthookHook = '#!/bin/sh\ncall_lefthook run "pre-commit"\n';
  const cases: { what: string; target: () => string; call: [string, string, unknown[]] }[] = [
    {
      what: 'hookFrameworks text (lefthook.yml)',
      target: () => file('a/lefthook.yml', 'pre-commit:\n  commands:\n    x:\n      run: "true"\n'),
      call: ['sandbox/hookFrameworks', 'hookFrameworkRuns', [[lefthookHook], [], path.join(dir, 'a')]],
    },
    {
      what: 'repoConfigTargets readConfig (.git/config)',
      target: () => {
        file('b/.git/HEAD', 'ref: refs/heads/main\n');
        mkdirSync(path.join(dir, 'b', '.git', 'objects'), { recursive: true });
        return file('b/.git/config', '[core]\n\tbare = false\n');
      },
      call: ['sandbox/repoConfigTargets', 'repositoryConfigTargets', [[path.join(dir, 'b')]]],
    },
    {
      what: 'toolConfigTargets readSmall (.envrc)',
      target: () => file('c/.envrc', 'PATH_add bin\n'),
      call: ['sandbox/toolConfigTargets', 'namedBy', [path.join(dir, 'c', '.envrc'), [path.join(dir, 'c')]]],
    },
    {
      what: 'startupSources (a start-up file)',
      target: () => file('home/.bashrc', '. ~/tools/env.sh\n'),
      call: ['permissions/startupSources', 'startupTargets', [path.join(dir, 'home')]],
    },
    {
      what: 'hookPackageRuns manifestOf (package.json)',
      target: () => file('e/package.json', '{"scripts":{"lint":"sh scripts/lint.sh"}}\n'),
      call: [
        'sandbox/hookPackageRuns',
        'hookPackageRuns',
        [[{ command: 'npm run lint', cwd: path.join(dir, 'e') }], [path.join(dir, 'e')]],
      ],
    },
  ];
  const blocked: string[] = [];
  for (const c of cases) {
    const target = c.target();
    const [module, fn, args] = c.call;
    const r = withFifoSwap(target, module, fn, args);
    t.diagnostic(`${c.what}: status ${r.status} signal ${r.signal} ${r.stdout.trim()} ${r.stderr.slice(0, 300)}`);
    if (r.signal !== null) blocked.push(c.what);
    else {
      assert.equal(r.status, 0, `${c.what}: ${r.stderr}`);
      assert.equal(r.stdout.trim(), 'swapped', `${c.what}: the FIFO was swapped in`);
    }
  }
  assert.deepEqual(blocked, [], 'readers blocked on the FIFO (killed at the timeout)');
});

// L6 (red team u's lead: "regularText unbounded read"): a file empty when the reader checks it, filled
// meanwhile as fast as a background task can (`yes >>`), was read to its end by `readFileSync(fd)`:
// memory and time without a bound. In a fresh node the screens' reader (anchored.ts readRegularFile,
// now files/regularText.ts) reads a file that is empty at its check (the descriptor's fstat made to say
// so) and 8 MiB once opened: no text (more than its cap), and no more than the cap read. Failed before
// (main's readRegularFile returned all 8 MiB).
test('L6: a file that grows past the cap after the reader’s check is not read whole', () => {
  const target = path.join(base, 'l6-state');
  writeFileSync(target, '');
  const script = `
    const fs = require('node:fs');
    const [target, mod] = process.argv.slice(1);
    const open = fs.openSync;
    let filled = false;
    fs.openSync = function (p, ...rest) {
      const fd = open.call(this, p, ...rest);
      if (String(p) === target && !filled) {
        filled = true;
        fs.appendFileSync(target, Buffer.alloc(8 << 20, 121));
      }
      return fd;
    };
    const fstat = fs.fstatSync;
    fs.fstatSync = function (...args) {
      const st = fstat.apply(this, args);
      return Object.assign(Object.create(Object.getPrototypeOf(st)), st, { size: 0 });
    };
    const got = require(mod).readRegularFile(target, 4096);
    console.log(got === null ? 'null' : got === undefined ? 'undefined' : 'read ' + got.length);
  `;
  const mod = path.join(__dirname, '..', '..', 'src', 'sandbox', 'anchored');
  const r = spawnSync(process.execPath, ['-e', script, target, mod], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'null', 'the reader read past its cap');
});

/** lefthook's own hook (1.x), the line that matters: `call_lefthook run "pre-commit" "$@"`. */
const LEFTHOOK_HOOK = '#!/bin/sh\ncall_lefthook()\n{\n  lefthook "$@"\n}\ncall_lefthook run "pre-commit" "$@"\n';
const REMOTE_RUN = (mark: string) => `pre-commit:\n  commands:\n    x:\n      run: env > ${mark}\n`;

// L1: lefthook's `remotes:` — lefthook clones each remote config repository into the git directory's
// `info/lefthook-remotes/<name>` and merges its `lefthook.yml` into every run (its run lines run in the
// person's commit). `.git/info` is the sandbox's to write (T6 wrote `info/grafts`): one call rewrote the
// cached config (or made the cache before lefthook's first fetch, which then only pulls there). lefthook
// is not installed here: the oracle is the file lefthook reads, after the call. Failed before (both files
// held the agent's `run:`) with main's hookFrameworks.ts.
test('L1 (dontAsk): lefthook’s remotes cache under .git/info — the cached config rewritten, or made before the first fetch, holds nothing of the agent’s after the call', async (t) => {
  if (skip) return t.skip(skip);
  const lefthookYml =
    'remotes:\n  - git_url: https://github.com/example-org/hooks\n    configs:\n      - lefthook.yml\n';
  const cached = red.project((r) => writeFileSync(path.join(r, 'lefthook.yml'), lefthookYml));
  const remote = path.join(cached, '.git', 'info', 'lefthook-remotes', 'hooks');
  mkdirSync(remote, { recursive: true });
  writeFileSync(path.join(remote, 'lefthook.yml'), 'pre-commit:\n  commands:\n    lint:\n      run: "true"\n');
  const fresh = red.project((r) => writeFileSync(path.join(r, 'lefthook.yml'), lefthookYml));
  for (const root of [cached, fresh]) red.exe(path.join(root, '.git', 'hooks', 'pre-commit'), LEFTHOOK_HOOK);
  const mark = path.join(red.marks, 'l1');
  for (const root of [cached, fresh]) {
    const out = await red.tool(root, 'dontAsk', 'Bash', {
      command: `mkdir -p .git/info/lefthook-remotes/hooks; printf '${REMOTE_RUN(mark).replace(/\n/g, '\\n')}' > .git/info/lefthook-remotes/hooks/lefthook.yml; echo done`,
    });
    t.diagnostic(`${path.basename(root)}: ${out.status}: ${out.text.slice(0, 400)}`);
    const config = path.join(root, '.git', 'info', 'lefthook-remotes', 'hooks', 'lefthook.yml');
    assert.doesNotMatch(red.read(config), /env >/, `${config}: lefthook would merge the agent’s run:`);
  }
});

/** Writes `files` (relative path → text) under `root`, making their directories. */
function plant(root: string, files: Record<string, string>): void {
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), body);
  }
}

/** One sandboxed call that writes `AGENT` over each of `rels`, each write on its own (a denied one does not stop the rest). */
const overwrite = (rels: readonly string[]) =>
  rels.map((r) => `mkdir -p ${path.dirname(r)}; echo AGENT > ${r}`).join('\n');

// L2: mise `[tools] terraform = "path:./tools/tf"` and `.tool-versions` `nodejs path:./tools/n` (asdf,
// mise): the tool IS that directory, its `bin` first on the person's PATH — the person's `terraform` and
// `node` run what is there. toolConfigTargets.ts read neither. One call rewrote both programs and added an
// `npm` beside node. Failed before (all three held the agent's text after the call) with main's
// toolConfigTargets.ts; the version files themselves are protected names (not the lead).
test('L2 (dontAsk): a mise or asdf `path:` tool version — the programs in its bin hold nothing of the agent’s after the call', async (t) => {
  if (skip) return t.skip(skip);
  const root = red.project((r) => {
    plant(r, {
      'mise.toml': '[tools]\nterraform = "path:./tools/tf"\n',
      '.tool-versions': 'nodejs path:./tools/n\n',
      'tools/tf/bin/terraform': '#!/bin/sh\necho tf\n',
      'tools/n/bin/node': '#!/bin/sh\necho node\n',
    });
  });
  const rels = ['tools/tf/bin/terraform', 'tools/n/bin/node', 'tools/n/bin/npm'];
  const out = await red.tool(root, 'dontAsk', 'Bash', { command: overwrite(rels) });
  t.diagnostic(`${out.status}: ${out.text.slice(0, 600)}`);
  for (const rel of rels)
    assert.doesNotMatch(red.read(path.join(root, rel)), /AGENT/, `${rel}: the person runs the agent’s program`);
});

// L3: direnv `use nix <file>` and `use flake <dir>` with an argument (and the Nix files a flake imports:
// their `shellHook` runs in the person's shell at each `cd`): envrcNames.ts USE_FILES took the default
// names in the `.envrc`'s directory only. Failed before (all three held the agent's text) with main's envrcNames.ts.
test('L3 (dontAsk): direnv `use nix ./ci/shell.nix` and `use flake ./nix` — the Nix files they read (and a flake’s import) hold nothing of the agent’s after the call', async (t) => {
  if (skip) return t.skip(skip);
  const root = red.project((r) => {
    plant(r, {
      '.envrc': 'use nix ./ci/shell.nix\nuse flake ./nix#dev --impure\n',
      'ci/shell.nix': '{ pkgs ? import <nixpkgs> {} }: pkgs.mkShell { }\n',
      'nix/flake.nix': '{ outputs = { self }: { devShells = import ./devshell.nix; }; }\n',
      'nix/flake.lock': '{}\n',
      'nix/devshell.nix': '{ }\n',
    });
  });
  const rels = ['ci/shell.nix', 'nix/flake.nix', 'nix/devshell.nix'];
  const out = await red.tool(root, 'dontAsk', 'Bash', { command: overwrite(rels) });
  t.diagnostic(`${out.status}: ${out.text.slice(0, 600)}`);
  for (const rel of rels)
    assert.doesNotMatch(
      red.read(path.join(root, rel)),
      /AGENT/,
      `${rel}: the person’s direnv evaluates the agent’s Nix`,
    );
});

// L5 is red team u's U1 (red-issue30-u: `rm -rf packages && touch packages` under a watched
// `packages/x/package.json`, P1's branch in the same call; it fails on main, and passes with main's
// linkedWays.ts put back by afterCall.ts' try alone, the note naming the screen).
// L5b: the fail-closed half. A screen that throws no longer skips the screens after it, and the session's next sandboxed command in those directories runs it again first:
// while it still throws the command does not run (sessionSandboxPlan refuses), once it passes its notes
// go with that command. In-process (the screens and the plan, no command).
test('L5b: a screen that throws does not stop the later ones, and blocks the next command in its directories until it passes', async () => {
  const ran: string[] = [];
  const got = await runScreens([
    {
      name: 'first',
      run: () => {
        throw new Error('ENOTDIR: not a directory, lstat x/y');
      },
    },
    { name: 'second', run: () => (ran.push('second'), ['second: undone']) },
  ]);
  assert.deepEqual(ran, ['second'], 'the screen after the one that threw ran');
  assert.deepEqual(got.notes, ['second: undone']);
  assert.deepEqual(
    got.failed.map((f) => f.screen.name),
    ['first'],
  );
  assert.match(
    uncheckedNote('first', got.failed[0]!.why),
    /could not run \(ENOTDIR[^)]*\).*does not run until it passes/,
  );
  const dir = path.join(base, 'l5b');
  const other = path.join(base, 'l5b-other');
  mkdirSync(dir, { recursive: true });
  mkdirSync(other, { recursive: true });
  let throws = true;
  recordUnchecked({
    roots: [dir],
    why: 'first: ENOTDIR',
    retry: async () =>
      throws ? { notes: [], failed: ['first: ENOTDIR'] } : { notes: ['first: undone later'], failed: [] },
  });
  const plan = (d: string) =>
    sessionSandboxPlan({
      sessionId: `l5b-${path.basename(d)}`,
      settings: undefined,
      workingDirectories: [d],
      who: 'Bash',
    });
  await assert.rejects(
    plan(dir),
    /Bash did not run: the check after an earlier sandboxed command .* still cannot run \(first: ENOTDIR\)/,
  );
  await plan(other); // another project: not held
  throws = false;
  const next = await plan(dir);
  assert.deepEqual(
    next.protection?.live,
    ['first: undone later'],
    'the passing check’s notes go with the next command',
  );
  await plan(dir); // passed once: no longer asked
});

// U9b (red team u's U9 with repositories): 70 one level down, each a repository git's discovery takes
// (HEAD, objects, refs), still do not push the person's own repository at `libs/a` out of the nested
// scan's 64 places: a repository a command made has no hooks of its own after the check (its hooks
// removed, its config reduced), the person's have, and come first (sessionPlan.ts repositoryTrees,
// repoConfigTargets.ts hasOwnHooks). The deny list of the next command's plan, in-process (70 made by
// a command cost seconds of checks on a loaded machine). Failed with the validity check alone (the
// shallowest first): check.sh was not in the deny list.
test('U9b: 70 repositories without hooks one level down — the script the hook of the person’s repository at libs/a runs is still denied', async () => {
  const root = red.project((r) => {
    const lib = path.join(r, 'libs', 'a');
    red.exe(path.join(lib, 'check.sh'), '#!/bin/sh\nexit 0\n');
    red.git(lib, 'init', '-q', '-b', 'main');
    red.git(lib, 'add', '-A');
    red.git(lib, 'commit', '-qm', 'lib');
  });
  red.exe(path.join(root, 'libs', 'a', '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nsh check.sh\n');
  for (let i = 1; i <= 70; i++) {
    mkdirSync(path.join(root, `r${i}`, '.git', 'objects'), { recursive: true });
    mkdirSync(path.join(root, `r${i}`, '.git', 'refs'), { recursive: true });
    writeFileSync(path.join(root, `r${i}`, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  }
  const plan = await sessionSandboxPlan({
    sessionId: 'u9b',
    settings: undefined,
    workingDirectories: [root],
    who: 'Bash',
  });
  assert.ok(
    plan.protection?.denyWrite.includes(path.join(root, 'libs', 'a', 'check.sh')),
    'libs/a/check.sh is writable',
  );
});
