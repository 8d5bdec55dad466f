// Forks the bench's Temporal worker (bench/worker.ts) in its own process, as in a deployment, so
// that its RSS is its own; shared by bench/run.ts and bench/cluster.ts.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface BenchWorker {
  child: ChildProcess;
  rss: () => Promise<number>;
  stop: () => Promise<void>;
}

export function startWorker(env: Record<string, string>): Promise<BenchWorker> {
  return new Promise((resolveStart, reject) => {
    const child = fork(join(__dirname, 'worker.js'), [], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.once('exit', (code) => reject(new Error(`bench worker exited (${code}) before it was ready`)));
    child.on('message', (m: { type?: string }) => {
      if (m?.type !== 'ready') return;
      resolveStart({
        child,
        rss: () =>
          new Promise((r) => {
            const on = (msg: { type?: string; rss?: number }): void => {
              if (msg?.type === 'rss') {
                child.off('message', on);
                r(msg.rss ?? NaN);
              }
            };
            child.on('message', on);
            child.send({ type: 'rss' });
          }),
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
