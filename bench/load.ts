// Load run (issue 12 part 2): N concurrent sessions of T turns each on one worker and on two, the
// real SDK against the fake Messages API with model-like latency, real tools (Read, Glob, Grep,
// Write, Edit, Bash in its sandbox) on a small workspace per session. Prints one table row per
// worker count: sessions/minute, tool calls/second, p50/p95/p99 of tool-call latency (scheduled →
// completed, from history) and turn latency (turn workflow start → close), the model call's p50
// for comparison, worker RSS and CPU, the dev server's CPU, store operations per turn, failures.
// Not a test: numbers depend on the machine. The workers are processes of their own.
//
//   npm run bench:load -- [--sessions 50] [--turns 20] [--workers 1,2] [--store files|postgres]
//                         [--latency 500-1500] [--smoke]
//   --smoke: 4 sessions × 4 turns on 1 and 2 workers (a quick check that it all works)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { startFakeAnthropic, textResponse, toolUseResponse, type MessagesRequest } from '../src/testing/fakeAnthropic';
import { startSession } from '../src/temporal/client';
import { startDevServer } from '../src/temporal/service/devServer';
import { bundleAgentWorkflows } from '../src/temporal/worker';
import { startPostgres, type PostgresServer } from '../test/support/postgres';
import { mapLimit, pct, ProcSampler } from './loadStats';

interface Options {
  sessions: number;
  turns: number;
  workers: number[];
  store: 'files' | 'postgres';
  latency: [number, number];
}

function parseArgs(argv: string[]): Options {
  const o: Options = { sessions: 50, turns: 20, workers: [1, 2], store: 'files', latency: [500, 1500] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--smoke') Object.assign(o, { sessions: 4, turns: 4, latency: [100, 300] });
    else if (a === '--sessions') o.sessions = positive(a, next());
    else if (a === '--turns') o.turns = positive(a, next());
    else if (a === '--workers')
      o.workers = next()
        .split(',')
        .map((w) => positive(a, w));
    else if (a === '--store') {
      const s = next();
      if (s !== 'files' && s !== 'postgres') throw new Error(`--store must be files or postgres, not ${s}`);
      o.store = s;
    } else if (a === '--latency') {
      const m = /^(\d+)-(\d+)$/.exec(next());
      if (!m) throw new Error('--latency takes MIN-MAX in ms, e.g. 500-1500');
      o.latency = [Number(m[1]), Number(m[2])];
    } else throw new Error(`unknown option ${a} (see the header of bench/load.ts)`);
  }
  if (o.turns < 2) throw new Error('--turns must be at least 2 (the last turn is the answer)');
  return o;
}

function positive(name: string, v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, not ${v}`);
  return n;
}

/** What the "model" asks for in turn t of T (the last turn answers): a mix of real tools. */
function turnCalls(work: string, t: number, T: number): Parameters<typeof toolUseResponse>[0] | undefined {
  if (t >= T) return undefined;
  const id = (k: string) => `toolu_${k}_${t}_${Math.random().toString(36).slice(2, 10)}`;
  switch (t % 4) {
    case 1: // a concurrent batch of four read-only calls
      return [
        { id: id('read'), name: 'Read', input: { file_path: join(work, 'src', 'a.ts') } },
        { id: id('read'), name: 'Read', input: { file_path: join(work, 'README.md') } },
        { id: id('glob'), name: 'Glob', input: { pattern: '**/*.ts', path: work } },
        { id: id('grep'), name: 'Grep', input: { pattern: 'needle', path: work } },
      ];
    case 2:
      return [
        {
          id: id('write'),
          name: 'Write',
          input: { file_path: join(work, `notes-${t}.md`), content: `# notes ${t}\nstatus: draft\n` },
        },
      ];
    case 3:
      return [
        {
          id: id('edit'),
          name: 'Edit',
          input: {
            file_path: join(work, `notes-${t - 1}.md`),
            old_string: 'status: draft',
            new_string: 'status: final',
          },
        },
      ];
    default:
      return [
        {
          id: id('bash'),
          name: 'Bash',
          input: { command: `ls ${work} | wc -l && grep -c needle ${join(work, 'src', 'b.ts')}` },
        },
      ];
  }
}

