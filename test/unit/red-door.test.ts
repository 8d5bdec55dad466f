// unit: red team against the one door for host processes (invariant 15, src/hostProcess/,
// docs/security.md "Round 4"). Each test is an attack: a repository configuration, a file or a tool
// call an agent (possibly prompt-injected) controls, and an oracle that is a marker file a payload
// writes OUTSIDE the sandbox (or a secret found in a file) — never what a tool says. Written by a
// fresh red-team pass (issue 30): 16 of its 20 attacks got through at 977cbaf; each test asserts
// that the attack is contained, so the holes stay closed.
//
// Two kinds:
// - door level: runHostGit/hostGit/the worktree tools' git on a repository whose configuration the
//   attacker wrote (how an agent gets there is the e2e tests' business);
// - end to end: sandboxed Bash in a session's project (the real OS sandbox) writes what it can,
//   then a worker-side tool (EnterWorktree, the worktree shadow import) runs git outside the sandbox.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { hostEnvironment } from '../../src/hostProcess/door';
import { gitConfigOverrides, hostGit, runHostGit } from '../../src/hostProcess/git';
import { git as worktreeGit } from '../../src/worktree/worktrees';
import { BashTool, runBackgroundCommand, type BashOutput } from '../../src/tools/bash';
import { EnterWorktreeTool } from '../../src/tools/worktree';
import { SandboxHost } from '../../src/sandbox/host';
import type { ToolUseContext } from '../../src/toolProtocol/Tool';
import { runRipgrep } from '../../src/tools/grepRipgrep';
import { sandboxSkip } from '../support/systemPackages';
import { withEnv } from '../support/bait';

const sandboxHost = new SandboxHost();
let skip: string | false = false;
const cleanup: string[] = [];

before(async () => {
  skip = await sandboxSkip(sandboxHost, 'the red-team door tests');
});
after(async () => {
  await sandboxHost.close();
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

const scratch = (p = 'da-red-'): string => {
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), p)));
  cleanup.push(d);
  return d;
};

/** git as the human (or the attacker's own tooling) runs it, without the person's global config. */
const gitAs =
  (cwd: string) =>
  (...a: string[]): string =>
    execFileSync('git', a, {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    });

/** A repository with one commit: `.gitattributes` (given) and `f.txt`. */
function repo(attributes: string): { root: string; g: (...a: string[]) => string } {
  const root = scratch('da-red-repo-');
  const g = gitAs(root);
  g('init', '-q', '-b', 'main');
  g('config', 'user.email', 'a@b.c');
  g('config', 'user.name', 'a');
  writeFileSync(path.join(root, '.gitattributes'), attributes);
  writeFileSync(path.join(root, 'f.txt'), 'one\n');
  g('add', '.');
  g('commit', '-qm', 'init');
  return { root, g };
}

/** A directory for markers, outside every repository and project. */
function markers(): { dir: string; marker: string; ran: () => string[] } {
  const dir = scratch('da-red-marks-');
  return { dir, marker: path.join(dir, 'ran'), ran: () => readdirSync(dir) };
}

const BAIT = { ANTHROPIC_API_KEY: 'sk-ant-red-bait', DATABASE_URL: 'postgres://u:red-bait-pw@db/x' };

// ---------------------------------------------------------------------------------------------------
// 1. The driver override misparses a driver name with '=' (src/hostProcess/git.ts gitConfigOverrides:
//    `-c filter.a=b.smudge=` is read by git as key `filter.a`, value `b.smudge=`).

test('red door: a filter driver whose name holds "=" runs in worker-side git (worktree add → smudge)', async () => {
  const m = markers();
  const { root, g } = repo('* filter=a=b\n');
  g('config', 'filter.a=b.smudge', `sh -c 'touch ${m.marker}.smudge; cat'`);
  g('config', 'filter.a=b.clean', `sh -c 'touch ${m.marker}.clean; cat'`);
  await worktreeGit(root, ['worktree', 'add', '-q', '-b', 'wt', path.join(root, '.claude', 'worktrees', 'x')], {
    agentInvoked: true,
  }).catch(() => undefined);
  await hostGit(root, ['status', '--porcelain']).catch(() => undefined);
  assert.deepEqual(m.ran(), [], 'a filter named "a=b" ran outside the sandbox (git.ts gitConfigOverrides)');
});

