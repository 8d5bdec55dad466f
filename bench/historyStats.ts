// Pure counting over Temporal histories for the bench's cost rows (issue 33): events and bytes,
// Temporal Cloud actions, the turn-boundary hand-off, heartbeats after the SDK's throttle, and
// /proc CPU. No I/O here; test/unit/bench-history-stats.test.ts pins every helper.
import { temporal } from '@temporalio/proto';

export type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
const ET = temporal.api.enums.v1.EventType;

/** The event's type without the EVENT_TYPE_ prefix (e.g. ACTIVITY_TASK_SCHEDULED). */
export function eventTypeName(e: HistoryEvent): string {
  return ET[Number(e.eventType)]?.replace('EVENT_TYPE_', '') ?? String(e.eventType);
}

/** The event as the server stores it: its protobuf encoding, in bytes. */
export function eventBytes(e: HistoryEvent): number {
  return temporal.api.history.v1.HistoryEvent.encode(e).finish().length;
}

function isPayload(x: unknown): x is { data?: Uint8Array | null; metadata?: Record<string, Uint8Array> | null } {
  return !!x && typeof x === 'object' && 'data' in x && (x as { data?: unknown }).data instanceof Uint8Array;
}

/** Bytes of every Payload in the event (data + metadata keys and values): what the application put there. */
export function payloadBytes(e: HistoryEvent): number {
  let n = 0;
  const walk = (x: unknown): void => {
    if (!x || typeof x !== 'object' || x instanceof Uint8Array) return;
    if (isPayload(x)) {
      n += x.data?.length ?? 0;
      for (const [k, v] of Object.entries(x.metadata ?? {})) n += k.length + (v?.length ?? 0);
      return;
    }
    for (const v of Array.isArray(x) ? x : Object.values(x)) walk(v);
  };
  walk(e);
  return n;
}

/** Milliseconds since the epoch of the event's time. */
export function eventTimeMs(e: HistoryEvent): number {
  const t = e.eventTime;
  if (!t) return NaN;
  return Number(t.seconds ?? 0) * 1000 + Number(t.nanos ?? 0) / 1e6;
}

export interface HistoryTotals {
  events: number;
  bytes: number;
}

export function totals(histories: HistoryEvent[][]): HistoryTotals {
  let events = 0;
  let bytes = 0;
  for (const h of histories) {
    events += h.length;
    for (const e of h) bytes += eventBytes(e);
  }
  return { events, bytes };
}

/** Activity type of each ActivityTaskScheduled event, by event id. */
export function scheduledTypes(events: HistoryEvent[]): Map<number, string> {
  const m = new Map<number, string>();
  for (const e of events) {
    const a = e.activityTaskScheduledEventAttributes;
    if (a) m.set(Number(e.eventId), a.activityType?.name ?? '');
  }
  return m;
}

/** The local activity a marker records (the SDK's 'core_local_activity' marker), or undefined. */
export function localActivityType(e: HistoryEvent): string | undefined {
  const m = e.markerRecordedEventAttributes;
  if (!m || m.markerName !== 'core_local_activity') return undefined;
  const data = m.details?.data?.payloads?.[0]?.data;
  if (!data) return '';
  try {
    return (JSON.parse(Buffer.from(data).toString()) as { activity_type?: string }).activity_type ?? '';
  } catch {
    return '';
  }
}

/**
 * Temporal Cloud actions as the docs list them, counted from one workflow's history:
 * a workflow started (client start, child start, continue-as-new: counted in the started workflow's
 * own history), each activity scheduled and each retry (attempts beyond the first, from the
 * started/failed events), local activities as one action per workflow task that ran any, each
 * timer started, each signal received, each update accepted. Heartbeats are not in the history:
 * the caller adds them. Version markers (patched) and queries are not counted.
 */
export interface ActionCount {
  workflowStarts: number;
  activities: number;
  localActivityTasks: number;
  localActivities: number;
  timers: number;
  signals: number;
  updates: number;
}

