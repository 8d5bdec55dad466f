// The floor: what a Temporal dev server on this machine costs per task with no-op activities,
// read from history timestamps. Used to evaluate server/worker settings one at a time, and by
// `npm run bench` for its floor row.
//   npm run build && node dist/bench/floor.js [--n 40] [--dc key=value]... [--db FILE]
//       [--pollers N] [--no-sticky] [--session TURNS] [--shape 1,0,3,2] [--repeat R] [--matrix]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import {
  NativeConnection,
  Runtime,
  DefaultLogger,
  Worker,
  bundleWorkflowCode,
  type WorkerOptions,
} from '@temporalio/worker';
import { DEV_SERVER_DYNAMIC_CONFIG, startDevServer, type DevServer } from '../src/temporal/service/devServer';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
const ET = {
  WFT_SCHEDULED: 5,
  WFT_STARTED: 6,
  WFT_COMPLETED: 7,
  AT_SCHEDULED: 10,
  AT_STARTED: 11,
  AT_COMPLETED: 12,
} as const;

export function eventMs(e: HistoryEvent): number {
  const t = e.eventTime;
  if (!t) return NaN;
  return Number(t.seconds ?? 0) * 1000 + (t.nanos ?? 0) / 1e6;
}

export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export interface TaskTimes {
  /** Workflow task Scheduled→Started, per task in history order (ms). */
  wftWait: number[];
  /** Workflow task Started→Completed (the worker's processing). */
  wftWork: number[];
  /** Activity task Scheduled→Started. */
  atWait: number[];
  /** Activity task Started→Completed. */
  atWork: number[];
  /** Scheduled of activity i to Scheduled of activity i+1 (sequential chains). */
  atCycle: number[];
  /** First event to last event. */
  totalMs: number;
}

/** Reads the task timings of one workflow's history. */
export function taskTimes(events: HistoryEvent[]): TaskTimes {
  const byId = new Map<number, HistoryEvent>();
  for (const e of events) byId.set(Number(e.eventId), e);
  const out: TaskTimes = { wftWait: [], wftWork: [], atWait: [], atWork: [], atCycle: [], totalMs: 0 };
  let lastAtScheduled: number | undefined;
  for (const e of events) {
    const type = Number(e.eventType);
    if (type === ET.WFT_STARTED) {
      const s = byId.get(Number(e.workflowTaskStartedEventAttributes?.scheduledEventId));
      if (s) out.wftWait.push(eventMs(e) - eventMs(s));
    } else if (type === ET.WFT_COMPLETED) {
      const s = byId.get(Number(e.workflowTaskCompletedEventAttributes?.startedEventId));
      if (s) out.wftWork.push(eventMs(e) - eventMs(s));
    } else if (type === ET.AT_STARTED) {
      const s = byId.get(Number(e.activityTaskStartedEventAttributes?.scheduledEventId));
      if (s) out.atWait.push(eventMs(e) - eventMs(s));
    } else if (type === ET.AT_COMPLETED) {
      const s = byId.get(Number(e.activityTaskCompletedEventAttributes?.startedEventId));
      if (s) out.atWork.push(eventMs(e) - eventMs(s));
    } else if (type === ET.AT_SCHEDULED) {
      if (lastAtScheduled !== undefined) out.atCycle.push(eventMs(e) - lastAtScheduled);
      lastAtScheduled = eventMs(e);
    }
  }
  if (events.length > 1) out.totalMs = eventMs(events[events.length - 1]!) - eventMs(events[0]!);
  return out;
}

export interface FloorVariant {
  name: string;
  /** `--dynamic-config-value` entries for the dev server. */
  dynamicConfig?: Record<string, string | number | boolean>;
  /** SQLite file instead of in-memory. */
  dbFile?: boolean;
  worker?: Partial<WorkerOptions>;
}

async function sleepy(ms: number, heartbeatMs: number): Promise<void> {
  const { Context } = await import('@temporalio/activity');
  const ctx = Context.current();
  const beat = heartbeatMs > 0 ? setInterval(() => ctx.heartbeat(), heartbeatMs) : undefined;
  try {
    await new Promise((r) => setTimeout(r, ms));
  } finally {
    if (beat) clearInterval(beat);
  }
}

