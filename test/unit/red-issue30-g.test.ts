// unit (issue 30 round g, fresh eyes): attacks on the three fixes of the last hour — the sandbox
// runtime pool (runtimePool.ts, remoteRuntime.ts, runtimeChild.ts), stored results readable only
// from the session's own directory (callDeps.ts sessionDirName / legacySessionDirName,
// sessionsApart.ts), and the deeper protection. Oracles: real files read back, the real
// environment of a real runtime process, the pool's real bookkeeping — never the tool's words.
// Held attacks are passing tests; holes are `test.todo('HOLE: …')` plus the full attack, skipped.
import { after, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createAgentActivities } from '../../src/temporal/activities';
import { sessionDirName } from '../../src/runtime/callDeps';
import { LocalBlobStore } from '../../src/stores/messageStore';
import { initialContext } from '../../src/core/context';
import type { CallRuntime } from '../../src/runtime/runtime';
import { RuntimePool, type ProcessRuntime, type SandboxRuntime } from '../../src/sandbox/runtimePool';
import { startRemoteRuntime } from '../../src/sandbox/remoteRuntime';
import { SandboxHost } from '../../src/sandbox/host';
import { BashTool, type BashOutput } from '../../src/tools/bash';
import type { ToolUseContext } from '../../src/toolProtocol/Tool';
import { sandboxSkip } from '../support/systemPackages';

const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'da-red-g-')));
const SECRET = 'VICTIM-SESSION-RESULT-7f3a\n';

function runtime(): CallRuntime {
  return {
    signal: new AbortController().signal,
    heartbeat: () => undefined,
    attempt: 1,
    callKey: 'wf/tool-g',
    warn: () => undefined,
  };
}

/** A worker (local store) whose victim session stored a large result; `read` runs a Read as any session. */
function world(victimSession: string) {
  const dir = mkdtempSync(path.join(root, 'w-'));
  const project = path.join(dir, 'project');
  mkdirSync(project, { recursive: true });
  const store = path.join(dir, 'store');
  // What the victim session's large result looks like on disk (LocalResultStore: <results>/<dir>/<id>.txt).
  const victimFile = path.join(store, 'results', sessionDirName(victimSession), 'toolu_victim.txt');
  mkdirSync(path.dirname(victimFile), { recursive: true });
  writeFileSync(victimFile, SECRET);
  const { runToolCall } = createAgentActivities({
    storeDir: store,
    blobStore: new LocalBlobStore(path.join(dir, 'blobs')),
  });
  let n = 0;
  const read = async (filePath: string, sessionId: string) => {
    const r = await runToolCall(
      {
        session: {
          sessionId,
          toolNames: ['Read'],
          permission: {
            mode: 'bypassPermissions',
            rules: { allow: [], ask: [], deny: [] },
            workingDirectories: [project],
          },
        },
        block: { type: 'tool_use', id: `toolu_g_${++n}`, name: 'Read', input: { file_path: filePath } },
        context: initialContext(project),
      },
      runtime(),
    );
    assert.equal(r.kind, 'done');
    const record = r.kind === 'done' ? r.record : undefined;
    const text = JSON.stringify(record?.result.content ?? '');
    // The oracle: the victim's bytes (unique marker) reached the attacker's transcript.
    return { leaked: record?.status === 'ok' && text.includes('VICTIM-SESSION-RESULT-7f3a'), text };
  };
  return { victimFile, read };
}

// ---------------------------------------------------------------------------------------------
// Fix 2: the results directory per session.

test('results (held): an unrelated session cannot read a session whose id is safe, even in bypassPermissions', async () => {
  const w = world('a_b');
  assert.equal((await w.read(w.victimFile, 'q')).leaked, false);
  assert.equal((await w.read(w.victimFile, 'a_b')).leaked, true, 'control: the owner reads it');
});

test('results (held): ids differing by `+` or by a forged hash suffix never share a directory', () => {
  const a = 'x y';
  const forged = sessionDirName(a); // `x_y+<hash>`: a safe-looking id? no: `+` is not in the safe set
  assert.notEqual(sessionDirName(forged), forged, 'an id spelled like a hashed name is itself hashed');
  assert.notEqual(sessionDirName('x+y'), sessionDirName('x_y'));
  assert.notEqual(sessionDirName('p/agent-1'), sessionDirName('p_agent-1'));
});

