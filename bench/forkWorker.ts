// Forks the bench's Temporal worker (bench/worker.ts) in its own process, as in a deployment, so
// that its RSS is its own; shared by bench/run.ts and bench/cluster.ts.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { HeartbeatCount } from './worker';

export interface BenchWorker {
  child: ChildProcess;
  rss: () => Promise<number>;
  /** Heartbeat calls since the last question and those estimated to reach the server (bench/worker.ts); NaN from a worker that does not count. */
  heartbeats: () => Promise<{ calls: number; sent: number; byType?: HeartbeatCount['byType'] }>;
  stop: () => Promise<void>;
}

/**
 * `script`: another build's bench worker (the previous release's dist/bench/worker.js); default ours.
 * BENCH_WORKER_NODE_ARGS (space-separated) are added to the worker's node options, e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the workers of a bench run (NODE_OPTIONS refuses --cpu-prof).
 * BENCH_OURS_NODE_ARGS are added to our worker's only (not the previous release's): a V8 flag measured
 * paired, e.g. `--max-semi-space-size=32` beside the same build without it (issue 33).
 */
export function startWorker(env: Record<string, string>, script = join(__dirname, 'worker.js')): Promise<BenchWorker> {
  return new Promise((resolveStart, reject) => {
    const nodeArgs = [
      ...(process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' '),
      ...(script === join(__dirname, 'worker.js') ? (process.env.BENCH_OURS_NODE_ARGS ?? '').split(' ') : []),
    ].filter((a) => a !== '');
    const child = fork(script, [], {
      env: { ...process.env, ...env },
      execArgv: [...process.execArgv, ...nodeArgs],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.once('exit', (code) => reject(new Error(`bench worker exited (${code}) before it was ready`)));
    child.on('message', (m: { type?: string }) => {
      if (m?.type !== 'ready') return;
      const ask = <T>(type: string, timeoutMs = 5000): Promise<T | undefined> =>
        new Promise((r) => {
          const t = setTimeout(() => {
            child.off('message', on);
            r(undefined);
          }, timeoutMs);
          const on = (msg: { type?: string }): void => {
            if (msg?.type === type) {
              clearTimeout(t);
              child.off('message', on);
              r(msg as T);
            }
          };
          child.on('message', on);
          child.send({ type });
        });
      resolveStart({
        child,
        rss: async () => (await ask<{ rss?: number }>('rss'))?.rss ?? NaN,
        // An older build's worker does not answer: NaN after a short wait.
        heartbeats: async () => {
          const h = await ask<Partial<HeartbeatCount>>('heartbeats', 1000);
          return { calls: h?.calls ?? NaN, sent: h?.sent ?? NaN, ...(h?.byType ? { byType: h.byType } : {}) };
        },
        stop: async () => {
          child.send({ type: 'stop' });
          const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
          await exited;
          clearTimeout(t);
        },
      });
    });
  });
}