export interface FloorResult {
  variant: string;
  /** Sequential no-op chain. */
  chain: TaskTimes;
  /** Per no-op activity, wall time of the whole chain / n. */
  perActivityMs: number;
  /** Session shape: wall ms per turn (child workflow + steps), when measured. */
  perTurnMs?: number;
  turn?: TaskTimes;
  /** Batches of parallel sleeps: wall ms of the workflow per heartbeat interval. */
  batches?: Array<{ heartbeatMs: number; wallMs: number; activitiesMs: number }>;
}

/** A variant's dynamic config relative to the CLI's own defaults (this project's defaults dropped). */
export function dynamicConfigFor(v: FloorVariant): Record<string, string | number | boolean | null> {
  const none = Object.fromEntries(Object.keys(DEV_SERVER_DYNAMIC_CONFIG).map((k) => [k, null]));
  return { ...none, ...v.dynamicConfig };
}

let floorBundle: Promise<{ code: string }> | undefined;
function bundle(): Promise<{ code: string }> {
  const quiet = {
    log: () => undefined,
    trace: () => undefined,
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: (m: string) => console.error(m),
  };
  floorBundle ??= bundleWorkflowCode({ workflowsPath: require.resolve('./floorWorkflows'), logger: quiet });
  return floorBundle;
}

/** Runs the floor workloads of one variant on its own dev server (or on `server` when given). */
export async function measureFloor(
  v: FloorVariant,
  opts: {
    n: number;
    sessionTurns?: number;
    shape?: number[];
    server?: DevServer;
    batch?: { n: number; ms: number; heartbeats: number[]; repeat: number };
  },
): Promise<FloorResult> {
  const server =
    opts.server ??
    (await startDevServer({
      dynamicConfig: dynamicConfigFor(v),
      ...(v.dbFile ? { dbFilename: join(mkdtempSync(join(tmpdir(), 'da-floor-')), 'temporal.db') } : {}),
    }));
  const connection = await NativeConnection.connect({ address: server.address });
  const taskQueue = `floor-${Math.random().toString(36).slice(2, 8)}`;
  const worker = await Worker.create({
    connection,
    taskQueue,
    workflowBundle: await bundle(),
    activities: { noop: async () => undefined, sleepy },
    maxConcurrentActivityTaskExecutions: 100,
    maxHeartbeatThrottleInterval: '200 ms',
    defaultHeartbeatThrottleInterval: '200 ms',
    ...v.worker,
  });
  const client = new Client({ connection: await Connection.connect({ address: server.address }) });
  let result: FloorResult | undefined;
  try {
    result = await worker.runUntil(async () => {
      // Warm-up: the first tasks of a fresh queue are not the steady state.
      await client.workflow.execute('noopChain', { taskQueue, workflowId: `${taskQueue}-warm`, args: [5] });
      const t0 = performance.now();
      const h = await client.workflow.start('noopChain', {
        taskQueue,
        workflowId: `${taskQueue}-chain`,
        args: [opts.n],
      });
      await h.result();
      const wall = performance.now() - t0;
      const chain = taskTimes((await h.fetchHistory()).events ?? []);
      const r: FloorResult = { variant: v.name, chain, perActivityMs: wall / opts.n };
      if (opts.sessionTurns) {
        const shape = { steps: opts.shape ?? [1, 0, 3, 2] };
        const t1 = performance.now();
        const s = await client.workflow.start('sessionShape', {
          taskQueue,
          workflowId: `${taskQueue}-session`,
          args: [opts.sessionTurns, shape],
        });
        await s.result();
        r.perTurnMs = (performance.now() - t1) / opts.sessionTurns;
        const last = client.workflow.getHandle(`${taskQueue}-session/turn-${opts.sessionTurns}`);
        r.turn = taskTimes((await last.fetchHistory()).events ?? []);
      }
      if (opts.batch) {
        const { n, ms, heartbeats, repeat } = opts.batch;
        r.batches = [];
        for (let i = 0; i < repeat; i++) {
          for (const heartbeatMs of heartbeats) {
            const t = performance.now();
            const b = await client.workflow.start('parallelSleeps', {
              taskQueue,
              workflowId: `${taskQueue}-batch-${heartbeatMs}-${i}`,
              args: [n, ms, heartbeatMs],
            });
            await b.result();
            const wallMs = performance.now() - t;
            const ev = (await b.fetchHistory()).events ?? [];
            const sched = ev.filter((e) => Number(e.eventType) === ET.AT_SCHEDULED).map(eventMs);
            const done = ev.filter((e) => Number(e.eventType) === ET.AT_COMPLETED).map(eventMs);
            r.batches.push({ heartbeatMs, wallMs, activitiesMs: Math.max(...done) - Math.min(...sched) });
          }
        }
      }
      return r;
    });
  } finally {
    await client.connection.close();
    await connection.close();
    if (!opts.server) await server.stop();
  }
  return result;
}

