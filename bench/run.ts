// `npm run bench`: what durability costs, side by side in one run, as ONE table — printed and
// written to BENCHMARKS.md (between the bench markers) with the machine and the command.
//   npm run bench [-- --quick]     (--quick: fewer turns and repeats, for a smoke run)
//   node dist/bench/run.js --only cost[,history,…]   (some steps alone: their rows replace the
//     rows of the same name in BENCHMARKS.md's table, the others stay; steps: STEPS below)
//   node dist/bench/run.js --only breakdown   (prints every event one turn of 3 Reads adds; no table)
// Not a test: numbers vary with the machine's load (shown with the table). Ratios are taken
// within this run; repeated rows report medians.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, homedir, loadavg, totalmem, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { Client, Connection } from '@temporalio/client';
import { Runtime, DefaultLogger } from '@temporalio/worker';
import { startFakeAnthropic } from '../src/testing/fakeAnthropic';
import { runLocalSession } from '../src/inprocess/runSession';
import { startSession, type SessionOptions } from '../src/temporal/client';
import { startDevServer, DEV_SERVER_DYNAMIC_CONFIG, type DevServer } from '../src/temporal/service/devServer';
import { eventMs, measureFloor, median } from './floor';
import {
  ScriptBook,
  batchScript,
  copyTree,
  readsScript,
  realisticScript,
  REALISTIC_PACE,
  streamingScript,
  writesScript,
} from './scenarios';
import { SleepTool, SLEEP_TOOL_NAME } from './sleepTool';
import {
  breakdown,
  COST_STEPS,
  measureCostRounds,
  renderBreakdown,
  sessionHistories,
  type CostCtx,
  type CostFigures,
  type CostWorker,
} from './historyCost';
import { deployedRelease } from '../test/support/previousRelease';
import { SandboxHost } from '../src/sandbox/host';
import { startWorker, type BenchWorker } from './forkWorker';
import { clusterSession, clusterUnavailable, startClusterBench } from './cluster';
import { readEnvFile, SERVER_ENV_FILE } from '../test/cluster/cluster';
import { TEMPORAL_SERVER_VERSION } from '../test/cluster/server';
import { HEARTBEAT_THROTTLE_MS } from '../src/core/heartbeats';
import { measureResume, resumeRows } from './resume';
import { costNoWorse, renderNoWorse, type NoWorseLine } from './noWorse';
import { eventBytes } from './historyStats';

const QUICK = process.argv.includes('--quick');
export const STEPS = [
  'floor',
  'overhead',
  'cluster',
  'realistic',
  'streaming',
  'batch',
  'history',
  'cost',
  'resume',
  'breakdown',
] as const;
export type Step = (typeof STEPS)[number];

/** `--only a,b` (or `--only=a,b`): the steps to run; undefined = every step but `breakdown`. */
export function parseOnly(argv: string[]): Set<Step> | undefined {
  const i = argv.findIndex((a) => a === '--only' || a.startsWith('--only='));
  if (i < 0) return undefined;
  const arg = argv[i]!.startsWith('--only=') ? argv[i]!.slice('--only='.length) : argv[i + 1];
  if (!arg) throw new Error(`--only needs a list of steps: ${STEPS.join(', ')}`);
  const names = arg.split(',').map((x) => x.trim());
  const bad = names.filter((n) => !(STEPS as readonly string[]).includes(n));
  if (bad.length > 0) throw new Error(`--only: unknown step ${bad.join(', ')} (steps: ${STEPS.join(', ')})`);
  return new Set(names as Step[]);
}
const ONLY = parseOnly(process.argv);
const ROOT = resolve(__dirname, '..', '..');
const N = {
  overheadTurns: QUICK ? 10 : 40,
  overheadRepeats: QUICK ? 1 : 3,
  writeTurns: QUICK ? 4 : 10,
  realisticTurns: 20,
  realisticRepeats: QUICK ? 1 : 2,
  streamingTurns: QUICK ? 1 : 3,
  batchRepeats: QUICK ? 1 : 3,
  historyTurns: 100,
  floorTurns: QUICK ? 5 : 20,
  // BENCH_COST_ROUNDS: more rounds for a paired comparison on a loaded machine (the sums' noise shrinks).
  costRounds: Number(process.env.BENCH_COST_ROUNDS) > 0 ? Number(process.env.BENCH_COST_ROUNDS) : QUICK ? 1 : 3,
};

export interface Row {
  measure: string;
  inProcess: string;
  temporal: string;
  result: string;
  target: string;
  verdict: 'PASS' | 'MISS' | 'info' | 'n/a';
}

