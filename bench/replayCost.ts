// The workflow code's CPU, without a server or the machine's load in the way (issue 33): replays
// the histories of one recorded cost session (a session of 3 parallel Reads per step: the session
// workflow and every turn child) with Worker.runReplayHistories, each workflow bundle in turn,
// round by round, and prints the CPU (process.cpuUsage: the workflow thread, core and the main
// thread) per replay and per model step. A replay runs every activation a live worker ran, through
// the same sandbox, so a change to the workflow code's CPU shows here with little noise.
//   node dist/bench/replayCost.js --record FILE [--steps 16]        (dev server, fake API, bench worker)
//   node dist/bench/replayCost.js --replay FILE [--rounds 5] [DIST_WORKFLOWS_DIR …]
// DIST_WORKFLOWS_DIR: another build's dist/src/temporal/workflows (e.g. a copy of the build before a change);
// default ours. Each is bundled once.
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
import { ScriptBook } from './scenarios';
import { startWorker } from './forkWorker';
import { runCostSession, sessionHistories } from './historyCost';
import { median } from './floor';

interface Session {
  steps: number;
  histories: Array<{ workflowId: string; history: unknown }>;
}
/** A short and a long session: their difference per step leaves out the replay's fixed costs. */
type Recorded = [Session, Session];

export function parseReplayArgs(argv: string[]): {
  record?: string;
  replay?: string;
  steps: number;
  rounds: number;
  dirs: string[];
} {
  const out = { steps: 16, rounds: 5, dirs: [] as string[] } as ReturnType<typeof parseReplayArgs>;
  const num = (v: string | undefined, flag: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag}: expected a positive integer, got ${v}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--record') out.record = argv[++i];
    else if (a === '--replay') out.replay = argv[++i];
    else if (a === '--steps') out.steps = num(argv[++i], a);
    else if (a === '--rounds') out.rounds = num(argv[++i], a);
    else if (a.startsWith('--')) throw new Error(`replayCost: unknown flag ${a}`);
    else out.dirs.push(a);
  }
  if (!out.record === !out.replay) throw new Error('replayCost: give either --record FILE or --replay FILE');
  return out;
}

async function record(file: string, steps: number): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'da-replaycost-'));
  const book = new ScriptBook();
  const fake = await startFakeAnthropic({ script: (req) => book.answer(req) });
  const server = await startDevServer({});
  const w = await startWorker({
    BENCH_ADDRESS: server.address,
    BENCH_TASK_QUEUE: 'replay-cost',
    BENCH_FAKE_URL: fake.baseURL,
    BENCH_STORE_DIR: mkdtempSync(join(work, 'store-')),
  });
  const connection = await Connection.connect({ address: server.address });
  try {
    const client = new Client({ connection });
    const files = [0, 1, 2].map((i) => {
      const f = join(work, `cost${i}.txt`);
      writeFileSync(f, 'y'.repeat(1999) + '\n');
      return f;
    });
    const ctx = { client, book, work, serverPid: server.pid };
    const one = async (n: number): Promise<Session> => {
      const key = `replay-cost-${n}`;
      await runCostSession(ctx, { label: 'rec', taskQueue: 'replay-cost', pid: undefined }, key, n, files);
      const all = await sessionHistories(client, `bench-${key}`);
      return {
        steps: n,
        histories: all.map((h) => ({
          workflowId: h.workflowId,
          history: JSON.parse(historyToJSON({ events: h.events } as temporal.api.history.v1.History)) as unknown,
        })),
      };
    };
    const out: Recorded = [await one(SHORT_STEPS), await one(steps)];
    writeFileSync(file, JSON.stringify(out));
    console.log(`recorded sessions of ${SHORT_STEPS} and ${steps} steps to ${file}`);
  } finally {
    await w.stop();
    await connection.close();
    await server.stop();
    await fake.close();
    rmSync(work, { recursive: true, force: true });
  }
}

const SHORT_STEPS = 4;

async function replayCpuMs(bundle: { code: string }, s: Session, label: string): Promise<number> {
  const histories = s.histories.map((h) => ({ workflowId: h.workflowId, history: historyFromJSON(h.history) }));
  const c0 = process.cpuUsage();
  for await (const x of Worker.runReplayHistories({ workflowBundle: bundle, sinks: sessionSinks() }, histories)) {
    if (x.error) throw new Error(`replay of ${x.workflowId} with ${label} failed: ${x.error.message}`);
  }
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

async function replay(file: string, rounds: number, dirs: string[]): Promise<void> {
  const [short, long] = JSON.parse(readFileSync(file, 'utf8')) as Recorded;
  const d = long.steps - short.steps;
  const bundles = await Promise.all(
    (dirs.length > 0 ? dirs.map((x) => resolve(x)) : [workflowsPath]).map(async (d) => ({
      dir: d,
      // With the sandbox preload of that build, when it has one (src/temporal/worker.ts SANDBOX_PRELOAD).
      bundle: await bundleWorkflowCode({
        workflowsPath: d,
        logger: quiet,
        ...(existsSync(join(d, 'sandboxPreload.js')) ? { preloadModules: [join(d, 'sandboxPreload.js')] } : {}),
      }),
    })),
  );
  const perStep: number[][] = bundles.map(() => []);
  for (let r = 0; r <= rounds; r++) {
    for (const [i, b] of bundles.entries()) {
      const s = await replayCpuMs(b.bundle, short, b.dir);
      const l = await replayCpuMs(b.bundle, long, b.dir);
      if (r > 0) perStep[i]!.push((l - s) / d); // round 0 warms up
    }
  }
  console.log(
    `Replays of sessions of ${short.steps} and ${long.steps} steps (${long.histories.length} histories), ${rounds} rounds; CPU per step = (long − short) / ${d}:\n`,
  );
  console.log('| workflows | CPU per step, median (rounds) |');
  console.log('| --- | --- |');
  for (const [i, b] of bundles.entries())
    console.log(
      `| ${b.dir} | ${median(perStep[i]!).toFixed(1)} ms (${perStep[i]!.map((x) => x.toFixed(1)).join(', ')}) |`,
    );
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
  const a = parseReplayArgs(process.argv.slice(2));
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  if (a.record) await record(a.record, a.steps);
  else await replay(a.replay!, a.rounds, a.dirs);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
