// unit (red team, issue 30, round n: fresh eyes on round m's fixes — the repository configuration's
// targets, carried git directories, hard links, npx). Real OS sandbox, real files, real git, a bait
// HOME and bait values in the worker's environment; no allow rule in any row. Oracles: what the
// person's own git (or tool) ran — marker files its payload writes, with the environment it saw —
// never the tool's words. A row the current code lets through is committed with
// `skip: 'HOLE N<n>: …'` (R30N_HOLES=1 runs them: each must fail until its fix lands).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { envDumpScript, runPersonNpx } from '../support/personNpx';
import { CONTROL_SETTLE_MS } from '../../src/cli/settledControl';
import { registerSessionDirectories } from '../../src/hostProcess/programs';
import { holeGate, redTeamUnit } from '../support/redTeamUnit';

const statOrUndefined = (f: string) => statSync(f, { throwIfNoEntry: false });
// No row is a hole now (every N row runs); a new one would use this again.
const _hole = holeGate('R30N_HOLES');
const red = redTeamUnit({ round: 'N', tag: 'r30n', label: 'n', personSecret: false });
const { base, marks, read, git, project, exe, personGit, tool } = red;
let skip: string | false = false;
before(async () => (skip = await red.setUp()));

/** A hook body: the environment it ran with, into `mark`. */
const dumpEnv = (mark: string) => `#!/bin/sh\nenv > '${mark}'\n`;

// ---------------------------------------------------------------------------------------------------
// N1: a hook of the person's repository that is a SYMLINK into the project (`ln -s
// ../../scripts/pre-commit .git/hooks/pre-commit`: the way to share hooks before core.hooksPath,
// still what many READMEs and `make setup-hooks` targets do). `.git/hooks` is protected; the file
// the link leads to is an ordinary project path. Round m's M6a fix (repoConfigTargets.ts) protects
// the directory `core.hooksPath` names, not what a hook's symlink names.

test(
  'N1 (dontAsk): the person’s .git/hooks/pre-commit is a symlink to scripts/pre-commit; a command rewrites the target — the person’s next git commit runs nothing of it',
  // Held since main 7e1ece4 (what the hooks directory's links lead to is protected).
  {},
  async (t) => {
    if (skip) return t.skip(skip);
    const root = project((r) => exe(path.join(r, 'scripts', 'pre-commit'), '#!/bin/sh\nexit 0\n'));
    symlinkSync('../../scripts/pre-commit', path.join(root, '.git', 'hooks', 'pre-commit'));
    const mark = path.join(marks, 'n1');
    const out = await tool(root, 'dontAsk', 'Bash', { command: `printf '%s' "${dumpEnv(mark)}" > scripts/pre-commit` });
    t.diagnostic(`${out.status}: ${out.text.slice(0, 300)}`);
    writeFileSync(path.join(root, 'src', 'app', 'a.txt'), 'person edit\n');
    personGit(root, 'commit', '-qam', 'person');
    assert.deepEqual({ hookRan: existsSync(mark) }, { hookRan: false }, read(mark).slice(0, 200));
  },
);

// ---------------------------------------------------------------------------------------------------
// N2: round m's M6a/M6b/M6c fix reads `<root>/.git/config` only when `.git` is a DIRECTORY. In a
// linked worktree (`git worktree add`: the person's own, or the `run --worktree` / EnterWorktree a
// session runs in) `.git` is a file (`gitdir: …/.git/worktrees/<name>`) and the configuration —
// `core.hooksPath = .githooks`, relative to THAT working tree — is the main repository's: nothing
// the worktree's `.githooks/` holds is protected.