// Closed (G-H1): the legacy-name grant is gone — legacySessionDirName('a/b') === sessionDirName('a_b').
test('results (held, was a hole): session `a/b` reads nothing `a_b` stored (no old-name grant)', async () => {
  const w = world('a_b');
  const r = await w.read(w.victimFile, 'a/b');
  assert.equal(r.leaked, false, `session a/b read a_b's stored result: ${r.text.slice(0, 200)}`);
});

// Closed (G-H2): a subagent's results lie inside its parent's; no name prefix grants anything.
test('results (held, was a hole): session `p` reads nothing top-level session `p_agent-x` stored', async () => {
  const w = world('p_agent-x');
  const r = await w.read(w.victimFile, 'p');
  assert.equal(r.leaked, false, `session p read p_agent-x's stored result: ${r.text.slice(0, 200)}`);
});

test('results (held): a subagent does not read its parent, nor a sibling subagent', async () => {
  const w = world('p');
  assert.equal((await w.read(w.victimFile, 'p/agent-1')).leaked, false);
  const w2 = world('p/agent-1');
  assert.equal((await w2.read(w2.victimFile, 'p/agent-2')).leaked, false);
  assert.equal((await w2.read(w2.victimFile, 'p')).leaked, true, 'control: the parent reads its child');
});

// ---------------------------------------------------------------------------------------------
// Fix 1: the runtime pool. A fake runtime records which configuration wrapped each command.

class FakeRuntime implements SandboxRuntime, ProcessRuntime {
  config: string | undefined;
  dead = false;
  resets = 0;
  readonly wrappedUnder: string[] = [];
  private readonly endListeners: Array<(why: string) => void> = [];
  constructor(readonly name: string) {}
  onEnd(listener: (why: string) => void): void {
    this.endListeners.push(listener);
  }
  /** The process was killed (OOM killer, a stray kill of its group): what a real one's 'exit' tells. */
  kill(): void {
    this.dead = true;
    for (const l of this.endListeners.splice(0)) l('exit SIGKILL');
  }
  async initialize(config: unknown): Promise<void> {
    await new Promise((r) => setImmediate(r));
    this.config = JSON.stringify(config);
  }
  async wrapWithSandbox(command: string): Promise<string> {
    if (this.dead) throw new Error('the sandbox runtime process ended: exit SIGKILL');
    this.wrappedUnder.push(this.config ?? 'none');
    return `wrapped[${this.config}] ${command}`;
  }
  registerCommandNetworkLists(): void {}
  unregisterCommandNetworkLists(): void {}
  getSandboxViolationStore() {
    return { getViolationsForCommand: () => [] };
  }
  cleanupAfterCommand(): void {}
  async reset(): Promise<void> {
    this.resets++;
    this.config = undefined;
    await new Promise((r) => setImmediate(r));
    for (const l of this.endListeners.splice(0)) l('reset');
  }
  isSupportedPlatform(): boolean {
    return true;
  }
  checkDependencies() {
    return { errors: [], warnings: [] };
  }
}

function pool(childIdleMs = 30_000) {
  const home = new FakeRuntime('home');
  const children: FakeRuntime[] = [];
  const p = new RuntimePool(
    home,
    () => {
      const c = new FakeRuntime(`child${children.length}`);
      children.push(c);
      return c;
    },
    childIdleMs,
  );
  return { p, home, children };
}

test('pool (held): concurrent sessions with different configs each wrap under exactly their own config', async () => {
  const { p } = pool();
  const configs = [{ deny: ['a'] }, { deny: ['b'] }, { deny: ['a'] }, { deny: ['c'] }, { deny: ['b'] }];
  const leases = await Promise.all(configs.map((c) => p.acquire(c)));
  for (const [i, l] of leases.entries()) {
    const w = await l.runtime.wrapWithSandbox('true');
    assert.ok(w.startsWith(`wrapped[${JSON.stringify(configs[i])}]`), `${i}: ${w}`);
  }
  for (const l of leases) l.release();
  await p.close();
});

