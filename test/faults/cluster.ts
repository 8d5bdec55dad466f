// The fault suite's cluster: a Temporal dev server on a SQLite file (so that it can be killed and
// started again on the same port and file), worker processes that can be SIGKILLed and replaced,
// and the fake Messages API they all talk to.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { freePort, startDevServer, type DevServer } from '../../src/temporal/service/devServer';
import { suiteWorkerScript, suiteWorkflowBundle } from '../support/suiteBuild';
import { killGroup, spawnWorker, type WorkerProc } from '../support/workerProcs';

export interface ClusterOptions {
  /** Everything of this run: the SQLite file, the workflow bundle, worker logs. */
  dir: string;
  taskQueue: string;
  storeDir: string;
  fakeURL: string;
  /** Extra env for the worker processes (e.g. DURABLE_AGENT_BLOB_STORE). */
  workerEnv?: NodeJS.ProcessEnv;
}

export class Cluster {
  server!: DevServer;
  client!: Client;
  private connection!: Connection;
  readonly workers: WorkerProc[] = [];
  private readonly all: WorkerProc[] = [];
  private port = 0;
  private bundlePath = '';
  private started = 0;
  serverRestarts = 0;
  /** When each worker SIGKILL and each server SIGKILL happened (ms): recovery is timed from them. */
  readonly killTimes: number[] = [];
  /** What each kill was (`worker`, `server`), in killTimes' order. */
  readonly killLabels: string[] = [];

  constructor(readonly opts: ClusterOptions) {}

  get dbFile(): string {
    return join(this.opts.dir, 'temporal.db');
  }

  async start(workers: number): Promise<void> {
    await mkdir(this.opts.dir, { recursive: true });
    this.port = await freePort();
    this.server = await startDevServer({ port: this.port, dbFilename: this.dbFile, logLevel: 'error' });
    this.connection = await Connection.connect({ address: this.server.address });
    this.client = new Client({ connection: this.connection });
    // One webpack run for every worker of the run (each new worker would bundle again otherwise);
    // the build whose workers run (ours, or DURABLE_AGENT_SUITE_BUILD's: test/support/suiteBuild.ts).
    this.bundlePath = join(this.opts.dir, 'workflow-bundle.js');
    await writeFile(this.bundlePath, await suiteWorkflowBundle());
    for (let i = 0; i < workers; i++) await this.addWorker();
  }

  private workerEnv(): NodeJS.ProcessEnv {
    return {
      TEMPORAL_TEST_ADDRESS: this.server.address,
      TEMPORAL_TEST_NAMESPACE: 'default',
      TASK_QUEUE: this.opts.taskQueue,
      STORE_DIR: this.opts.storeDir,
      FAKE_ANTHROPIC_URL: this.opts.fakeURL,
      WORKFLOW_BUNDLE_PATH: this.bundlePath,
      // The worker's output would drown the suite's: errors only.
      TEMPORAL_TEST_LOG_LEVEL: process.env.TEMPORAL_TEST_LOG_LEVEL ?? 'ERROR',
      ...this.opts.workerEnv,
    };
  }

  /** Starts one more worker process and waits until it polls. */
  async addWorker(): Promise<WorkerProc> {
    const proc = await spawnWorker(`worker-${++this.started}`, this.workerEnv(), this.all, suiteWorkerScript());
    this.workers.push(proc);
    void proc.exited.then(() => {
      const i = this.workers.indexOf(proc);
      if (i >= 0) this.workers.splice(i, 1);
    });
    return proc;
  }

  /**
   * SIGKILLs the worker process alone — what the OOM killer or `kill -9 <pid>` does — and waits
   * until it is gone. What it had started (Bash calls, sandboxes, the sandbox's host bridges) is
   * the product's to clean up; run.ts counts what is left at the end.
   */
  async killWorker(proc: WorkerProc): Promise<void> {
    this.killTimes.push(Date.now());
    this.killLabels.push('worker');
    try {
      proc.child.kill('SIGKILL');
    } catch {
      // already gone
    }
    await proc.exited;
  }

  /** The worker identity Temporal records for this process (the SDK's default `pid@host`). */
  static identityPid(identity: string | null | undefined): number | undefined {
    const m = /^(\d+)@/.exec(identity ?? '');
    return m ? Number(m[1]) : undefined;
  }

  /** SIGKILL of the dev server, then a new one on the same port and SQLite file. */
  async restartServer(downMs: number): Promise<void> {
    this.killTimes.push(Date.now());
    this.killLabels.push('server');
    if (this.server.pid !== undefined) {
      try {
        process.kill(-this.server.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await this.server.stop(0);
    await new Promise((r) => setTimeout(r, downMs));
    this.server = await startDevServer({ port: this.port, dbFilename: this.dbFile, logLevel: 'error' });
    this.serverRestarts++;
  }

  /** Workers that died on their own (not killed by the suite) are replaced; returns how many. */
  async replaceDead(want: number): Promise<number> {
    let n = 0;
    while (this.workers.length < want) {
      await this.addWorker();
      n++;
    }
    return n;
  }

  async stop(): Promise<void> {
    for (const p of this.all) killGroup(p);
    await Promise.all(this.all.map((p) => p.exited));
    await this.connection?.close().catch(() => undefined);
    await this.server?.stop(2_000);
  }
}
