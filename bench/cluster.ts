// The bench on a production-shaped Temporal (test/cluster/cluster.ts: the release server as one
// process per service on PostgreSQL, deploy/'s shard count and dynamic config).
//  - `clusterSession()`: the bench's sessions against it, for `npm run bench`'s cluster row.
//  - `npm run bench:cluster [-- --values 20,50,100,200,1000]`: the transfer-queue reader's rate
//    (`history.transferProcessorMaxPollRPS`, deploy/temporal/dynamicconfig.yaml) measured with
//    the shard count — per-turn time of one session alone, throughput and database and history CPU
//    cost per turn of concurrent sessions, and the cost of an idle cluster — one fresh cluster per value.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { startSession } from '../src/temporal/client';
import { startFakeAnthropic } from '../src/testing/fakeAnthropic';
import { DYNAMIC_CONFIG_FILE, readEnvFile, SERVER_ENV_FILE, TemporalCluster } from '../test/cluster/cluster';
import { cachedServer, ensureServer, type ServerBinaries } from '../test/cluster/server';
import { median, taskTimes } from './floor';
import { startWorker, type BenchWorker } from './forkWorker';
import { ScriptBook, readsScript } from './scenarios';

export interface ClusterBench {
  cluster: TemporalCluster;
  worker: BenchWorker;
  taskQueue: string;
  stop(): Promise<void>;
}

/** Why the cluster row cannot run (the server is not built), or undefined. */
export function clusterUnavailable(): string | undefined {
  const c = cachedServer();
  return c.ok ? undefined : c.why;
}

/** A cluster and a bench worker on it (the same worker settings as the dev server's rows: a local file store). */
export async function startClusterBench(opts: {
  bin?: ServerBinaries;
  work: string;
  fakeURL: string;
  dynamicConfigFile?: string;
  log?: (line: string) => void;
}): Promise<ClusterBench> {
  const bin = opts.bin ?? (await ensureServer());
  const cluster = await TemporalCluster.start({
    dir: mkdtempSync(join(opts.work, 'cluster-')),
    bin,
    ...(opts.dynamicConfigFile ? { dynamicConfigFile: opts.dynamicConfigFile } : {}),
    ...(opts.log ? { log: opts.log } : {}),
  });
  const taskQueue = 'bench-cluster';
  try {
    const worker = await startWorker({
      BENCH_ADDRESS: cluster.address,
      BENCH_TASK_QUEUE: taskQueue,
      BENCH_FAKE_URL: opts.fakeURL,
      BENCH_STORE_DIR: mkdtempSync(join(opts.work, 'cluster-store-')),
    });
    return {
      cluster,
      worker,
      taskQueue,
      async stop() {
        await worker.stop();
        await cluster.stop();
      },
    };
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}

const COMMON = {
  permissionMode: 'bypassPermissions' as const,
  model: { model: 'bench', maxTokens: 1024 },
  maxTurns: 500,
  useSearchAttributes: false,
};

/** One bench session on the cluster; its wall time. */
export async function clusterSession(
  b: ClusterBench,
  key: string,
  cwd: string,
): Promise<{ ms: number; status: string; workflowId: string }> {
  const t0 = performance.now();
  const h = await startSession(b.cluster.client, {
    ...COMMON,
    cwd,
    prompt: `bench:${key}`,
    taskQueue: b.taskQueue,
    id: `bench-${key}`,
  });
  const r = await h.result();
  return { ms: performance.now() - t0, status: r.status, workflowId: h.workflowId };
}

// --- the transfer-queue measurement ---------------------------------------------------------

const clockTicks = 100; // USER_HZ on Linux

function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks;
  } catch {
    return 0;
  }
}