test('red door: a diff textconv driver whose name holds "=" runs in worker-side git (git log -p)', async () => {
  const m = markers();
  const { root, g } = repo('* diff=x=y\n');
  g('config', 'diff.x=y.textconv', `sh -c 'touch ${m.marker}.textconv; cat "$1"' -`);
  writeFileSync(path.join(root, 'f.txt'), 'two\n');
  // `git diff` fails first on the door's own `diff.external=` (an empty external diff is "cannot run"),
  g('commit', '-qam', 'two');
  await hostGit(root, ['diff']).catch(() => undefined);
  // but `git log -p` (and diff --no-ext-diff, show, blame, cat-file --textconv) uses textconv.
  await hostGit(root, ['log', '-p', '-1']).catch(() => undefined);
  assert.deepEqual(m.ran(), [], 'a textconv named "x=y" ran outside the sandbox');
});

test('red door: a plain filter name is switched off (control: the override works when the name parses)', async () => {
  const m = markers();
  const { root, g } = repo('* filter=plain\n');
  g('config', 'filter.plain.smudge', `sh -c 'touch ${m.marker}.smudge; cat'`);
  rmSync(path.join(root, 'f.txt'));
  await hostGit(root, ['checkout', '--', 'f.txt']);
  assert.deepEqual(m.ran(), []);
  // And the raw git does run it (the attack is real, not harmless).
  rmSync(path.join(root, 'f.txt'));
  g('checkout', '--', 'f.txt');
  assert.deepEqual(m.ran(), ['ran.smudge'], 'control: git without the door runs the filter');
});

// ---------------------------------------------------------------------------------------------------
// 2. Config keys that execute and are not in GIT_GUARD_CONFIG.

test('red door: log.showSignature + gpg.program run in worker-side git log (the shadow import’s protectedChanges)', async () => {
  const m = markers();
  const { root, g } = repo('');
  const tree = g('rev-parse', 'HEAD^{tree}').trim();
  const parent = g('rev-parse', 'HEAD').trim();
  const commit =
    `tree ${tree}\nparent ${parent}\nauthor x <a@b> 1 +0000\ncommitter x <a@b> 1 +0000\n` +
    `gpgsig -----BEGIN PGP SIGNATURE-----\n \n x\n -----END PGP SIGNATURE-----\n\nsigned\n`;
  const objFile = path.join(m.dir, '..', `commit-${path.basename(m.dir)}`);
  writeFileSync(objFile, commit);
  cleanup.push(objFile);
  const c = g('hash-object', '-t', 'commit', '-w', objFile).trim();
  const gpg = path.join(scratch('da-red-gpg-'), 'gpg.sh');
  writeFileSync(gpg, `#!/bin/sh\nenv > ${m.marker}.gpg\n`, { mode: 0o755 });
  g('config', 'log.showSignature', 'true');
  g('config', 'gpg.program', gpg);
  // What worktreeGit.ts protectedChanges runs on the repository's git directory.
  await withBait(() =>
    runHostGit('/', [`--git-dir=${path.join(root, '.git')}`, 'log', '-z', '--format=', '--name-only', '--stdin'], {
      input: `${c}\n^${parent}\n`,
    }),
  );
  assert.deepEqual(
    m.ran(),
    [],
    'gpg.program ran outside the sandbox (GIT_GUARD_CONFIG lacks log.showSignature/gpg.program)',
  );
});

test('red door: protocol.file.allow=always + remote.<x>.uploadpack runs a shell in worker-side git fetch', async () => {
  const m = markers();
  const { root: src } = repo('');
  const { root, g } = repo('');
  g('config', 'remote.origin.url', src);
  g('config', 'remote.origin.uploadpack', `touch ${m.marker}.uploadpack; git-upload-pack`);
  g('config', 'protocol.file.allow', 'always');
  await runHostGit(root, ['fetch', '-q', 'origin']);
  assert.deepEqual(m.ran(), [], 'protocol.<name>.allow in the repository beats the door’s protocol.allow=never');
});

test('red door: core.worktree in the repository’s config makes worker-side git write outside the project', async () => {
  const m = markers();
  const { root, g } = repo('');
  const elsewhere = scratch('da-red-elsewhere-');
  g('config', 'core.worktree', elsewhere);
  await hostGit(root, ['checkout', '-f', 'HEAD', '--', '.']).catch(() => undefined);
  assert.ok(!existsSync(path.join(elsewhere, 'f.txt')), `worker-side git wrote ${elsewhere}/f.txt (core.worktree)`);
  void m;
});

