// What a sandbox runtime in a process of its own costs (src/sandbox/runtimePool.ts): its start and
// initialize(), its first wrap, and its resident memory. Paid once per other worker-wide sandbox
// configuration in use while the worker's own runtime runs a command (then kept 30 s idle).
//   npm run build && node dist/bench/sandboxRuntimes.js [--n 3]
import { readFileSync } from 'node:fs';
import { startRemoteRuntime } from '../src/sandbox/remoteRuntime';
import { runtimePlan } from '../src/sandbox/policy';

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
}

void main();
