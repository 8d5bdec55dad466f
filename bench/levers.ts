// Worker options tried against the cost sessions (issue 33: "measure each lever, keep what pays"),
// side by side in one run: one bench worker per variant (bench/worker.ts with BENCH_WORKER_OPTIONS),
// each on its own task queue of one dev server, taken in turn round by round with the in-process
// runner beside them (bench/historyCost.ts measureCostRounds), so that the machine's load falls on
// all alike. Prints per variant: the hand-off median / p90, CPU per step (worker + server), the
// added wall time per step over the in-process runner, events per step.
//   node dist/bench/levers.js [--rounds 3] [--dynamic-config KEY=JSON …] [name='{"reuseV8Context":false}' …]
// --dynamic-config: the dev server's dynamic config for the whole run (a server-side lever, e.g.
// system.enableActivityEagerExecution=false; compare with a run without it).
// Without variants: the built-in list below. Not a test: compare the rows of one run.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { Runtime, DefaultLogger } from '@temporalio/worker';
import { startFakeAnthropic } from '../src/testing/fakeAnthropic';
import { startDevServer } from '../src/temporal/service/devServer';
import { ScriptBook } from './scenarios';
import { startWorker, type BenchWorker } from './forkWorker';
import { measureCostRounds, type CostFigures } from './historyCost';
import { median } from './floor';

/** The default variants: our worker as configured, and one option changed at a time. */
export const DEFAULT_VARIANTS: Record<string, Record<string, unknown>> = {
  ours: {},
  'reuseV8Context false': { reuseV8Context: false },
  'workflowThreadPoolSize 2': { workflowThreadPoolSize: 2 },
  'maxConcurrentWorkflowTaskExecutions 2': { maxConcurrentWorkflowTaskExecutions: 2 },
  'nonStickyToStickyPollRatio 1': { nonStickyToStickyPollRatio: 1 },
  'maxCachedWorkflows 0 (no sticky)': { maxCachedWorkflows: 0 },
};

/** `name=JSON` arguments; `--rounds N`. */
export function parseLeverArgs(argv: string[]): {
  rounds: number;
  variants: Record<string, Record<string, unknown>>;
  dynamicConfig: Record<string, string | number | boolean>;
} {
  let rounds = 3;
  const variants: Record<string, Record<string, unknown>> = {};
  const dynamicConfig: Record<string, string | number | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--rounds') {
      rounds = Number(argv[++i]);
      if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds: expected a positive integer`);
      continue;
    }
    if (a === '--dynamic-config') {
      const kv = argv[++i] ?? '';
      const at = kv.indexOf('=');
      if (at <= 0) throw new Error(`--dynamic-config: expected KEY=JSON, got ${kv}`);
      const v: unknown = JSON.parse(kv.slice(at + 1));
      if (!['string', 'number', 'boolean'].includes(typeof v))
        throw new Error(`--dynamic-config: ${kv}: expected a JSON string, number or boolean`);
      dynamicConfig[kv.slice(0, at)] = v as string | number | boolean;
      continue;
    }
    const eq = a.indexOf('=');
    if (eq <= 0) throw new Error(`levers: expected name=JSON or --rounds N, got ${a}`);
    const v: unknown = JSON.parse(a.slice(eq + 1));
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error(`levers: ${a}: expected a JSON object`);
    variants[a.slice(0, eq)] = v as Record<string, unknown>;
  }
  return { rounds, variants: Object.keys(variants).length > 0 ? variants : DEFAULT_VARIANTS, dynamicConfig };
}

const ms = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(x < 10 ? 1 : 0)} ms` : '-');

export function renderLevers(figures: CostFigures[]): string {
  const rows = figures.map((f) => {
    const cpu = f.perStep.workerCpuMs + f.perStep.serverCpuMs;
    return `| ${f.label} | ${ms(f.handoffMedian)} / ${ms(f.handoffP90)} | ${ms(f.perStep.workerCpuMs)} + ${ms(f.perStep.serverCpuMs)} = ${ms(cpu)} | +${ms(median(f.addedWallMs))} (${f.addedWallMs.map(ms).join(', ')}) | ${f.perStep.events.toFixed(1)} |`;
  });
  return [
    '| variant | hand-off median / p90 | CPU per step: worker + server | added wall per step (rounds) | events per step |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

async function main(): Promise<void> {
  const { rounds, variants, dynamicConfig } = parseLeverArgs(process.argv.slice(2));
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const load0 = loadavg().map((x) => x.toFixed(2));
  const t0 = performance.now();
  const work = mkdtempSync(join(tmpdir(), 'da-levers-'));
  const book = new ScriptBook();
  const fake = await startFakeAnthropic({ script: (req) => book.answer(req) });
  const server = await startDevServer({ dynamicConfig });
  const connection = await Connection.connect({ address: server.address });
  const workers: Array<{ name: string; w: BenchWorker; queue: string }> = [];
  try {
    for (const [i, [name, opts]] of Object.entries(variants).entries()) {
      const queue = `levers-${i}`;
      const w = await startWorker({
        BENCH_ADDRESS: server.address,
        BENCH_TASK_QUEUE: queue,
        BENCH_FAKE_URL: fake.baseURL,
        BENCH_STORE_DIR: mkdtempSync(join(work, 'store-')),
        BENCH_WORKER_OPTIONS: JSON.stringify(opts),
      });
      workers.push({ name, w, queue });
    }
    const figures = await measureCostRounds(
      { client: new Client({ connection }), book, work, serverPid: server.pid, fakeURL: fake.baseURL },
      workers.map((x) => ({ label: x.name, taskQueue: x.queue, pid: x.w.child.pid })),
      rounds,
    );
    const local = median(figures[0]?.localStepMs ?? []);
    console.log(
      `Levers: ${rounds} round(s), ${((performance.now() - t0) / 1000).toFixed(0)} s; server dynamic config ${JSON.stringify(dynamicConfig)} over the defaults; load average at the start ${load0.join(', ')}, at the end ${loadavg()
        .map((x) => x.toFixed(2))
        .join(', ')}; in-process ${ms(local)} per step.\n`,
    );
    console.log(renderLevers(figures));
  } finally {
    for (const x of workers) await x.w.stop();
    await connection.close();
    await server.stop();
    await fake.close();
    rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
