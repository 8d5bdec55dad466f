// The bench's cost rows (issue 33): history events and bytes per model step and per tool call,
// CPU per step of the worker and the server, the turn-boundary hand-off, Temporal Cloud actions
// per tool call — each a difference of two sessions (N and M steps of 3 parallel Reads of 2 KB
// files) in one run, so a session's fixed costs cancel. Also the event-by-event breakdown of one
// turn (`--only breakdown`). Counting lives in ./historyStats (pure, unit-tested).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { Client } from '@temporalio/client';
import { startSession, type SessionOptions } from '../src/temporal/client';
import { runLocalSession } from '../src/inprocess/runSession';
import { SleepTool } from './sleepTool';
import type { ScriptBook } from './scenarios';
import { readsScript } from './scenarios';
import {
  actionTotal,
  addActions,
  countActions,
  cpuTicksFromStat,
  eventBytes,
  eventTimeMs,
  eventTypeName,
  handoffs,
  localActivityType,
  payloadBytes,
  quantile,
  scheduledTypes,
  totals,
  type ActionCount,
  type HistoryEvent,
} from './historyStats';

/** `perChild`: the sessions' maxStepsPerTurn (model steps per turn child, issue 33), pinned whatever the default. */
export const COST_STEPS = { n: 16, m: 4, reads: 3, fileBytes: 2000, perChild: 50 };
const CLK_TCK = 100; // getconf CLK_TCK on Linux

export interface CostCtx {
  client: Client;
  book: ScriptBook;
  work: string;
  serverPid: number | undefined;
  /** The fake Messages API: the in-process runs of the same sessions (the added wall time's baseline) need it. */
  fakeURL?: string;
}

/** A worker the cost rows run against: ours, or the previous release's build. */
export interface CostWorker {
  label: string;
  taskQueue: string;
  pid: number | undefined;
  /** Heartbeats that reached the server since the last call (estimated after the throttle), if the worker counts them. */
  heartbeats?: () => Promise<{ calls: number; sent: number }>;
}

export function cpuMs(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    return (cpuTicksFromStat(readFileSync(`/proc/${pid}/stat`, 'utf8')) * 1000) / CLK_TCK;
  } catch {
    return NaN;
  }
}

/** Every history of a session: each run of the session workflow and, recursively, of its children. */
export async function sessionHistories(
  client: Client,
  workflowId: string,
  runId?: string,
): Promise<Array<{ workflowId: string; events: HistoryEvent[] }>> {
  const out: Array<{ workflowId: string; events: HistoryEvent[] }> = [];
  const visit = async (id: string, run?: string): Promise<void> => {
    for (let r = run; ;) {
      const events = (await client.workflow.getHandle(id, r).fetchHistory()).events ?? [];
      out.push({ workflowId: id, events });
      for (const e of events) {
        const child = e.childWorkflowExecutionStartedEventAttributes?.workflowExecution;
        if (child?.workflowId) await visit(child.workflowId, child.runId ?? undefined);
      }
      const next = events[events.length - 1]?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
      if (!next) break;
      r = next;
    }
  };
  await visit(workflowId, runId);
  return out;
}

export interface SessionCost {
  steps: number;
  events: number;
  bytes: number;
  workerCpuMs: number;
  serverCpuMs: number;
  actions: ActionCount;
  heartbeats: number;
  heartbeatCalls: number;
  handoff: { toScheduledMs: number; toStartedMs: number }[];
  ms: number;
}