// ---------------------------------------------------------------------------------------------------
// 3. The driver cache (git.ts driverCache): valid while the files it came from are unchanged — but
//    not the files git would read NOW (an include target that did not exist, a `.git/commondir`), and
//    "unchanged" is ino:size:mtime, which the writer of a file sets as it likes.

test('red door: the driver cache ignores an include target that appears later', async () => {
  const m = markers();
  const { root, g } = repo('* filter=late\n');
  // The person's config includes a shared file of the project (absent now; not a protected name).
  g('config', 'include.path', '../git-shared.conf');
  await hostGit(root, ['status', '--porcelain']); // fills the cache
  writeFileSync(
    path.join(root, 'git-shared.conf'),
    `[filter "late"]\n\tsmudge = "sh -c 'touch ${m.marker}.late; cat'"\n`,
  );
  rmSync(path.join(root, 'f.txt'));
  await hostGit(root, ['checkout', '--', 'f.txt']).catch(() => undefined);
  assert.deepEqual(
    m.ran(),
    [],
    'the cached overrides missed a filter of an include that appeared after the cache was filled',
  );
});

test('red door: the driver cache is fooled by a same-size rewrite with its mtime put back', async () => {
  const m = markers();
  const { root, g } = repo('* filter=zz\n');
  const inc = path.join(root, 'git-shared.conf');
  const evil = `[filter "zz"]\n\tsmudge = "sh -c 'touch ${m.marker}.mtime; cat'"\n`;
  writeFileSync(inc, `[user]\n\tname = ${'x'.repeat(evil.length - '[user]\n\tname = \n'.length)}\n`);
  assert.equal(statSync(inc).size, Buffer.byteLength(evil));
  utimesSync(inc, 1_700_000_000, 1_700_000_000);
  g('config', 'include.path', '../git-shared.conf');
  await hostGit(root, ['status', '--porcelain']); // fills the cache
  writeFileSync(inc, evil); // in place: same inode, same size
  utimesSync(inc, 1_700_000_000, 1_700_000_000); // `touch -d @1700000000`
  rmSync(path.join(root, 'f.txt'));
  await hostGit(root, ['checkout', '--', 'f.txt']).catch(() => undefined);
  assert.deepEqual(m.ran(), [], 'the cache key (ino:size:mtime) took the rewritten include for the old one');
});

test('red door: the driver cache ignores a .git/commondir that appears (the config git reads changes)', async () => {
  const m = markers();
  const { root } = repo('* filter=cd\n');
  await hostGit(root, ['status', '--porcelain']); // fills the cache: origin .git/config only
  // An "evil" common directory: the repository's objects and refs, and a config of the attacker's.
  const evil = path.join(scratch('da-red-common-'), '.git');
  execFileSync('cp', ['-a', path.join(root, '.git'), evil]);
  writeFileSync(
    path.join(evil, 'config'),
    `[core]\n\trepositoryformatversion = 0\n\tbare = false\n[filter "cd"]\n\tsmudge = "sh -c 'touch ${m.marker}.commondir; cat'"\n`,
  );
  writeFileSync(path.join(root, '.git', 'commondir'), `${evil}\n`);
  rmSync(path.join(root, 'f.txt'));
  await hostGit(root, ['checkout', '--', 'f.txt']).catch(() => undefined);
  assert.deepEqual(m.ran(), [], 'the cached overrides were the old common directory’s');
});

// ---------------------------------------------------------------------------------------------------
// 4. The door's API: overrides are computed for `cwd` and `--git-dir=`, not for what git really uses
//    (`-C`, `--git-dir <dir>`, GIT_DIR which runHostGit lets a caller set).

test('red door (API): -C <repo> gets the overrides of the cwd, not of the repository', async () => {
  const m = markers();
  const { root, g } = repo('* filter=dashc\n');
  g('config', 'filter.dashc.smudge', `sh -c 'touch ${m.marker}.dashc; cat'`);
  rmSync(path.join(root, 'f.txt'));
  await hostGit('/', ['-C', root, 'checkout', '--', 'f.txt']).catch(() => undefined);
  assert.deepEqual(m.ran(), [], '-C escaped the driver list');
});