const f = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : '-');

export function describeResult(r: FloorResult): string {
  const c = r.chain;
  const head = (xs: number[]): string =>
    xs
      .slice(0, 4)
      .map((x) => x.toFixed(0))
      .join('/');
  const lines = [
    `${r.variant}: ${f(r.perActivityMs)} ms per sequential no-op activity (wall)`,
    `  workflow task  sched→start median ${f(median(c.wftWait))} (first ${head(c.wftWait)}), work median ${f(median(c.wftWork))}`,
    `  activity task  sched→start median ${f(median(c.atWait))} (first ${head(c.atWait)}), work median ${f(median(c.atWork))}, cycle median ${f(median(c.atCycle))}`,
  ];
  for (const hb of [...new Set((r.batches ?? []).map((b) => b.heartbeatMs))]) {
    const bs = (r.batches ?? []).filter((b) => b.heartbeatMs === hb);
    lines.push(
      `  batch, heartbeat every ${hb || 'never'} ms: wall median ${f(median(bs.map((b) => b.wallMs)))}, first scheduled→last completed median ${f(median(bs.map((b) => b.activitiesMs)))} (${bs.length} runs)`,
    );
  }
  if (r.perTurnMs !== undefined && r.turn) {
    lines.push(
      `  turn shape: ${f(r.perTurnMs)} ms per turn; in the last turn: wft wait median ${f(median(r.turn.wftWait))}, at wait median ${f(median(r.turn.atWait))}, child first→last event ${f(r.turn.totalMs)}`,
    );
  }
  return lines.join('\n');
}

/** The levers of docs: one variant each, against the CLI's defaults. */
export const MATRIX: FloorVariant[] = [
  { name: 'cli defaults' },
  {
    name: 'partitions=1',
    dynamicConfig: { 'matching.numTaskqueueReadPartitions': 1, 'matching.numTaskqueueWritePartitions': 1 },
  },
  { name: 'eager activities', dynamicConfig: { 'system.enableActivityEagerExecution': true } },
  { name: 'transfer poll RPS 1000', dynamicConfig: { 'history.transferProcessorMaxPollRPS': 1000 } },
  { name: 'transfer poll RPS 100', dynamicConfig: { 'history.transferProcessorMaxPollRPS': 100 } },
  {
    name: 'transfer RPS 1000 + eager',
    dynamicConfig: { 'history.transferProcessorMaxPollRPS': 1000, 'system.enableActivityEagerExecution': true },
  },
  {
    name: 'transfer RPS 1000 + partitions=1',
    dynamicConfig: {
      'history.transferProcessorMaxPollRPS': 1000,
      'matching.numTaskqueueReadPartitions': 1,
      'matching.numTaskqueueWritePartitions': 1,
    },
  },
  { name: 'sqlite file', dbFile: true },
  {
    name: 'sqlite file + transfer RPS 1000',
    dbFile: true,
    dynamicConfig: { 'history.transferProcessorMaxPollRPS': 1000 },
  },
  { name: 'no sticky (maxCachedWorkflows 0)', worker: { maxCachedWorkflows: 0 } },
  { name: 'pollers 1/2', worker: { maxConcurrentActivityTaskPolls: 1, maxConcurrentWorkflowTaskPolls: 2 } },
  {
    name: 'transfer RPS 1000 + no sticky',
    dynamicConfig: { 'history.transferProcessorMaxPollRPS': 1000 },
    worker: { maxCachedWorkflows: 0 },
  },
  {
    name: 'transfer RPS 1000 + pollers 1/2',
    dynamicConfig: { 'history.transferProcessorMaxPollRPS': 1000 },
    worker: { maxConcurrentActivityTaskPolls: 1, maxConcurrentWorkflowTaskPolls: 2 },
  },
];

