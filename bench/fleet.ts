// Fleet bench (issue 34): N sessions on W worker processes against a fake Messages API limited to
// R requests per minute (a token bucket that answers 429 with retry-after past it, as the API
// does), run twice on one dev server: each session backing off on its own (today's default), then
// with the shared limit (the model task queue, `maxTaskQueueActivitiesPerSecond` = R/60 across the
// workers, fairness keys per session, the shared backoff). Prints per run: the 429s, the model
// calls that passed, throughput against the limit, and the spread of the sessions' completion times.
// Not a test: numbers depend on the machine.
//
//   npm run bench:fleet -- [--sessions 50] [--rpm 120] [--turns 3] [--workers 2]
//   env FLEET_HEADROOM (default 0.95: the workers' rate as a share of the limit), FLEET_NO_FAIR=1
//   (the dev server without the model queue's dynamic config), FLEET_DEBUG=1 (each request's time, ! = 429)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import {
  startFakeAnthropic,
  textResponse,
  toolUseResponse,
  type FakeAnthropicServer,
} from '../src/testing/fakeAnthropic';
import { startSession } from '../src/temporal/client';
import { startDevServer } from '../src/temporal/service/devServer';
import { MODEL_QUEUE_DYNAMIC_CONFIG } from '../src/temporal/service/devServer';
import { startWorker, type BenchWorker } from './forkWorker';
import { SLEEP_TOOL_NAME } from './sleepTool';

interface Options {
  sessions: number;
  rpm: number;
  turns: number;
  workers: number;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { sessions: 50, rpm: 120, turns: 3, workers: 2 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const v = Number(argv[++i]);
    if (!Number.isInteger(v) || v < 1)
      throw new Error(`${a} needs a positive integer (see the header of bench/fleet.ts)`);
    if (a === '--sessions') o.sessions = v;
    else if (a === '--rpm') o.rpm = v;
    else if (a === '--turns') o.turns = v;
    else if (a === '--workers') o.workers = v;
    else throw new Error(`unknown option ${a} (see the header of bench/fleet.ts)`);
  }
  if (o.turns < 2) throw new Error('--turns must be at least 2 (the last turn is the answer)');
  return o;
}

/** What the workers are told: a little under the API's limit (docs/deployment.md: dispatch jitter would otherwise meet an empty bucket). */
export function workerRpm(limit: number): number {
  return Math.max(1, Math.floor(limit * HEADROOM));
}
const HEADROOM = Number(process.env.FLEET_HEADROOM ?? 0.95);

export interface FleetRun {
  label: string;
  rateLimited: number;
  passed: number;
  /** Model calls that passed per minute, from the first request to the last answer. */
  perMinute: number;
  /** Completion time of each session after the start (ms), sorted. */
  completions: number[];
  failed: number;
}

