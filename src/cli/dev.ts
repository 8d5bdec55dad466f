// `durable-agent dev`: the embedded default — a Temporal dev server persisted to a SQLite file,
// with its UI, plus a worker, in one process tree. The worker calls the Messages API with this
// process's credentials; without any it does not start (issue 31 item 7: no pretending), unless
// it was asked for the built-in scripted demo model (`demo`; `dev --demo-model` for tests).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { modelCredentials, NO_CREDENTIALS_MESSAGE } from '../runtime/credentials';
import { startDemoModel, DEMO_MODEL_LABEL } from '../demo/scriptedModel';
import type { FakeAnthropicServer } from '../testing/fakeAnthropic';
import { MODEL_QUEUE_DYNAMIC_CONFIG, startDevServer, type DevServer } from '../temporal/service/devServer';
import { installTemporalRuntime } from '../temporal/service/metrics';
import { createAgentWorker } from '../temporal/worker';
import { STATUS_SEARCH_ATTRIBUTE } from '../temporal/workflows/definitions';
import { UsageError } from './options';

export interface DevOptions {
  db: string;
  /** The database is the default one (no --db): say so when an older one sits in ./.durable-agent. */
  defaultDb?: boolean;
  port?: number;
  uiPort?: number;
  ip?: string;
  taskQueue?: string;
  /** Answer every session with the built-in scripted demo model (`demo`, tests), whatever the credentials. */
  demoModel?: boolean;
  /** The remote codec endpoint the UI decodes payloads with (`temporal server start-dev --ui-codec-endpoint`). */
  uiCodecEndpoint?: string;
  /** Serve the worker's metrics for Prometheus on host:port (src/temporal/service/metrics.ts); absent: no endpoint. */
  metricsBind?: string;
  /** The model calls' task queue this worker polls too, and its shared limit (src/cli/commands/modelQueue.ts). */
  modelTaskQueue?: string;
  modelLimit?: Parameters<typeof createAgentWorker>[0]['modelLimit'];
  log?: (line: string) => void;
}

export interface DevEnvironment {
  server: DevServer;
  worker: Worker;
  demo?: FakeAnthropicServer;
  running: Promise<void>;
  stop(): Promise<void>;
}

/** The SDK runtime of this process, quiet (WARN), with the Prometheus endpoint when `metricsBind` is set (src/temporal/service/metrics.ts). */
export function quietTemporalRuntime(metricsBind?: string): void {
  installTemporalRuntime(metricsBind ? { metricsBind } : {});
}