export async function runCostSession(
  ctx: CostCtx,
  w: CostWorker,
  key: string,
  steps: number,
  files: string[],
): Promise<SessionCost> {
  ctx.book.add(key, readsScript(steps, files));
  await w.heartbeats?.(); // reset
  const cpu0 = [cpuMs(w.pid), cpuMs(ctx.serverPid)];
  const t0 = performance.now();
  const h = await startSession(ctx.client, {
    permissionMode: 'bypassPermissions',
    model: { model: 'bench', maxTokens: 1024 },
    maxTurns: 500,
    maxStepsPerTurn: COST_STEPS.perChild,
    cwd: ctx.work,
    prompt: `bench:${key}`,
    taskQueue: w.taskQueue,
    useSearchAttributes: false,
    id: `bench-${key}`,
  } as SessionOptions);
  const r = await h.result();
  const ms = performance.now() - t0;
  const cpu1 = [cpuMs(w.pid), cpuMs(ctx.serverPid)];
  const hb = (await w.heartbeats?.()) ?? { calls: NaN, sent: NaN };
  if (r.status !== 'completed') throw new Error(`bench: the cost session ${key} ended ${r.status}`);
  const all = await sessionHistories(
    ctx.client,
    h.workflowId,
    (h as { firstExecutionRunId?: string }).firstExecutionRunId,
  );
  const t = totals(all.map((x) => x.events));
  const turnNo = (id: string): number => Number(/\/turn-(\d+)$/.exec(id)?.[1] ?? NaN);
  const turns = all
    .filter((x) => Number.isFinite(turnNo(x.workflowId)))
    .sort((a, b) => turnNo(a.workflowId) - turnNo(b.workflowId))
    .map((x) => x.events);
  return {
    steps,
    events: t.events,
    bytes: t.bytes,
    workerCpuMs: cpu1[0]! - cpu0[0]!,
    serverCpuMs: cpu1[1]! - cpu0[1]!,
    actions: all.map((x) => countActions(x.events)).reduce(addActions),
    heartbeats: hb.sent,
    heartbeatCalls: hb.calls,
    handoff: handoffs(turns),
    ms,
  };
}

export interface CostFigures {
  label: string;
  perStep: { events: number; bytes: number; workerCpuMs: number; serverCpuMs: number; actions: number };
  perCall: { events: number; bytes: number; actions: number };
  actionsPerCall: ActionCount & { heartbeats: number };
  handoffMedian: number;
  handoffP90: number;
  handoffStartedMedian: number;
  handoffs: number;
  sessionMs: [number, number];
  /** Per round: the wall time a step adds over the in-process runner ((long − short) / steps, Temporal − in-process); empty without in-process runs. */
  addedWallMs: number[];
  /** Per round: the in-process runner's wall time per step (the baseline). */
  localStepMs: number[];
}

/** Per step and per tool call: (long − short) / (its extra steps), so the session's fixed costs cancel. */
export function costFigures(label: string, long: SessionCost, short: SessionCost, reads: number): CostFigures {
  const d = long.steps - short.steps;
  const per = (a: number, b: number, k = 1): number => (a - b) / d / k;
  const acts = (c: ActionCount, hb: number): number => actionTotal(c, Number.isFinite(hb) ? hb : 0);
  const ap = (k: keyof ActionCount): number => per(long.actions[k], short.actions[k], reads);
  const h = long.handoff.map((x) => x.toScheduledMs);
  return {
    label,
    perStep: {
      events: per(long.events, short.events),
      bytes: per(long.bytes, short.bytes),
      workerCpuMs: per(long.workerCpuMs, short.workerCpuMs),
      serverCpuMs: per(long.serverCpuMs, short.serverCpuMs),
      actions: per(acts(long.actions, long.heartbeats), acts(short.actions, short.heartbeats)),
    },
    perCall: {
      events: per(long.events, short.events, reads),
      bytes: per(long.bytes, short.bytes, reads),
      actions: per(acts(long.actions, long.heartbeats), acts(short.actions, short.heartbeats), reads),
    },
    actionsPerCall: {
      workflowStarts: ap('workflowStarts'),
      activities: ap('activities'),
      localActivityTasks: ap('localActivityTasks'),
      localActivities: ap('localActivities'),
      timers: ap('timers'),
      signals: ap('signals'),
      updates: ap('updates'),
      heartbeats: per(long.heartbeats, short.heartbeats, reads),
    },
    handoffMedian: quantile(h, 0.5),
    handoffP90: quantile(h, 0.9),
    handoffStartedMedian: quantile(
      long.handoff.map((x) => x.toStartedMs),
      0.5,
    ),
    handoffs: h.length,
    sessionMs: [long.ms, short.ms],
    addedWallMs: [],
    localStepMs: [],
  };
}

