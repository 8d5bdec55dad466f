// A throwaway PostgreSQL cluster for the shared blob store's tests: Debian's server binaries,
// initdb into a temp dir, one server on a free port with its socket in that dir, stopped and
// removed by stop(). Run as root (CI), the cluster belongs to the `postgres` user (the server
// refuses to run as root); otherwise to the current user.
//
//   const pg = requirePostgres();
//   test('…', { skip: pg.skip }, async () => { pg.assert(); const server = await startPostgres(); … await server.stop(); });
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findExecutable, requireSystemPackage, type SystemRequirement } from './systemPackages';

/** The directory holding initdb and postgres: PATH, else Debian's /usr/lib/postgresql/<newest>/bin. */
export function postgresBinDir(): string | undefined {
  const onPath = findExecutable('initdb');
  if (onPath && findExecutable('postgres')) return join(onPath, '..');
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = join(root, v, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'postgres'))) return bin;
  }
  return undefined;
}

export function requirePostgres(): SystemRequirement {
  return requireSystemPackage({
    command: 'initdb',
    debianPackage: 'postgresql',
    usedBy: 'the PostgreSQL blob store tests',
    probe: () => {
      const dir = postgresBinDir();
      return dir ? join(dir, 'initdb') : undefined;
    },
  });
}

export interface PostgresServer {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** A URL naming its own table, so that tests sharing the server never see each other's blobs. */
  urlWithTable(table: string): string;
  /** Stops the server (fast shutdown: clients' connections are dropped) and starts it again on the same data and port. */
  restart(): Promise<void>;
  /**
   * A crash: SIGKILL of the server and every backend at once (no shutdown, no checkpoint), `downMs`
   * of nothing listening, then a new server on the same data and port (WAL recovery at start).
   */
  crash(downMs: number): Promise<void>;
  /** The server's pid (its backends are its children). */
  pid(): number | undefined;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

function owner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0)
    throw new Error(
      "running as root, but there is no `postgres` user to own the test cluster (Debian's postgresql package creates it)",
    );
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

export interface StartPostgresOptions {
  /** `max_connections` (default 200). */
  maxConnections?: number;
  /**
   * Keep every acknowledged commit across a crash of the server (`synchronous_commit=on`, the
   * PostgreSQL default). Off by default here, for speed: then a crash (`crash()`) loses the last
   * few hundred milliseconds of commits that clients were told had succeeded. A process crash
   * never needs fsync (the OS keeps what was written), so fsync stays off either way.
   */
  durableCommits?: boolean;
}

/** Direct children of `pid` (from /proc): a PostgreSQL server's backends. */
function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(e));
    } catch {
      // gone
    }
  }
  return out;
}

export async function startPostgres(opts: StartPostgresOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL server binaries not found: apt-get install -y postgresql');
  const dir = mkdtempSync(join(tmpdir(), 'da-pg-'));
  const user = owner();
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const as = user ? { uid: user.uid, gid: user.gid } : {};
  const init = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
    { encoding: 'utf8', cwd: dir, ...as },
  );
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed (${init.status}): ${init.stderr || init.stdout || init.error}`);
  }
  const port = await freePort();
  const args = [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    `synchronous_commit=${opts.durableCommits ? 'on' : 'off'}`,
    '-c',
    'full_page_writes=off',
    '-c',
    `max_connections=${opts.maxConnections ?? 200}`,
    '-c',
    'shared_buffers=32MB',
  ];
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let log = '';
  let proc: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const halt = async (): Promise<void> => {
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGINT'); // fast shutdown
      const p = proc;
      const t = setTimeout(() => p.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    }
  };
  const stop = async (): Promise<void> => {
    await halt();
    rmSync(dir, { recursive: true, force: true });
  };
  const launch = async (): Promise<void> => {
    const p = spawn(join(bin, 'postgres'), args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], ...as });
    proc = p;
    p.stderr?.on('data', (d: Buffer) => {
      log = (log + d.toString()).slice(-4000);
    });
    exited = new Promise<void>((resolve) => p.once('exit', () => resolve()));
    // Ready when a connection succeeds.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pg = require('pg') as typeof import('pg');
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (p.exitCode !== null || p.signalCode !== null) {
        await stop();
        throw new Error(`postgres exited during start-up: ${log}`);
      }
      const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
      try {
        await c.connect();
        await c.query('SELECT 1');
        await c.end();
        return;
      } catch {
        await c.end().catch(() => undefined);
        if (Date.now() > deadline) {
          await stop();
          throw new Error(`postgres did not accept connections within 60 s: ${log}`);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  };
  await launch();
  const restart = async (): Promise<void> => {
    await halt();
    await launch();
  };
  const crash = async (downMs: number): Promise<void> => {
    const p = proc;
    if (p?.pid !== undefined && p.exitCode === null && p.signalCode === null) {
      const victims = [p.pid, ...childPids(p.pid)];
      for (const v of victims) {
        try {
          process.kill(v, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await exited;
      // The backends are gone too before a new server may attach the data directory.
      const deadline = Date.now() + 10_000;
      while (victims.slice(1).some((v) => existsSync(`/proc/${v}`)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, downMs));
    await launch();
  };
  return { url, port, urlWithTable: (table) => `${url}?table=${table}`, stop, restart, crash, pid: () => proc?.pid };
}
