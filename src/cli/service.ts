// `durable-agent up` / `down`: the embedded default (the dev server and a worker, as `dev` runs
// them) as a background service that outlives the terminal. Its files live in the user's data
// directory: <home>/service/service.json (pid and addresses, written once it is ready, removed when
// it stops) and <home>/service/service.log (its output).
import { startHostProcess } from '../hostProcess/door';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { durableAgentHome } from '../stores/dataHome';

export interface ServiceState {
  /** The `durable-agent dev --service` process (leader of its own process group). */
  pid: number;
  /** The Temporal server's gRPC address and UI. */
  address: string;
  ui?: string;
  taskQueue: string;
  db: string;
  log: string;
  startedAt: string;
}

export interface ServicePaths {
  dir: string;
  state: string;
  log: string;
}

export function servicePaths(home = durableAgentHome()): ServicePaths {
  const dir = join(home, 'service');
  return { dir, state: join(dir, 'service.json'), log: join(dir, 'service.log') };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid is (still) our service, not a process that got its number since: its command line says so where /proc exists. */
function isService(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return false;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return cmdline.includes('dev') && cmdline.includes('--service');
  } catch {
    return true; // no /proc (macOS): the pid is all we have
  }
}

function readState(file: string): ServiceState | undefined {
  try {
    const s = JSON.parse(readFileSync(file, 'utf8')) as ServiceState;
    return typeof s.pid === 'number' ? s : undefined;
  } catch {
    return undefined;
  }
}

/** The running service, if any (a state file whose process is gone is removed). */
export function runningService(paths = servicePaths()): ServiceState | undefined {
  const s = readState(paths.state);
  if (!s) return undefined;
  if (isService(s.pid)) return s;
  rmSync(paths.state, { force: true });
  return undefined;
}

/** Written by the service itself once the server answers and the worker runs. */
export function writeServiceState(state: ServiceState, paths = servicePaths()): void {
  mkdirSync(paths.dir, { recursive: true });
  const tmp = `${paths.state}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, paths.state);
}

export function removeServiceState(pid: number, paths = servicePaths()): void {
  if (readState(paths.state)?.pid === pid) rmSync(paths.state, { force: true });
}

export type UpResult = { status: 'up' | 'already_up'; state: ServiceState };

/** Past this size the log is moved to service.log.1 when the service starts again. */
const LOG_ROTATE_BYTES = 10 * 1024 * 1024;

/**
 * Starts `durable-agent dev --service <args>` detached (its own session: a closed terminal does not
 * reach it), output to the log, and waits until it says it is ready — or fails with the log's last
 * line. Already running: says so.
 */
export async function serviceUp(
  devArgs: string[],
  opts: { paths?: ServicePaths; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<UpResult> {
  const paths = opts.paths ?? servicePaths();
  const existing = runningService(paths);
  if (existing) return { status: 'already_up', state: existing };
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  try {
    if (statSync(paths.log).size > LOG_ROTATE_BYTES) renameSync(paths.log, `${paths.log}.1`);
  } catch {
    // no log yet
  }
  const fd = openSync(paths.log, 'a', 0o600);
  writeFileSync(fd, `\n=== durable-agent up at ${new Date().toISOString()} ===\n`);
  const child = startHostProcess({
    purpose: 'operator',
    command: process.execPath,
    args: [join(__dirname, 'main.js'), 'dev', '--service', ...devArgs],
    cwd: process.cwd(),
    detached: true,
    stdio: ['ignore', fd, fd],
    ...(opts.env ? { from: opts.env } : {}),
  });
  closeSync(fd);
  let exited: string | undefined;
  child.on('exit', (code, signal) => (exited = signal ?? `code ${code}`));
  child.unref();
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  for (;;) {
    const s = readState(paths.state);
    if (s && s.pid === child.pid) return { status: 'up', state: s };
    if (exited !== undefined || Date.now() > deadline) {
      if (exited === undefined) killGroup(child.pid ?? 0, 'SIGKILL');
      throw new Error(`the service did not start (${exited ?? 'not ready in time'}): ${lastLogLine(paths.log)}`);
    }
    await sleep(200);
  }
}

export type DownResult = { status: 'stopped'; pid: number; forced: boolean } | { status: 'not_running' };

/**
 * Stops the service: SIGTERM (it stops its worker, then its server, as Ctrl-C stops `dev`), then
 * SIGKILL of its process group and of the server after `graceMs`.
 */
export async function serviceDown(opts: { paths?: ServicePaths; graceMs?: number } = {}): Promise<DownResult> {
  const paths = opts.paths ?? servicePaths();
  const s = runningService(paths);
  if (!s) return { status: 'not_running' };
  process.kill(s.pid, 'SIGTERM');
  const deadline = Date.now() + (opts.graceMs ?? 30_000);
  while (isAlive(s.pid) && Date.now() < deadline) await sleep(100);
  let forced = false;
  if (isAlive(s.pid)) {
    forced = true;
    killGroup(s.pid, 'SIGKILL');
    // The server runs in a group of its own (dev.ts writes its pid next to the database).
    const serverPid = serverPidOf(s.db);
    if (serverPid !== undefined) killGroup(serverPid, 'SIGKILL');
    for (let i = 0; i < 50 && isAlive(s.pid); i++) await sleep(100);
  }
  rmSync(paths.state, { force: true });
  return { status: 'stopped', pid: s.pid, forced };
}

function serverPidOf(db: string): number | undefined {
  try {
    const raw = JSON.parse(readFileSync(`${db}.server.pid`, 'utf8')) as { server?: number };
    return typeof raw.server === 'number' ? raw.server : undefined;
  } catch {
    return undefined;
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  if (!(pid > 0)) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // gone
    }
  }
}

function lastLogLine(log: string): string {
  if (!existsSync(log)) return `no log at ${log}`;
  const lines = readFileSync(log, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('==='));
  return `${lines[lines.length - 1] ?? '(no output)'} (log: ${log})`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One line on the service for the terminal. */
export function serviceLine(r: UpResult): string {
  const s = r.state;
  return `durable-agent is ${r.status === 'up' ? 'up' : 'already up'} (pid ${s.pid}): temporal ${s.address}${s.ui ? `, ui ${s.ui}` : ''}, task queue ${s.taskQueue}; log ${s.log}; stop it with \`durable-agent down\``;
}

/**
 * Called by `dev --service` once its server answers and its worker runs: writes the state file
 * `up` waits for, and ignores SIGHUP. Returns what removes the file when the service stops.
 */
export function announceService(s: Pick<ServiceState, 'address' | 'ui' | 'taskQueue' | 'db'>): () => void {
  const paths = servicePaths();
  process.on('SIGHUP', () => undefined);
  writeServiceState(
    {
      pid: process.pid,
      address: s.address,
      ...(s.ui ? { ui: s.ui } : {}),
      taskQueue: s.taskQueue,
      db: s.db,
      log: paths.log,
      startedAt: new Date().toISOString(),
    },
    paths,
  );
  return () => removeServiceState(process.pid, paths);
}