test('red door (API): "--git-dir <dir>" (two words) gets no overrides', async () => {
  const m = markers();
  const { root, g } = repo('* filter=gd\n');
  g('config', 'filter.gd.smudge', `sh -c 'touch ${m.marker}.gitdir; cat'`);
  rmSync(path.join(root, 'f.txt'));
  await hostGit('/', ['--git-dir', path.join(root, '.git'), '--work-tree', root, 'checkout', '--', 'f.txt']).catch(
    () => undefined,
  );
  assert.deepEqual(m.ran(), [], '--git-dir as two words escaped the driver list');
});

test('red door (API): GIT_DIR/GIT_WORK_TREE, which a caller may set, get the overrides of the cwd', async () => {
  const m = markers();
  const { root, g } = repo('* filter=envdir\n');
  g('config', 'filter.envdir.smudge', `sh -c 'touch ${m.marker}.envdir; cat'`);
  rmSync(path.join(root, 'f.txt'));
  await hostGit('/', ['checkout', '--', 'f.txt'], {
    env: { GIT_DIR: path.join(root, '.git'), GIT_WORK_TREE: root },
  }).catch(() => undefined);
  assert.deepEqual(m.ran(), [], 'GIT_DIR escaped the driver list');
});

// ---------------------------------------------------------------------------------------------------
// 5. End to end: what sandboxed Bash can plant that the worker's git then reads.

let n = 0;
function bashCtx(project: string, cwd: string, worktree?: ToolUseContext['agent']['worktree']): ToolUseContext {
  const sessionId = `red-door-${process.pid}-${++n}`;
  return {
    sessionId,
    toolUseId: `toolu_${n}`,
    idempotencyKey: `${sessionId}/toolu_${n}`,
    agent: {
      cwd,
      additionalDirectories: [],
      readFiles: {},
      projectDir: project,
      ...(worktree ? { worktree } : {}),
    },
    permission: {
      mode: 'default',
      rules: { allow: [], ask: [], deny: [] },
      workingDirectories: [project],
      sandbox: {},
    },
    abortSignal: new AbortController().signal,
    sandboxHost,
  };
}

async function bash(ctx: ToolUseContext, command: string): Promise<BashOutput> {
  const out = (await BashTool.call({ command }, ctx, () => undefined)).data;
  assert.equal(out.sandbox?.sandboxed, true, 'the command ran in the sandbox');
  return out;
}

const ID = '-c user.email=a@example.com -c user.name=agent';
const said = (o: BashOutput) => `(${o.exitCode}: ${o.output}${o.worktreeGitNote ? `\n${o.worktreeGitNote}` : ''})`;

/** A project (a git repository) the session works in. */
function project(): string {
  const { root } = repo('');
  return root;
}

// A nested repository below the protected-path scan keeps its config (the scan stops at depth 5); what
// matters is that nothing outside the sandbox ever runs git there: the next tests, and
// unit/attacks-worktree-repository (the session's repository is recorded at its start).

test('red e2e: nested repository + cd + EnterWorktree → the worker’s git runs the agent’s filter outside the sandbox', async (t) => {
  if (skip) return t.skip(skip);
  const m = markers();
  const proj = project();
  const deep = path.join(proj, 'a', 'b', 'c', 'd', 'e', 'n');
  // 1. Sandboxed Bash (the agent): a repository whose config names a filter "a=b", committed .gitattributes.
  const out = await bash(
    bashCtx(proj, proj),
    [
      `mkdir -p ${deep} && cd ${deep} && git init -q -b main`,
      `git config 'filter.a=b.smudge' "sh -c 'env > ${m.marker}.smudge; cat'"`,
      `echo '* filter=a=b' > .gitattributes && echo hi > f.txt && git add . && git ${ID} commit -qm x`,
      `echo rc=$?`,
    ].join(' && '),
  );
  assert.match(out.output, /rc=0/, said(out));
  // The sandbox kept it from the marker directory: the payload has not run yet.
  assert.deepEqual(m.ran(), []);
  // 2. `cd a/b/c/d/e/n` (a standalone cd moves the session's cwd, inside the working directory), then
  //    EnterWorktree: mainRepositoryRoot(ctx.agent.cwd) is the nested repository; `git worktree add` checks out.
  const ctx = bashCtx(proj, deep);
  await withBait(() => EnterWorktreeTool.call({ name: 'pwn' }, ctx, () => undefined)).catch(() => undefined);
  const ran = m.ran();
  const leaked = ran.map((f) => readFileSync(path.join(m.dir, f), 'utf8')).join('\n');
  assert.deepEqual(ran, [], `the agent's filter ran outside the sandbox as the worker:\n${leaked.slice(0, 400)}`);
});

