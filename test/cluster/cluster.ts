// A production-shaped Temporal cluster on this machine, for test:cluster and the bench: a
// throwaway PostgreSQL (Debian's server, test/support/postgres.ts), the schemas created by the
// server's own schema tool, and the release server run as one process per service — frontend, N
// history nodes, matching, the internal worker — finding each other through the database and
// gossiping over loopback ports. Configured from deploy/ exactly as docker-compose.yml is:
// deploy/temporal/server.env (history shards, SQL plugin, database names), the dynamic config
// deploy/temporal/dynamicconfig.yaml, and deploy/temporal/cluster.yaml, the server config the
// binary renders itself. Every process can be SIGKILLed and started again on the same ports.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { msToTs } from '@temporalio/common/lib/time';
import { portIsFree } from '../../src/temporal/service/devServer';
import { startPostgres, type PostgresServer } from '../support/postgres';
import type { ServerBinaries } from './server';

export const REPO_ROOT = ((): string => {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'docker-compose.yml'))) return dir;
    if (dirname(dir) === dir) throw new Error(`docker-compose.yml not found above ${__dirname}`);
  }
})();
export const DEPLOY_DIR = join(REPO_ROOT, 'deploy');
export const SERVER_ENV_FILE = join(DEPLOY_DIR, 'temporal', 'server.env');
export const DYNAMIC_CONFIG_FILE = join(DEPLOY_DIR, 'temporal', 'dynamicconfig.yaml');
/** Rendered by the server from `--root deploy --config temporal --env cluster`. */
export const CLUSTER_CONFIG_FILE = join(DEPLOY_DIR, 'temporal', 'cluster.yaml');
export const STORE_DB_INIT_FILE = join(DEPLOY_DIR, 'postgres', 'init-durable-agent.sql');

/** `KEY=VALUE` lines (`#` comments, blank lines), as docker-compose's `env_file` reads them. */
export function readEnvFile(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) throw new Error(`${file}: not KEY=VALUE: ${line}`);
    out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
}

export type Role = 'frontend' | 'history' | 'matching' | 'worker';

export interface ServiceProc {
  /** `frontend`, `history-1`, `history-2`, `matching`, `worker` (the server's internal worker service). */
  name: string;
  role: Role;
  grpcPort: number;
  env: Record<string, string>;
  logFile: string;
  child?: ChildProcess;
  exited: Promise<void>;
}

export interface TemporalClusterOptions {
  /** Logs of every process. */
  dir: string;
  bin: ServerBinaries;
  /** Default 2. */
  historyNodes?: number;
  /** Default deploy/temporal/dynamicconfig.yaml (a measurement passes a variant of it). */
  dynamicConfigFile?: string;
  /** Over deploy/temporal/server.env (a measurement may try another NUM_HISTORY_SHARDS). */
  serverEnv?: Record<string, string>;
  /** Server log level (default info: the shard moves are read from the history nodes' logs). */
  logLevel?: string;
  log?: (line: string) => void;
  namespace?: string;
}

