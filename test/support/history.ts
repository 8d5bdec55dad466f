// Measuring workflow histories: the runs of a session (following continue-as-new), encoded sizes,
// and the bytes each turn adds (the session run's events for that turn plus the turn child's history).
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

type History = temporal.api.history.v1.IHistory;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const EventType = temporal.api.enums.v1.EventType;

export function eventBytes(e: HistoryEvent): number {
  return temporal.api.history.v1.HistoryEvent.encode(e).finish().length;
}

/** Encoded size of a whole history, as the server counts it (sum of its events). */
export function historyBytes(h: History): number {
  return temporal.api.history.v1.History.encode(h).finish().length;
}

export interface RunHistory {
  runId: string;
  history: History;
  bytes: number;
  events: number;
}

/** Every run of a workflow id, oldest first, following ContinuedAsNew from the first run. */
export async function sessionRuns(client: Client, workflowId: string, firstRunId: string): Promise<RunHistory[]> {
  const runs: RunHistory[] = [];
  let runId: string | undefined = firstRunId;
  while (runId) {
    const history: History = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    runs.push({ runId, history, bytes: historyBytes(history), events: history.events?.length ?? 0 });
    const last: HistoryEvent | undefined = history.events?.[history.events.length - 1];
    runId =
      last?.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW
        ? (last.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined)
        : undefined;
  }
  return runs;
}

export interface TurnBytes {
  turn: number;
  /** Index of the session run the turn was started in. */
  run: number;
  /** Session-run events from this turn's StartChildWorkflowExecutionInitiated to the next turn's (or the run's end). */
  sessionBytes: number;
  /** The turn child workflow's whole history. */
  childBytes: number;
  total: number;
}

/** Bytes of session-run history attributable to each turn, by the turn's child workflow id `<session>/turn-N`. */
export function sessionBytesPerTurn(
  runs: RunHistory[],
  sessionId: string,
): Map<number, { run: number; bytes: number }> {
  const out = new Map<number, { run: number; bytes: number }>();
  runs.forEach((run, runIndex) => {
    let current: number | undefined;
    for (const e of run.history.events ?? []) {
      if (e.eventType === EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED) {
        const id = e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ?? '';
        const m = id.startsWith(`${sessionId}/turn-`) ? /\/turn-(\d+)$/.exec(id) : null;
        if (m) current = Number(m[1]);
      }
      if (current === undefined) continue;
      const entry = out.get(current) ?? { run: runIndex, bytes: 0 };
      entry.bytes += eventBytes(e);
      out.set(current, entry);
    }
  });
  return out;
}

export async function turnBytes(
  client: Client,
  sessionId: string,
  runs: RunHistory[],
  turns: number[],
): Promise<TurnBytes[]> {
  const perTurn = sessionBytesPerTurn(runs, sessionId);
  const out: TurnBytes[] = [];
  for (const turn of turns) {
    const child = await client.workflow.getHandle(`${sessionId}/turn-${turn}`).fetchHistory();
    const s = perTurn.get(turn);
    if (!s) throw new Error(`turn ${turn} not found in the session's history`);
    const childBytes = historyBytes(child);
    out.push({ turn, run: s.run, sessionBytes: s.bytes, childBytes, total: s.bytes + childBytes });
  }
  return out;
}

export function fmtBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(2)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

/**
 * Which worker ran each tool call of a workflow (a turn): tool_use id → the identity on the
 * ActivityTaskStarted event of the activity whose input carries that block (any activity type:
 * the tool activities take `{ block: { id } }`). The last attempt's identity wins.
 */
export async function toolCallIdentities(client: Client, workflowId: string): Promise<Record<string, string>> {
  const history: History = await client.workflow.getHandle(workflowId).fetchHistory();
  const blockOf = new Map<number, string>();
  const out: Record<string, string> = {};
  for (const e of history.events ?? []) {
    const id = Number(e.eventId ?? 0);
    const scheduled = e.activityTaskScheduledEventAttributes;
    if (scheduled) {
      const data = scheduled.input?.payloads?.[0]?.data;
      if (!data) continue;
      try {
        // A tool call's input names its block whole, or by id since issue 33 (`RunToolUseByRef`).
        const arg = JSON.parse(Buffer.from(data).toString('utf8')) as { block?: { id?: unknown }; toolUseId?: unknown };
        const toolUseId = typeof arg.block?.id === 'string' ? arg.block.id : arg.toolUseId;
        if (typeof toolUseId === 'string') blockOf.set(id, toolUseId);
      } catch {
        // not a JSON payload: not a tool call
      }
    }
    const started = e.activityTaskStartedEventAttributes;
    if (started) {
      const block = blockOf.get(Number(started.scheduledEventId ?? 0));
      if (block) out[block] = started.identity ?? '';
    }
  }
  return out;
}

/** The workflow tasks that failed in each of these workflows' histories, by id (none expected after a replay). */
export async function failedWorkflowTasks(client: Client, ids: string[]): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const id of ids) {
    const events = (await client.workflow.getHandle(id).fetchHistory()).events ?? [];
    out[id] = events
      .filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED)
      .map((e) => e.workflowTaskFailedEventAttributes?.failure?.message);
  }
  return out;
}

/** The turn children a session's runs started, by id (a child of several model steps, issue 33, covers several turns). */
export function turnChildIds(runs: RunHistory[]): string[] {
  return runs.flatMap((r) =>
    (r.history.events ?? []).flatMap((e) => {
      const a = e.startChildWorkflowExecutionInitiatedEventAttributes;
      return a?.workflowType?.name === 'turnWorkflow' && a.workflowId ? [a.workflowId] : [];
    }),
  );
}