/** One run: fresh fake and workers, N sessions started at once, every one awaited. */
async function fleetRun(
  o: Options,
  label: string,
  shared: boolean,
  ctx: { address: string; client: Client; work: string },
): Promise<FleetRun> {
  const turnOf = (req: { messages: Array<{ role: string }> }): number =>
    req.messages.filter((m) => m.role === 'assistant').length + 1;
  const fake: FakeAnthropicServer = await startFakeAnthropic({
    requestLimit: { requestsPerMinute: o.rpm },
    script: (req) =>
      turnOf(req) >= o.turns
        ? textResponse('done')
        : toolUseResponse([
            { id: `toolu_${Math.random().toString(36).slice(2, 12)}`, name: SLEEP_TOOL_NAME, input: { ms: 10 } },
          ]),
  });
  const taskQueue = `fleet-${shared ? 'shared' : 'own'}-${Date.now()}`;
  const modelTaskQueue = `${taskQueue}-model`;
  const workers: BenchWorker[] = [];
  try {
    for (let w = 0; w < o.workers; w++) {
      workers.push(
        await startWorker({
          BENCH_ADDRESS: ctx.address,
          BENCH_TASK_QUEUE: taskQueue,
          BENCH_FAKE_URL: fake.baseURL,
          BENCH_STORE_DIR: join(ctx.work, `store-${taskQueue}`),
          ...(shared
            ? { DURABLE_AGENT_MODEL_TASK_QUEUE: modelTaskQueue, DURABLE_AGENT_MODEL_RPM: String(workerRpm(o.rpm)) }
            : {}),
        }),
      );
    }
    const t0 = Date.now();
    const handles = await Promise.all(
      Array.from({ length: o.sessions }, (_, i) =>
        startSession(ctx.client, {
          prompt: `fleet session ${i}`,
          cwd: ctx.work,
          permissionMode: 'bypassPermissions',
          model: { model: 'bench', maxTokens: 1024 },
          tools: [SLEEP_TOOL_NAME],
          taskQueue,
          id: `${taskQueue}-${i}`,
          useSearchAttributes: false,
          ...(shared ? { modelTaskQueue } : {}),
        }),
      ),
    );
    const completions: number[] = [];
    let failed = 0;
    await Promise.all(
      handles.map(async (h) => {
        const r = await h.result();
        if (r.status !== 'completed') failed++;
        completions.push(Date.now() - t0);
      }),
    );
    const ok = fake.requests.filter((r) => r.response?.status === 200);
    if (process.env.FLEET_DEBUG)
      console.error(
        label,
        fake.requests
          .map((r) => `${((r.receivedAt - t0) / 1000).toFixed(2)}${r.response?.status === 429 ? '!' : ''}`)
          .join(' '),
      );
    const first = Math.min(...fake.requests.map((r) => r.receivedAt));
    const last = Math.max(...ok.map((r) => r.finishedAt ?? r.receivedAt));
    return {
      label,
      rateLimited: fake.rateLimited(),
      passed: ok.length,
      perMinute: ok.length / ((last - first) / 60_000),
      completions: completions.sort((a, b) => a - b),
      failed,
    };
  } finally {
    for (const w of workers) await w.stop();
    await fake.close();
  }
}

const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

export function fleetLines(o: Options, runs: FleetRun[]): string[] {
  const lines = [
    `Fleet: ${o.sessions} sessions × ${o.turns} model calls on ${o.workers} workers, API limited to ${o.rpm} requests/minute (429 + retry-after past it)`,
    '| run | 429s | model calls passed | throughput (calls/min, % of limit) | completion: first / median / last (spread) | failed |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of runs) {
    const c = r.completions;
    const med = c[Math.floor(c.length / 2)] ?? NaN;
    lines.push(
      `| ${r.label} | ${r.rateLimited} | ${r.passed} | ${r.perMinute.toFixed(1)} (${((100 * r.perMinute) / o.rpm).toFixed(0)} %) | ${s(c[0] ?? NaN)} / ${s(med)} / ${s(c[c.length - 1] ?? NaN)} (${s((c[c.length - 1] ?? NaN) - (c[0] ?? NaN))}) | ${r.failed} |`,
    );
  }
  const [own, shared] = runs;
  if (own && shared)
    lines.push(
      `429s fell ${shared.rateLimited === 0 ? `from ${own.rateLimited} to 0` : `${(own.rateLimited / shared.rateLimited).toFixed(1)}×`}; shared-limit throughput ${((100 * shared.perMinute) / o.rpm).toFixed(0)} % of the limit.`,
    );
  return lines;
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const work = mkdtempSync(join(tmpdir(), 'da-fleet-'));
  const server = await startDevServer({ dynamicConfig: process.env.FLEET_NO_FAIR ? {} : MODEL_QUEUE_DYNAMIC_CONFIG });
  const connection = await Connection.connect({ address: server.address });
  const ctx = { address: server.address, client: new Client({ connection }), work };
  try {
    const runs: FleetRun[] = [];
    for (const [label, shared] of [
      ['each session backs off alone', false],
      ['shared limit (model queue)', true],
    ] as const) {
      process.stderr.write(`fleet: ${label}…`);
      const t = Date.now();
      runs.push(await fleetRun(o, label, shared, ctx));
      process.stderr.write(` ${((Date.now() - t) / 1000).toFixed(0)} s\n`);
    }
    console.log(fleetLines(o, runs).join('\n'));
  } finally {
    await connection.close();
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
