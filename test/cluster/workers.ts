// durable-agent worker processes for test:cluster (test/support/workerProcess.ts, one process
// group each): started against the cluster's frontend with the shared PostgreSQL store, replaced
// one by one as a rolling deploy does (a new one first, then SIGTERM to the old one, which drains).
import { suiteWorkerScript } from '../support/suiteBuild';
import { killGroup, spawnWorker, type WorkerProc } from '../support/workerProcs';

export interface WorkerPoolOptions {
  /** Everything the worker process reads (TEMPORAL_TEST_ADDRESS, TASK_QUEUE, STORE_DIR, DURABLE_AGENT_STORE, …). */
  env: NodeJS.ProcessEnv;
  /** Name prefix (`worker` → worker-1, worker-2, …). */
  prefix?: string;
}

export class WorkerPool {
  readonly live: WorkerProc[] = [];
  private readonly all: WorkerProc[] = [];
  private n = 0;
  /** Workers replaced by the rolling deploy. */
  rolled = 0;
  /** Workers that exited on their own and were replaced. */
  replaced = 0;
  /** Per worker the rolling deploy replaced: ms from its SIGTERM to its exit (drained or SIGKILLed). */
  readonly drainMs: number[] = [];

  constructor(readonly opts: WorkerPoolOptions) {}

  async add(extra: NodeJS.ProcessEnv = {}): Promise<WorkerProc> {
    const proc = await spawnWorker(
      `${this.opts.prefix ?? 'worker'}-${++this.n}`,
      { ...this.opts.env, ...extra },
      this.all,
      // Ours, or DURABLE_AGENT_SUITE_BUILD's (test/support/suiteBuild.ts).
      suiteWorkerScript(),
    );
    this.live.push(proc);
    void proc.exited.then(() => {
      const i = this.live.indexOf(proc);
      if (i >= 0) this.live.splice(i, 1);
    });
    return proc;
  }

  /** Starts workers until `want` are alive (one that died on its own is replaced); returns how many it started. */
  async fill(want: number): Promise<number> {
    let k = 0;
    while (this.live.length < want) {
      await this.add();
      k++;
    }
    this.replaced += k;
    return k;
  }

  /**
   * A rolling deploy: for each worker alive now, start its replacement, then SIGTERM it and wait
   * until it has drained and exited (`graceMs` more, then SIGKILL — reported by the caller).
   * `onSigterm` hears each SIGTERM's time (recovery is timed from it: the sessions the old worker
   * held are replayed by the others).
   */
  async roll(
    graceMs: number,
    log: (line: string) => void,
    onSigterm?: (at: number) => void,
  ): Promise<{ rolled: number; forced: number }> {
    let forced = 0;
    let rolled = 0;
    for (const old of [...this.live]) {
      const next = await this.add();
      const t = Date.now();
      onSigterm?.(t);
      old.child.kill('SIGTERM');
      const timedOut = await Promise.race([
        old.exited.then(() => false),
        new Promise<boolean>((r) => setTimeout(() => r(true), graceMs)),
      ]);
      if (timedOut) {
        forced++;
        killGroup(old);
        await old.exited;
      }
      rolled++;
      this.rolled++;
      this.drainMs.push(Date.now() - t);
      log(
        `rolling deploy: ${next.name} started, ${old.name} drained and exited in ${Date.now() - t} ms${timedOut ? ' (SIGKILL after the grace time)' : ''}`,
      );
    }
    return { rolled, forced };
  }

  async stop(): Promise<void> {
    for (const p of this.all) killGroup(p);
    await Promise.all(this.all.map((p) => p.exited));
  }
}
