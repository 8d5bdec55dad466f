// What a new worker pays to take over a running turn child (issue 32, the rolling deploy): records
// sessions of 5, 10, 25 and 50 model steps (3 parallel Reads of 2 KB files each, the cost rows'
// work) against the fake API, keeps their turn children's histories (every run of a chain), and
// replays each run alone with Worker.runReplayHistory — the work of a workflow task on a worker that
// has not cached the workflow — printing events, bytes, CPU (process.cpuUsage: the workflow thread
// and the main thread) and wall time per replay, the median of several rounds. No server in the
// replay, so the machine's load moves the wall time only. "Warm" leaves out the replay worker's own
// start: one more replay in a replay worker already running.
//   node dist/bench/turnReplay.js --record FILE [--steps 5,10,25,50] [--per-child N]
//   node dist/bench/turnReplay.js --replay FILE [--rounds 5] [DIST_WORKFLOWS_DIR]
// --per-child: the sessions' maxStepsPerTurn (default: the workflow's own default).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { historyFromJSON, historyToJSON } from '@temporalio/common/lib/proto-utils';
import type { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { startFakeAnthropic } from '../src/testing/fakeAnthropic';
import { startDevServer } from '../src/temporal/service/devServer';
import { sessionSinks, workflowsPath } from '../src/temporal/worker';
import { startSession, type SessionOptions } from '../src/temporal/client';
import { readsScript, ScriptBook } from './scenarios';
import { startWorker } from './forkWorker';
import { costFiles, sessionHistories } from './historyCost';
import { eventBytes, totals } from './historyStats';
import { median } from './floor';
import { ACTIVITY_TYPES } from '../src/core/ids';

/** One run of a turn child: its session's steps, the run's events, bytes and history (JSON). */
interface TurnRun {
  steps: number;
  workflowId: string;
  run: number;
  events: number;
  bytes: number;
  history: unknown;
}

export function parseTurnReplayArgs(argv: string[]): {
  record?: string;
  replay?: string;
  steps: number[];
  perChild?: number;
  rounds: number;
  dir?: string;
} {
  const out: ReturnType<typeof parseTurnReplayArgs> = { steps: [5, 10, 25, 50], rounds: 5 };
  const num = (v: string | undefined, flag: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag}: expected a positive integer, got ${v}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--record') out.record = argv[++i];
    else if (a === '--replay') out.replay = argv[++i];
    else if (a === '--steps') out.steps = (argv[++i] ?? '').split(',').map((s) => num(s, a));
    else if (a === '--per-child') out.perChild = num(argv[++i], a);
    else if (a === '--rounds') out.rounds = num(argv[++i], a);
    else if (a.startsWith('--')) throw new Error(`turnReplay: unknown flag ${a}`);
    else if (out.dir) throw new Error(`turnReplay: one workflows directory at most, got ${out.dir} and ${a}`);
    else out.dir = a;
  }
  if (!out.record === !out.replay) throw new Error('turnReplay: give either --record FILE or --replay FILE');
  return out;
}

