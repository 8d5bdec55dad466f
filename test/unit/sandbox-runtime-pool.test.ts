// unit: the sandbox runtime pool's cap (src/sandbox/runtimePool.ts, issue 30 G-H3/G-H4): at most
// `maxProcesses` runtime processes; at the cap an idle one is ended, least recently used first, or
// the call waits holding nothing — cancelled by its signal, failed at its timeout with what it
// waited for, told what it waits for after WAIT_NOTICE_MS — and waiting calls never block each
// other; a process that ends is dropped (a real one killed with SIGKILL: the next call gets a new
// one). Fake runtimes record their configuration and resets; oracles: which runtime wrapped under
// which configuration, which were reset, the real process's death.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  RuntimePool,
  RuntimeWaitTimeoutError,
  WAIT_NOTICE_MS,
  type ProcessRuntime,
  type SandboxRuntime,
} from '../../src/sandbox/runtimePool';
import { RuntimeProcessEndedError, startRemoteRuntime, type RemoteRuntime } from '../../src/sandbox/remoteRuntime';
import { runtimePlan } from '../../src/sandbox/policy';
import { SandboxHost, sandboxRuntimeProcesses } from '../../src/sandbox/host';
import { sandboxSkip } from '../support/systemPackages';

class Fake implements SandboxRuntime, ProcessRuntime {
  config: string | undefined;
  resets = 0;
  private readonly ends: Array<(why: string) => void> = [];
  constructor(readonly name: string) {}
  async initialize(config: unknown): Promise<void> {
    await new Promise((r) => setImmediate(r));
    this.config = JSON.stringify(config);
  }
  async wrapWithSandbox(command: string): Promise<string> {
    return `wrapped[${this.config}] ${command}`;
  }
  registerCommandNetworkLists(): void {}
  unregisterCommandNetworkLists(): void {}
  getSandboxViolationStore() {
    return { getViolationsForCommand: () => [] };
  }
  cleanupAfterCommand(): void {}
  onEnd(l: (why: string) => void): void {
    this.ends.push(l);
  }
  async reset(): Promise<void> {
    this.resets++;
    this.config = undefined;
    await new Promise((r) => setImmediate(r));
    for (const l of this.ends.splice(0)) l('reset');
  }
  isSupportedPlatform(): boolean {
    return true;
  }
  checkDependencies() {
    return { errors: [], warnings: [] };
  }
}

/** A pool of cap `max` whose own runtime is busy (held by `busy`), so every other configuration needs a process. */
async function busyPool(max: number) {
  const children: Fake[] = [];
  const p = new RuntimePool(
    new Fake('home'),
    () => {
      const c = new Fake(`child${children.length}`);
      children.push(c);
      return c;
    },
    60_000,
    max,
  );
  const busy = await p.acquire({ deny: ['busy'] });
  const byConfig = (c: string) => children.find((x) => x.config === JSON.stringify({ deny: [c] }));
  return { p, children, busy, byConfig };
}

const cfg = (c: string) => ({ deny: [c] });

test('unit: at the cap, a new configuration ends the least recently used idle process', async () => {
  const { p, children, busy, byConfig } = await busyPool(2);
  (await p.acquire(cfg('x'))).release();
  (await p.acquire(cfg('y'))).release();
  await new Promise((r) => setTimeout(r, 5));
  (await p.acquire(cfg('x'))).release(); // x used again: y is now the least recently used
  const z = await p.acquire(cfg('z'));
  assert.ok((await z.runtime.wrapWithSandbox('t')).startsWith('wrapped[{"deny":["z"]}]'));
  assert.equal(p.processRuntimes(), 2);
  assert.ok(byConfig('x'), 'x (recently used) kept');
  assert.equal(byConfig('y'), undefined, 'y (least recently used) ended');
  assert.deepEqual(
    children.map((c) => c.resets),
    [0, 1, 0],
  );
  z.release();
  busy.release();
  await p.close();
});

test('unit: at the cap with every process busy, a call waits holding nothing; its signal cancels it, its timeout fails it saying why', async () => {
  const { p, busy } = await busyPool(1);
  const x = await p.acquire(cfg('x'));
  // Cancelled while it waits: rejects with the signal's reason, leaves nothing behind.
  const ac = new AbortController();
  const waiting = p.acquire(cfg('y'), ac.signal);
  await new Promise((r) => setTimeout(r, 20));
  ac.abort(new Error('interrupted by the user'));
  await assert.rejects(waiting, /interrupted by the user/);
  // Its timeout: fails naming what it waited for and the setting that changes it.
  await assert.rejects(p.acquire(cfg('y'), undefined, { timeoutMs: 30 }), (err: Error) => {
    assert.ok(err instanceof RuntimeWaitTimeoutError, String(err));
    assert.match(err.message, /waited \d+ s for a sandbox runtime/);
    assert.match(err.message, /DURABLE_AGENT_SANDBOX_RUNTIMES/);
    return true;
  });
  // A call of a configuration that runs joins at once, however many wait.
  const x2 = await p.acquire(cfg('x'));
  assert.ok((await x2.runtime.wrapWithSandbox('t')).startsWith('wrapped[{"deny":["x"]}]'));
  // Nothing was held by the cancelled or timed-out calls: once x is idle, y runs.
  x.release();
  x2.release();
  const y = await p.acquire(cfg('y'), undefined, { timeoutMs: 10_000 });
  assert.ok((await y.runtime.wrapWithSandbox('t')).startsWith('wrapped[{"deny":["y"]}]'));
  assert.equal(p.processRuntimes(), 1);
  y.release();
  busy.release();
  await p.close();
});