const ms = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(x < 10 ? 1 : 0)} ms` : '-');
const verdict = (ok: boolean): 'PASS' | 'MISS' => (ok ? 'PASS' : 'MISS');

export function renderTable(rows: Row[]): string {
  const head: Row = {
    measure: 'Measure',
    inProcess: 'In-process',
    temporal: 'Temporal',
    result: 'Result',
    target: 'Target',
    verdict: 'info',
  };
  const cells = (r: Row): string[] => [
    r.measure,
    r.inProcess,
    r.temporal,
    r.result,
    r.target,
    r === head ? 'Verdict' : r.verdict,
  ];
  const lines = [cells(head), cells(head).map(() => '---'), ...rows.map(cells)];
  return lines.map((c) => `| ${c.join(' | ')} |`).join('\n');
}

interface Ctx {
  server: DevServer;
  client: Client;
  taskQueue: string;
  book: ScriptBook;
  fakeURL: string;
  work: string;
}

const COMMON = {
  permissionMode: 'bypassPermissions' as const,
  model: { model: 'bench', maxTokens: 1024 },
  maxTurns: 500,
};

async function local(
  ctx: Ctx,
  key: string,
  opts: Partial<SessionOptions> & { cwd: string },
): Promise<{ ms: number; status: string }> {
  const t0 = performance.now();
  const r = await runLocalSession(
    { ...COMMON, ...opts, prompt: `bench:${key}` },
    {
      anthropic: () => new Anthropic({ apiKey: 'bench', baseURL: ctx.fakeURL, maxRetries: 0 }),
      storeDir: mkdtempSync(join(ctx.work, 'store-')),
      tools: [SleepTool],
    },
  );
  return { ms: performance.now() - t0, status: r.status };
}

async function temporal(
  ctx: Ctx,
  key: string,
  opts: Partial<SessionOptions> & { cwd: string },
): Promise<{ ms: number; status: string; workflowId: string }> {
  const t0 = performance.now();
  const h = await startSession(ctx.client, {
    ...COMMON,
    ...opts,
    prompt: `bench:${key}`,
    taskQueue: ctx.taskQueue,
    useSearchAttributes: false,
    id: `bench-${key}`,
  });
  const r = await h.result();
  return { ms: performance.now() - t0, status: r.status, workflowId: h.workflowId };
}

async function history(ctx: Ctx, workflowId: string) {
  return (await ctx.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
}

function checkStatus(what: string, ...statuses: string[]): void {
  const bad = statuses.filter((s) => s !== 'completed');
  if (bad.length > 0) throw new Error(`bench: ${what} ended ${bad.join(', ')}`);
}

async function floorRows(ctx: Ctx): Promise<Row[]> {
  const shape = [1, 0, 3, -2];
  const ours = await measureFloor({ name: 'ours' }, { n: 20, sessionTurns: N.floorTurns, shape, server: ctx.server });
  const cli = await measureFloor({ name: 'cli defaults' }, { n: 20, sessionTurns: N.floorTurns, shape });
  const rpsOurs = DEV_SERVER_DYNAMIC_CONFIG['history.transferProcessorMaxPollRPS'];
  return [
    {
      measure:
        'Floor: bare turn (child workflow + model + describe LA + 3 parallel tools + 2 store LAs, no-op activities)',
      inProcess: '—',
      temporal: `${ms(ours.perTurnMs ?? NaN)}/turn`,
      result: `no-op activity ${ms(ours.perActivityMs)}; task Scheduled→Started median wft ${ms(median(ours.chain.wftWait))}, activity ${ms(median(ours.chain.atWait))}`,
      target: 'what the machine allows',
      verdict: 'info',
    },
    {
      measure: "Floor with the CLI's default server settings (transfer-queue reader 20 loads/s, no eager activities)",
      inProcess: '—',
      temporal: `${ms(cli.perTurnMs ?? NaN)}/turn`,
      result: `no-op activity ${ms(cli.perActivityMs)}; Scheduled→Started median wft ${ms(median(cli.chain.wftWait))}, activity ${ms(median(cli.chain.atWait))} (ours: transferProcessorMaxPollRPS=${rpsOurs}, eager activities)`,
      target: 'the lever',
      verdict: 'info',
    },
  ];
}

async function overheadRows(ctx: Ctx): Promise<{ rows: Row[]; historySessionId?: string }> {
  const files = [0, 1, 2].map((i) => {
    const f = join(ctx.work, `f${i}.txt`);
    writeFileSync(f, 'x'.repeat(2000) + '\n');
    return f;
  });
  const turns = N.overheadTurns + 1;
  const perTurn: number[] = [];
  const locals: number[] = [];
  const temps: number[] = [];
  for (let r = 0; r < N.overheadRepeats; r++) {
    const key = `reads-${r}`;
    ctx.book.add(key, readsScript(N.overheadTurns, files));
    const l = await local(ctx, key, { cwd: ctx.work });
    const t = await temporal(ctx, key, { cwd: ctx.work });
    checkStatus('the reads session', l.status, t.status);
    locals.push(l.ms / turns);
    temps.push(t.ms / turns);
    perTurn.push((t.ms - l.ms) / turns);
  }
  // Per sequential tool call: turns of 1 Write vs turns of 4 Writes (each Write is its own batch).
  const perCall: number[] = [];
  const dir = mkdtempSync(join(ctx.work, 'writes-'));
  for (let r = 0; r < Math.max(1, N.overheadRepeats - 1); r++) {
    const ovh: Record<number, number> = {};
    for (const k of [1, 4]) {
      const key = `writes${k}-${r}`;
      ctx.book.add(key, writesScript(N.writeTurns, k, join(dir, key)));
      const l = await local(ctx, key, { cwd: dir });
      ctx.book.add(`${key}-t`, writesScript(N.writeTurns, k, join(dir, `${key}-t`)));
      const t = await temporal(ctx, `${key}-t`, { cwd: dir });
      checkStatus('the writes session', l.status, t.status);
      ovh[k] = (t.ms - l.ms) / N.writeTurns;
    }
    perCall.push((ovh[4]! - ovh[1]!) / 3);
  }
  const o = median(perTurn);
  return {
    rows: [
      {
        measure: `Durability overhead per turn (${N.overheadTurns} turns of 3 parallel Reads + a final answer; median of ${N.overheadRepeats})`,
        inProcess: `${ms(median(locals))}/turn`,
        temporal: `${ms(median(temps))}/turn`,
        result: `+${ms(o)}/turn`,
        target: '≤ 50 ms',
        verdict: verdict(o <= 50),
      },
      {
        measure: 'Durability overhead per sequential tool call ((turns of 4 Writes − turns of 1 Write) / 3)',
        inProcess: '—',
        temporal: '—',
        result: `+${ms(median(perCall))}/call`,
        target: 'none set',
        verdict: 'info',
      },
    ],
  };
}

/**
 * The overhead row again on a production-shaped cluster (test/cluster/cluster.ts: the release
 * server as one process per service on PostgreSQL, deploy/'s shards and dynamic config), with the
 * same sessions and the same worker settings; skipped, saying why, when the server is not built.
 */
async function clusterRows(ctx: Ctx): Promise<Row[]> {
  const shards = readEnvFile(SERVER_ENV_FILE).NUM_HISTORY_SHARDS;
  const measure = `Durability overhead per turn on a production-shaped cluster (temporal-server ${TEMPORAL_SERVER_VERSION}: frontend, 2 history, matching, worker processes on PostgreSQL, ${shards} shards, deploy/temporal/dynamicconfig.yaml; the sessions of the row above; median of ${N.overheadRepeats})`;
  const why = clusterUnavailable();
  if (why) {
    process.stderr.write(`\nbench: the cluster row is skipped: ${why}\n`);
    return [
      {
        measure,
        inProcess: '—',
        temporal: '—',
        result: 'skipped: the server is not built (node dist/test/cluster/server.js --ensure)',
        target: "beside the dev server's",
        verdict: 'n/a',
      },
    ];
  }
  const files = [0, 1, 2].map((i) => join(ctx.work, `f${i}.txt`));
  const b = await startClusterBench({ work: ctx.work, fakeURL: ctx.fakeURL });
  const turns = N.overheadTurns + 1;
  const perTurn: number[] = [];
  const locals: number[] = [];
  const temps: number[] = [];
  try {
    const warm = 'cluster-warm';
    ctx.book.add(warm, readsScript(3, files));
    await clusterSession(b, warm, ctx.work);
    for (let r = 0; r < N.overheadRepeats; r++) {
      const key = `cluster-reads-${r}`;
      ctx.book.add(key, readsScript(N.overheadTurns, files));
      const l = await local(ctx, key, { cwd: ctx.work });
      const t = await clusterSession(b, key, ctx.work);
      checkStatus('the reads session on the cluster', l.status, t.status);
      locals.push(l.ms / turns);
      temps.push(t.ms / turns);
      perTurn.push((t.ms - l.ms) / turns);
    }
  } finally {
    await b.stop();
  }
  const o = median(perTurn);
  return [
    {
      measure,
      inProcess: `${ms(median(locals))}/turn`,
      temporal: `${ms(median(temps))}/turn`,
      result: `+${ms(o)}/turn`,
      target: "beside the dev server's",
      verdict: 'info',
    },
  ];
}

async function realisticRow(ctx: Ctx): Promise<Row> {
  const ratios: number[] = [];
  const locals: number[] = [];
  const temps: number[] = [];
  for (let r = 0; r < N.realisticRepeats; r++) {
    const lt = copyTree(join(ROOT, 'src'), mkdtempSync(join(ctx.work, 'tree-l-')));
    const tt = copyTree(join(ROOT, 'src'), mkdtempSync(join(ctx.work, 'tree-t-')));
    ctx.book.add(`real-l-${r}`, realisticScript(lt, REALISTIC_PACE, 7 + r, N.realisticTurns));
    ctx.book.add(`real-t-${r}`, realisticScript(tt, REALISTIC_PACE, 7 + r, N.realisticTurns));
    const l = await local(ctx, `real-l-${r}`, { cwd: lt });
    const t = await temporal(ctx, `real-t-${r}`, { cwd: tt });
    checkStatus('the realistic session', l.status, t.status);
    locals.push(l.ms);
    temps.push(t.ms);
    ratios.push(t.ms / l.ms);
  }
  const ratio = median(ratios);
  return {
    measure: `Realistic session: ${N.realisticTurns} turns of Read/Grep/Glob/Edit/Bash on a copy of src/, model at ~60 tokens/s, 300–600 ms to first token (median of ${N.realisticRepeats})`,
    inProcess: ms(median(locals)),
    temporal: ms(median(temps)),
    result: `${ratio.toFixed(3)}×`,
    target: '≤ 1.05×',
    verdict: verdict(ratio <= 1.05),
  };
}

/** Did a tool activity of this turn start before its model activity completed? (streaming execution at work) */
function startedEarly(events: Awaited<ReturnType<typeof history>>): boolean {
  const modelDone = events.find(
    (e) =>
      Number(e.eventType) === 12 &&
      events.some(
        (s) =>
          Number(s.eventId) === Number(e.activityTaskCompletedEventAttributes?.scheduledEventId) &&
          s.activityTaskScheduledEventAttributes?.activityType?.name === 'callModel',
      ),
  );
  const toolSched = events.find(
    (e) => Number(e.eventType) === 10 && e.activityTaskScheduledEventAttributes?.activityType?.name === 'runToolUse',
  );
  return !!modelDone && !!toolSched && Number(toolSched.eventId) < Number(modelDone.eventId);
}

async function streamingRow(ctx: Ctx): Promise<Row> {
  const res: Record<string, number> = {};
  let early = false;
  for (const on of [true, false]) {
    const key = `stream-${on ? 'on' : 'off'}`;
    ctx.book.add(key, streamingScript(N.streamingTurns));
    const t = await temporal(ctx, key, {
      cwd: ctx.work,
      tools: ['Read', SLEEP_TOOL_NAME],
      ...({ streamingToolExecution: on } as Partial<SessionOptions>),
    });
    checkStatus('the streaming session', t.status);
    res[key] = t.ms;
    if (on) early = startedEarly(await history(ctx, `${t.workflowId}/turn-1`));
  }
  const less = 1 - res['stream-on']! / res['stream-off']!;
  if (!early) {
    return {
      measure: 'Streaming execution on vs off (turns streaming 5 safe calls over ~2.5 s)',
      inProcess: '—',
      temporal: `off ${ms(res['stream-off']!)}`,
      result: 'n/a: streaming execution not landed',
      target: '≥ 30 % less',
      verdict: 'n/a',
    };
  }
  return {
    measure: `Streaming execution on vs off (${N.streamingTurns} turns, each streaming 5 safe calls over ~2.5 s)`,
    inProcess: '—',
    temporal: `on ${ms(res['stream-on']!)}, off ${ms(res['stream-off']!)}`,
    result: `${(less * 100).toFixed(0)} % less`,
    target: '≥ 30 % less',
    verdict: verdict(less >= 0.3),
  };
}

async function batchRow(ctx: Ctx): Promise<Row> {
  const spans: number[] = [];
  const locals: number[] = [];
  for (let r = 0; r < N.batchRepeats; r++) {
    const key = `batch-${r}`;
    ctx.book.add(key, batchScript(10, 500));
    const tools = ['Read', SLEEP_TOOL_NAME];
    const l = await local(ctx, key, { cwd: ctx.work, tools });
    locals.push(l.ms);
    const t = await temporal(ctx, key, { cwd: ctx.work, tools });
    checkStatus('the batch session', l.status, t.status);
    const ev = await history(ctx, `${t.workflowId}/turn-1`);
    const sched = new Map(
      ev
        .filter((e) => Number(e.eventType) === 10)
        .map((e) => [Number(e.eventId), e.activityTaskScheduledEventAttributes?.activityType?.name]),
    );
    const done = ev.filter((e) => Number(e.eventType) === 12);
    const modelDone = done.find(
      (e) => sched.get(Number(e.activityTaskCompletedEventAttributes?.scheduledEventId)) === 'callModel',
    );
    const toolDone = done.filter(
      (e) => sched.get(Number(e.activityTaskCompletedEventAttributes?.scheduledEventId)) === 'runToolUse',
    );
    const lastTool = toolDone[toolDone.length - 1];
    // The batch as the turn sees it: model answer recorded → the workflow task that has every result.
    const wftAfter = ev.find(
      (e) => Number(e.eventType) === 6 && lastTool && Number(e.eventId) > Number(lastTool.eventId),
    );
    if (modelDone && wftAfter && toolDone.length === 10) spans.push(eventMs(wftAfter) - eventMs(modelDone));
  }
  const span = median(spans);
  return {
    measure: `A batch of ten 500 ms safe calls (model answer recorded → the workflow task holding all ten results; median of ${N.batchRepeats})`,
    inProcess: `whole session ${ms(median(locals))}`,
    temporal: ms(span),
    result: ms(span),
    target: '≤ 650 ms',
    verdict: verdict(span <= 650),
  };
}

async function historyRows(ctx: Ctx, rssOf: () => Promise<number>): Promise<Row[]> {
  const files = [join(ctx.work, 'f0.txt')];
  const key = 'history';
  ctx.book.add(key, readsScript(N.historyTurns, files));
  const t = await temporal(ctx, key, { cwd: ctx.work });
  checkStatus('the 100-turn session', t.status);
  // A turn child runs many model steps (issue 33), so "a turn" here is one model step: the
  // protobuf bytes of its events, from its callModel scheduled to the next one's, in whichever
  // history (child, or a continued run of it) holds both.
  const all = await sessionHistories(ctx.client, t.workflowId);
  const step = (k: number): number | undefined => {
    for (const { events } of all) {
      const at = (n: number): number =>
        events.findIndex((e) => e.activityTaskScheduledEventAttributes?.activityId === `model-${n}`);
      const [from, to] = [at(k), at(k + 1)];
      if (from >= 0 && to > from) return events.slice(from, to).reduce((sum, e) => sum + eventBytes(e), 0);
    }
    return undefined;
  };
  const near = (k: number, dir: 1 | -1): [number, number] => {
    for (let n = k; n >= 1 && n <= N.historyTurns; n += dir) {
      const b = step(n);
      if (b !== undefined) return [n, b];
    }
    throw new Error(`bench: no model step near ${k} with its successor in the same history`);
  };
  const [[s5, b5], [sN, b100]] = [near(5, 1), near(N.historyTurns - 1, -1)];
  const rss = await rssOf();
  return [
    {
      measure: `History bytes of a model step (1 Read per step) early and late in a session of ${N.historyTurns} steps`,
      inProcess: '—',
      temporal: `step ${s5}: ${b5} B / step ${sN}: ${b100} B`,
      result: `step ${sN} = ${(b100 / b5).toFixed(2)}× step ${s5}`,
      target: 'no growth with the session (≤ 1.2×)',
      verdict: verdict(b100 <= 1.2 * b5),
    },
    {
      measure: 'Worker RSS (its own process, after every Temporal row)',
      inProcess: '—',
      temporal: `${(rss / 1024 / 1024).toFixed(0)} MiB`,
      result: `${(rss / 1024 / 1024).toFixed(0)} MiB`,
      target: 'none set',
      verdict: 'info',
    },
  ];
}

function machine(): string {
  const load = loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');
  return `${cpus().length} CPUs (nproc), ${(totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, Node ${process.version}, ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}; load average ${load}`;
}

function writeBenchmarks(table: string, header: string): void {
  const file = join(ROOT, 'BENCHMARKS.md');
  const block = `<!-- bench:start (written by npm run bench) -->\n${header}\n\n${table}\n<!-- bench:end -->`;
  const old = existsSync(file)
    ? readFileSync(file, 'utf8')
    : '# Benchmarks\n\n<!-- bench:start -->\n<!-- bench:end -->\n';
  const re = /<!-- bench:start[^>]*-->[\s\S]*?<!-- bench:end -->/;
  writeFileSync(file, re.test(old) ? old.replace(re, block) : `${old.trimEnd()}\n\n${block}\n`);
}

/**
 * The bench block with `rows` in place of the rows of the same measure (new ones appended) and a
 * line saying which steps were refreshed alone: what `--only` writes, so the other rows stay.
 */
export function mergeRows(block: string, rows: Row[], note: string): string {
  const lines = block.split('\n');
  const head = (r: Row): string => renderTable([r]).split('\n')[2]!;
  for (const r of rows) {
    const at = lines.findIndex((l) => l.startsWith(`| ${r.measure} | `));
    if (at >= 0) lines[at] = head(r);
    else {
      let last = -1;
      lines.forEach((l, i) => {
        if (l.startsWith('| ')) last = i;
      });
      if (last < 0) lines.push('', renderTable([r]));
      else lines.splice(last + 1, 0, head(r));
    }
  }
  const tag = note.slice(0, note.indexOf(':') + 1);
  const noteAt = lines.findIndex((l) => l.startsWith(tag));
  if (noteAt >= 0) lines[noteAt] = note;
  else {
    const firstBlank = lines.findIndex((l) => l.trim() === '');
    lines.splice(firstBlank < 0 ? lines.length : firstBlank, 0, note);
  }
  return lines.join('\n');
}

function writeRowsAlone(rows: Row[], note: string): void {
  const file = join(ROOT, 'BENCHMARKS.md');
  const old = readFileSync(file, 'utf8');
  const re = /(<!-- bench:start[^>]*-->\n)([\s\S]*?)(\n<!-- bench:end -->)/;
  const m = re.exec(old);
  if (!m) throw new Error('BENCHMARKS.md has no bench markers');
  writeFileSync(file, old.replace(re, `${m[1]}${mergeRows(m[2]!, rows, note)}${m[3]}`));
}

const kb = (b: number): string => `${(b / 1024).toFixed(1)} KB`;
const f1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : '-');

/** The cost rows (issue 33) for our worker, with the previous release's figures beside them when it ran. */
export function costRows(ours: CostFigures, prev?: CostFigures | string): Row[] {
  const { n, m, reads } = COST_STEPS;
  const p = typeof prev === 'object' ? prev : undefined;
  const prevNote = (f: (x: CostFigures) => string): string =>
    p ? `; previous release: ${f(p)}` : typeof prev === 'string' ? `; previous release: ${prev}` : '';
  const hist = (x: CostFigures): string =>
    `${f1(x.perCall.events)} events, ${kb(x.perCall.bytes)} per call (${f1(x.perStep.events)} events, ${kb(x.perStep.bytes)} per step)`;
  const cpu = (x: CostFigures): string =>
    `worker ${ms(x.perStep.workerCpuMs)} + server ${ms(x.perStep.serverCpuMs)} = ${ms(x.perStep.workerCpuMs + x.perStep.serverCpuMs)}`;
  const hand = (x: CostFigures): string =>
    `median ${ms(x.handoffMedian)}, p90 ${ms(x.handoffP90)} (${x.handoffs} boundaries)`;
  const act = (x: CostFigures): string => {
    const a = x.actionsPerCall;
    return `${f1(x.perCall.actions)}/call = activities ${f1(a.activities)} + child starts ${f1(a.workflowStarts)} + local-activity tasks ${f1(a.localActivityTasks)} (${f1(a.localActivities)} LAs) + timers ${f1(a.timers)} + signals ${f1(a.signals)} + updates ${f1(a.updates)} + heartbeats ${f1(a.heartbeats)}`;
  };
  const cpuSum = ours.perStep.workerCpuMs + ours.perStep.serverCpuMs;
  const wall = (x: CostFigures): string =>
    `+${ms(median(x.addedWallMs))}/step (rounds: ${x.addedWallMs.map((v) => ms(v)).join(', ')})`;
  const ratio = p ? median(ours.addedWallMs) / median(p.addedWallMs) : NaN;
  const how = `sessions of ${n} and ${m} model steps, each 3 parallel Reads of 2 KB files; (${n}-step − ${m}-step) / ${n - m} steps${reads > 1 ? ` / ${reads} calls` : ''}`;
  return [
    {
      measure: `History per tool call (${how}; session + turn histories from the server, events protobuf-encoded)`,
      inProcess: '—',
      temporal: hist(ours),
      result: `${f1(ours.perCall.events)} events, ${kb(ours.perCall.bytes)}${prevNote(hist)}`,
      target: '≤ 8 events, ≤ 2 KB per call (issue 33)',
      verdict: verdict(ours.perCall.events <= 8 && ours.perCall.bytes <= 2048),
    },
    {
      measure: `Added wall time per model step over the in-process runner (the same sessions, and the in-process runner's, in turn each round: ((${n}-step − ${m}-step) Temporal − the same in-process) / ${n - m} steps; median of ${ours.addedWallMs.length} rounds)`,
      inProcess: `${ms(median(ours.localStepMs))}/step`,
      temporal: wall(ours),
      result: p
        ? `${ratio.toFixed(2)}× the previous release (${wall(p)})`
        : `+${ms(median(ours.addedWallMs))}/step${prevNote(() => '')}`,
      target: '≤ 0.6× the previous release in the same run (issue 33)',
      verdict: p && ours.addedWallMs.length > 0 ? verdict(ratio <= 0.6) : 'n/a',
    },
    {
      measure: `CPU per model step (the same sessions; /proc utime+stime of the worker process and the dev server)`,
      inProcess: '—',
      temporal: cpu(ours),
      result: `${ms(cpuSum)}/step${prevNote(cpu)}`,
      target: '≤ 100 ms worker + server (issue 33)',
      verdict: verdict(cpuSum <= 100),
    },
    {
      measure: `Turn-boundary hand-off (last tool activity completed → next callModel scheduled, from history times; the ${n}-step sessions)`,
      inProcess: '—',
      temporal: hand(ours),
      result: `median ${ms(ours.handoffMedian)} (→ started ${ms(ours.handoffStartedMedian)})${prevNote(hand)}`,
      target: 'median ≤ 30 ms (issue 33)',
      verdict: verdict(ours.handoffMedian <= 30),
    },
    {
      measure: `Temporal Cloud actions per tool call (the same sessions; from the histories: workflow and child starts, activities scheduled and retried, local activities as one per workflow task, timers, signals, updates; heartbeats: heartbeat() calls through the worker's heartbeat throttle, estimated)`,
      inProcess: '—',
      temporal: `${act(ours)} (throttle ${HEARTBEAT_THROTTLE_MS} ms)`,
      result: `${f1(ours.perCall.actions)}/call${prevNote(
        (x) =>
          `${f1(x.perCall.actions)}/call${Number.isFinite(x.actionsPerCall.heartbeats) ? '' : ' without heartbeats (its worker does not count them)'}`,
      )}`,
      target: 'none set',
      verdict: 'info',
    },
  ];
}