const IndexedValueType = temporal.api.enums.v1.IndexedValueType;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** Every server process group we started, and the PostgreSQL servers: killed synchronously if this process exits without stop(). */
const started = new Set<number>();
const databases = new Set<PostgresServer>();
process.once('exit', () => {
  for (const pid of started) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  for (const db of databases) {
    const pid = db.pid();
    try {
      if (pid !== undefined) process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

export class TemporalCluster {
  readonly services: ServiceProc[] = [];
  pg!: PostgresServer;
  connection!: Connection;
  client!: Client;
  address = '';
  readonly namespace: string;
  readonly shards: number;
  readonly serverEnv: Record<string, string>;
  private stopped = false;

  private constructor(readonly opts: TemporalClusterOptions) {
    this.namespace = opts.namespace ?? 'default';
    this.serverEnv = { ...readEnvFile(SERVER_ENV_FILE), ...opts.serverEnv };
    this.shards = Number(this.serverEnv.NUM_HISTORY_SHARDS);
    if (!Number.isInteger(this.shards) || this.shards < 1)
      throw new Error(
        `NUM_HISTORY_SHARDS=${this.serverEnv.NUM_HISTORY_SHARDS} in ${SERVER_ENV_FILE} is not a shard count`,
      );
  }

  static async start(opts: TemporalClusterOptions): Promise<TemporalCluster> {
    const c = new TemporalCluster(opts);
    try {
      await c.boot();
    } catch (err) {
      await c.stop().catch(() => undefined);
      throw err;
    }
    return c;
  }

  private log(line: string): void {
    this.opts.log?.(line);
  }

  /** postgres://…/durable_agent — the workers' shared store, on the same server (as in docker-compose.yml). */
  get storeUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.pg.port}/durable_agent`;
  }

  service(name: string): ServiceProc {
    const s = this.services.find((x) => x.name === name);
    if (!s) throw new Error(`no service ${name} (have ${this.services.map((x) => x.name).join(', ')})`);
    return s;
  }

  private sqlTool(db: string, args: string[]): void {
    const r = spawnSync(
      this.opts.bin.sqlTool,
      [
        '--plugin',
        this.serverEnv.DB ?? 'postgres12',
        '--ep',
        '127.0.0.1',
        '-p',
        String(this.pg.port),
        '-u',
        'postgres',
        '--db',
        db,
        ...args,
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
    if (r.status !== 0)
      throw new Error(
        `temporal-sql-tool --db ${db} ${args.join(' ')} failed (${r.status ?? r.signal}): ${(r.stderr || r.stdout || String(r.error)).slice(-1500)}`,
      );
  }

  private async boot(): Promise<void> {
    const t0 = Date.now();
    mkdirSync(this.opts.dir, { recursive: true });
    // Five server processes with two connection pools each, the workers' store pools, the checks.
    // Acknowledged commits survive a crash of the server, as with PostgreSQL's defaults (the test
    // crashes it): without that, a crash lost blobs the workers had stored.
    this.pg = await startPostgres({ maxConnections: 300, durableCommits: true });
    databases.add(this.pg);
    // The schemas, as auto-setup does: the database, the versioning tables, then every versioned
    // step of the schema embedded in this server release.
    const dbs: Array<[string, string]> = [
      [this.serverEnv.DBNAME ?? 'temporal', 'postgresql/v12/temporal'],
      [this.serverEnv.VISIBILITY_DBNAME ?? 'temporal_visibility', 'postgresql/v12/visibility'],
    ];
    for (const [db, schema] of dbs) {
      this.sqlTool(db, ['create-database']);
      this.sqlTool(db, ['setup-schema', '-v', '0.0']);
      this.sqlTool(db, ['update-schema', '--schema-name', schema]);
    }
    // The workers' store database, from the file docker-compose.yml runs on its first start.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pg = require('pg') as typeof import('pg');
    const admin = new pg.Client({ connectionString: this.pg.url });
    await admin.connect();
    try {
      await admin.query(readFileSync(STORE_DB_INIT_FILE, 'utf8'));
    } finally {
      await admin.end();
    }
    this.log(
      `PostgreSQL on 127.0.0.1:${this.pg.port}: schemas ${dbs.map((d) => d[0]).join(', ')} (temporal-sql-tool), store database durable_agent (${Date.now() - t0} ms)`,
    );

    // Below the kernel's ephemeral range (32768+): the membership table keeps ports in a smallint.
    const taken = new Set<number>();
    const port = async (): Promise<string> => {
      for (;;) {
        const p = 20_000 + Math.floor(Math.random() * 12_000);
        if (taken.has(p) || !(await portIsFree('127.0.0.1', p))) continue;
        taken.add(p);
        return String(p);
      }
    };
    const common: Record<string, string> = {
      ...this.serverEnv,
      POSTGRES_SEEDS: '127.0.0.1',
      DB_PORT: String(this.pg.port),
      POSTGRES_USER: 'postgres',
      POSTGRES_PWD: '',
      SQL_MAX_CONNS: '10',
      BIND_ON_IP: '127.0.0.1',
      // The same file docker-compose.yml mounts at DYNAMIC_CONFIG_FILE_PATH.
      DYNAMIC_CONFIG_FILE_PATH: this.opts.dynamicConfigFile ?? DYNAMIC_CONFIG_FILE,
      LOG_LEVEL: this.opts.logLevel ?? 'info',
      FRONTEND_GRPC_PORT: await port(),
      FRONTEND_HTTP_PORT: await port(),
      FRONTEND_MEMBERSHIP_PORT: await port(),
      MATCHING_GRPC_PORT: await port(),
      MATCHING_MEMBERSHIP_PORT: await port(),
      WORKER_GRPC_PORT: await port(),
      WORKER_MEMBERSHIP_PORT: await port(),
    };
    const add = (name: string, role: Role, own: Record<string, string> = {}): void => {
      const env = { ...common, ...own };
      const grpcPort = Number(env[`${role.toUpperCase()}_GRPC_PORT`]);
      this.services.push({
        name,
        role,
        grpcPort,
        env,
        logFile: join(this.opts.dir, `${name}.log`),
        exited: Promise.resolve(),
      });
    };
    const historyNodes = this.opts.historyNodes ?? 2;
    for (let i = 1; i <= historyNodes; i++)
      add(`history-${i}`, 'history', { HISTORY_GRPC_PORT: await port(), HISTORY_MEMBERSHIP_PORT: await port() });
    add('matching', 'matching');
    add('frontend', 'frontend');
    add('worker', 'worker');
    // History first (it owns the shards), then the others; each waits for its gRPC port.
    for (const s of this.services) await this.startService(s.name);
    this.address = `127.0.0.1:${common.FRONTEND_GRPC_PORT}`;
    this.connection = await Connection.connect({ address: this.address });
    this.client = new Client({ connection: this.connection, namespace: this.namespace });
    await this.setupNamespace();
    this.log(
      `Temporal ${this.address}: ${this.services.map((s) => `${s.name} (pid ${s.child?.pid}, :${s.grpcPort})`).join(', ')}; ` +
        `${this.shards} history shards; ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
  }

  /** Registers the namespace and our search attribute, then waits until a workflow can start. */
  private async setupNamespace(): Promise<void> {
    const ws = this.connection.workflowService;
    const deadline = Date.now() + 120_000;
    const retry = async <T>(
      what: string,
      f: () => Promise<T>,
      ok: (err: unknown) => boolean = () => false,
    ): Promise<T | undefined> => {
      for (;;) {
        try {
          return await f();
        } catch (err) {
          if (ok(err)) return undefined;
          if (Date.now() > deadline) throw new Error(`cluster: ${what}: ${(err as Error).message}`);
          await sleep(500);
        }
      }
    };
    const exists = (err: unknown): boolean =>
      /already exists|AlreadyExists/i.test(String((err as Error)?.message ?? err));
    await retry(
      'register the namespace',
      () => ws.registerNamespace({ namespace: this.namespace, workflowExecutionRetentionPeriod: msToTs('24h') }),
      exists,
    );
    await retry('describe the namespace', () => ws.describeNamespace({ namespace: this.namespace }));
    await retry(
      'add the DurableAgentStatus search attribute',
      () =>
        this.connection.operatorService.addSearchAttributes({
          namespace: this.namespace,
          searchAttributes: { DurableAgentStatus: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD },
        }),
      exists,
    );
    // Every service learns the new namespace from its cache refresh: a workflow start (frontend →
    // history → the shard's transfer queue → matching) says the path works end to end.
    const probe = `cluster-ready-${randomUUID()}`;
    await retry('start a probe workflow', () =>
      this.client.workflow.start('probe', { taskQueue: probe, workflowId: probe }),
    );
    await this.client.workflow
      .getHandle(probe)
      .terminate('cluster probe')
      .catch(() => undefined);
  }

  /** Starts a service process (again after a kill: same ports, same environment) and waits for its gRPC port. */
  async startService(name: string): Promise<void> {
    const s = this.service(name);
    if (s.child && s.child.exitCode === null && s.child.signalCode === null)
      throw new Error(`${name} is already running`);
    const offset = this.logOffset(name);
    const fd = openSync(s.logFile, 'a');
    const child = spawn(
      this.opts.bin.server,
      [
        '--root',
        DEPLOY_DIR,
        '--config',
        'temporal',
        '--env',
        'cluster',
        '--allow-no-auth',
        'start',
        '--service',
        s.role,
      ],
      {
        cwd: this.opts.dir,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...s.env },
        stdio: ['ignore', fd, fd],
        detached: true,
      },
    );
    closeSync(fd);
    if (child.pid !== undefined) started.add(child.pid);
    s.child = child;
    s.exited = new Promise<void>((resolve) =>
      child.once('exit', () => {
        if (child.pid !== undefined) started.delete(child.pid);
        resolve();
      }),
    );
    const deadline = Date.now() + 90_000;
    // The internal worker serves no gRPC of its own: it is up when it says so.
    const ready = async (): Promise<boolean> =>
      s.role === 'worker'
        ? readFileSync(s.logFile).subarray(offset).includes('"worker service started"')
        : listening(s.grpcPort);
    while (!(await ready())) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`${name} exited during start-up (${child.exitCode ?? child.signalCode}): ${this.logTail(s)}`);
      if (Date.now() > deadline)
        throw new Error(`${name} was not ready (port :${s.grpcPort}) within 90 s: ${this.logTail(s)}`);
      await sleep(100);
    }
  }

  private logTail(s: ServiceProc): string {
    try {
      return readFileSync(s.logFile, 'utf8').slice(-1500);
    } catch {
      return '(no log)';
    }
  }

  /** SIGKILL of the service's process (no shutdown: what a crashed node or the OOM killer does). */
  async kill(name: string): Promise<void> {
    const s = this.service(name);
    const child = s.child;
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
    await s.exited;
  }

  /** The log's size now: `shardsAcquired(name, since)` counts what was logged after it. */
  logOffset(name: string): number {
    try {
      return statSync(this.service(name).logFile).size;
    } catch {
      return 0;
    }
  }

  /** Distinct history shards a history node acquired since `offset` of its log. */
  shardsAcquired(name: string, offset: number): number[] {
    return [...new Set(this.acquisitions(name, offset).map((a) => a.shard))].sort((a, b) => a - b);
  }

  private acquisitions(name: string, offset = 0): Array<{ ts: string; shard: number; node: string }> {
    const out: Array<{ ts: string; shard: number; node: string }> = [];
    let text: string;
    try {
      text = readFileSync(this.service(name).logFile).subarray(offset).toString('utf8');
    } catch {
      return out;
    }
    for (const line of text.split('\n')) {
      if (!line.includes('"Acquired shard"')) continue;
      const shard = /"shard-id":(\d+)/.exec(line)?.[1];
      const ts = /"ts":"([^"]+)"/.exec(line)?.[1];
      if (shard && ts) out.push({ ts, shard: Number(shard), node: name });
    }
    return out;
  }

  /** Which history node holds each shard now, from the nodes' logs (the last to acquire it). */
  shardOwners(): Map<number, string> {
    const all = this.services.filter((s) => s.role === 'history').flatMap((s) => this.acquisitions(s.name));
    all.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
    const owners = new Map<number, string>();
    for (const a of all) owners.set(a.shard, a.node);
    return owners;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.connection?.close().catch(() => undefined);
    for (const s of this.services) {
      const pid = s.child?.pid;
      if (pid === undefined || s.child?.exitCode !== null || s.child?.signalCode !== null) continue;
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    await Promise.all(this.services.map((s) => s.exited));
    await this.pg?.stop().catch(() => undefined);
    if (this.pg) databases.delete(this.pg);
  }
}