test('red e2e: nested repository + EnterWorktree + a signed-looking commit → gpg.program runs when the worker imports the commit', async (t) => {
  if (skip) return t.skip(skip);
  const m = markers();
  const proj = project();
  const deep = path.join(proj, 'a', 'b', 'c', 'd', 'e', 'g');
  // The agent's repository: no filter at all (nothing the driver list could miss), only a signature check.
  const out = await bash(
    bashCtx(proj, proj),
    [
      `mkdir -p ${deep} && cd ${deep} && git init -q -b main`,
      `printf '#!/bin/sh\\nenv > ${m.marker}.gpg\\n' > gpg.sh && chmod +x gpg.sh`,
      `git config log.showSignature true && git config gpg.program ${deep}/gpg.sh`,
      `echo hi > f.txt && git add f.txt && git ${ID} commit -qm x`,
      `echo rc=$?`,
    ].join(' && '),
  );
  assert.match(out.output, /rc=0/, said(out));
  const ctx = bashCtx(proj, deep);
  const entered = await EnterWorktreeTool.call({ name: 'sig' }, ctx, () => undefined);
  const wtMod = entered.contextModifiers?.find((c) => c.type === 'worktreeEntered') as
    { worktree: NonNullable<ToolUseContext['agent']['worktree']> } | undefined;
  assert.ok(wtMod, 'EnterWorktree entered the nested repository’s worktree');
  const wt = { ...wtMod.worktree, originalCwd: deep };
  // In the worktree (sandboxed): a commit with a gpgsig header on its own branch.
  const wctx = bashCtx(wt.path, wt.path, wt);
  const out2 = await withBait(() =>
    bash(
      wctx,
      [
        `t=$(git rev-parse HEAD^{tree}) && p=$(git rev-parse HEAD)`,
        `printf 'tree %s\\nparent %s\\nauthor x <a@b> 1 +0000\\ncommitter x <a@b> 1 +0000\\ngpgsig -----BEGIN PGP SIGNATURE-----\\n \\n x\\n -----END PGP SIGNATURE-----\\n\\nsigned\\n' $t $p > c.txt`,
        `c=$(git hash-object -t commit -w c.txt) && rm c.txt && git reset -q --soft $c && echo rc=$?`,
      ].join(' && '),
    ),
  );
  assert.match(out2.output, /rc=0/, said(out2));
  const ran = m.ran();
  const leaked = ran.map((f) => readFileSync(path.join(m.dir, f), 'utf8')).join('\n');
  assert.deepEqual(ran, [], `gpg.program ran outside the sandbox as the worker:\n${leaked.slice(0, 400)}`);
});

test('red e2e: a BACKGROUND command keeps a shallow nested repository armed (the check after the call waits for its end) → EnterWorktree runs its filter', async (t) => {
  if (skip) return t.skip(skip);
  const m = markers();
  const proj = project();
  const sub = path.join(proj, 'sub');
  const ready = path.join(proj, 'ready');
  const controller = new AbortController();
  const bctx = { ...bashCtx(proj, proj), abortSignal: controller.signal };
  const outDir = scratch('da-red-bg-');
  const bg = runBackgroundCommand(
    {
      command: [
        `mkdir -p ${sub} && cd ${sub} && git init -q -b main`,
        `git config 'filter.a=b.smudge' "sh -c 'env > ${m.marker}.smudge; cat'"`,
        `echo '* filter=a=b' > .gitattributes && echo hi > f.txt && git add . && git ${ID} commit -qm x`,
        `touch ${ready} && sleep 60`,
      ].join(' && '),
      timeoutMs: 90_000,
      outputPath: path.join(outDir, 'out.txt'),
    },
    bctx,
    () => undefined,
  ).catch((e: Error) => ({ output: `threw: ${e.message}` }) as { output: string });
  for (let i = 0; i < 600 && !existsSync(ready); i++) await new Promise((r) => setTimeout(r, 50));
  try {
    assert.ok(existsSync(ready), 'the background command armed the nested repository');
    // Meanwhile, the agent: `cd sub`, EnterWorktree.
    await EnterWorktreeTool.call({ name: 'bg' }, bashCtx(proj, sub), () => undefined).catch(() => undefined);
  } finally {
    controller.abort();
    await bg;
  }
  assert.deepEqual(m.ran(), [], 'the agent’s filter ran outside the sandbox as the worker');
});

