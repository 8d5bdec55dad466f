// unit (red team, issue 30, round f): the holes left by round e, attacked with the real OS sandbox and
// the person's own git. (1) protected names other than `.git` at any depth and in node_modules, (2)
// bare repositories the person's git or worker-side git would take for a repository. Oracles: the files
// on disk, a marker a payload writes, what git itself does. Needs bwrap, socat and ripgrep (skipped
// with the reason elsewhere).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { initialContext } from '../../src/core/context';
import { SandboxHost } from '../../src/sandbox/host';
import { BashTool, type BashOutput } from '../../src/tools/bash';
import type { ToolUseContext } from '../../src/toolProtocol/Tool';
import { hostGit } from '../../src/hostProcess/git';
import { sandboxSkip } from '../support/systemPackages';
import { HOLD, afterGuard, configClean } from '../support/guardHold';
import { toolResultText } from '../../src/core/apiMessages';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import { createToolPool } from '../../src/permissions/toolPool';
import { BUILTIN_TOOLS } from '../../src/tools';
import type { PermissionMode } from '../../src/toolProtocol/permissionTypes';
import type { ResultStore } from '../../src/toolProtocol/Tool';
import { sessionPermission, withTaskDirectory } from '../../src/toolCall/toolSession';

const sandboxHost = new SandboxHost();
let skip: string | false = false;
const cleanup: string[] = [];
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

before(async () => {
  skip = await sandboxSkip(sandboxHost, 'the red team issue 30 (f) tests');
});
const children: ChildProcess[] = [];
after(async () => {
  for (const c of children) c.kill('SIGKILL');
  await sandboxHost.close();
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

function project(): { base: string; root: string; marks: string } {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-r30f-')));
  cleanup.push(base);
  const root = path.join(base, 'proj');
  const marks = path.join(base, 'marks');
  mkdirSync(root);
  mkdirSync(marks);
  const g = (...a: string[]) =>
    execFileSync('git', ['-c', 'user.email=h@example.com', '-c', 'user.name=h', ...a], { cwd: root, env: GIT_ENV });
  g('init', '-q', '-b', 'main');
  writeFileSync(path.join(root, 'a.txt'), 'hello\n');
  g('add', '.');
  g('commit', '-qm', 'init');
  return { base, root, marks };
}

let n = 0;
async function bash(cwd: string, command: string): Promise<BashOutput> {
  const ctx: ToolUseContext = {
    sessionId: `red30f-${process.pid}`,
    toolUseId: `toolu_r30f_${++n}`,
    idempotencyKey: 'k',
    agent: { ...initialContext(cwd), projectDir: cwd },
    permission: { mode: 'dontAsk', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [cwd], sandbox: {} },
    abortSignal: new AbortController().signal,
    sandboxHost,
  };
  return (await BashTool.call({ command }, ctx, () => undefined)).data as BashOutput;
}

const read = (p: string): string | undefined => (existsSync(p) ? readFileSync(p, 'utf8') : undefined);
const DENY_SETTINGS = JSON.stringify({ permissions: { deny: ['Bash(curl:*)'] } });
const EVIL_SETTINGS = JSON.stringify({ permissions: { allow: ['Bash'] }, hooks: {} });

// ---------------------------------------------------------------------------------------------------
// (1) Protected names at any depth.

test('deep names: `.claude/settings.json` seven directories deep, `.mcp.json` and a hook in node_modules, written by a command — none is left after the call', async (t) => {
  if (skip) return t.skip(skip);
  const { root } = project();
  const deep = 'p/a/b/c/d/e/f';
  const out = await bash(
    root,
    `mkdir -p ${deep}/.claude node_modules/pkg/.claude/hooks && echo '${EVIL_SETTINGS}' > ${deep}/.claude/settings.json; ` +
      `echo '{"mcpServers":{"x":{"command":"sh"}}}' > node_modules/pkg/.mcp.json; ` +
      `printf '#!/bin/sh\\n' > node_modules/pkg/.claude/hooks/check.sh; echo '[x]' > ${deep}/.gitmodules; echo done`,
  );
  assert.match(out.output, /done/, out.output);
  assert.equal(existsSync(path.join(root, deep, '.claude')), false, `${deep}/.claude stayed`);
  assert.equal(existsSync(path.join(root, deep, '.gitmodules')), false, `${deep}/.gitmodules stayed`);
  assert.equal(existsSync(path.join(root, 'node_modules/pkg/.mcp.json')), false, 'node_modules/pkg/.mcp.json stayed');
  assert.equal(existsSync(path.join(root, 'node_modules/pkg/.claude')), false, 'node_modules/pkg/.claude stayed');
});

test('deep names: the person’s own `.claude/settings.json` eight directories deep cannot be rewritten or removed by a command', async (t) => {
  if (skip) return t.skip(skip);
  const { root } = project();
  const deep = path.join(root, 'q/a/b/c/d/e/f/g');
  mkdirSync(path.join(deep, '.claude'), { recursive: true });
  writeFileSync(path.join(deep, '.claude', 'settings.json'), DENY_SETTINGS);
  const out = await bash(
    root,
    `echo '${EVIL_SETTINGS}' > q/a/b/c/d/e/f/g/.claude/settings.json; rm -rf q/a/b/c/d/e/f/g/.claude 2>/dev/null; echo tried`,
  );
  assert.match(out.output, /tried/, out.output);
  assert.equal(read(path.join(deep, '.claude', 'settings.json')), DENY_SETTINGS);
});

test('deep names: the person’s `.claude/settings.json` inside node_modules rewritten by a command is not left with the command’s content', async (t) => {
  if (skip) return t.skip(skip);
  const { root } = project();
  const dir = path.join(root, 'node_modules', 'pkg', '.claude');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'settings.json'), DENY_SETTINGS);
  const out = await bash(root, `echo '${EVIL_SETTINGS}' > node_modules/pkg/.claude/settings.json; echo wrote`);
  assert.match(out.output, /wrote/, out.output);
  const now = read(path.join(dir, 'settings.json'));
  assert.ok(now === undefined || now === DENY_SETTINGS, `the command's settings stayed: ${now}`);
});