/** Two sessions' costs as one (the rounds of a run): sums, and the hand-offs of both. */
export function sumCost(a: SessionCost, b: SessionCost): SessionCost {
  return {
    steps: a.steps + b.steps,
    events: a.events + b.events,
    bytes: a.bytes + b.bytes,
    workerCpuMs: a.workerCpuMs + b.workerCpuMs,
    serverCpuMs: a.serverCpuMs + b.serverCpuMs,
    actions: addActions(a.actions, b.actions),
    heartbeats: a.heartbeats + b.heartbeats,
    heartbeatCalls: a.heartbeatCalls + b.heartbeatCalls,
    handoff: [...a.handoff, ...b.handoff],
    ms: a.ms + b.ms,
  };
}

/**
 * The wall time a step adds over the in-process runner, from one round: the Temporal sessions'
 * difference per step less the in-process sessions' difference per step (fixed costs cancel).
 */
export function addedWallPerStep(
  temporal: { long: number; short: number },
  local: { long: number; short: number },
  steps: number,
): number {
  return (temporal.long - temporal.short - (local.long - local.short)) / steps;
}

export function costFiles(work: string): string[] {
  return Array.from({ length: COST_STEPS.reads }, (_, i) => {
    const f = join(work, `cost${i}.txt`);
    writeFileSync(f, 'y'.repeat(COST_STEPS.fileBytes - 1) + '\n');
    return f;
  });
}

/** The same session in the in-process runner (no Temporal): its wall time in ms. */
export async function runLocalCostSession(ctx: CostCtx, key: string, steps: number, files: string[]): Promise<number> {
  if (!ctx.fakeURL) throw new Error('bench: the in-process cost sessions need the fake API (CostCtx.fakeURL)');
  const fakeURL = ctx.fakeURL;
  ctx.book.add(key, readsScript(steps, files));
  const t0 = performance.now();
  const r = await runLocalSession(
    {
      permissionMode: 'bypassPermissions',
      model: { model: 'bench', maxTokens: 1024 },
      maxTurns: 500,
      cwd: ctx.work,
      prompt: `bench:${key}`,
    },
    {
      anthropic: () => new Anthropic({ apiKey: 'bench', baseURL: fakeURL, maxRetries: 0 }),
      storeDir: mkdtempSync(join(ctx.work, 'cost-store-')),
      tools: [SleepTool],
    },
  );
  const ms = performance.now() - t0;
  if (r.status !== 'completed') throw new Error(`bench: the in-process cost session ${key} ended ${r.status}`);
  return ms;
}

/**
 * The cost figures of each worker, from `rounds` rounds that take the workers (and the in-process
 * runner, when `ctx.fakeURL` is set) in turn, so that the machine's load falls on all of them alike:
 * each round a short and a long session per worker. Events, bytes, CPU and actions are summed over
 * the rounds; the hand-offs pooled; the added wall time kept per round.
 */
export async function measureCostRounds(ctx: CostCtx, workers: CostWorker[], rounds = 1): Promise<CostFigures[]> {
  const files = costFiles(ctx.work);
  const { n, m, reads } = COST_STEPS;
  const tag = (w: CostWorker): string => w.label.replace(/\W+/g, '-');
  // The workers' caches, the bundle's first run.
  for (const w of workers) await runCostSession(ctx, w, `cost-warm-${tag(w)}`, 2, files);
  if (ctx.fakeURL) await runLocalCostSession(ctx, 'cost-warm-local', 2, files);
  const acc = workers.map(() => ({
    long: undefined as SessionCost | undefined,
    short: undefined as SessionCost | undefined,
    wall: [] as number[],
  }));
  const local: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const walls: Array<{ long: number; short: number }> = [];
    for (const [i, w] of workers.entries()) {
      const short = await runCostSession(ctx, w, `cost-m-${tag(w)}-${r}`, m, files);
      const long = await runCostSession(ctx, w, `cost-n-${tag(w)}-${r}`, n, files);
      const a = acc[i]!;
      a.short = a.short ? sumCost(a.short, short) : short;
      a.long = a.long ? sumCost(a.long, long) : long;
      walls.push({ long: long.ms, short: short.ms });
    }
    if (!ctx.fakeURL) continue;
    const l = {
      short: await runLocalCostSession(ctx, `cost-m-local-${r}`, m, files),
      long: await runLocalCostSession(ctx, `cost-n-local-${r}`, n, files),
    };
    local.push((l.long - l.short) / (n - m));
    walls.forEach((t, i) => acc[i]!.wall.push(addedWallPerStep(t, l, n - m)));
  }
  return workers.map((w, i) => ({
    ...costFigures(w.label, acc[i]!.long!, acc[i]!.short!, reads),
    addedWallMs: acc[i]!.wall,
    localStepMs: local,
  }));
}

