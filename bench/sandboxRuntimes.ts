// What a sandbox runtime in a process of its own costs (src/sandbox/runtimePool.ts): its start and
// initialize(), its first wrap, and its resident memory. Paid once per other worker-wide sandbox
// configuration in use while the worker's own runtime runs a command (then kept 30 s idle). Then the
// cap's effect (MAX_RUNTIME_PROCESSES, DURABLE_AGENT_SANDBOX_RUNTIMES): `--configs` distinct
// configurations at once through the pool while the worker's own runtime is busy, under each cap of
// `--caps`: how long they all took, how many processes ran at most, and their resident memory then.
//   npm run build && node dist/bench/sandboxRuntimes.js [--n 3] [--configs 8] [--caps 2,4,8]
import { readFileSync } from 'node:fs';
import { startRemoteRuntime } from '../src/sandbox/remoteRuntime';
import { runtimePlan } from '../src/sandbox/policy';
import { RuntimePool, type SandboxRuntime } from '../src/sandbox/runtimePool';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? (process.argv[i + 1] as string) : fallback;
}

/** The worker's own runtime, held busy for the whole run: every configuration needs a process. */
const busyHome: SandboxRuntime = {
  initialize: async () => undefined,
  isSupportedPlatform: () => true,
  checkDependencies: () => ({ errors: [], warnings: [] }),
  wrapWithSandbox: async (c: string) => c,
  registerCommandNetworkLists: () => undefined,
  unregisterCommandNetworkLists: () => undefined,
  getSandboxViolationStore: () => ({ getViolationsForCommand: () => [] }),
  cleanupAfterCommand: () => undefined,
  reset: async () => undefined,
};

async function capEffect(configs: number, cap: number): Promise<void> {
  const pool = new RuntimePool(busyHome, startRemoteRuntime, 30_000, cap);
  const busy = await pool.acquire({ busy: true });
  let most = 0;
  let peakKb = 0;
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: configs }, async (_, i) => {
      const plan = runtimePlan({ network: { deniedDomains: [`d${i}.example`] } }, ['/tmp'], {
        home: '/tmp',
        sessionTmpDir: '/tmp',
        platform: 'linux',
      });
      const lease = await pool.acquire(plan.global);
      most = Math.max(most, pool.processRuntimes());
      peakKb = Math.max(peakKb, rssOfChildrenKb());
      await lease.runtime.wrapWithSandbox('true', 'bash', plan.call, undefined, { commandId: `c${i}`.padEnd(22, 'x') });
      await new Promise((r) => setTimeout(r, 200)); // a short command
      lease.release();
    }),
  );
  const took = Date.now() - t0;
  busy.release();
  await pool.close();
  console.log(
    `${configs} configurations at once, cap ${cap}: ${took} ms in all, at most ${most} runtime processes, ${Math.round(peakKb / 1024)} MB resident at the peak`,
  );
}

function rssOfChildrenKb(): number {
  // The runtime process is this process's only node child: read it from /proc.
  let total = 0;
  for (const line of readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').split(' ')) {
    const pid = Number(line);
    if (!pid) continue;
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    if (!/^Name:\s+node/m.test(status)) continue;
    total += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  }
  return total;
}

async function main(): Promise<void> {
  const n = Number(process.argv[process.argv.indexOf('--n') + 1] || 3) || 3;
  const plan = runtimePlan({ network: { deniedDomains: ['evil.example'] } }, ['/tmp'], {
    home: '/tmp',
    sessionTmpDir: '/tmp',
    platform: 'linux',
  });
  for (let i = 0; i < n; i++) {
    const t0 = Date.now();
    const r = startRemoteRuntime();
    await r.initialize(plan.global);
    const t1 = Date.now();
    await r.wrapWithSandbox('true', 'bash', plan.call, undefined, { commandId: 'b'.repeat(22) });
    const t2 = Date.now();
    console.log(
      `runtime process ${i + 1}: start+initialize ${t1 - t0} ms, first wrap ${t2 - t1} ms, resident ${Math.round(rssOfChildrenKb() / 1024)} MB`,
    );
    await r.reset();
  }
  const configs = Number(arg('--configs', '8')) || 8;
  for (const cap of arg('--caps', '2,4,8').split(',').map(Number)) await capEffect(configs, cap);
}

void main();