/**
 * The previous release's bench worker, if its build is cached (test/support/previousRelease.ts builds it; we never
 * do here): the release deployed now (`deployedRelease`, the one `npm run compare:release` compares with too).
 */
function previousWorkerScript(): { script?: string; commit?: string; why?: string } {
  const { commit, why } = deployedRelease();
  if (!commit) return { why: why ?? 'no previous release' };
  const dir = join(
    process.env.DURABLE_AGENT_CACHE_DIR ?? join(homedir(), '.cache', 'durable-agent'),
    'releases',
    commit,
  );
  const script = join(dir, 'dist', 'bench', 'worker.js');
  return existsSync(script) ? { script, commit } : { why: `not built (node dist/test/support/previousRelease.js)` };
}

/** The cost step's verdicts against the previous release (issue 32), printed under the table. */
let noWorse: { label: string; lines: NoWorseLine[] | string; measures: string[] } | undefined;

async function costStep(ctx: Ctx, ours: BenchWorker, storeDir: string): Promise<Row[]> {
  const rows = await costStepRows(ctx, ours, storeDir);
  noWorse = { ...(noWorse ?? { label: '', lines: 'not measured' }), measures: rows.map((r) => r.measure) };
  return rows;
}

async function costStepRows(ctx: Ctx, ours: BenchWorker, storeDir: string): Promise<Row[]> {
  const cctx: CostCtx = {
    client: ctx.client,
    book: ctx.book,
    work: ctx.work,
    serverPid: ctx.server.pid,
    fakeURL: ctx.fakeURL,
  };
  const mine: CostWorker = {
    label: 'ours',
    taskQueue: ctx.taskQueue,
    pid: ours.child.pid,
    heartbeats: ours.heartbeats,
  };
  const p = previousWorkerScript();
  const label = `${deployedRelease().version ?? ''} (${(p.commit ?? '?').slice(0, 7)})`;
  if (!p.script) {
    noWorse = { label, lines: p.why ?? 'n/a', measures: [] };
    const [f] = await measureCostRounds(cctx, [mine], N.costRounds);
    return costRows(f!, p.why ?? 'n/a');
  }
  const w = await startWorker(
    {
      BENCH_ADDRESS: ctx.server.address,
      BENCH_TASK_QUEUE: 'bench-prev',
      BENCH_FAKE_URL: ctx.fakeURL,
      BENCH_STORE_DIR: storeDir,
    },
    p.script,
  );
  let figures: CostFigures[];
  try {
    // Ours and the previous release in turn, round by round, with the in-process runner beside them.
    figures = await measureCostRounds(
      cctx,
      [mine, { label: (p.commit ?? '').slice(0, 7), taskQueue: 'bench-prev', pid: w.child.pid }],
      N.costRounds,
    );
  } catch (err) {
    noWorse = { label, lines: `failed: ${(err as Error).message.slice(0, 120)}`, measures: [] };
    const [f] = await measureCostRounds(cctx, [mine], N.costRounds);
    return costRows(f!, `failed: ${(err as Error).message.slice(0, 120)}`);
  } finally {
    await w.stop();
  }
  const [f, prev] = figures;
  const dump = (x: CostFigures | string): string => JSON.stringify(x);
  process.stderr.write(`\nbench: cost figures: ours ${dump(f!)}\nprevious release: ${dump(prev!)}\n`);
  noWorse = { label, lines: prev ? costNoWorse(f!, prev) : 'no figures', measures: [] };
  return costRows(f!, prev);
}