export async function measureCost(ctx: CostCtx, w: CostWorker): Promise<CostFigures> {
  return (await measureCostRounds(ctx, [w]))[0]!;
}

// ---- the breakdown of one turn ----

export interface BreakdownLine {
  workflow: 'session' | 'turn';
  eventId: number;
  type: string;
  name: string;
  eventBytes: number;
  payloadBytes: number;
}

function eventName(e: HistoryEvent): string {
  return (
    e.activityTaskScheduledEventAttributes?.activityType?.name ??
    localActivityType(e) ??
    e.markerRecordedEventAttributes?.markerName ??
    e.workflowExecutionSignaledEventAttributes?.signalName ??
    e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType?.name ??
    e.workflowExecutionStartedEventAttributes?.workflowType?.name ??
    e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name ??
    ''
  );
}

/**
 * Every event turn `which` adds: all of its own history, and the session's events from the
 * previous turn's child-completed event (exclusive) to this turn's child-completed event (inclusive).
 */
export function turnBreakdown(session: HistoryEvent[], turn: HistoryEvent[], turnWorkflowId: string): BreakdownLine[] {
  const line = (w: 'session' | 'turn', e: HistoryEvent): BreakdownLine => {
    const scheduled = e.activityTaskCompletedEventAttributes?.scheduledEventId;
    let name = eventName(e);
    if (!name && scheduled !== undefined && scheduled !== null) {
      const s = turn.find((x) => Number(x.eventId) === Number(scheduled));
      name = s?.activityTaskScheduledEventAttributes?.activityType?.name ?? '';
    }
    return {
      workflow: w,
      eventId: Number(e.eventId),
      type: eventTypeName(e),
      name,
      eventBytes: eventBytes(e),
      payloadBytes: payloadBytes(e),
    };
  };
  const isDone = (e: HistoryEvent): string | undefined | null =>
    e.childWorkflowExecutionCompletedEventAttributes?.workflowExecution?.workflowId;
  const end = session.findIndex((e) => isDone(e) === turnWorkflowId);
  let start = end - 1;
  while (start >= 0 && !isDone(session[start]!)) start--;
  return [...session.slice(start + 1, end + 1).map((e) => line('session', e)), ...turn.map((e) => line('turn', e))];
}

export function renderBreakdown(lines: BreakdownLine[]): string {
  const rows = lines.map(
    (l) => `| ${l.workflow} | ${l.eventId} | ${l.type} | ${l.name} | ${l.eventBytes} | ${l.payloadBytes} |`,
  );
  const sum = (w: string, k: 'eventBytes' | 'payloadBytes'): number =>
    lines.filter((l) => l.workflow === w).reduce((a, l) => a + l[k], 0);
  const count = (w: string): number => lines.filter((l) => l.workflow === w).length;
  return [
    '| workflow | event id | type | activity / marker / signal | event bytes | payload bytes |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    `| session | total | ${count('session')} events | | ${sum('session', 'eventBytes')} | ${sum('session', 'payloadBytes')} |`,
    `| turn | total | ${count('turn')} events | | ${sum('turn', 'eventBytes')} | ${sum('turn', 'payloadBytes')} |`,
  ].join('\n');
}

