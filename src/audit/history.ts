// Reading one workflow history for the audit: fetching it, decoding its payloads with the
// client's own data converter (its payload codecs too), and following its activities. Nothing is
// dropped silently: a history that cannot be fetched or a payload that cannot be decoded becomes
// an AuditGap, which the report prints.
import type { Client } from '@temporalio/client';
import type { LoadedDataConverter, Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { converterOf, decodePayload } from '../temporal/service/payloads';
import { ACTIVITY_TYPES, SIGNALS, TOOL_ACTIVITY_TYPES } from '../core/ids';
import { streamedItems, type StreamedToolUseSignal } from '../core/streaming';
import type { ToolRunResult, ToolUseDescription } from '../core/turn';
import type { ToolUseBlock } from '../core/apiMessages';
import { modelAnswerFromHistory } from '../core/payloads';
import type { AuditActivity, AuditGap } from './types';

export type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
type Failure = temporal.api.failure.v1.IFailure;
type Payloads = temporal.api.common.v1.IPayloads;
type ProtoPayload = temporal.api.common.v1.IPayload;
export const ET = temporal.api.enums.v1.EventType;

// ---------------------------------------------------------------------------------------------
// Small helpers

const PREVIEW_CHARS = 200;

export function preview(text: string, max = PREVIEW_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function num(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') return v;
  return Number(String(v));
}

export function msOf(ts: { seconds?: unknown; nanos?: number | null } | null | undefined): number | undefined {
  if (!ts) return undefined;
  return num(ts.seconds) * 1000 + Math.floor((ts.nanos ?? 0) / 1e6);
}

export function iso(ms: number | undefined): string | undefined {
  return ms === undefined || !Number.isFinite(ms) ? undefined : new Date(ms).toISOString();
}

export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/** A failure and its causes, outermost first: "activity StartToClose timeout", "model API error 529: …". */
export function failureText(f: Failure | null | undefined): string | undefined {
  const parts: string[] = [];
  for (let c = f, depth = 0; c && depth < 6; c = c.cause, depth++) {
    const type = c.applicationFailureInfo?.type;
    const msg = c.message ?? '';
    if (msg && !parts.includes(msg)) parts.push(type && !msg.includes(type) ? `${msg} [${type}]` : msg);
  }
  return parts.length > 0 ? parts.join(': ') : undefined;
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0] as string;

// ---------------------------------------------------------------------------------------------
// Fetching and decoding

export { converterOf };

/**
 * The server's description of a workflow, undecoded (the SDK's describe() decodes the memo with the
 * client's converter, and fails on a payload it cannot read: the audit decodes on its own terms).
 */
export async function describeRaw(
  client: Client,
  workflowId: string,
  runId?: string,
): Promise<temporal.api.workflowservice.v1.IDescribeWorkflowExecutionResponse> {
  return client.workflowService.describeWorkflowExecution({
    namespace: client.options.namespace,
    execution: { workflowId, ...(runId ? { runId } : {}) },
  });
}

/** A workflow's history, or the gap that says why it is missing. */
export async function fetchEvents(
  client: Client,
  where: { workflowId: string; runId?: string; turn?: number },
  missing: string,
): Promise<HistoryEvent[] | AuditGap> {
  try {
    const history = await client.workflow.getHandle(where.workflowId, where.runId).fetchHistory();
    return history.events ?? [];
  } catch (err) {
    return {
      kind: 'gap',
      what: 'history',
      workflowId: where.workflowId,
      ...(where.runId ? { runId: where.runId } : {}),
      ...(where.turn !== undefined ? { turn: where.turn } : {}),
      error: errorText(err),
      missing,
    };
  }
}

/**
 * Decodes the payloads of one history with the client's converter (codecs in reverse order, then
 * the payload converter). A payload it cannot decode — a codec this client lacks, a corrupt
 * payload — is recorded as a gap naming the event and the field, and reads as undefined.
 */
export class HistoryDecoder {
  constructor(
    private readonly converter: LoadedDataConverter,
    private readonly where: { workflowId: string; runId?: string; turn?: number },
    readonly gaps: AuditGap[],
  ) {}

  async one<T>(payload: ProtoPayload | null | undefined, event: HistoryEvent, field: string): Promise<T | undefined> {
    if (!payload) return undefined;
    try {
      return await decodePayload<T>(this.converter, payload as Payload);
    } catch (err) {
      this.gaps.push({
        kind: 'gap',
        what: 'payload',
        workflowId: this.where.workflowId,
        ...(this.where.runId ? { runId: this.where.runId } : {}),
        ...(this.where.turn !== undefined ? { turn: this.where.turn } : {}),
        ...(e(event).id !== undefined ? { eventId: e(event).id } : {}),
        eventType: e(event).type,
        field,
        error: errorText(err),
        missing: `the ${field} of event ${e(event).id ?? '?'} (${e(event).type})`,
      });
      return undefined;
    }
  }

  async at<T>(
    payloads: Payloads | null | undefined,
    event: HistoryEvent,
    field: string,
    index = 0,
  ): Promise<T | undefined> {
    return this.one<T>(payloads?.payloads?.[index], event, field);
  }
}

function e(event: HistoryEvent): { id?: number; type: string } {
  const id = event.eventId === null || event.eventId === undefined ? undefined : num(event.eventId);
  const type = (ET[event.eventType ?? 0] ?? String(event.eventType)).replace(/^EVENT_TYPE_/, '');
  return { ...(id !== undefined ? { id } : {}), type };
}

// ---------------------------------------------------------------------------------------------
// Activities of one history

export interface ActivityTrack {
  activityId: string;
  type: string;
  input?: unknown;
  summary?: string;
  scheduledAt?: number;
  startedAt?: number;
  attempt: number;
  failures: string[];
  endedAt?: number;
  cancelRequestedAt?: number;
  outcome: AuditActivity['outcome'];
  result?: unknown;
}

export interface PendingInfo {
  attempt: number;
  lastFailure?: string;
  lastStartedAt?: number;
}

export async function trackActivities(
  events: readonly HistoryEvent[],
  decoder: HistoryDecoder,
): Promise<ActivityTrack[]> {
  const byScheduled = new Map<string, ActivityTrack>();
  const order: ActivityTrack[] = [];
  const get = (id: unknown): ActivityTrack | undefined => byScheduled.get(String(id));
  for (const ev of events) {
    const at = msOf(ev.eventTime);
    switch (ev.eventType) {
      case ET.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED: {
        const a = ev.activityTaskScheduledEventAttributes;
        const summary = ev.userMetadata?.summary
          ? await decoder.one<string>(ev.userMetadata.summary, ev, 'summary')
          : undefined;
        const t: ActivityTrack = {
          activityId: a?.activityId ?? '',
          type: a?.activityType?.name ?? '',
          input: await decoder.at(a?.input, ev, 'activity input'),
          ...(summary !== undefined ? { summary } : {}),
          ...(at !== undefined ? { scheduledAt: at } : {}),
          attempt: 0,
          failures: [],
          outcome: 'scheduled',
        };
        byScheduled.set(String(ev.eventId), t);
        order.push(t);
        break;
      }
      case ET.EVENT_TYPE_ACTIVITY_TASK_STARTED: {
        const a = ev.activityTaskStartedEventAttributes;
        const t = get(a?.scheduledEventId);
        if (!t) break;
        t.attempt = a?.attempt ?? 1;
        if (at !== undefined) t.startedAt = at;
        if (t.outcome === 'scheduled') t.outcome = 'running';
        const last = failureText(a?.lastFailure);
        if (last && t.attempt > 1) t.failures.push(last);
        break;
      }
      case ET.EVENT_TYPE_ACTIVITY_TASK_COMPLETED: {
        const a = ev.activityTaskCompletedEventAttributes;
        const t = get(a?.scheduledEventId);
        if (!t) break;
        t.outcome = 'completed';
        t.result = await decoder.at(a?.result, ev, 'activity result');
        if (at !== undefined) t.endedAt = at;
        break;
      }
      case ET.EVENT_TYPE_ACTIVITY_TASK_FAILED:
      case ET.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT: {
        const failed = ev.eventType === ET.EVENT_TYPE_ACTIVITY_TASK_FAILED;
        const a = failed ? ev.activityTaskFailedEventAttributes : ev.activityTaskTimedOutEventAttributes;
        const t = get(a?.scheduledEventId);
        if (!t) break;
        t.outcome = failed ? 'failed' : 'timed_out';
        const f = failureText(a?.failure);
        if (f) t.failures.push(f);
        if (at !== undefined) t.endedAt = at;
        break;
      }
      case ET.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED: {
        const t = get(ev.activityTaskCancelRequestedEventAttributes?.scheduledEventId);
        if (t && at !== undefined && t.cancelRequestedAt === undefined) t.cancelRequestedAt = at;
        break;
      }
      case ET.EVENT_TYPE_ACTIVITY_TASK_CANCELED: {
        const t = get(ev.activityTaskCanceledEventAttributes?.scheduledEventId);
        if (!t) break;
        t.outcome = 'cancelled';
        if (at !== undefined) t.endedAt = at;
        break;
      }
      default:
        break;
    }
  }
  return order;
}

export function activityView(t: ActivityTrack, pending?: PendingInfo): AuditActivity {
  const open = t.outcome === 'scheduled' || t.outcome === 'running';
  const attempts = open && pending ? pending.attempt : t.attempt;
  const failures = [...t.failures];
  if (open && pending?.lastFailure && !failures.includes(pending.lastFailure)) failures.push(pending.lastFailure);
  const startedAt = t.startedAt ?? (open ? pending?.lastStartedAt : undefined);
  const result =
    TOOL_ACTIVITY_TYPES.has(t.type) && t.outcome === 'completed'
      ? (t.result as ToolRunResult | undefined)?.kind
      : undefined;
  return {
    activityId: t.activityId,
    attempts,
    ...(t.scheduledAt !== undefined ? { scheduledAt: iso(t.scheduledAt) } : {}),
    ...(startedAt !== undefined ? { startedAt: iso(startedAt) } : {}),
    ...(t.endedAt !== undefined ? { endedAt: iso(t.endedAt) } : {}),
    ...(t.cancelRequestedAt !== undefined ? { cancelRequestedAt: iso(t.cancelRequestedAt) } : {}),
    outcome: open && pending && pending.lastStartedAt !== undefined ? 'running' : t.outcome,
    ...(result ? { result } : {}),
    failures,
  };
}

/**
 * The blocks' descriptions by tool_use id, from the turn's describeToolUses markers (streamed
 * blocks are described in several calls, each description naming its block; a description of an
 * older turn names none and is matched by position in the first call), or from the model call
 * that described them (callModel's describeWith): its streamedToolUse signals and its result.
 */
export async function describedBlocks(
  events: readonly HistoryEvent[],
  decoder: HistoryDecoder,
  blocks: readonly { id: string }[],
): Promise<Map<string, ToolUseDescription>> {
  const out = new Map<string, ToolUseDescription>();
  let first = true;
  for (const ev of events) {
    for (const d of await modelDescriptions(ev, decoder))
      if (d.toolUseId && !out.has(d.toolUseId)) out.set(d.toolUseId, d);
    if (ev.eventType !== ET.EVENT_TYPE_MARKER_RECORDED) continue;
    const m = ev.markerRecordedEventAttributes;
    const data = m?.details?.data
      ? await decoder.at<{ activity_type?: string; activityType?: string }>(m.details.data, ev, 'local activity marker')
      : undefined;
    const type = data?.activity_type ?? data?.activityType;
    if (type !== ACTIVITY_TYPES.describeToolUses) continue;
    const result = m?.details?.result
      ? await decoder.at<ToolUseDescription[]>(m.details.result, ev, 'local activity result')
      : undefined;
    if (!Array.isArray(result)) continue;
    result.forEach((d, i) => {
      const id = d.toolUseId ?? (first && result.length === blocks.length ? blocks[i]?.id : undefined);
      if (id !== undefined && !out.has(id)) out.set(id, d);
    });
    first = false;
  }
  return out;
}

/** Descriptions a model call made: in a streamedToolUse signal's blocks, or in its result. */
async function modelDescriptions(ev: HistoryEvent, decoder: HistoryDecoder): Promise<ToolUseDescription[]> {
  if (ev.eventType === ET.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED) {
    const s = ev.workflowExecutionSignaledEventAttributes;
    if (s?.signalName !== SIGNALS.streamedToolUse) return [];
    const signal = await decoder.at<StreamedToolUseSignal>(s.input, ev, 'streamed tool_use signal');
    return signal ? streamedItems(signal).flatMap((i) => (i.description ? [i.description] : [])) : [];
  }
  if (ev.eventType !== ET.EVENT_TYPE_ACTIVITY_TASK_COMPLETED) return [];
  const done = await decoder.at<{ descriptions?: ToolUseDescription[]; message?: unknown }>(
    ev.activityTaskCompletedEventAttributes?.result,
    ev,
    'activity result',
  );
  // A model answer's descriptions, whole again: their flags, and their ids when they go by position (issue 33).
  return done && Array.isArray(done.descriptions) ? (modelAnswerFromHistory(done).descriptions ?? []) : [];
}

/** The blocks handed to the turn while their message streamed (streamedToolUse signals), by tool_use id. */
export async function streamedBlocks(
  events: readonly HistoryEvent[],
  decoder: HistoryDecoder,
): Promise<Map<string, ToolUseBlock>> {
  const out = new Map<string, ToolUseBlock>();
  for (const ev of events) {
    const s = ev.workflowExecutionSignaledEventAttributes;
    if (ev.eventType !== ET.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED || s?.signalName !== SIGNALS.streamedToolUse)
      continue;
    const signal = await decoder.at<StreamedToolUseSignal>(s.input, ev, 'streamed tool_use signal');
    for (const i of signal ? streamedItems(signal) : []) if (!out.has(i.block.id)) out.set(i.block.id, i.block);
  }
  return out;
}