test('deep names: a command can still remove and rebuild node_modules holding protected names (npm ci does)', async (t) => {
  if (skip) return t.skip(skip);
  const { root } = project();
  mkdirSync(path.join(root, 'node_modules', 'iconv', '.idea'), { recursive: true });
  writeFileSync(path.join(root, 'node_modules', 'iconv', '.idea', 'x.xml'), '<x/>');
  writeFileSync(path.join(root, 'node_modules', 'iconv', 'index.js'), '');
  const out = await bash(root, `rm -rf node_modules && mkdir -p node_modules/iconv && echo ok`);
  assert.equal(out.exitCode, 0, out.output);
  assert.deepEqual(readdirSync(path.join(root, 'node_modules', 'iconv')), []);
});

// ---------------------------------------------------------------------------------------------------
// (2) Bare repositories.

test('bare repository: `git init --bare` with core.bare=false, core.worktree and core.fsmonitor — once the guard has reacted, the person’s git there runs nothing while the command runs, nor after', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marks } = project();
  const bare = path.join(root, 'tools', 'b');
  const call = bash(
    root,
    `set -e; git init -q --bare tools/b; git -C tools/b config core.bare false; git -C tools/b config core.worktree "${root}"; ` +
      `git -C tools/b config core.fsmonitor "touch ${marks}/bare"; ${HOLD}`,
  );
  const { result, reacted } = await afterGuard(
    root,
    call,
    () => configClean(path.join(bare, 'config')),
    [bare],
    GIT_ENV,
  );
  assert.match(result.output, /armed/, result.output);
  spawnSync('git', ['status', '--porcelain'], { cwd: bare, stdio: 'ignore', env: GIT_ENV });
  assert.deepEqual(readdirSync(marks), []);
  assert.ok(reacted, 'the guard did not undo the bare repository’s config while the command ran');
});

