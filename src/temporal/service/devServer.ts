// Starts a Temporal dev server (`temporal server start-dev`) as a child process and stops it
// cleanly. Used by the test runner and by `durable-agent dev`.
import type { ChildProcess } from 'node:child_process';
import { startHostProcess } from '../../hostProcess/door';
import * as net from 'node:net';
import { Connection } from '@temporalio/client';
import { resolveTemporalCli, TemporalCliNotFoundError, type TemporalCliResolution } from './cli';

export interface DevServerOptions {
  /** A resolved CLI, or a path to the binary. Default: `resolveTemporalCli()`. */
  cli?: TemporalCliResolution | string;
  /** Default 127.0.0.1. */
  ip?: string;
  /** gRPC port. Default: a free port. */
  port?: number;
  /** Serve the Web UI. Default false (headless). */
  ui?: boolean;
  /** UI port when `ui`. Default: a free port. */
  uiPort?: number;
  /** SQLite file to persist to. Default: in-memory. */
  dbFilename?: string;
  /** Default 'default'. */
  namespace?: string;
  /** Server log level. Default 'warn'. */
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** How long to wait for the server to accept connections. Default 60 s. */
  startupTimeoutMs?: number;
  /** Where the server's own output goes: kept (and shown on failure), or passed through. Default 'capture'. */
  output?: 'capture' | 'inherit';
  /**
   * Dynamic config for the server, over DEV_SERVER_DYNAMIC_CONFIG (a key set to null drops the
   * default). Values are JSON, as `temporal server start-dev --dynamic-config-value KEY=VALUE` takes them.
   */
  dynamicConfig?: Record<string, string | number | boolean | null>;
  extraArgs?: string[];
}

/**
 * What the dev server is started with unless the caller says otherwise (measured with
 * bench/floor.ts; numbers in BENCHMARKS.md "Where the time goes"):
 * - history.transferProcessorMaxPollRPS: every new workflow/activity task (and child start or
 *   completion) is dispatched by the history shard's transfer queue reader, which loads at most
 *   this many times a second per shard (default 20). The dev server has ONE shard, so a session's
 *   sequential tasks waited ≈ 40–45 ms each for the next load (50 ms minus the worker's own
 *   processing); at 1000 the wait is 1–3 ms.
 * - system.enableActivityEagerExecution: an activity scheduled by a workflow task completion is
 *   handed back to the same worker in the response, skipping matching (Scheduled→Started 2 ms → 0).
 */
export const DEV_SERVER_DYNAMIC_CONFIG: Readonly<Record<string, string | number | boolean>> = {
  'history.transferProcessorMaxPollRPS': 1000,
  'system.enableActivityEagerExecution': true,
};

/**
 * The model queue's dynamic config (issue 34, docs/deployment.md "One rate limit for many workers"):
 * - matching.enableFairness: the queue's backlog is dispatched per fairness key (one per root
 *   session) in proportion to its weight, so one session's many agents cannot starve the others;
 * - matching.numTaskqueueRead/WritePartitions 1: the server splits a queue's rate limit evenly over
 *   its partitions (4 by default), each with a burst of its own; a partition without backlog wastes
 *   its share and four bursts land at once (measured: half the limit used, 15 429s of 35 calls).
 * Not defaults of startDevServer (they change every queue; the test suite's server runs without them):
 * `durable-agent dev`, the fleet bench and its tests start with them; a production server sets them
 * for the model queue (deploy/temporal/dynamicconfig.yaml).
 */
export const MODEL_QUEUE_DYNAMIC_CONFIG: Readonly<Record<string, boolean | number>> = {
  'matching.enableFairness': true,
  'matching.numTaskqueueReadPartitions': 1,
  'matching.numTaskqueueWritePartitions': 1,
};

/** The `--dynamic-config-value` arguments for the defaults merged with `overrides`. */
export function dynamicConfigArgs(overrides: DevServerOptions['dynamicConfig'] = {}): string[] {
  const merged: Record<string, string | number | boolean | null> = { ...DEV_SERVER_DYNAMIC_CONFIG, ...overrides };
  const args: string[] = [];
  for (const [key, value] of Object.entries(merged)) {
    if (value !== null) args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  }
  return args;
}