test('pool (held): an idle retire racing a re-use — the call that joins during the idle time keeps its config; one after gets a fresh runtime', async () => {
  const { p, children } = pool(20);
  const busy = await p.acquire({ deny: ['home'] }); // holds the worker's own runtime
  const l1 = await p.acquire({ deny: ['x'] });
  l1.release();
  await new Promise((r) => setTimeout(r, 5));
  const l2 = await p.acquire({ deny: ['x'] }); // joins before the timer: the timer is cleared
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(children[0]!.resets, 0, 'not reset under a lease');
  assert.ok((await l2.runtime.wrapWithSandbox('t')).startsWith('wrapped[{"deny":["x"]}]'));
  l2.release();
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(children[0]!.resets, 1, 'retired once idle');
  const l3 = await p.acquire({ deny: ['x'] });
  assert.ok((await l3.runtime.wrapWithSandbox('t')).startsWith('wrapped[{"deny":["x"]}]'));
  assert.notEqual(l3.runtime, children[0], 'a retired runtime is never handed out again');
  // A double release does not drop another lease's count (the retire would reset under it).
  const l4 = await p.acquire({ deny: ['x'] });
  l3.release();
  l3.release();
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(children[1]!.resets, 0, "l4's runtime is not retired under it");
  l4.release();
  busy.release();
  await p.close();
});

// G-H3 (fixed): the pool runs at most MAX_RUNTIME_PROCESSES (4) runtime processes; a call of a new
// configuration at the cap ends an idle one (least recently used) or waits for one. The attack as
// a session would make it: 200 calls, each of another deny list, while another command holds the
// worker's own runtime. Oracle: the pool's real bookkeeping, processes alive at once (started and
// not reset) — 200 without the cap.
test('pool (held): 200 distinct deny lists never run more than 4 runtime processes at once', async () => {
  const { p, children } = pool();
  const busy = await p.acquire({ deny: ['busy'] });
  let most = 0;
  const alive = () => children.filter((c) => c.resets === 0).length;
  const calls = Array.from({ length: 200 }, async (_, i) => {
    const config = { network: { deniedDomains: [`d${i}.example`] } };
    const l = await p.acquire(config);
    most = Math.max(most, alive(), p.processRuntimes());
    const w = await l.runtime.wrapWithSandbox('t');
    assert.ok(w.startsWith(`wrapped[${JSON.stringify(config)}]`), `${i}: ${w}`);
    await new Promise((r) => setImmediate(r));
    l.release();
  });
  await Promise.all(calls);
  assert.ok(most <= 4, `${most} runtime processes at once for one worker`);
  assert.ok(children.length >= 4, 'control: the calls did need processes of their own');
  busy.release();
  await p.close();
});

// G-H4 (fixed): a runtime process that died is dropped at its 'exit'; the next call starts a new one.
test('pool (held): after the child dies, a new call of its config gets a live runtime', async () => {
  const { p, children } = pool();
  const busy = await p.acquire({ deny: ['busy'] });
  const l1 = await p.acquire({ deny: ['x'] });
  children[0]!.kill(); // the child was killed (OOM killer, a stray kill of its group)
  await assert.rejects(l1.runtime.wrapWithSandbox('t'));
  l1.release();
  const l2 = await p.acquire({ deny: ['x'] });
  assert.ok((await l2.runtime.wrapWithSandbox('t')).startsWith('wrapped[{"deny":["x"]}]'));
  assert.notEqual(l2.runtime, children[0], 'a new runtime, not the dead one');
  assert.equal(p.processRuntimes(), 1, 'the dead one no longer counts against the cap');
  l2.release();
  busy.release();
  await p.close();
});