function parseArgs(argv: string[]) {
  const o = {
    shapes: undefined as number[][] | undefined,
    batch: undefined as { n: number; ms: number; heartbeats: number[]; repeat: number } | undefined,
    n: 40,
    repeat: 1,
    matrix: false,
    only: undefined as string[] | undefined,
    sessionTurns: 0,
    shape: undefined as number[] | undefined,
    v: {
      name: 'custom',
      dynamicConfig: {} as Record<string, string | number | boolean>,
      worker: {} as Partial<WorkerOptions>,
    } as FloorVariant,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--n') o.n = Number(next());
    else if (a === '--repeat') o.repeat = Number(next());
    else if (a === '--matrix') o.matrix = true;
    else if (a === '--only') o.only = next().split(',');
    else if (a === '--compare-shapes')
      o.shapes = next()
        .split(';')
        .map((x) => x.split(',').map(Number));
    else if (a === '--session') o.sessionTurns = Number(next());
    else if (a === '--shape') o.shape = next().split(',').map(Number);
    else if (a === '--db') o.v.dbFile = true;
    else if (a === '--batch') o.batch = { n: 10, ms: 500, heartbeats: next().split(',').map(Number), repeat: 3 };
    else if (a === '--no-sticky') o.v.worker!.maxCachedWorkflows = 0;
    else if (a === '--pollers') {
      const p = Number(next());
      o.v.worker!.maxConcurrentActivityTaskPolls = p;
      o.v.worker!.maxConcurrentWorkflowTaskPolls = Math.max(2, p);
    } else if (a === '--dc') {
      const [k, ...rest] = next().split('=');
      const raw = rest.join('=');
      o.v.dynamicConfig![k!] =
        raw === 'true' ? true : raw === 'false' ? false : Number.isFinite(Number(raw)) ? Number(raw) : raw;
    } else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const o = parseArgs(process.argv.slice(2));
  if (o.shapes) {
    // Turn shapes on ONE server (this project's settings), alternating, medians per shape.
    const server = await startDevServer({});
    const per = new Map<string, number[]>();
    try {
      for (let r = 0; r < o.repeat; r++) {
        for (const shape of o.shapes) {
          const res = await measureFloor(
            { name: shape.join(',') },
            { n: 3, sessionTurns: o.sessionTurns || 10, shape, server },
          );
          per.set(shape.join(','), [...(per.get(shape.join(',')) ?? []), res.perTurnMs ?? NaN]);
        }
      }
    } finally {
      await server.stop();
    }
    for (const [shape, xs] of per)
      console.log(`shape [${shape}]: median ${f(median(xs))} ms/turn (${xs.map((x) => x.toFixed(0)).join(', ')})`);
    return;
  }
  const variants = o.matrix ? MATRIX.filter((v) => !o.only || o.only.includes(v.name)) : [o.v];
  for (let r = 0; r < o.repeat; r++) {
    for (const v of variants) {
      const res = await measureFloor(v, {
        n: o.n,
        ...(o.sessionTurns ? { sessionTurns: o.sessionTurns } : {}),
        ...(o.shape ? { shape: o.shape } : {}),
        ...(o.batch ? { batch: o.batch } : {}),
      });
      console.log(describeResult(res));
    }
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