async function dbTransactions(b: ClusterBench): Promise<number> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pg = require('pg') as typeof import('pg');
  const c = new pg.Client({ connectionString: b.cluster.pg.url });
  await c.connect();
  try {
    // Statistics reach the view after a short delay: read them after a pause.
    const r = await c.query<{ n: string }>(
      "SELECT sum(xact_commit + xact_rollback)::text AS n FROM pg_stat_database WHERE datname LIKE 'temporal%'",
    );
    return Number(r.rows[0]?.n ?? 0);
  } finally {
    await c.end();
  }
}

const historyCpu = (b: ClusterBench): number =>
  b.cluster.services.filter((s) => s.role === 'history').reduce((n, s) => n + cpuMs(s.child?.pid), 0);

/** deploy/temporal/dynamicconfig.yaml with transferProcessorMaxPollRPS set to `rps` (everything else as deployed). */
export function dynamicConfigWith(rps: number): string {
  const text = readFileSync(DYNAMIC_CONFIG_FILE, 'utf8');
  const re = /(history\.transferProcessorMaxPollRPS:\n\s*- value: )\d+/;
  if (!re.test(text))
    throw new Error(`${DYNAMIC_CONFIG_FILE} has no history.transferProcessorMaxPollRPS value to vary`);
  return text.replace(re, `$1${rps}`);
}

interface TuningRow {
  rps: number;
  perTurnMs: number;
  wftWaitMs: number;
  atWaitMs: number;
  turnsPerSec: number;
  dbTxPerTurn: number;
  historyCpuPerTurnMs: number;
  idleDbTxPerSec: number;
  idleHistoryCpuMsPerSec: number;
}