// The child's environment: the worker's secrets never reach a runtime process (the door's
// sandbox-machinery allowlist). Oracle: /proc/<child>/environ of the real process.
test("pool (held): a runtime process's environment carries none of the worker's secrets", async (t) => {
  if (process.platform !== 'linux') return t.skip('linux /proc');
  const bait = {
    ANTHROPIC_API_KEY: 'sk-ant-BAIT-g-1',
    AWS_SECRET_ACCESS_KEY: 'BAIT-g-2',
    DATABASE_URL: 'postgres://BAIT-g-3',
    TEMPORAL_API_KEY: 'BAIT-g-4',
  };
  const saved: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(bait)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  const before = new Set(readdirSync('/proc').filter((d) => /^\d+$/.test(d)));
  const rt = startRemoteRuntime();
  try {
    let pid: string | undefined;
    for (let i = 0; i < 100 && !pid; i++) {
      for (const d of readdirSync('/proc')) {
        if (!/^\d+$/.test(d) || before.has(d)) continue;
        try {
          const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
          const ppid = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
          if (ppid === String(process.pid) && readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('runtimeChild'))
            pid = d;
        } catch {
          // gone
        }
      }
      if (!pid) await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(pid, 'the runtime process was found');
    const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    for (const v of Object.values(bait)) assert.ok(!environ.includes(v), `secret ${v} in the runtime's environment`);
    assert.match(environ, /DURABLE_AGENT|PATH=/, 'control: it has an environment');
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await rt.reset();
  }
});

// ---------------------------------------------------------------------------------------------
// Fix 3: protected names at any depth — a name the list misses. rustup reads `rust-toolchain.toml`
// in the directory where the person runs `cargo` (and its parents); `[toolchain] path = …` makes
// `cargo` the program at `<path>/bin/cargo`. `.cargo/` is protected for the same reason (cargo
// runs what its config names); `rust-toolchain.toml` was not (G-H5, closed). Oracle: a mark file written by the
// person's own `cargo` after the call, outside any sandbox.

const sandboxHost = new SandboxHost();
after(async () => {
  await sandboxHost.close();
});

async function sandboxedBash(cwd: string, command: string): Promise<BashOutput> {
  const ctx: ToolUseContext = {
    sessionId: `red30g-${process.pid}`,
    toolUseId: `toolu_r30g_${Date.now()}`,
    idempotencyKey: 'k',
    agent: { ...initialContext(cwd), projectDir: cwd },
    permission: { mode: 'dontAsk', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [cwd], sandbox: {} },
    abortSignal: new AbortController().signal,
    sandboxHost,
  };
  return (await BashTool.call({ command }, ctx, () => undefined)).data as BashOutput;
}

function cargoWorld() {
  const base = realpathSync(mkdtempSync(path.join(root, 'cargo-')));
  const proj = path.join(base, 'proj');
  mkdirSync(proj);
  const mark = path.join(base, 'mark');
  const sub = path.join(proj, 'crates', 'deep', 'sub');
  const command = [
    `mkdir -p crates/deep/sub tools/tc/bin tools/tc/lib`,
    `printf '#!/bin/sh\\necho PWNED > ${mark}\\necho fake\\n' > tools/tc/bin/cargo`,
    `chmod +x tools/tc/bin/cargo && cp tools/tc/bin/cargo tools/tc/bin/rustc`,
    `printf '[toolchain]\\npath = "${path.join(proj, 'tools', 'tc')}"\\n' > crates/deep/sub/rust-toolchain.toml`,
    // control: the same trick through a protected name at the same depth
    `mkdir -p crates/deep/sub/.cargo && printf '[alias]\\nb = "x"\\n' > crates/deep/sub/.cargo/config.toml`,
  ].join(' && ');
  return { proj, sub, mark, command };
}

const cargoSkip = async (): Promise<string | false> => {
  const s = await sandboxSkip(sandboxHost, 'the red team issue 30 (g) cargo row');
  if (s) return s;
  const r = spawnSync('rustup', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? false : 'rustup is not installed';
};

test('deep names (held, control): a `.cargo/config.toml` a command writes deep in the project is not left after the call', async (t) => {
  const skip = await cargoSkip();
  if (skip) return t.skip(skip);
  const w = cargoWorld();
  await sandboxedBash(w.proj, w.command);
  assert.equal(existsSync(path.join(w.sub, '.cargo', 'config.toml')), false);
});

// Was a hole (G-H5): `rust-toolchain.toml` is a protected name now (protectedPaths.ts), removed
// after the call that planted it; more of its kind in unit/protected-names.
test('deep names (held, was G-H5): rust-toolchain.toml with a toolchain path: the person’s cargo does not run the agent’s program', async (t) => {
  const skip = await cargoSkip();
  if (skip) return t.skip(skip);
  const w = cargoWorld();
  const toolchain = path.join(w.sub, 'rust-toolchain.toml');
  // The plant is written (an absent name is not denied: an empty placeholder would break cargo);
  // since the live undo (J4) it may be gone before the command's next line already.
  const out = await sandboxedBash(w.proj, `${w.command} && echo WRITTEN`);
  assert.match(out.output, /WRITTEN/, out.output);
  assert.equal(existsSync(toolchain), false, 'the planted rust-toolchain.toml is left after the call');
  // The person, later, outside any sandbox: `cargo build` in that crate.
  spawnSync('cargo', ['--version'], { cwd: w.sub, encoding: 'utf8', timeout: 30_000 });
  assert.equal(
    existsSync(w.mark),
    false,
    `the person's cargo ran the agent's program: ${existsSync(w.mark) ? readFileSync(w.mark, 'utf8') : ''}`,
  );
});

// ---------------------------------------------------------------------------------------------
// Fix 1, for real: while session A's command holds the worker's runtime (A allows localhost),
// session B (denies localhost) runs on a runtime process of its own. B's command sees A's runtime's
// proxy sockets (`--ro-bind / /` shows the worker's TMPDIR) and tries them: curl --unix-socket and a
// raw AF_UNIX connect, then looks for the runtime process in /proc. Oracles: what reached a local
// HTTP server, and the marks B could leave.
test("pool (held): a command cannot use another runtime's proxy sockets, nor see a runtime process", async (t) => {
  const skip = await sandboxSkip(sandboxHost, 'the red team issue 30 (g) sockets row');
  if (skip) return t.skip(skip);
  const reached: string[] = [];
  const server = http.createServer((req, res) => {
    reached.push(req.url ?? '');
    res.end('HOST-SECRET\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  const base = realpathSync(mkdtempSync(path.join(root, 'socks-')));
  const dirA = path.join(base, 'a');
  const dirB = path.join(base, 'b');
  mkdirSync(dirA);
  mkdirSync(dirB);
  const A = { network: { allowedDomains: ['localhost'] } };
  const B = { network: { allowedDomains: ['localhost'], deniedDomains: ['localhost'] } };
  const run = (cwd: string, sandbox: object, command: string, id: string) =>
    BashTool.call(
      { command, timeout: 600_000 },
      {
        sessionId: `red30g-socks-${id}`,
        toolUseId: `toolu_r30g_socks_${id}`,
        idempotencyKey: `k-${id}-${Math.random()}`,
        agent: { cwd, additionalDirectories: [], readFiles: {} },
        permission: { mode: 'dontAsk', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [cwd], sandbox },
        abortSignal: new AbortController().signal,
        sandboxHost,
      } as ToolUseContext,
      () => undefined,
    );
  const long = run(dirA, A, 'touch started; while [ ! -e release ]; do sleep 0.1; done; echo long-done', 'a');
  try {
    for (let i = 0; i < 300 && !existsSync(path.join(dirA, 'started')); i++)
      await new Promise((r) => setTimeout(r, 100));
    assert.ok(existsSync(path.join(dirA, 'started')), "A's long command started");
    const tmp = path.dirname(root);
    const attack = [
      // The run's own sockets first; at most eight in all (a machine's /tmp can hold hundreds left by other runs).
      `for s in $( (ls -d ${tmp}/claude-*.sock ${tmp}/srt-*.sock; ls -d /tmp/claude-*.sock) 2>/dev/null | head -n 8); do [ -S "$s" ] || continue; echo "sock $s"`,
      `curl -sS --max-time 2 --unix-socket "$s" "http://localhost:${port}/?via=$(basename $s)"`,
      `python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.send(b'GET http://localhost:${port}/?py HTTP/1.0\\r\\n\\r\\n'); print(s.recv(200))" "$s"`,
      `done`,
      'for p in /proc/[0-9]*; do [ "$(cat $p/comm 2>/dev/null)" = node ] && echo $p; done > seen-runtime.txt',
      `true`,
    ].join('; ');
    const rb = await run(dirB, B, attack, 'b');
    assert.match(rb.data.output, /sock /, `B saw sockets to try: ${rb.data.output.slice(0, 400)}`);
    assert.deepEqual(reached, [], `reached the server from B: ${reached.join(', ')}`);
    assert.equal(
      readFileSync(path.join(dirB, 'seen-runtime.txt'), 'utf8'),
      '',
      'B saw a node process (a runtime process, the worker)',
    );
  } finally {
    writeFileSync(path.join(dirA, 'release'), '');
    await long;
    server.close();
  }
});