function workspace(root: string, i: number): string {
  const w = join(root, `s${i}`);
  mkdirSync(join(w, 'src'), { recursive: true });
  writeFileSync(join(w, 'README.md'), `# project ${i}\n\nA small workspace for the load run.\n`);
  for (const f of ['a', 'b', 'c'])
    writeFileSync(
      join(w, 'src', `${f}.ts`),
      Array.from({ length: 40 }, (_, k) => `export const ${f}${k} = ${k}; // ${k % 7 === 0 ? 'needle' : 'hay'}`).join(
        '\n',
      ) + '\n',
    );
  return w;
}

function textOf(content: MessagesRequest['messages'][number]['content']): string {
  return typeof content === 'string'
    ? content
    : content.map((b) => ('text' in b && typeof b.text === 'string' ? b.text : '')).join('');
}

interface Worker {
  proc: ChildProcess;
  ready: Promise<void>;
  stopped: Promise<
    { puts: number; gets: number; putBytes: number; getBytes: number; putMs: number; getMs: number } | undefined
  >;
}

function spawnWorker(env: NodeJS.ProcessEnv): Worker {
  const proc = spawn(process.execPath, [join(__dirname, 'loadWorker.js')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    onReady = resolve;
    proc.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready: ${err.slice(-2000)}`)));
  });
  proc.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.includes('worker ready')) onReady();
  });
  proc.stderr?.on('data', (d: Buffer) => {
    err = (err + d.toString()).slice(-20_000);
  });
  const stopped = new Promise<Worker['stopped'] extends Promise<infer R> ? R : never>((resolve) => {
    proc.once('exit', () => {
      const m = /store-ops (\{.*\})/.exec(out);
      if (err.trim())
        process.stderr.write(`[worker ${env.LOAD_IDENTITY}] ${err.trim().split('\n').slice(-5).join('\n')}\n`);
      resolve(m ? JSON.parse(m[1] as string) : undefined);
    });
  });
  return { proc, ready, stopped };
}

interface Row {
  workers: number;
  sessions: number;
  turns: number;
  completed: number;
  failures: number;
  toolErrors: number;
  wallS: number;
  toolCalls: number;
  tool: [number, number, number];
  turn: [number, number, number];
  modelP50: number;
  workerRss: number[];
  workerCpu: number[];
  serverCpu: number;
  storeOpsPerTurn: number;
  storeKBPerTurn: number;
  storeMsPerOp: number;
  peakActivities: number[];
  peakWorkflowTasks: number[];
  wftWait: [number, number];
  perTurn: {
    workflowTasks: number;
    activityTasks: number;
    events: number;
    historyKB: number;
    workerCpuMs: number;
    serverCpuMs: number;
  };
}

async function runOnce(
  o: Options,
  workers: number,
  ctx: { address: string; serverPid: number | undefined; bundlePath: string; pg?: PostgresServer },
): Promise<Row> {
  const root = mkdtempSync(join(tmpdir(), 'da-load-'));
  const taskQueue = `load-${workers}w-${Date.now()}`;
  const fake = await startFakeAnthropic();
  const toolErrors = new Set<string>();
  fake.script((req: MessagesRequest) => {
    const first = req.messages[0];
    const work = /WORKSPACE=(\S+)/.exec(first ? textOf(first.content) : '')?.[1] ?? '/nonexistent';
    const last = req.messages.at(-1);
    if (last && last.role === 'user' && typeof last.content !== 'string') {
      for (const b of last.content)
        if (b.type === 'tool_result' && b.is_error)
          toolErrors.add(`${b.tool_use_id}: ${JSON.stringify(b.content).slice(0, 200)}`);
    }
    const t = req.messages.filter((m) => m.role === 'assistant').length + 1;
    const latencyMs = Math.round(o.latency[0] + Math.random() * (o.latency[1] - o.latency[0]));
    const calls = turnCalls(work, t, o.turns);
    return calls
      ? toolUseResponse(calls, { latencyMs, delayMs: 2 })
      : textResponse(`done after ${t} turns`, { latencyMs, delayMs: 2 });
  });
  const procs: Worker[] = [];
  const store = ctx.pg ? { DURABLE_AGENT_STORE: ctx.pg.urlWithTable(`load_${workers}w_${Date.now()}`) } : {}; // one table for all workers
  for (let w = 0; w < workers; w++) {
    procs.push(
      spawnWorker({
        LOAD_ADDRESS: ctx.address,
        LOAD_TASK_QUEUE: taskQueue,
        LOAD_STORE_DIR: join(root, 'store'), // one host: the workers share it (or the PostgreSQL store)
        LOAD_FAKE_URL: fake.baseURL,
        LOAD_BUNDLE_PATH: ctx.bundlePath,
        LOAD_IDENTITY: `load-worker-${w + 1}`,
        ...store,
      }),
    );
  }
  await Promise.all(procs.map((p) => p.ready));
  const samplers = procs.map((p) => new ProcSampler(p.proc.pid as number));
  const server = ctx.serverPid ? new ProcSampler(ctx.serverPid) : undefined;
  const connection = await Connection.connect({ address: ctx.address });
  const client = new Client({ connection });
  const works = Array.from({ length: o.sessions }, (_, i) => workspace(root, i));
  for (const s of samplers) s.start();
  server?.start();
  const t0 = performance.now();
  const handles = await Promise.all(
    works.map((work, i) =>
      startSession(client, {
        id: `${taskQueue}-s${i}`,
        taskQueue,
        prompt: `Tidy this project. WORKSPACE=${work}`,
        cwd: work,
        permissionMode: 'bypassPermissions',
        model: { model: 'claude-load', maxTokens: 1024 },
        maxTurns: o.turns + 1,
        useSearchAttributes: false,
      }),
    ),
  );
  const results = await Promise.all(
    handles.map((h) => h.result().catch((e: unknown) => ({ status: `failed: ${(e as Error).message}`, turns: 0 }))),
  );
  const wallS = (performance.now() - t0) / 1000;
  const usage = samplers.map((s) => s.stop());
  const serverUsage = server?.stop();
  for (const p of procs) p.proc.kill('SIGTERM');
  const ops = await Promise.all(procs.map((p) => p.stopped));

  // Latencies from history: every turn workflow of every session.
  const toolMs: number[] = [];
  const turnMs: number[] = [];
  const modelMs: number[] = [];
  // Busy intervals per worker identity: activity tasks (started → completed/failed) and workflow
  // tasks (started → completed): their peak overlap is the slots the worker really used.
  const activityBusy = new Map<string, Array<[number, number]>>();
  const wftBusy = new Map<string, Array<[number, number]>>();
  const wftWaitMs: number[] = [];
  const totals = { workflowTasks: 0, activityTasks: 0, events: 0, bytes: 0 };
  const busy = (m: Map<string, Array<[number, number]>>, who: string, a: number, b: number) =>
    m.set(who, [...(m.get(who) ?? []), [a, b]]);
  const ids = [
    ...handles.map((h) => h.workflowId),
    ...handles.flatMap((h) => Array.from({ length: o.turns }, (_, n) => `${h.workflowId}/turn-${n + 1}`)),
  ];
  await mapLimit(ids, 8, async (id) => {
    const history = await client.workflow
      .getHandle(id)
      .fetchHistory()
      .catch(() => undefined);
    const events = history?.events ?? [];
    if (events.length === 0) return;
    const ms = (e: (typeof events)[number]) => tsToMs(e.eventTime as Parameters<typeof tsToMs>[0]);
    if (id.includes('/turn-')) turnMs.push(ms(events[events.length - 1]!) - ms(events[0]!));
    totals.events += events.length;
    totals.bytes += temporal.api.history.v1.History.encode(history as temporal.api.history.v1.IHistory).finish().length;
    totals.workflowTasks += events.filter((e) => e.workflowTaskCompletedEventAttributes).length;
    totals.activityTasks += events.filter((e) => e.activityTaskScheduledEventAttributes).length;
    const at = new Map<number, number>();
    const startedBy = new Map<number, { who: string; at: number }>();
    for (const e of events) {
      const eid = Number(e.eventId);
      at.set(eid, ms(e));
      if (e.workflowTaskStartedEventAttributes) {
        startedBy.set(eid, { who: e.workflowTaskStartedEventAttributes.identity ?? '?', at: ms(e) });
        const sched = at.get(Number(e.workflowTaskStartedEventAttributes.scheduledEventId));
        if (sched !== undefined) wftWaitMs.push(ms(e) - sched);
      }
      const wc = e.workflowTaskCompletedEventAttributes;
      if (wc) {
        const st = startedBy.get(Number(wc.startedEventId));
        if (st) busy(wftBusy, st.who, st.at, ms(e));
      }
      if (e.activityTaskStartedEventAttributes)
        startedBy.set(eid, { who: e.activityTaskStartedEventAttributes.identity ?? '?', at: ms(e) });
      const end = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes;
      if (end) {
        const st = startedBy.get(Number(end.startedEventId));
        if (st) busy(activityBusy, st.who, st.at, ms(e));
      }
    }
    const scheduled = new Map<number, { at: number; kind: 'tool' | 'model' | 'other' }>();
    for (const e of events) {
      const s = e.activityTaskScheduledEventAttributes;
      if (s) {
        let kind: 'tool' | 'model' | 'other' = s.activityType?.name === 'callModel' ? 'model' : 'other';
        const data = s.input?.payloads?.[0]?.data;
        if (kind === 'other' && data) {
          try {
            // A tool call's input names its block whole, or by id since issue 33 (`RunToolUseByRef`).
            const arg = JSON.parse(Buffer.from(data).toString('utf8')) as {
              block?: { id?: unknown };
              toolUseId?: unknown;
            };
            if (typeof arg.block?.id === 'string' || typeof arg.toolUseId === 'string') kind = 'tool';
          } catch {
            // not JSON
          }
        }
        scheduled.set(Number(e.eventId), { at: ms(e), kind });
      }
      const done = e.activityTaskCompletedEventAttributes;
      if (done) {
        const s0 = scheduled.get(Number(done.scheduledEventId));
        if (s0?.kind === 'tool') toolMs.push(ms(e) - s0.at);
        if (s0?.kind === 'model') modelMs.push(ms(e) - s0.at);
      }
    }
  });
  await connection.close();
  await fake.close();
  const peak = (m: Map<string, Array<[number, number]>>) =>
    [...m.values()].map((iv) => {
      const edges = iv
        .flatMap(([a, b]) => [[a, 1] as const, [b, -1] as const])
        .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
      let cur = 0;
      let max = 0;
      for (const [, d] of edges) max = Math.max(max, (cur += d));
      return max;
    });
  const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
  const tool = sorted(toolMs);
  const turn = sorted(turnMs);
  const model = sorted(modelMs);
  const completed = results.filter((r) => r.status === 'completed').length;
  const totalOps = ops.reduce((n, x) => n + (x ? x.puts + x.gets : 0), 0);
  const totalBytes = ops.reduce((n, x) => n + (x ? x.putBytes + x.getBytes : 0), 0);
  const totalOpMs = ops.reduce((n, x) => n + (x ? x.putMs + x.getMs : 0), 0);
  for (const r of results)
    if (r.status !== 'completed') console.error(`[load] session not completed: ${JSON.stringify(r).slice(0, 300)}`);
  for (const e of [...toolErrors].slice(0, 5)) console.error(`[load] tool error: ${e}`);
  return {
    workers,
    sessions: o.sessions,
    turns: o.turns,
    completed,
    failures: o.sessions - completed,
    toolErrors: toolErrors.size,
    wallS,
    toolCalls: tool.length,
    tool: [pct(tool, 50), pct(tool, 95), pct(tool, 99)],
    turn: [pct(turn, 50), pct(turn, 95), pct(turn, 99)],
    modelP50: pct(model, 50),
    workerRss: usage.map((u) => u.peakRssMB),
    workerCpu: usage.map((u) => (100 * u.cpuSeconds) / wallS),
    serverCpu: serverUsage ? (100 * serverUsage.cpuSeconds) / wallS : NaN,
    storeOpsPerTurn: totalOps / turn.length,
    storeKBPerTurn: totalBytes / 1024 / turn.length,
    storeMsPerOp: totalOpMs / Math.max(1, totalOps),
    peakActivities: peak(activityBusy),
    peakWorkflowTasks: peak(wftBusy),
    wftWait: [pct(sorted(wftWaitMs), 50), pct(sorted(wftWaitMs), 95)],
    perTurn: {
      workflowTasks: totals.workflowTasks / turn.length,
      activityTasks: totals.activityTasks / turn.length,
      events: totals.events / turn.length,
      historyKB: totals.bytes / 1024 / turn.length,
      workerCpuMs: (1000 * usage.reduce((n, u) => n + u.cpuSeconds, 0)) / turn.length,
      serverCpuMs: serverUsage ? (1000 * serverUsage.cpuSeconds) / turn.length : NaN,
    },
  };
}

function printTable(rows: Row[], o: Options): void {
  const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '–');
  console.log('');
  console.log(
    `load: ${o.sessions} concurrent sessions × ${o.turns} turns (${o.turns - 1} with tool calls, then the answer); model latency ${o.latency[0]}–${o.latency[1]} ms; store: ${o.store}`,
  );
  console.log('');
  console.log(
    '| workers | completed / started | tool errors | wall s | sessions/min | tool calls/s | tool call p50 / p95 / p99 ms | turn p50 / p95 / p99 ms | model call p50 ms | worker peak RSS MB | worker CPU % (of one core) | server CPU % | store ops / turn (KB, ms/op) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.workers} | ${r.completed} / ${r.sessions} | ${r.toolErrors} | ${f(r.wallS)} | ${f((r.completed / r.wallS) * 60, 1)} | ${f(r.toolCalls / r.wallS, 1)} | ${f(r.tool[0])} / ${f(r.tool[1])} / ${f(r.tool[2])} | ${f(r.turn[0])} / ${f(r.turn[1])} / ${f(r.turn[2])} | ${f(r.modelP50)} | ${r.workerRss.map((x) => f(x)).join(' + ')} | ${r.workerCpu.map((x) => f(x)).join(' + ')} | ${f(r.serverCpu)} | ${f(r.storeOpsPerTurn, 1)} (${f(r.storeKBPerTurn, 1)} KB, ${f(r.storeMsPerOp, 2)} ms) |`,
    );
  }
  console.log('');
  console.log(
    '| workers | peak concurrent activities per worker | peak concurrent workflow tasks per worker | workflow task schedule-to-start p50 / p95 ms |',
  );
  console.log('|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.workers} | ${r.peakActivities.join(' + ')} | ${r.peakWorkflowTasks.join(' + ')} | ${f(r.wftWait[0])} / ${f(r.wftWait[1])} |`,
    );
  console.log('');
  console.log(
    '| workers | per turn: workflow tasks | activity tasks | history events | history KB | worker CPU ms | server CPU ms |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const t = r.perTurn;
    console.log(
      `| ${r.workers} | ${f(t.workflowTasks, 1)} | ${f(t.activityTasks, 1)} | ${f(t.events, 1)} | ${f(t.historyKB, 1)} | ${f(t.workerCpuMs)} | ${f(t.serverCpuMs)} |`,
    );
  }
  console.log('');
  const failed = rows.reduce((n, r) => n + r.failures + r.toolErrors, 0);
  console.log(
    failed === 0
      ? 'failures: 0'
      : `failures: ${failed} (sessions not completed or tool calls answered with an error: see above)`,
  );
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const { Runtime, DefaultLogger } = await import('@temporalio/worker');
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const server = await startDevServer({});
  const pg = o.store === 'postgres' ? await startPostgres() : undefined;
  const bundleDir = mkdtempSync(join(tmpdir(), 'da-load-bundle-'));
  const bundlePath = join(bundleDir, 'workflows.js');
  writeFileSync(bundlePath, (await bundleAgentWorkflows()).code);
  const rows: Row[] = [];
  try {
    for (const w of o.workers) {
      console.error(`[load] ${o.sessions} sessions × ${o.turns} turns on ${w} worker(s)…`);
      rows.push(
        await runOnce(o, w, { address: server.address, serverPid: server.pid, bundlePath, ...(pg ? { pg } : {}) }),
      );
    }
  } finally {
    await pg?.stop();
    await server.stop();
  }
  printTable(rows, o);
  if (rows.some((r) => r.failures + r.toolErrors > 0)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(`bench:load: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