export interface DevServer {
  /** host:port of the gRPC frontend. */
  address: string;
  /** http://host:port of the Web UI, when enabled. */
  uiAddress: string | undefined;
  namespace: string;
  /** The binary that runs it, or 'sdk-download' when the SDK fetched it. */
  binary: string;
  pid: number | undefined;
  /** Spawn to first successful namespace lookup. */
  startupMs: number;
  /** Stop the server: SIGTERM, then SIGKILL after `graceMs` (default 5 s). Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

/** A TCP port that was free a moment ago (the kernel picks it). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** True when nothing listens on ip:port right now. */
export function portIsFree(ip: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, ip, () => srv.close(() => resolve(true)));
  });
}

export async function startDevServer(opts: DevServerOptions = {}): Promise<DevServer> {
  const cli: TemporalCliResolution =
    typeof opts.cli === 'string'
      ? { kind: 'path', path: opts.cli, source: 'env' }
      : (opts.cli ?? (await resolveTemporalCli()));
  return cli.kind === 'path' ? startFromBinary(cli.path, opts) : startWithSdkDownload(cli.tried, opts);
}

/**
 * A server already on the port would answer our readiness check while ours fails to bind: refuse
 * up front, naming the port.
 */
async function refuseBusyPorts(ip: string, port: number, uiPort: number | undefined): Promise<void> {
  for (const [what, p] of [
    ['gRPC', port],
    ['UI', uiPort],
  ] as const) {
    if (p !== undefined && !(await portIsFree(ip, p))) {
      throw new Error(
        `port ${p} on ${ip} (${what}) is already in use — another Temporal dev server? Stop it, or choose another port (--port / --ui-port).`,
      );
    }
  }
}