export function countActions(events: HistoryEvent[]): ActionCount {
  const c: ActionCount = {
    workflowStarts: 0,
    activities: 0,
    localActivityTasks: 0,
    localActivities: 0,
    timers: 0,
    signals: 0,
    updates: 0,
  };
  // Local-activity markers are written by the workflow task completed just before them.
  const laTasks = new Set<number>();
  let lastTaskCompleted = 0;
  for (const e of events) {
    const id = Number(e.eventId);
    if (e.workflowExecutionStartedEventAttributes) c.workflowStarts++;
    else if (e.activityTaskScheduledEventAttributes) c.activities++;
    else if (e.activityTaskStartedEventAttributes && Number(e.activityTaskStartedEventAttributes.attempt ?? 1) > 1)
      c.activities += Number(e.activityTaskStartedEventAttributes.attempt) - 1;
    else if (e.workflowTaskCompletedEventAttributes) lastTaskCompleted = id;
    else if (e.timerStartedEventAttributes) c.timers++;
    else if (e.workflowExecutionSignaledEventAttributes) c.signals++;
    else if (e.workflowExecutionUpdateAcceptedEventAttributes) c.updates++;
    else if (localActivityType(e) !== undefined) {
      c.localActivities++;
      laTasks.add(lastTaskCompleted);
    }
  }
  c.localActivityTasks = laTasks.size;
  return c;
}

export function addActions(a: ActionCount, b: ActionCount): ActionCount {
  return {
    workflowStarts: a.workflowStarts + b.workflowStarts,
    activities: a.activities + b.activities,
    localActivityTasks: a.localActivityTasks + b.localActivityTasks,
    localActivities: a.localActivities + b.localActivities,
    timers: a.timers + b.timers,
    signals: a.signals + b.signals,
    updates: a.updates + b.updates,
  };
}

/** Billable actions of a count (local activities: one per workflow task), plus `heartbeats`. */
export function actionTotal(c: ActionCount, heartbeats = 0): number {
  return c.workflowStarts + c.activities + c.localActivityTasks + c.timers + c.signals + c.updates + heartbeats;
}

export interface Handoff {
  /** Last tool activity of a step completed → the next callModel activity scheduled (the next step). */
  toScheduledMs: number;
  /** … → that callModel's ActivityTaskStarted event (eager dispatch records it with the schedule). */
  toStartedMs: number;
}

/**
 * The step hand-off: for each model step that ran a tool activity (`toolType`), the time from its
 * last tool completion to the next model activity (`modelType`) scheduled — in the next turn
 * child's history (one child per step) or in the same one (a child of several steps, issue 33).
 * `turns` are the turn workflows' histories in turn order.
 */
export function handoffs(turns: HistoryEvent[][], toolType = 'runToolUse', modelType = 'callModel'): Handoff[] {
  const out: Handoff[] = [];
  let lastTool: HistoryEvent | undefined;
  for (const events of turns) {
    const types = scheduledTypes(events);
    for (const e of events) {
      const done = e.activityTaskCompletedEventAttributes;
      if (done && types.get(Number(done.scheduledEventId)) === toolType) lastTool = e;
      if (e.activityTaskScheduledEventAttributes?.activityType?.name !== modelType) continue;
      if (lastTool) {
        const started = events.find(
          (x) => Number(x.activityTaskStartedEventAttributes?.scheduledEventId ?? -1) === Number(e.eventId),
        );
        out.push({
          toScheduledMs: eventTimeMs(e) - eventTimeMs(lastTool),
          toStartedMs: started ? eventTimeMs(started) - eventTimeMs(lastTool) : NaN,
        });
      }
      lastTool = undefined;
    }
  }
  return out;
}

/** The q-quantile (0..1) of xs, nearest rank; NaN when empty. */
export function quantile(xs: number[], q: number): number {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

/**
 * Heartbeats that reach the server from one activity attempt, given the times (ms) its code called
 * heartbeat() and the time it ended: the SDK (core) sends the first call at once, then at most one
 * per `intervalMs` — a call inside the interval is held and sent when the interval ends if the
 * activity is still running; an interval with no call lets the next call go at once.
 */
export function throttledHeartbeats(callsMs: number[], endMs: number, intervalMs: number): number {
  const calls = [...callsMs].sort((a, b) => a - b);
  let sent = 0;
  let windowEnd = -Infinity;
  let pending = false;
  for (const t of calls) {
    while (pending && windowEnd <= t) {
      // The held call goes out at the window's end, opening a new window.
      if (windowEnd >= endMs) return sent;
      sent++;
      pending = false;
      windowEnd += intervalMs;
    }
    if (t >= endMs) break;
    if (t >= windowEnd) {
      sent++;
      windowEnd = t + intervalMs;
    } else pending = true;
  }
  while (pending && windowEnd < endMs) {
    sent++;
    pending = false;
  }
  return sent;
}

/** utime + stime in clock ticks, from the text of /proc/<pid>/stat (the command may hold spaces and parentheses). */
export function cpuTicksFromStat(stat: string): number {
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command: state is field 3, utime field 14, stime field 15 (1-based over the whole line).
  return Number(rest[14 - 3]) + Number(rest[15 - 3]);
}