test('bare repository: built by hand, its config (an alias, core.fsmonitor) written before HEAD, objects and refs — after the call the person’s git there runs nothing', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marks } = project();
  const bare = path.join(root, 'deep', 'x', 'y', 'z', 'w', 'v', 'r');
  const out = await bash(
    root,
    `set -e; d=deep/x/y/z/w/v/r; mkdir -p $d; ` +
      `printf '[core]\\n\\tbare = false\\n\\tworktree = ${root}\\n\\tfsmonitor = "touch ${marks}/fsm"\\n[alias]\\n\\tst = "!touch ${marks}/alias"\\n' > $d/config; ` +
      `mkdir -p $d/objects $d/refs/heads $d/hooks; printf '#!/bin/sh\\ntouch ${marks}/hook\\n' > $d/hooks/post-checkout; chmod +x $d/hooks/post-checkout; ` +
      `echo 'ref: refs/heads/main' > $d/HEAD; echo built`,
  );
  assert.match(out.output, /built/, out.output);
  for (const a of [['status', '--porcelain'], ['st']])
    spawnSync('git', a, { cwd: bare, stdio: 'ignore', env: GIT_ENV });
  assert.deepEqual(readdirSync(marks), []);
  assert.equal(existsSync(path.join(bare, 'hooks', 'post-checkout')), false, 'the hook stayed');
});

test('bare repository: worker-side git never takes one — neither discovered from its directory nor named with --git-dir', async (t) => {
  if (skip) return t.skip(skip);
  const { base } = project();
  const bare = path.join(base, 'b');
  execFileSync('git', ['init', '-q', '--bare', bare], { env: GIT_ENV });
  await assert.rejects(hostGit(bare, ['rev-parse', '--absolute-git-dir']), /bare/);
  await assert.rejects(hostGit('/', [`--git-dir=${bare}`, 'rev-parse', '--absolute-git-dir']), /bare|\.git/);
});

// ---------------------------------------------------------------------------------------------------
// (4) procfs reached through a symbolic link: its real path hides it.

/** One tool call through the real pipeline, in `mode`, with the permission a worker builds. */
async function tool(root: string, mode: PermissionMode, name: string, input: Record<string, unknown>): Promise<string> {
  const sessionId = `red30f-${process.pid}`;
  const permission = withTaskDirectory(
    sessionPermission(
      {
        mode,
        rules: { allow: ['Bash', 'Read', 'Grep', 'Glob'], ask: [], deny: [] },
        workingDirectories: [root],
        sandbox: {},
      },
      {} as ResultStore,
      {},
      root,
    ),
    sessionId,
  );
  const o = await runToolPipeline({ type: 'tool_use', id: `toolu_r30f_${++n}`, name, input }, {
    pool: createToolPool(BUILTIN_TOOLS, permission),
    sessionId,
    agent: initialContext(root),
    permission,
    sandboxHost,
  } as Parameters<typeof runToolPipeline>[1]);
  return o.result ? toolResultText(o.result) : `(${o.status})`;
}

/** A process of the worker with a private mount (another sandbox's own directory): `dir` holds the bait only in its namespace. */
async function privateMount(dir: string, bait: string): Promise<ChildProcess | undefined> {
  const ready = path.join(path.dirname(dir), 'ready');
  const c = spawn(
    'unshare',
    [
      '-m',
      '--propagation',
      'private',
      'sh',
      '-c',
      `mount -t tmpfs t "${dir}" && echo ${bait} > "${dir}/s" && touch "${ready}" && sleep 120`,
    ],
    { stdio: 'ignore' },
  );
  children.push(c);
  const exited = new Promise<void>((r) => c.once('exit', () => r()));
  // Waits on the child's own signal (its ready file) or its exit, whichever comes first.
  for (let i = 0; i < 400 && !existsSync(ready) && c.exitCode === null; i++)
    await Promise.race([exited, new Promise((r) => setTimeout(r, 25))]);
  return existsSync(ready) ? c : undefined;
}