test('red door: a .git/commondir planted in the project (by a background command, while it runs) makes worker-side git refuse, not read the agent’s config', async () => {
  const m = markers();
  const { root: proj } = repo('');
  // The agent's repository: a config with a filter, and core.worktree.
  const { root: evil, g: ge } = repo('');
  ge('config', 'filter.evil.smudge', `sh -c 'env > ${m.marker}.smudge; cat'`);
  ge('config', 'core.pager', `sh -c 'env > ${m.marker}.pager'`);
  writeFileSync(path.join(proj, '.git', 'commondir'), `${path.join(evil, '.git')}\n`);
  await assert.rejects(
    () => hostGit(proj, [`--git-dir=${path.join(proj, '.git')}`, `--work-tree=${proj}`, 'status']),
    /commondir exists/,
  );
  assert.deepEqual(m.ran(), []);
});

// ---------------------------------------------------------------------------------------------------
// 6. Environments and ripgrep (expected contained).

const withBait = <T>(f: () => Promise<T>): Promise<T> => withEnv(BAIT, f);

test('red door: no purpose passes a variable that makes a program load code (pure)', () => {
  const loaders = {
    BASH_ENV: '/x',
    ENV: '/x',
    NODE_OPTIONS: '--require /x',
    LD_PRELOAD: '/x.so',
    LD_LIBRARY_PATH: '/x',
    PERL5OPT: '-M/x',
    PYTHONSTARTUP: '/x',
    PYTHONPATH: '/x',
    RUBYOPT: '-r/x',
    GIT_SSH_COMMAND: 'x',
    GIT_CONFIG_PARAMETERS: "'core.fsmonitor=x'",
    GIT_CONFIG_COUNT: '1',
    GIT_DIR: '/x',
    GIT_EXEC_PATH: '/x',
    RIPGREP_CONFIG_PATH: '/x',
    PROMPT_COMMAND: 'x',
  };
  for (const p of ['hook', 'mcp-server', 'git', 'ripgrep', 'sandbox-machinery', 'sandboxed-command'] as const) {
    const env = hostEnvironment(p, { from: { ...loaders, PATH: '/bin' } });
    for (const k of Object.keys(loaders)) assert.equal(env[k], undefined, `${p} passes ${k}`);
  }
  // Documented, not a hole of the door: NODE_PATH (a node module path) is on the Bash/hook allowlist.
  assert.equal(hostEnvironment('hook', { from: { NODE_PATH: '/x' } }).NODE_PATH, '/x');
});

test('red door: Grep input that looks like ripgrep options (--pre, --search-zip) runs nothing', async () => {
  const m = markers();
  const dir = scratch('da-red-rg-');
  const pre = path.join(dir, 'pre.sh');
  writeFileSync(pre, `#!/bin/sh\ntouch ${m.marker}.pre\ncat "$1"\n`, { mode: 0o755 });
  writeFileSync(path.join(dir, 'a.txt'), 'hello\n');
  mkdirSync(path.join(dir, 'sub'));
  const variants: Array<{ pattern: string; globs: string[]; typeGlobs?: string[] }> = [
    { pattern: `--pre=${pre}`, globs: [] },
    { pattern: 'hello', globs: [`--pre=${pre}`] },
    { pattern: 'hello', globs: ['--search-zip'], typeGlobs: [`--pre=${pre}`] },
    { pattern: 'hello', globs: [], typeGlobs: [`x:include:all`, `--pre=${pre}`] },
  ];
  for (const v of variants) {
    await runRipgrep({
      pattern: v.pattern,
      target: dir,
      targetIsFile: false,
      mode: 'content',
      globs: v.globs,
      ...(v.typeGlobs ? { typeGlobs: v.typeGlobs } : {}),
      caseInsensitive: false,
      multiline: false,
      before: 0,
      after: 0,
      signal: new AbortController().signal,
    }).catch(() => undefined);
  }
  assert.deepEqual(m.ran(), []);
});

test('red door: the driver list is what git would read (sanity of gitConfigOverrides on a plain repository)', () => {
  const { root, g } = repo('');
  g('config', 'filter.q.clean', 'x');
  g('config', 'filter.a=b.smudge', 'x');
  const o = new Map(gitConfigOverrides(root, [], {}));
  assert.equal(o.get('filter.q.clean'), '');
  assert.equal(o.get('filter.a=b.smudge'), '');
});