async function measure(
  rps: number,
  ctx: {
    bin: ServerBinaries;
    work: string;
    fakeURL: string;
    book: ScriptBook;
    files: string[];
    turns: number;
    concurrent: number;
    log: (l: string) => void;
  },
): Promise<TuningRow> {
  const dyn = join(ctx.work, `dynamicconfig-${rps}.yaml`);
  writeFileSync(dyn, dynamicConfigWith(rps));
  const b = await startClusterBench({ bin: ctx.bin, work: ctx.work, fakeURL: ctx.fakeURL, dynamicConfigFile: dyn });
  try {
    const key = (k: string): string => `t${rps}-${k}`;
    ctx.book.add(key('warm'), readsScript(5, ctx.files));
    await clusterSession(b, key('warm'), ctx.work);
    // One session alone: the latency the setting is about.
    const perTurn: number[] = [];
    const wft: number[] = [];
    const at: number[] = [];
    for (let r = 0; r < 3; r++) {
      ctx.book.add(key(`seq${r}`), readsScript(ctx.turns, ctx.files));
      const s = await clusterSession(b, key(`seq${r}`), ctx.work);
      if (s.status !== 'completed') throw new Error(`bench session ended ${s.status}`);
      perTurn.push(s.ms / (ctx.turns + 1));
      if (r === 0) {
        for (let t = 1; t <= ctx.turns; t++) {
          const tt = taskTimes(
            (await b.cluster.client.workflow.getHandle(`${s.workflowId}/turn-${t}`).fetchHistory()).events ?? [],
          );
          wft.push(...tt.wftWait);
          at.push(...tt.atWait);
        }
      }
    }
    // Many at once: what a turn costs the database and the history nodes.
    const tx0 = await dbTransactions(b);
    const cpu0 = historyCpu(b);
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: ctx.concurrent }, async (_, i) => {
        ctx.book.add(key(`conc${i}`), readsScript(ctx.turns, ctx.files));
        const s = await clusterSession(b, key(`conc${i}`), ctx.work);
        if (s.status !== 'completed') throw new Error(`bench session ended ${s.status}`);
      }),
    );
    const wall = (performance.now() - t0) / 1000;
    const turns = ctx.concurrent * (ctx.turns + 1);
    const cpu1 = historyCpu(b);
    await new Promise((r) => setTimeout(r, 1500));
    const tx1 = await dbTransactions(b);
    // Idle: nothing running, what the readers cost by themselves.
    const idleS = 10;
    const cpuI = historyCpu(b);
    const txI = await dbTransactions(b);
    await new Promise((r) => setTimeout(r, idleS * 1000));
    const cpuJ = historyCpu(b);
    const txJ = await dbTransactions(b);
    const row: TuningRow = {
      rps,
      perTurnMs: median(perTurn),
      wftWaitMs: median(wft),
      atWaitMs: median(at),
      turnsPerSec: turns / wall,
      dbTxPerTurn: (tx1 - tx0) / turns,
      historyCpuPerTurnMs: (cpu1 - cpu0) / turns,
      idleDbTxPerSec: (txJ - txI) / idleS,
      idleHistoryCpuMsPerSec: (cpuJ - cpuI) / idleS,
    };
    ctx.log(`rps ${rps}: ${JSON.stringify(row)}`);
    return row;
  } finally {
    await b.stop();
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const valuesArg =
    argv.find((a) => a.startsWith('--values='))?.slice('--values='.length) ??
    (argv.includes('--values') ? argv[argv.indexOf('--values') + 1] : undefined);
  const values = (valuesArg ?? '20,50,100,200,1000').split(',').map(Number);
  if (values.some((v) => !Number.isFinite(v) || v <= 0))
    throw new Error(`--values: positive numbers, comma-separated (got ${valuesArg})`);
  const turns = Number(argv.find((a) => a.startsWith('--turns='))?.slice(8) ?? 20);
  const concurrent = Number(argv.find((a) => a.startsWith('--concurrent='))?.slice(13) ?? 10);
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const log = (l: string): void => void process.stderr.write(`bench:cluster: ${l}\n`);
  const bin = await ensureServer({ log });
  const work = mkdtempSync(join(tmpdir(), 'da-bench-cluster-'));
  const book = new ScriptBook();
  const fake = await startFakeAnthropic({ script: (req) => book.answer(req) });
  const files = [0, 1, 2].map((i) => {
    const f = join(work, `f${i}.txt`);
    writeFileSync(f, 'x'.repeat(2000) + '\n');
    return f;
  });
  const started = performance.now();
  const load0 = loadavg()[0]!.toFixed(1);
  const rows: TuningRow[] = [];
  try {
    for (const v of values)
      rows.push(await measure(v, { bin, work, fakeURL: fake.baseURL, book, files, turns, concurrent, log }));
  } finally {
    await fake.close();
    rmSync(work, { recursive: true, force: true });
  }
  const f = (x: number, d = 1): string => (Number.isFinite(x) ? x.toFixed(d) : '-');
  const shards = readEnvFile(SERVER_ENV_FILE).NUM_HISTORY_SHARDS;
  console.log(
    [
      `Command: \`npm run bench:cluster -- --values ${values.join(',')}\` (${((performance.now() - started) / 1000).toFixed(0)} s; ${turns} turns of 3 parallel Reads per session; ${concurrent} concurrent sessions; load average ${load0} → ${loadavg()[0]!.toFixed(1)}). Cluster: ${shards} history shards on 2 history nodes, deploy/temporal/dynamicconfig.yaml with the value varied.`,
      '',
      '| transferProcessorMaxPollRPS | per turn, one session | task Scheduled→Started (workflow / activity, median) | turns/s, concurrent | DB transactions per turn | history CPU per turn | idle: DB transactions/s, history CPU |',
      '|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.rps} | ${f(r.perTurnMs, 0)} ms | ${f(r.wftWaitMs)} / ${f(r.atWaitMs)} ms | ${f(r.turnsPerSec)} | ${f(r.dbTxPerTurn)} | ${f(r.historyCpuPerTurnMs)} ms | ${f(r.idleDbTxPerSec)}/s, ${f(r.idleHistoryCpuMsPerSec)} ms/s |`,
      ),
    ].join('\n'),
  );
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