/**
 * The hand-off from turn `turn` to the next, event by event across the three histories: every
 * event from the turn's last tool completion to the next turn's callModel scheduled, in time order,
 * in ms from the first.
 */
export function handoffTimeline(
  turn: HistoryEvent[],
  session: HistoryEvent[],
  next: HistoryEvent[],
): Array<{ ms: number; workflow: string; event: string }> {
  const types = scheduledTypes(turn);
  const done = turn.filter(
    (e) =>
      e.activityTaskCompletedEventAttributes &&
      types.get(Number(e.activityTaskCompletedEventAttributes.scheduledEventId)) === 'runToolUse',
  );
  const from = done[done.length - 1];
  const to = next.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'callModel');
  if (!from || !to) return [];
  const [t0, t1] = [eventTimeMs(from), eventTimeMs(to)];
  const tagged = [
    ...turn.map((e) => ['turn n', e] as const),
    ...session.map((e) => ['session', e] as const),
    ...next.map((e) => ['turn n+1', e] as const),
  ].filter(([, e]) => eventTimeMs(e) >= t0 && eventTimeMs(e) <= t1);
  tagged.sort((a, b) => eventTimeMs(a[1]) - eventTimeMs(b[1]));
  return tagged.map(([w, e]) => ({
    ms: eventTimeMs(e) - t0,
    workflow: w,
    event: `${eventTypeName(e)} ${eventName(e)}`.trim(),
  }));
}

/** The events of model step `which` of a child of several steps (from its callModel scheduled to the next's), and the rest. */
function stepSlices(events: HistoryEvent[], which: number): [HistoryEvent[], HistoryEvent[]] {
  const modelAt = (n: number): number =>
    events.findIndex((e) => e.activityTaskScheduledEventAttributes?.activityId === `model-${n}`);
  const [from, to] = [modelAt(which), modelAt(which + 1)];
  if (from < 0 || to < 0) throw new Error(`bench: no model step ${which} in the turn child`);
  return [events.slice(from, to), events.slice(to)];
}

/** Runs a session of `steps` turns of 3 Reads and returns the breakdown of turn `which`, and the raw events. */
export async function breakdown(
  ctx: CostCtx,
  w: CostWorker,
  steps = 4,
  which = 3,
): Promise<{
  lines: BreakdownLine[];
  session: HistoryEvent[];
  turn: HistoryEvent[];
  handoff: ReturnType<typeof handoffTimeline>;
}> {
  const files = costFiles(ctx.work);
  const key = `breakdown-${w.label.replace(/\W+/g, '-')}`;
  ctx.book.add(key, readsScript(steps, files));
  const h = await startSession(ctx.client, {
    permissionMode: 'bypassPermissions',
    model: { model: 'bench', maxTokens: 1024 },
    maxTurns: 500,
    maxStepsPerTurn: COST_STEPS.perChild,
    cwd: ctx.work,
    prompt: `bench:${key}`,
    taskQueue: w.taskQueue,
    useSearchAttributes: false,
    id: `bench-${key}`,
  } as SessionOptions);
  await h.result();
  const session = (await ctx.client.workflow.getHandle(h.workflowId).fetchHistory()).events ?? [];
  const history = async (id: string): Promise<HistoryEvent[] | undefined> =>
    ctx.client.workflow
      .getHandle(id)
      .fetchHistory()
      .then((x) => x.events ?? [])
      .catch(() => undefined);
  let turnId = `${h.workflowId}/turn-${which}`;
  let turn = await history(turnId);
  let next = (await history(`${h.workflowId}/turn-${which + 1}`)) ?? [];
  if (!turn) {
    // A turn child of several model steps (issue 33): step `which` is a slice of the first child's history.
    turnId = `${h.workflowId}/turn-1`;
    [turn, next] = stepSlices((await history(turnId)) ?? [], which);
  }
  return {
    lines: turnBreakdown(session, turn, turnId),
    session,
    turn,
    handoff: handoffTimeline(turn, session, next),
  };
}