export async function startDev(opts: DevOptions): Promise<DevEnvironment> {
  const log = opts.log ?? ((l: string) => console.log(l));
  // Before anything starts: a worker without credentials would fail every session's first call.
  const credentials = opts.demoModel ? undefined : await modelCredentials();
  if (!opts.demoModel && credentials === undefined) throw new UsageError(NO_CREDENTIALS_MESSAGE);
  quietTemporalRuntime(opts.metricsBind);
  const db = resolve(opts.db);
  mkdirSync(dirname(db), { recursive: true });
  // Before this version the default was ./.durable-agent/temporal.db: inside the working directory,
  // where sandboxed Bash read other sessions' histories and could overwrite the file.
  const legacy = resolve('.durable-agent', 'temporal.db');
  if (opts.defaultDb && legacy !== db && existsSync(legacy)) {
    log(
      `note: the dev server's database is now ${db}; an older one is at ${legacy} — keep using it with --db ${legacy}, or move it (stop every dev server first, then mv ${legacy} ${db})`,
    );
  }
  await stopStaleServer(`${db}.server.pid`, log);
  const server = await startDevServer({
    ui: true,
    dbFilename: db,
    ...(opts.ip ? { ip: opts.ip } : {}),
    ...(opts.port ? { port: opts.port } : {}),
    ...(opts.uiPort ? { uiPort: opts.uiPort } : {}),
    // Fair shares of the model queue per root session, one partition (issue 34): a local server runs
    // one worker's queues, where a single partition costs nothing and keeps the shared limit exact.
    dynamicConfig: { ...MODEL_QUEUE_DYNAMIC_CONFIG },
    extraArgs: [
      '--search-attribute',
      `${STATUS_SEARCH_ATTRIBUTE}=Keyword`,
      ...(opts.uiCodecEndpoint ? ['--ui-codec-endpoint', opts.uiCodecEndpoint] : []),
    ],
  });
  let demo: FakeAnthropicServer | undefined;
  let worker: Worker;
  try {
    let anthropic: (() => Anthropic) | undefined;
    if (opts.demoModel) {
      demo = await startDemoModel();
      anthropic = demoModelClient(demo);
      log(`model:    ${DEMO_MODEL_LABEL}`);
    } else {
      log(
        `model:    Anthropic Messages API${process.env.ANTHROPIC_BASE_URL ? ` at ${process.env.ANTHROPIC_BASE_URL}` : ''} (credentials: ${credentials})`,
      );
    }
    const connection = await NativeConnection.connect({ address: server.address });
    worker = await createAgentWorker({
      connection,
      namespace: server.namespace,
      ...(opts.taskQueue ? { taskQueue: opts.taskQueue } : {}),
      ...(anthropic ? { anthropic } : {}),
      ...(opts.modelTaskQueue ? { modelTaskQueue: opts.modelTaskQueue } : {}),
      ...(opts.modelLimit ? { modelLimit: opts.modelLimit } : {}),
      // The server's state, wherever --db put it: never readable or writable by sandboxed Bash.
      privatePaths: serverStatePaths(db),
    });
  } catch (err) {
    await demo?.close();
    await server.stop();
    throw err;
  }
  if (server.pid !== undefined)
    writeFileSync(`${db}.server.pid`, JSON.stringify({ server: server.pid, dev: process.pid }));
  const running = worker.run();
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running.catch(() => undefined);
      await demo?.close();
      await server.stop();
      rmSync(`${db}.server.pid`, { force: true });
    })();
    return stopping;
  };
  return { server, worker, ...(demo ? { demo } : {}), running, stop };
}

/** The SDK client of a worker that answers with the demo model: its own address and key, never the environment's. */
export function demoModelClient(demo: FakeAnthropicServer): () => Anthropic {
  const baseURL = demo.baseURL;
  return () => new Anthropic({ apiKey: 'demo', baseURL, maxRetries: 0 });
}

/** The dev server's files: its SQLite database with SQLite's side files, and the pid file. */
export function serverStatePaths(db: string): string[] {
  return [db, `${db}-wal`, `${db}-shm`, `${db}-journal`, `${db}.server.pid`];
}

/**
 * A `durable-agent dev` killed with SIGKILL cannot stop its server, which then holds the SQLite
 * file and the ports. The next start finds it through the pid file and stops it first.
 */
async function stopStaleServer(pidFile: string, log: (line: string) => void): Promise<void> {
  let pid: number;
  let devPid: number | undefined;
  try {
    const raw = readFileSync(pidFile, 'utf8').trim();
    const parsed = raw.startsWith('{')
      ? (JSON.parse(raw) as { server: number; dev?: number })
      : { server: Number(raw) };
    pid = parsed.server;
    devPid = parsed.dev;
  } catch {
    return;
  }
  const isAlive = (p: number): boolean => {
    try {
      process.kill(p, 0);
      return true;
    } catch {
      return false;
    }
  };
  const alive = (): boolean => isAlive(pid);
  if (devPid !== undefined && devPid !== process.pid && isAlive(devPid)) {
    throw new Error(
      `another durable-agent dev (pid ${devPid}) is using ${pidFile.replace(/\.server\.pid$/, '')}; stop it first (Ctrl-C there), or give this one another --db`,
    );
  }
  let cmdline = '';
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // not Linux, or gone
  }
  if (Number.isInteger(pid) && pid > 0 && alive() && (cmdline === '' || cmdline.includes('start-dev'))) {
    log(`stopping a dev server left running by an earlier durable-agent dev (pid ${pid})`);
    const signal = (s: NodeJS.Signals) => {
      try {
        process.kill(-pid, s);
      } catch {
        try {
          process.kill(pid, s);
        } catch {
          // gone
        }
      }
    };
    signal('SIGTERM');
    for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
    if (alive()) signal('SIGKILL');
    for (let i = 0; i < 20 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
  }
  rmSync(pidFile, { force: true });
}