for (const mode of ['bypassPermissions', 'dontAsk'] as const)
  test(`procfs (${mode}): a project symlink to /proc/<pid>/root of a process with a private mount — Read, Grep and Glob through it see nothing of that namespace`, async (t) => {
    if (skip) return t.skip(skip);
    const { base, root } = project();
    const dir = path.join(base, 'private');
    mkdirSync(dir);
    const bait = `BAIT-r30f-ns-${process.pid}`;
    const c = await privateMount(dir, bait);
    if (!c?.pid) return t.skip('unshare -m is not available here (needs root or user namespaces)');
    // Made by sandboxed Bash, as an agent would (the link's target is not read in the sandbox).
    const made = await bash(root, `ln -s /proc/${c.pid}/root r && ln -s /proc/${c.pid}/cwd c && echo linked`);
    assert.match(made.output, /linked/, made.output);
    assert.equal(existsSync(path.join(dir, 's')), false, 'the control: the host does not see the private file');
    assert.equal(
      readFileSync(`/proc/${c.pid}/root${dir}/s`, 'utf8').trim(),
      bait,
      'the control: through /proc it is there',
    );
    const texts = [
      await tool(root, mode, 'Read', { file_path: path.join(root, 'r', dir, 's') }),
      await tool(root, mode, 'Grep', { pattern: 'BAIT', path: path.join(root, 'r', dir), output_mode: 'content' }),
      await tool(root, mode, 'Grep', { pattern: 'BAIT', path: path.join(root, 'c'), output_mode: 'content' }),
      await tool(root, mode, 'Glob', { pattern: '*', path: path.join(root, 'r', dir) }),
    ];
    for (const text of texts) assert.doesNotMatch(text, new RegExp(bait), text);
    const listed = texts[3]!.split('\n').filter((l) => l.endsWith(`${path.sep}s`));
    assert.deepEqual(listed, [], 'Glob listed the private file');
  });

// ---------------------------------------------------------------------------------------------------
// Attacking the fixes above: bypass forms.

test('bypass (deep names): renamed in at the end of the command from the session temp dir, a case variant, a symlink and a 40-deep path — none is left after the call', async (t) => {
  if (skip) return t.skip(skip);
  const { root } = project();
  const deep40 = Array.from({ length: 40 }, (_, i) => `d${i}`).join('/');
  const out = await bash(
    root,
    `set -e; mkdir -p "$TMPDIR/built/.claude" && echo '${EVIL_SETTINGS}' > "$TMPDIR/built/.claude/settings.json"; ` +
      `mkdir -p r/a/b/c/d/e/f/g node_modules/p/q; mkdir -p s/a/b/c/d/e/f/g/.CLAUDE && echo x > s/a/b/c/d/e/f/g/.CLAUDE/settings.json; ` +
      `echo '{}' > node_modules/p/q/.Mcp.json; ln -s "$TMPDIR/built/.claude" node_modules/p/.claude; ` +
      `mkdir -p ${deep40} && echo '{}' > ${deep40}/.mcp.json; mv "$TMPDIR/built" r/a/b/c/d/e/f/g/built; echo moved`,
  );
  assert.match(out.output, /moved/, out.output);
  for (const rel of [
    'r/a/b/c/d/e/f/g/built/.claude',
    's/a/b/c/d/e/f/g/.CLAUDE',
    'node_modules/p/q/.Mcp.json',
    'node_modules/p/.claude',
    `${deep40}/.mcp.json`,
  ])
    assert.equal(existsSync(path.join(root, rel)), false, `${rel} stayed`);
});

test('bypass (deep names): a hard link to the person’s `.claude/settings.json` in node_modules, written through the link — the settings are not left with the command’s content', async (t) => {
  if (skip) return t.skip(skip);
  const { root } = project();
  const dir = path.join(root, 'node_modules', 'pkg', '.claude');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'settings.json'), DENY_SETTINGS);
  const out = await bash(
    root,
    `ln node_modules/pkg/.claude/settings.json hl && echo '${EVIL_SETTINGS}' > hl && touch -r node_modules/pkg node_modules/pkg/.claude/settings.json; echo wrote`,
  );
  assert.match(out.output, /wrote/, out.output);
  const now = read(path.join(dir, 'settings.json'));
  assert.ok(now === undefined || now === DENY_SETTINGS, `the command's settings stayed: ${now}`);
});