async function record(file: string, steps: number[], perChild: number | undefined): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'da-turnreplay-'));
  const book = new ScriptBook();
  const fake = await startFakeAnthropic({ script: (req) => book.answer(req) });
  const server = await startDevServer({});
  const w = await startWorker({
    BENCH_ADDRESS: server.address,
    BENCH_TASK_QUEUE: 'turn-replay',
    BENCH_FAKE_URL: fake.baseURL,
    BENCH_STORE_DIR: mkdtempSync(join(work, 'store-')),
  });
  const connection = await Connection.connect({ address: server.address });
  const out: TurnRun[] = [];
  try {
    const client = new Client({ connection });
    const files = costFiles(work);
    for (const [i, n] of steps.entries()) {
      const key = `turn-replay-${i}-${n}`;
      book.add(key, readsScript(n, files));
      const h = await startSession(client, {
        permissionMode: 'bypassPermissions',
        model: { model: 'bench', maxTokens: 1024 },
        maxTurns: 500,
        ...(perChild !== undefined ? { maxStepsPerTurn: perChild } : {}),
        cwd: work,
        prompt: `bench:${key}`,
        taskQueue: 'turn-replay',
        useSearchAttributes: false,
        id: `bench-${key}`,
      } as SessionOptions);
      const r = await h.result();
      if (r.status !== 'completed') throw new Error(`turnReplay: the session of ${n} steps ended ${r.status}`);
      const runs = new Map<string, number>();
      const all = await sessionHistories(client, h.workflowId);
      const t = totals(all.map((x) => x.events));
      console.log(`the session of ${n} steps: ${all.length} histories, ${t.events} events, ${t.bytes} bytes in all`);
      for (const x of all) {
        if (!/\/turn-\d+$/.test(x.workflowId)) continue;
        const run = runs.get(x.workflowId) ?? 0;
        runs.set(x.workflowId, run + 1);
        out.push({
          steps: n,
          workflowId: x.workflowId,
          run,
          events: x.events.length,
          bytes: x.events.reduce((s, e) => s + eventBytes(e), 0),
          history: JSON.parse(historyToJSON({ events: x.events } as temporal.api.history.v1.History)) as unknown,
        });
      }
      console.log(`recorded the session of ${n} steps: ${[...runs].map(([id, k]) => `${id} (${k} runs)`).join(', ')}`);
    }
    writeFileSync(file, JSON.stringify(out));
  } finally {
    await w.stop();
    await connection.close();
    await server.stop();
    await fake.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** CPU and wall of replaying `copies` copies of one run in one replay worker (each under its own workflow id). */
async function replayCopies(
  bundle: { code: string },
  t: TurnRun,
  copies: number,
): Promise<{ cpuMs: number; wallMs: number }> {
  const history = historyFromJSON(t.history);
  const histories = Array.from({ length: copies }, (_, i) => ({ workflowId: `${t.workflowId}#${i}`, history }));
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  for await (const x of Worker.runReplayHistories({ workflowBundle: bundle, sinks: sessionSinks() }, histories)) {
    if (x.error) throw new Error(`replay of ${t.workflowId} failed: ${x.error.message}`);
  }
  const wallMs = performance.now() - w0;
  const c = process.cpuUsage(c0);
  return { cpuMs: (c.user + c.system) / 1000, wallMs };
}

/** The run's model steps: its callModel activities scheduled (a retried outage would count twice; none here). */
function modelSteps(t: TurnRun): number {
  return (historyFromJSON(t.history).events ?? []).filter(
    (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === ACTIVITY_TYPES.callModel,
  ).length;
}

/** What one more replay of the run costs a replay worker already running: ((COPIES copies) − (1 copy)) / (COPIES − 1). */
const COPIES = 4;

async function replay(file: string, rounds: number, dir: string | undefined): Promise<void> {
  const runs = JSON.parse(readFileSync(file, 'utf8')) as TurnRun[];
  const d = resolve(dir ?? workflowsPath);
  const bundle = await bundleWorkflowCode({
    workflowsPath: d,
    logger: quiet,
    ...(existsSync(join(d, 'sandboxPreload.js')) ? { preloadModules: [join(d, 'sandboxPreload.js')] } : {}),
  });
  const fig = runs.map(() => ({
    cpu: [] as number[],
    wall: [] as number[],
    warmCpu: [] as number[],
    warmWall: [] as number[],
  }));
  for (let r = 0; r <= rounds; r++) {
    for (const [i, t] of runs.entries()) {
      const one = await replayCopies(bundle, t, 1);
      const many = await replayCopies(bundle, t, COPIES);
      if (r === 0) continue; // round 0 warms up
      const f = fig[i]!;
      f.cpu.push(one.cpuMs);
      f.wall.push(one.wallMs);
      f.warmCpu.push((many.cpuMs - one.cpuMs) / (COPIES - 1));
      f.warmWall.push((many.wallMs - one.wallMs) / (COPIES - 1));
    }
  }
  console.log(`Turn-child runs replayed (Worker.runReplayHistories), ${rounds} rounds, workflows ${d}.`);
  console.log(
    `Alone: one replay worker per run (its own start included). Warm: one more replay of the run in a running replay worker ((${COPIES} copies − 1) / ${COPIES - 1}), what a worker taking over the workflow pays.\n`,
  );
  console.log(
    '| session steps | turn child, run | its model steps | events | KB | CPU alone | wall alone | CPU warm | wall warm |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const range = (xs: number[]): string =>
    `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
  for (const [i, t] of runs.entries()) {
    const f = fig[i]!;
    console.log(
      `| ${t.steps} | ${t.workflowId.replace(/^.*\//, '')}, ${t.run + 1} | ${modelSteps(t)} | ${t.events} | ${(t.bytes / 1024).toFixed(0)} | ${range(f.cpu)} | ${range(f.wall)} | ${range(f.warmCpu)} | ${range(f.warmWall)} |`,
    );
  }
}

const quiet = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: (m: string) => console.error(m),
};

async function main(): Promise<void> {
  const a = parseTurnReplayArgs(process.argv.slice(2));
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  if (a.record) await record(a.record, a.steps, a.perChild);
  else await replay(a.replay!, a.rounds, a.dir);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
