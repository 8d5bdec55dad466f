// Traces on vs off (issue 35): what exporting a session's trace costs per step. Two bench workers
// (bench/worker.ts, each its own process) on one dev server: one without OTEL_* (tracing off: no
// interceptor, the plain bundle), one exporting OTLP/protobuf to a local receiver (the batch
// processor's defaults). Each round runs, on each worker in turn (order alternating), a short and a
// long session of steps of 3 parallel Reads (bench/scenarios.ts) and takes (long − short) / (their
// step difference): wall ms and worker CPU ms per step, without the sessions' fixed costs. Prints the
// medians and the difference, and the spans the receiver got per step.
//   npm run build && node dist/bench/tracing.js [--steps 12] [--rounds 3]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { startFakeAnthropic } from '../src/testing/fakeAnthropic';
import { startDevServer } from '../src/temporal/service/devServer';
import { ScriptBook } from './scenarios';
import { startWorker, type BenchWorker } from './forkWorker';
import { runCostSession, type CostWorker } from './historyCost';
import { median } from './floor';
import { startOtlpReceiver } from '../test/support/otlpReceiver';

const SHORT = 2;

function args(argv: string[]): { steps: number; rounds: number } {
  const out = { steps: 12, rounds: 3 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const n = Number(argv[++i]);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag}: expected a positive integer`);
    if (flag === '--steps') out.steps = n;
    else if (flag === '--rounds') out.rounds = n;
    else throw new Error(`bench/tracing: unknown flag ${flag}`);
  }
  if (out.steps <= SHORT) throw new Error(`--steps: more than ${SHORT}`);
  return out;
}

async function main(): Promise<void> {
  const { steps, rounds } = args(process.argv.slice(2));
  for (const k of Object.keys(process.env)) if (k.startsWith('OTEL_')) delete process.env[k];
  const work = mkdtempSync(join(tmpdir(), 'da-bench-tracing-'));
  const book = new ScriptBook();
  const fake = await startFakeAnthropic({ script: (req) => book.answer(req) });
  const server = await startDevServer({});
  const receiver = await startOtlpReceiver();
  const base = { BENCH_ADDRESS: server.address, BENCH_FAKE_URL: fake.baseURL };
  const workers: Array<{ w: BenchWorker; cost: CostWorker }> = [];
  const connection = await Connection.connect({ address: server.address });
  try {
    for (const [label, extra] of [
      ['off', {}],
      ['on', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: 'bench-tracing' }],
    ] as const) {
      const taskQueue = `tracing-${label}`;
      const w = await startWorker({
        ...base,
        ...extra,
        BENCH_TASK_QUEUE: taskQueue,
        BENCH_STORE_DIR: mkdtempSync(join(work, `store-${label}-`)),
      });
      workers.push({ w, cost: { label, taskQueue, pid: w.child.pid } });
    }
    const files = [0, 1, 2].map((i) => {
      const f = join(work, `read${i}.txt`);
      writeFileSync(f, 'y'.repeat(1999) + '\n');
      return f;
    });
    const ctx = { client: new Client({ connection }), book, work, serverPid: server.pid };
    const per: Record<string, { ms: number[]; cpu: number[] }> = { off: { ms: [], cpu: [] }, on: { ms: [], cpu: [] } };
    let onSteps = 0;
    // A warm-up session on each worker: its first tasks (bundle load, caches, connections) are not the steady state.
    for (const { cost } of workers) {
      await runCostSession(ctx, cost, `tr-${cost.label}-warm`, SHORT, files);
      if (cost.label === 'on') onSteps += SHORT;
    }
    for (let r = 0; r < rounds; r++) {
      for (const { cost } of r % 2 === 0 ? workers : [...workers].reverse()) {
        const short = await runCostSession(ctx, cost, `tr-${cost.label}-${r}-s`, SHORT, files);
        const long = await runCostSession(ctx, cost, `tr-${cost.label}-${r}-l`, steps, files);
        const d = steps - SHORT;
        per[cost.label]!.ms.push((long.ms - short.ms) / d);
        per[cost.label]!.cpu.push((long.workerCpuMs - short.workerCpuMs) / d);
        if (cost.label === 'on') onSteps += steps + SHORT;
      }
    }
    // The traced worker's last batch leaves when it stops.
    for (const { w } of workers) await w.stop();
    workers.length = 0;
    const f = (x: number): string => x.toFixed(1);
    const off = { ms: median(per.off!.ms), cpu: median(per.off!.cpu) };
    const on = { ms: median(per.on!.ms), cpu: median(per.on!.cpu) };
    console.log(`tracing bench: ${rounds} rounds, sessions of ${SHORT} and ${steps} steps (3 parallel Reads each)`);
    console.log(
      `  off: ${f(off.ms)} ms wall, ${f(off.cpu)} ms worker CPU per step  (${per.off!.ms.map(f).join(' / ')})`,
    );
    console.log(`  on:  ${f(on.ms)} ms wall, ${f(on.cpu)} ms worker CPU per step  (${per.on!.ms.map(f).join(' / ')})`);
    console.log(`  added by tracing: ${f(on.ms - off.ms)} ms wall, ${f(on.cpu - off.cpu)} ms worker CPU per step`);
    console.log(
      `  spans received: ${receiver.spans.length} (${f(receiver.spans.length / onSteps)} per step), ${receiver.requests} export requests`,
    );
  } finally {
    for (const { w } of workers) await w.stop();
    await connection.close();
    await server.stop();
    await fake.close();
    await receiver.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