test('unit: waiting calls of several configurations all run in turn (no deadlock), and a long wait says what it waits for', async () => {
  const { p, busy } = await busyPool(1);
  const x = await p.acquire(cfg('x'));
  let told: string | undefined;
  const state: { done?: string[] } = {};
  const doneNow = (): string[] | undefined => state.done;
  const heard = new Promise<void>((resolve) => {
    const calls = ['y', 'z', 'w'].map(async (c, i) => {
      const l = await p.acquire(cfg(c), undefined, {
        timeoutMs: 120_000,
        ...(i === 0
          ? {
              onWaiting: (why: string) => {
                told = why;
                resolve();
              },
            }
          : {}),
      });
      const w = await l.runtime.wrapWithSandbox('t');
      await new Promise((r) => setTimeout(r, 5));
      l.release();
      return w;
    });
    void Promise.all(calls).then((ws) => (state.done = ws));
  });
  await heard; // after WAIT_NOTICE_MS
  assert.match(told ?? '', /waited [45] s for a sandbox runtime: .*runs other sessions' commands/);
  assert.equal(doneNow(), undefined, 'they wait while x runs');
  x.release();
  for (let i = 0; i < 200 && !doneNow(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(
    doneNow()?.map((w) => w.slice(0, w.indexOf(' '))),
    ['wrapped[{"deny":["y"]}]', 'wrapped[{"deny":["z"]}]', 'wrapped[{"deny":["w"]}]'],
  );
  assert.ok(p.processRuntimes() <= 1);
  busy.release();
  await p.close();
  assert.ok(WAIT_NOTICE_MS >= 1000);
});

test('unit: DURABLE_AGENT_SANDBOX_RUNTIMES sets the cap; a bad value is refused naming it', () => {
  assert.equal(sandboxRuntimeProcesses({}), 4);
  assert.equal(sandboxRuntimeProcesses({ DURABLE_AGENT_SANDBOX_RUNTIMES: '8' }), 8);
  for (const bad of ['0', '-1', '2.5', 'many', '1000'])
    assert.throws(
      () => sandboxRuntimeProcesses({ DURABLE_AGENT_SANDBOX_RUNTIMES: bad }),
      /DURABLE_AGENT_SANDBOX_RUNTIMES=.*whole number from 1 to 64/,
    );
});

// A real runtime process killed with SIGKILL (the OOM killer, a stray kill of its group).
test('unit: a real runtime process killed is dropped from the pool; the next call of its configuration gets a new, working one', async (t) => {
  const skip = await sandboxSkip(new SandboxHost(), 'the runtime pool kill test');
  if (skip) return t.skip(skip);
  const started: RemoteRuntime[] = [];
  const p = new RuntimePool(new Fake('home'), () => {
    const r = startRemoteRuntime();
    started.push(r);
    return r;
  });
  const busy = await p.acquire({ deny: ['busy'] });
  const plan = runtimePlan({ network: { deniedDomains: ['evil.example'] } }, ['/tmp'], {
    home: '/tmp',
    sessionTmpDir: '/tmp',
    platform: 'linux',
  });
  const opts = { commandId: 'k'.repeat(22) };
  // The runtime process does not keep this process alive (the worker's exit never waits for it).
  const keepAlive = setInterval(() => undefined, 1000);
  try {
    const l1 = await p.acquire(plan.global);
    await l1.runtime.wrapWithSandbox('true', 'bash', plan.call, undefined, opts);
    const first = started[0]!;
    const gone = new Promise<void>((r) => first.onEnd(() => r()));
    process.kill(first.pid!, 'SIGKILL');
    await gone;
    await assert.rejects(
      l1.runtime.wrapWithSandbox('true', 'bash', plan.call, undefined, opts),
      (err: Error) => err instanceof RuntimeProcessEndedError && /SIGKILL/.test(err.message),
    );
    assert.equal(p.processRuntimes(), 0, 'dropped at its exit');
    l1.release();
    const l2 = await p.acquire(plan.global);
    assert.equal(started.length, 2, 'a new process');
    assert.match(await l2.runtime.wrapWithSandbox('true', 'bash', plan.call, undefined, opts), /bwrap|sandbox/);
    l2.release();
  } finally {
    clearInterval(keepAlive);
    busy.release();
    await p.close();
  }
});