async function startFromBinary(binary: string, opts: DevServerOptions): Promise<DevServer> {
  const ip = opts.ip ?? '127.0.0.1';
  const namespace = opts.namespace ?? 'default';
  const port = opts.port ?? (await freePort(ip));
  const ui = opts.ui ?? false;
  const uiPort = ui ? (opts.uiPort ?? (await freePort(ip))) : undefined;
  await refuseBusyPorts(ip, port, uiPort);
  const args = ['server', 'start-dev', '--ip', ip, '--port', String(port), '--namespace', namespace];
  args.push('--log-level', opts.logLevel ?? 'warn');
  if (uiPort !== undefined) args.push('--ui-port', String(uiPort));
  else args.push('--headless');
  if (opts.dbFilename) args.push('--db-filename', opts.dbFilename);
  args.push(...dynamicConfigArgs(opts.dynamicConfig));
  args.push(...(opts.extraArgs ?? []));

  const started = Date.now();
  // The person's own dev server: the operator's purpose (their whole environment), never a session's.
  const child = startHostProcess({
    purpose: 'operator',
    command: binary,
    args,
    cwd: process.cwd(),
    // Own process group, so stop() can signal the server and anything it spawned together.
    detached: process.platform !== 'win32',
    stdio: ['ignore', opts.output === 'inherit' ? 'inherit' : 'pipe', opts.output === 'inherit' ? 'inherit' : 'pipe'],
  });
  const output: string[] = [];
  const keep = (buf: Buffer): void => {
    output.push(
      ...buf
        .toString()
        .split('\n')
        .filter((l) => l.trim()),
    );
    if (output.length > 40) output.splice(0, output.length - 40);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitPromise = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
  });
  let spawnError: Error | undefined;
  child.on('error', (err) => (spawnError = err));

  // If our process exits without calling stop(), do not leave the server behind.
  const killOnExit = (): void => killGroup(child, 'SIGKILL');
  process.on('exit', killOnExit);

  let stopping: Promise<void> | undefined;
  const stop = (graceMs = 5_000): Promise<void> => {
    stopping ??= (async () => {
      process.off('exit', killOnExit);
      if (exited) return;
      killGroup(child, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
      await exitPromise;
      clearTimeout(timer);
      // Anything else left in the group (the server spawns none today).
      killGroup(child, 'SIGKILL');
    })();
    return stopping;
  };

  const address = `${ip}:${port}`;
  const timeoutMs = opts.startupTimeoutMs ?? 60_000;
  try {
    await waitUntilReady(address, namespace, timeoutMs, () => {
      if (spawnError) return `could not run ${binary}: ${spawnError.message}`;
      if (exited) return `${binary} exited (${exited.signal ?? `code ${exited.code}`}) during start-up`;
      return undefined;
    });
  } catch (err) {
    await stop(1_000);
    const tail = output.length ? `\nLast server output:\n  ${output.slice(-15).join('\n  ')}` : '';
    throw new Error(`Temporal dev server on ${address} did not start: ${(err as Error).message}${tail}`);
  }
  return {
    address,
    uiAddress: uiPort !== undefined ? `http://${ip}:${uiPort}` : undefined,
    namespace,
    binary,
    pid: child.pid,
    startupMs: Date.now() - started,
    stop,
  };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    if (process.platform === 'win32') child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Poll until the frontend answers DescribeNamespace (the namespace is registered at start-up). */
async function waitUntilReady(
  address: string,
  namespace: string,
  timeoutMs: number,
  failed: () => string | undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  for (;;) {
    const why = failed();
    if (why) throw new Error(why);
    if (Date.now() > deadline) throw new Error(`not ready after ${timeoutMs} ms (${last})`);
    if (await portOpen(address)) {
      let connection: Connection | undefined;
      try {
        connection = await Connection.connect({ address, connectTimeout: 2_000 });
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } catch (err) {
        last = String((err as Error).message ?? err).split('\n')[0] ?? '';
      } finally {
        await connection?.close().catch(() => undefined);
      }
    } else {
      last = 'port not open';
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

function portOpen(address: string): Promise<boolean> {
  const i = address.lastIndexOf(':');
  const host = address.slice(0, i);
  const port = Number(address.slice(i + 1));
  return new Promise((resolve) => {
    const sock = net.connect({ host, port });
    const done = (ok: boolean): void => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(1_000, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

/**
 * No local binary: let `@temporalio/testing` download the CLI and run it (needs internet).
 * Loaded lazily so that production code that always has a binary never pulls in the test package.
 */
async function startWithSdkDownload(tried: string[], opts: DevServerOptions): Promise<DevServer> {
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const ip = opts.ip ?? '127.0.0.1';
  const namespace = opts.namespace ?? 'default';
  const port = opts.port ?? (await freePort(ip));
  const uiPort = opts.ui ? (opts.uiPort ?? (await freePort(ip))) : undefined;
  const started = Date.now();
  let env: Awaited<ReturnType<typeof TestWorkflowEnvironment.createLocal>>;
  try {
    env = await TestWorkflowEnvironment.createLocal({
      server: {
        executable: { type: 'cached-download' },
        ip,
        port,
        namespace,
        ...(uiPort !== undefined ? { ui: true, uiPort } : {}),
        ...(opts.dbFilename ? { dbFilename: opts.dbFilename } : {}),
        log: { format: 'pretty', level: opts.logLevel ?? 'warn' },
        extraArgs: [...dynamicConfigArgs(opts.dynamicConfig), ...(opts.extraArgs ?? [])],
      },
    });
  } catch (err) {
    throw new TemporalCliNotFoundError([...tried, `SDK download of the CLI: ${(err as Error).message}`], err);
  }
  let stopping: Promise<void> | undefined;
  return {
    address: env.address,
    uiAddress: uiPort !== undefined ? `http://${ip}:${uiPort}` : undefined,
    namespace,
    binary: 'sdk-download',
    pid: undefined,
    startupMs: Date.now() - started,
    stop: () => (stopping ??= env.teardown()),
  };
}