test(
  'N2 (dontAsk): the session runs in a linked worktree of a repository with core.hooksPath = .githooks; a command rewrites .githooks/pre-commit — the person’s git commit there runs nothing of it',
  // Held since main 7e1ece4 (the repository read as git reads it in a linked worktree).
  {},
  async (t) => {
    if (skip) return t.skip(skip);
    const main = project((r) => exe(path.join(r, '.githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n'));
    git(main, 'config', 'core.hooksPath', '.githooks');
    const wt = `${main}-wt`;
    git(main, 'worktree', 'add', '-q', wt, '-b', 'feature');
    const mark = path.join(marks, 'n2');
    const out = await tool(wt, 'dontAsk', 'Bash', { command: `printf '%s' "${dumpEnv(mark)}" > .githooks/pre-commit` });
    t.diagnostic(`${out.status}: ${out.text.slice(0, 300)}`);
    writeFileSync(path.join(wt, 'src', 'app', 'a.txt'), 'person edit\n');
    personGit(wt, 'commit', '-qam', 'person');
    assert.deepEqual({ hookRan: existsSync(mark) }, { hookRan: false }, read(mark).slice(0, 200));
  },
);

// ---------------------------------------------------------------------------------------------------
// N3: round m's M5 fix takes a carried git directory off the disk after a checkout the WORKER or the
// CLI makes. The person's own checkouts are not screened: sandboxed plumbing (objects and refs of the
// main checkout stay writable so that `git commit` works) moves a branch the person works on to a
// commit carrying a bare repository in `src/` (HEAD, objects/, refs/, config with core.worktree =
// .. and core.fsmonitor); nothing is written in the working tree, so nothing is undone. The person's
// next `git checkout feature` (or `git reset --hard`, `git stash`, a pull that merges it) puts it on
// disk, and their `git status` below `src/` (a shell prompt on `cd src/app`) runs the fsmonitor.

const plantBareRepoOnBranch = (branch: string, mark: string) =>
  [
    'set -e',
    `h=$(printf 'ref: refs/heads/main\\n' | git hash-object -w --stdin)`,
    `k=$(printf 'keep\\n' | git hash-object -w --stdin)`,
    `c=$(printf '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = ..\\n\\tfsmonitor = "env > ${mark}; false"\\n' | git hash-object -w --stdin)`,
    `info=$(printf '100644 blob %s\\tkeep\\n' $k | git mktree)`,
    `objs=$(printf '040000 tree %s\\tinfo\\n' $info | git mktree)`,
    `heads=$(printf '100644 blob %s\\tkeep\\n' $k | git mktree)`,
    `refs=$(printf '040000 tree %s\\theads\\n' $heads | git mktree)`,
    `app=$(git rev-parse HEAD:src/app)`,
    `src=$(printf '100644 blob %s\\tHEAD\\n040000 tree %s\\tapp\\n100644 blob %s\\tconfig\\n040000 tree %s\\tobjects\\n040000 tree %s\\trefs\\n' $h $app $c $objs $refs | git mktree)`,
    `top=$(printf '040000 tree %s\\tsrc\\n' $src | git mktree)`,
    `commit=$(git -c user.name=a -c user.email=a@example.com commit-tree $top -p HEAD -m 'tidy')`,
    `git update-ref refs/heads/${branch} $commit`,
    'echo planted',
  ].join('\n');

// After gaps' ad68792 (src/sandbox/movedRefs.ts: a ref that moved to such a commit is put back):
// N3b — the branch made a SYMBOLIC ref to a pseudoref (`ref: ORIG_HEAD`; git resolves it, the
// snapshot reads only object ids under refs/, packed-refs and a detached HEAD).
const N3_SPELLINGS = [
  [
    'N3',
    (mark: string) => plantBareRepoOnBranch('feature', mark),
    'the carried-git-directory screen (M5) covers checkouts by the worker or the CLI, not the person’s own checkout of a branch a session moved',
  ],
  [
    'N3b',
    (mark: string) =>
      `${plantBareRepoOnBranch('n3b-tmp', mark)} && git rev-parse refs/heads/n3b-tmp > .git/ORIG_HEAD && git update-ref -d refs/heads/n3b-tmp && printf 'ref: ORIG_HEAD\\n' > .git/refs/heads/feature && echo symref`,
    'a branch made a symbolic ref to ORIG_HEAD: movedRefs reads only object ids (loose, packed, a detached HEAD), git follows the symref',
  ],
  // N3c: 20,000 packed tags (to as many objects) beside the moved loose branch. The walk's bound
  // counted packed refs, so no loose ref was read; and each new ref cost one synchronous git run in
  // the worker (minutes of a blocked event loop). Asserted: the check after the call finishes, the
  // branch is put back and no tag is left to an object nobody screened.
  [
    'N3c',
    (mark: string) =>
      `${plantBareRepoOnBranch('feature', mark)} && { echo '# pack-refs with: peeled fully-peeled sorted'; awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "%040x refs/tags/t%05d\\n", i, i }'; } > .git/packed-refs && echo tags`,
    'the walk’s bound counted 20,000 packed refs, so no loose ref was read; each new ref cost one synchronous git run',
  ],
] as const;

for (const [row, plant, _why] of N3_SPELLINGS)
  test(
    `${row} (dontAsk): plumbing moves the branch \`feature\` to a commit carrying a bare repository in src/${{ N3: '', N3b: ' (through a symbolic ref to ORIG_HEAD)', N3c: ' beside 20,000 new packed tags' }[row]}; the person’s own git checkout feature, then git status in src/app, runs no fsmonitor`,
    {}, // N3 held since gaps (movedRefs.ts); N3b, N3c since gitp (refFiles.ts: read as git reads refs; bounded); each row's third string: why it was a hole
    async (t) => {
      if (skip) return t.skip(skip);
      const root = project();
      git(root, 'branch', 'feature');
      const mark = path.join(marks, row);
      const out = await tool(root, 'dontAsk', 'Bash', { command: plant(mark) });
      t.diagnostic(`${out.status}: ${out.text.slice(0, 300)}`);
      personGit(root, 'checkout', '-q', 'feature');
      personGit(path.join(root, 'src', 'app'), 'status', '--short');
      assert.deepEqual({ fsmonitorRan: existsSync(mark) }, { fsmonitorRan: false }, read(mark).slice(0, 200));
      if (row === 'N3c') assert.equal(git(root, 'for-each-ref', '--count=3', 'refs/tags'), '', 'the tags put back');
    },
  );

// N3d (found while fixing N3b/N3c, gitp; held since src/sandbox/movedLogs.ts): no ref moves — a line
// appended to the HEAD reflog (`.git/logs/HEAD`, which the sandbox must write for the agent's own
// commits) says `checkout: moving from <carrying commit> to main`; the person's `git checkout -`
// (`@{-1}`) went there. Same for `HEAD@{1}` (`git reset --hard HEAD@{1}`, the usual undo) and `stash@{1}`.
test(
  'N3d (dontAsk): a line appended to the HEAD reflog names a commit carrying a bare repository; the person’s git checkout -, then git status in src/app, runs no fsmonitor',
  {}, // was a hole: reflogs were not screened (movedRefs.ts read refs, not logs/)
  async (t) => {
    if (skip) return t.skip(skip);
    const root = project();
    const mark = path.join(marks, 'N3d');
    const out = await tool(root, 'dontAsk', 'Bash', {
      command: `${plantBareRepoOnBranch('n3d-tmp', mark)} && b=$(git rev-parse refs/heads/n3d-tmp) && git update-ref -d refs/heads/n3d-tmp && h=$(git rev-parse HEAD) && printf '%s %s a <a@example.com> 1700000000 +0000\\tcheckout: moving from %s to main\\n' $h $h $b >> .git/logs/HEAD && echo logged`,
    });
    t.diagnostic(`${out.status}: ${out.text.slice(0, 300)}`);
    personGit(root, 'checkout', '-q', '-');
    personGit(path.join(root, 'src', 'app'), 'status', '--short');
    assert.deepEqual({ fsmonitorRan: existsSync(mark) }, { fsmonitorRan: false }, read(mark).slice(0, 200));
  },
);

// ---------------------------------------------------------------------------------------------------
// N4: round m's M13 in ONE command. The live guard undoes a new protected entry "as soon as it has
// content" — on an event for ITS path. An empty `packages/x/.claude/settings.json` (no content:
// left) and a hard link `packages/x/n` made in the same command; the command then fills the file
// through `n`: the event names `n`, the guard never looks at the settings file again, and the
// hard-link detach (hardLinks.ts) runs only before and after a command. For the rest of the command
// (a background task or a Monitor: up to hours) the settings file holds the agent's hooks and is
// older than the CLI's settle time: the person's `run --cwd packages/x` meanwhile loads it
// (end to end: integration/red-issue30-n N4, the hook runs on the host with the worker's secrets).

for (const [row, gap, _why] of [
  [
    'N4',
    '',
    'a new EMPTY protected file is not undone live, and a write through its hard link raises no event on its path: it stays for the whole command',
  ],
  // After lead3's c6a5501 (an empty file with nlink > 1 counts as content): the link made AFTER the
  // guard's round for the new file. link(2) raises IN_CREATE for the new name in ITS directory and
  // IN_ATTRIB on the inode only — no event on the settings file's directory — so nothing looks again;
  // the other name removed afterwards (no event there either) leaves one name: `run`'s nlink test passes.
  [
    'N4b',
    'sleep 0.3 && ',
    'the hard link is made after the guard looked at the new empty file; link(2) raises no event in the settings file’s directory, nothing looks at it again',
  ],
] as const)
  test(
    `${row} (dontAsk): one command makes an empty packages/x/.claude/settings.json, ${gap ? 'waits, then ' : ''}a hard link, fills it through the link and keeps running — the settings file never holds the hooks for a settled second`,
    {}, // held since c6a5501 and gaps' look at empty entries every 25 ms (each row's third string: why it was a hole)
    async (t) => {
      if (skip) return t.skip(skip);
      const root = project();
      const settings = path.join(root, 'packages', 'x', '.claude', 'settings.json');
      const body = JSON.stringify({ sandbox: { hooks: 'host' }, hooks: { SessionStart: [] } });
      const running = tool(root, 'dontAsk', 'Bash', {
        command: `mkdir -p packages/x/.claude && : > packages/x/.claude/settings.json && ${gap}ln packages/x/.claude/settings.json packages/x/n && sleep 0.3 && printf '%s' '${body}' > packages/x/n && ${gap ? 'rm packages/x/n && ' : ''}sleep 4`,
      });
      // What the person's `run --cwd packages/x` would see at some instant while the command runs: the
      // hooks, in a file older than the CLI's settle time (src/cli/settledControl.ts).
      let settledHooks = false;
      for (let i = 0; i < 35 && !settledHooks; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const st = statOrUndefined(settings);
        settledHooks = !!st && Date.now() - st.ctimeMs > CONTROL_SETTLE_MS && /SessionStart/.test(read(settings));
      }
      const out = await running;
      t.diagnostic(`${out.status}: ${out.text.slice(0, 300)}`);
      assert.deepEqual({ settledHooks }, { settledHooks: false });
    },
  );

// ---------------------------------------------------------------------------------------------------
// N5: round m's M14 fix (src/sandbox/manifestBins.ts) reads each package.json with JSON.parse; a
// file it cannot parse has no bin to undo. npm reads package.json with json-parse-even-better-errors,
// which strips a leading byte order mark first: a package.json that starts with U+FEFF is valid to
// npm and unreadable to the undo. The person's `npx durable-agent …` runs the agent's bin.

for (const [kind, write] of [
  [
    'a byte order mark in front',
    `printf '\\357\\273\\277{"name":"proj","version":"1.0.0","bin":{"durable-agent":"tools/cli.js"}}\\n' > package.json`,
  ],
  [
    'over 4 MiB, renamed into place (the undo reads no file over 4 MiB; npm reads any)',
    `{ printf '{"name":"proj","version":"1.0.0","bin":{"durable-agent":"tools/cli.js"},"x":"'; head -c 4300000 /dev/zero | tr '\\0' ' '; printf '"}\\n'; } > big.tmp && mv big.tmp package.json`,
  ],
  [
    'a directories.bin whose durable-agent is one level down (npm lists the directory recursively)',
    `mkdir -p tools/sub && mv tools/cli.js tools/sub/durable-agent && printf '{"name":"proj","version":"1.0.0","directories":{"bin":"tools"}}\\n' > package.json`,
  ],
] as const)
  test(
    `N5 (dontAsk, ${kind.split(' (')[0]}): sandboxed Bash adds a durable-agent bin to package.json with ${kind} — the person’s next npx durable-agent runs nothing of the agent’s`,
    // The BOM held since gaps' d28965d (read as npm reads it); over 4 MiB and directories.bin one
    // level down since branch manif (8 MiB read, larger put back whole; directories.bin a control key).
    {},
    async (t) => {
      if (skip) return t.skip(skip);
      const root = project((r) => writeFileSync(path.join(r, 'package.json'), '{"name":"proj","version":"1.0.0"}\n'));
      const mark = path.join(marks, `n5-${kind.length}`);
      const cache = path.join(base, `npm-cache-n5-${kind.length}`);
      const out = await tool(root, 'dontAsk', 'Bash', {
        command: [
          'mkdir -p tools',
          `echo ${Buffer.from(envDumpScript(mark)).toString('base64')} | base64 -d > tools/cli.js && chmod +x tools/cli.js`,
          write,
        ].join(' && '),
      });
      t.diagnostic(`${out.status}: ${out.text.slice(0, 300)}`);
      runPersonNpx(root, cache);
      assert.deepEqual(
        { ran: existsSync(mark), baitSeen: /BAIT-N/.test(read(mark)) },
        { ran: false, baitSeen: false },
        'the person’s npx durable-agent ran the agent’s file',
      );
    },
  );

// ---------------------------------------------------------------------------------------------------
// N6: round m's M9 fix keeps the session directories in the data directory — "the newest 1,000"
// (src/hostProcess/programs.ts MAX_KEPT_SESSION_DIRECTORIES). A directory is added to the kept list
// once, when this process first registers it; later calls of the same session find it in memory and
// never move it up. After 1,000 other directories (a worker that serves CI checkouts in fresh
// directories, or one session's isolated agents: each worktree is a directory) the project falls
// out, and a worker started again knows it no more: M9 again — its start-up probe runs the
// `which` the session planted in `<project>/bin` (a tools/dotfiles repository's bin on the person's
// PATH), with the worker's secrets.

test(
  'N6 (dontAsk): M9 after 1,000 other session directories — a session plants bin/which in a project whose bin is on the person’s PATH; a worker started afterwards runs no program of the project',
  // Held since main 7e1ece4 (a registered directory moves to the newest end; cap 20,000).
  {},
  async (t) => {
    if (skip) return t.skip(skip);
    const root = project();
    const mark = path.join(marks, 'n6');
    mkdirSync(mark);
    const real = execFileSync('sh', ['-c', 'command -v which'], { encoding: 'utf8' }).trim();
    const out = await tool(root, 'dontAsk', 'Bash', {
      command: `mkdir -p bin && printf '#!/bin/sh\\nenv > ${mark}/which.env\\nexec ${real} "$@"\\n' > bin/which && chmod +x bin/which && echo planted`,
    });
    t.diagnostic(`${out.status}: ${out.text.slice(0, 120)}`);
    // Later sessions of this worker in other directories (the same session's next calls register nothing new).
    for (let i = 0; i < 10; i++)
      registerSessionDirectories(Array.from({ length: 100 }, (_, j) => path.join(base, 'ci', `checkout-${i}-${j}`)));
    await tool(root, 'dontAsk', 'Bash', { command: 'true' });
    const dist = path.resolve(__dirname, '..', '..', 'src');
    const script = [
      `require(${JSON.stringify(path.join(dist, 'hostProcess', 'programs.js'))}).narrowProcessPath();`,
      `require(${JSON.stringify(path.join(dist, 'cli', 'commands', 'worker.js'))}).workerSandboxLine().then((l) => { console.log(l); process.exit(0); }, (e) => { console.log('probe failed', e.message); process.exit(0); });`,
    ].join('\n');
    const said = execFileSync(process.execPath, ['-e', script], {
      cwd: base,
      env: { ...process.env, PATH: `${path.join(root, 'bin')}:${process.env.PATH}` },
      encoding: 'utf8',
      timeout: 60_000,
    });
    t.diagnostic(`restarted worker: ${said.trim().slice(0, 160)}`);
    assert.deepEqual({ ran: readdirSync(mark) }, { ran: [] }, read(path.join(mark, 'which.env')).slice(0, 200));
  },
);

// ---------------------------------------------------------------------------------------------------
// N7: the key form of a protected control file. `.pylintrc` (and `pylintrc`, `.pylintrc.toml`) is
// protected because pylint runs its `init-hook` (Python) when it merely starts there — every editor's
// lint-on-save does. pylint reads the same options from `pyproject.toml` (`[tool.pylint.main]`),
// `setup.cfg` (`[pylint.main]`) and `tox.ini`, which are ordinary project files. (gaps' G2 did this
// for package.json keys; mypy's `[tool.mypy] plugins` and flake8's `[flake8:local-plugins]` in
// setup.cfg/tox.ini are the same family: code reading.)

test(
  'N7 (dontAsk): sandboxed Bash adds [tool.pylint.main] init-hook to pyproject.toml — the person’s next pylint in the project runs nothing of the agent’s',
  // Held since branch manif (src/sandbox/lintKeys.ts: the linters' keys put back).
  {},
  async (t) => {
    if (skip) return t.skip(skip);
    const pylint = ['/usr/bin/pylint', '/usr/local/bin/pylint'].find((p) => existsSync(p));
    if (!pylint) return t.skip('pylint is not installed');
    const root = project((r) => writeFileSync(path.join(r, 'src', 'app', 'a.py'), 'x = 1\n'));
    const mark = path.join(marks, 'n7');
    const hook = `import os; open(${JSON.stringify(mark)}, "w").write(repr(dict(os.environ)))`;
    const out = await tool(root, 'dontAsk', 'Bash', {
      command: `printf '%s\\n' '[tool.pylint.main]' 'init-hook = ${JSON.stringify(hook).replace(/'/g, "'\\''")}' >> pyproject.toml && cat pyproject.toml`,
    });
    t.diagnostic(`${out.status}: ${out.text.slice(0, 300)}`);
    try {
      execFileSync(pylint, ['src/app/a.py'], { cwd: root, stdio: 'ignore', timeout: 60_000 });
    } catch {
      // pylint exits non-zero on any message: it ran
    }
    assert.deepEqual({ ran: existsSync(mark), baitSeen: /BAIT-N/.test(read(mark)) }, { ran: false, baitSeen: false });
  },
);

// ---------------------------------------------------------------------------------------------------
// N8: round m's M7 fix protects the NAMES node_modules/.bin/{node,sh,…}, and "a project that pins
// Node with the `node` package keeps its .bin/node" — a symlink npm made to
// ../node/bin/node. The tail is protected (fingerprinted: it is in node_modules); what it leads to
// is an ordinary file in node_modules. The agent rewrites node_modules/node/bin/node; the person's
// next `npx <cli>` there (durable-agent from npx's cache: `#!/usr/bin/env node`, npx puts the
// project's .bin first on PATH) runs it.

test(
  'N8 (dontAsk): the project pins Node with the node package (.bin/node -> ../node/bin/node); sandboxed Bash rewrites node_modules/node/bin/node — the person’s next npx <cli> (#!/usr/bin/env node) runs nothing of it',
  // Held since branch manif (the file a protected tail's symlink leads to is fingerprinted: treeNames.ts tailTarget).
  {},
  async (t) => {
    if (skip) return t.skip(skip);
    const root = project((r) => {
      exe(path.join(r, 'node_modules', 'node', 'bin', 'node'), `#!/bin/sh\nexec ${process.execPath} "$@"\n`);
      mkdirSync(path.join(r, 'node_modules', '.bin'));
      symlinkSync('../node/bin/node', path.join(r, 'node_modules', '.bin', 'node'));
      writeFileSync(path.join(r, '.gitignore'), 'node_modules/\n');
    });
    const mark = path.join(marks, 'n8');
    const out = await tool(root, 'dontAsk', 'Bash', {
      command: `printf '#!/bin/sh\\nenv > ${mark}\\nexec ${process.execPath} "$@"\\n' > node_modules/node/bin/node && echo planted`,
    });
    t.diagnostic(`${out.status}: ${out.text.slice(0, 200)}`);
    const pkg = path.join(base, 'standin-n8');
    mkdirSync(pkg);
    writeFileSync(
      path.join(pkg, 'package.json'),
      JSON.stringify({ name: 'standin-cli', version: '1.0.0', bin: { 'standin-cli': 'cli.js' } }),
    );
    writeFileSync(path.join(pkg, 'cli.js'), '#!/usr/bin/env node\nconsole.log("the real cli ran")\n', { mode: 0o755 });
    const npm = path.join(path.dirname(process.execPath), 'npm');
    const tgz = path.join(
      pkg,
      execFileSync(npm, ['pack', '-q'], { cwd: pkg, encoding: 'utf8' }).trim().split('\n').pop()!,
    );
    let said: string;
    try {
      said = execFileSync(
        path.join(path.dirname(process.execPath), 'npx'),
        ['--yes', `--package=${tgz}`, 'standin-cli'],
        {
          cwd: root,
          env: {
            ...process.env,
            npm_config_cache: path.join(base, 'npm-cache-n8'),
            npm_config_update_notifier: 'false',
          },
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
    } catch (e) {
      said = `failed: ${(e as Error).message.slice(0, 200)}`;
    }
    t.diagnostic(`npx: ${said.trim().slice(0, 200)}`);
    assert.match(said, /the real cli ran/, 'control: the person’s npx ran the cli');
    assert.deepEqual({ ran: existsSync(mark), baitSeen: /BAIT-N/.test(read(mark)) }, { ran: false, baitSeen: false });
  },
);