async function breakdownStep(ctx: Ctx): Promise<void> {
  const cctx: CostCtx = { client: ctx.client, book: ctx.book, work: ctx.work, serverPid: ctx.server.pid };
  const b = await breakdown(cctx, { label: 'ours', taskQueue: ctx.taskQueue, pid: undefined });
  console.log(`Turn 3 of a session of 4 turns of 3 parallel Reads (2 KB files), and the session events it adds:\n`);
  console.log(renderBreakdown(b.lines));
  console.log(`\nThe hand-off to the next turn (ms from the last tool completed):`);
  for (const x of b.handoff) console.log(`  ${x.ms.toFixed(1).padStart(7)}  ${x.workflow.padEnd(8)} ${x.event}`);
  const out = process.env.BENCH_BREAKDOWN_JSON;
  if (out) writeFileSync(out, JSON.stringify({ session: b.session, turn: b.turn }, null, 1));
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const started = performance.now();
  const before = machine();
  const work = mkdtempSync(join(tmpdir(), 'da-bench-'));
  const book = new ScriptBook();
  const fake = await startFakeAnthropic({ script: (req) => book.answer(req) });
  const server = await startDevServer({});
  const taskQueue = 'bench';
  const worker = await startWorker({
    BENCH_ADDRESS: server.address,
    BENCH_TASK_QUEUE: taskQueue,
    BENCH_FAKE_URL: fake.baseURL,
    BENCH_STORE_DIR: mkdtempSync(join(work, 'worker-store-')),
  });
  const connection = await Connection.connect({ address: server.address });
  const ctx: Ctx = { server, client: new Client({ connection }), taskQueue, book, fakeURL: fake.baseURL, work };
  const rows: Row[] = [];
  const wanted = (s: Step): boolean => (ONLY ? ONLY.has(s) : s !== 'breakdown');
  const step = async (name: Step, f: () => Promise<Row[]>): Promise<void> => {
    if (!wanted(name)) return;
    const t = performance.now();
    process.stderr.write(`bench: ${name}…`);
    rows.push(...(await f()));
    process.stderr.write(` ${((performance.now() - t) / 1000).toFixed(0)} s\n`);
  };
  try {
    await step('floor', () => floorRows(ctx));
    await step('overhead', async () => (await overheadRows(ctx)).rows);
    await step('cluster', async () => {
      // Shown right under the dev server's overhead row.
      const cluster = await clusterRows(ctx);
      const at = rows.findIndex((r) => r.measure.startsWith('Durability overhead per turn ('));
      if (at < 0) return cluster;
      rows.splice(at + 1, 0, ...cluster);
      return [];
    });
    await step('realistic', async () => [await realisticRow(ctx)]);
    await step('streaming', async () => [await streamingRow(ctx)]);
    await step('batch', async () => [await batchRow(ctx)]);
    await step('cost', () => costStep(ctx, worker, mkdtempSync(join(work, 'prev-store-'))));
    await step('history', () => historyRows(ctx, worker.rss));
    await step('resume', async () =>
      resumeRows(
        await measureResume(
          { client: ctx.client, address: server.address, fakeURL: fake.baseURL, book, work },
          { runs: QUICK ? 1 : 3 },
        ),
      ),
    );
    await step('breakdown', async () => {
      await breakdownStep(ctx);
      return [];
    });
  } finally {
    await worker.stop();
    await connection.close();
    await server.stop();
    await fake.close();
    rmSync(work, { recursive: true, force: true });
  }
  const totalS = (performance.now() - started) / 1000;
  const load = (): string =>
    loadavg()
      .map((x) => x.toFixed(2))
      .join(', ');
  // The in-process sessions ran sandboxed Bash: the runtime's proxies would keep this process alive.
  await new SandboxHost().close();
  if (rows.length === 0) return;
  const table = renderTable(rows);
  // Under the table: each row's verdict against the previous release (issue 32).
  const printNoWorse = (): void => {
    if (!noWorse) return;
    const cost = new Set(noWorse.measures);
    const oursOnly = rows.filter((r) => !cost.has(r.measure)).map((r) => r.measure);
    console.log(`\n${renderNoWorse(noWorse.label, noWorse.lines, oursOnly)}`);
  };
  if (ONLY) {
    const only = [...ONLY].join(',');
    const note = `Refreshed alone with \`node dist/bench/run.js --only ${only}\`: ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} (${totalS.toFixed(0)} s), load average at the start ${before.replace(/.*load average /, '')}, at the end ${load()}.`;
    console.log(`${note}\n\n${table}`);
    printNoWorse();
    if (!QUICK) writeRowsAlone(rows, note);
    return;
  }
  const header = [
    `Command: \`npm run bench${QUICK ? ' -- --quick' : ''}\` (${totalS.toFixed(0)} s).`,
    `Machine at the start: ${before}.`,
    `At the end: load average ${load()}.`,
  ].join('\n');
  console.log(`${header}\n\n${table}`);
  printNoWorse();
  if (!QUICK) writeBenchmarks(table, header);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