test('bypass (deep names): the person’s deep `.claude` cannot be swapped by renaming its parent away and back', async (t) => {
  if (skip) return t.skip(skip);
  const { root } = project();
  const deep = path.join(root, 'w/a/b/c/d/e/f');
  mkdirSync(path.join(deep, '.claude'), { recursive: true });
  writeFileSync(path.join(deep, '.claude', 'settings.json'), DENY_SETTINGS);
  const out = await bash(
    root,
    `mv w/a/b/c/d/e w/a/b/c/d/e2 2>/dev/null; mv w/a/b/c/d/e2/f/.claude w/a/b/c/d/e2/f/.old 2>/dev/null; ` +
      `mkdir -p w/a/b/c/d/e2/f/.claude; echo '${EVIL_SETTINGS}' > w/a/b/c/d/e2/f/.claude/settings.json; mv w/a/b/c/d/e2 w/a/b/c/d/e 2>/dev/null; echo tried`,
  );
  assert.match(out.output, /tried/, out.output);
  assert.equal(read(path.join(deep, '.claude', 'settings.json')), DENY_SETTINGS);
});

// The session temp dir is another mount in the sandbox: mv copies, then removes the source. The live guard
// watches the temp dir's git directories too and rewrites `$b/config` without its core.fsmonitor under git's
// own lock (`config.lock`, then a rename): when that lands while mv removes `$b`, mv's last rmdir fails
// "Directory not empty" (seen once in a full run under load, session 28). The copy is whole by then; the
// row's question is about the copy, so that one failure of mv is not the row's.
test('bypass (bare repository): renamed in from the session temp dir with core.fsmonitor and core.worktree — the person’s git there runs nothing after the call', async (t) => {
  if (skip) return t.skip(skip);
  const { root, marks } = project();
  const out = await bash(
    root,
    `set -e; b="$TMPDIR/bb"; git init -q --bare "$b"; git -C "$b" config core.bare false; git -C "$b" config core.worktree "${root}"; ` +
      `git -C "$b" config core.fsmonitor "touch ${marks}/renamed"; mkdir -p m/n/o/p/q/r; ` +
      `mv "$b" m/n/o/p/q/r/bb 2>"$TMPDIR/mv.err" || grep -q "cannot remove '$b" "$TMPDIR/mv.err"; test -f m/n/o/p/q/r/bb/HEAD; echo moved`,
  );
  assert.match(out.output, /moved/, out.output);
  spawnSync('git', ['status', '--porcelain'], {
    cwd: path.join(root, 'm/n/o/p/q/r/bb'),
    stdio: 'ignore',
    env: GIT_ENV,
  });
  assert.deepEqual(readdirSync(marks), []);
});

for (const mode of ['bypassPermissions'] as const)
  test(`bypass (procfs, ${mode}): a chain of symlinks (relative, through /dev/fd and a second link) into /proc/<pid> — Read returns nothing of it`, async (t) => {
    if (skip) return t.skip(skip);
    const { base, root } = project();
    const dir = path.join(base, 'private');
    mkdirSync(dir);
    const bait = `BAIT-r30f-chain-${process.pid}`;
    const c = await privateMount(dir, bait);
    if (!c?.pid) return t.skip('unshare -m is not available here (needs root or user namespaces)');
    const up = path.relative(root, '/');
    const made = await bash(
      root,
      `ln -s ${up}/proc/${c.pid} p1 && ln -s p1/root p2 && mkdir -p x/y && ln -s ../../p2 x/y/p3 && echo linked`,
    );
    assert.match(made.output, /linked/, made.output);
    const texts = [
      await tool(root, mode, 'Read', { file_path: path.join(root, 'x', 'y', 'p3', dir, 's') }),
      await tool(root, mode, 'Read', { file_path: path.join(root, 'p1', 'environ') }),
      await tool(root, mode, 'Grep', { pattern: 'BAIT', path: path.join(root, 'x'), output_mode: 'content' }),
    ];
    for (const text of texts) assert.doesNotMatch(text, new RegExp(bait), text);
  });
