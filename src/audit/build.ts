// Rebuilds a session's audit trail from Temporal alone: every continue-as-new run of the session
// workflow and every turn child workflow `<session-id>/turn-<n>`. No local store is read: what a
// call did is in its activity's input and result payloads, who decided is in the records and the
// turnApproval signals, when and how often is in the event times and attempts.
import { subagentSessionId } from '../engine/subagents';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { isWorkflowNotFound } from '../temporal/errors';
import { temporal } from '@temporalio/proto';
import type { CallModelInput, ModelCallOutcome, Tombstone } from '../activities/model';
import { addUsage } from '../engine/contextWindow';
import { compactionEntry } from './compactions';
import { decisionFromReason } from '../activities/tools';
import { SessionNotFoundError } from '../client';
import type { AssistantContentBlock, ToolResultBlockParam, ToolUseBlock, Usage } from '../engine/messages';
import { partitionToolCalls } from '../engine/partition';
import type { DecisionRecord, ToolCallRecord } from '../engine/records';
import type { ToolRunResult, ToolUseDescription } from '../engine/turn';
import type { RunToolUseInput } from '../activities/tools';
import type { DecisionReason } from '../tools/Tool';
import type { CompactRecord, SessionInput, SessionResult, TurnWorkflowInput, TurnWorkflowResult } from '../workflows/definitions';
import type {
  AuditActivity,
  AuditApproval,
  AuditCompaction,
  AuditDecision,
  AuditModelCall,
  AuditReport,
  AuditSession,
  AuditToolCall,
  AuditToolStatus,
  DecisionSource,
} from './types';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
type History = temporal.api.history.v1.IHistory;
type Failure = temporal.api.failure.v1.IFailure;
type Payloads = temporal.api.common.v1.IPayloads;
const ET = temporal.api.enums.v1.EventType;

export interface BuildAuditOptions {
  /** Audit the chain that ends with this run (default: the workflow id's latest run). */
  runId?: string;
  /** How many turn histories to fetch at once. Default 6. */
  concurrency?: number;
  /** Ask the server about a running turn's pending activities (attempts so far, last failure). Default true. */
  describeRunningTurns?: boolean;
  /** Audit the subagents' child sessions too (`subagents`). Default true. */
  subagents?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Small helpers

const PREVIEW_CHARS = 200;

function preview(text: string, max = PREVIEW_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function num(v: unknown): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') return v;
  return Number(String(v));
}

function msOf(ts: { seconds?: unknown; nanos?: number | null } | null | undefined): number | undefined {
  if (!ts) return undefined;
  return num(ts.seconds) * 1000 + Math.floor((ts.nanos ?? 0) / 1e6);
}

function iso(ms: number | undefined): string | undefined {
  return ms === undefined || !Number.isFinite(ms) ? undefined : new Date(ms).toISOString();
}

function decode<T>(payloads: Payloads | null | undefined, index = 0): T | undefined {
  const p = payloads?.payloads?.[index];
  if (!p) return undefined;
  try {
    return defaultPayloadConverter.fromPayload<T>(p as Payload);
  } catch {
    return undefined;
  }
}

function decodeOne<T>(payload: temporal.api.common.v1.IPayload | null | undefined): T | undefined {
  if (!payload) return undefined;
  try {
    return defaultPayloadConverter.fromPayload<T>(payload as Payload);
  } catch {
    return undefined;
  }
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

function resultText(result: ToolResultBlockParam | undefined): string {
  if (!result) return '';
  return typeof result.content === 'string' ? result.content : result.content.map((c) => c.text).join('');
}

function partialPreview(content: AssistantContentBlock[]): string {
  return preview(
    content
      .map((b) => (b.type === 'text' ? b.text : b.type === 'tool_use' ? `[tool_use ${b.id} ${b.name} ${JSON.stringify(b.input)}]` : '[thinking]'))
      .join(' '),
  );
}

const SOURCES: readonly DecisionSource[] = ['rule', 'mode', 'hook', 'tool', 'workingDirectory', 'human', 'timeout', 'sandbox', 'other'];

function auditDecision(d: DecisionRecord | undefined): AuditDecision | undefined {
  if (!d) return undefined;
  const source = (SOURCES as readonly string[]).includes(d.source) ? (d.source as DecisionSource) : 'other';
  return {
    behavior: d.behavior,
    source,
    ...(d.detail !== undefined ? { detail: d.detail } : {}),
    ...(d.by !== undefined ? { by: d.by } : {}),
    ...(d.reason !== undefined ? { reason: d.reason } : {}),
  };
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
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

// ---------------------------------------------------------------------------------------------
// Activities of one history

interface ActivityTrack {
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

interface PendingInfo {
  attempt: number;
  lastFailure?: string;
  lastStartedAt?: number;
}

function trackActivities(events: readonly HistoryEvent[]): ActivityTrack[] {
  const byScheduled = new Map<string, ActivityTrack>();
  const order: ActivityTrack[] = [];
  const get = (id: unknown): ActivityTrack | undefined => byScheduled.get(String(id));
  for (const e of events) {
    const at = msOf(e.eventTime);
    switch (e.eventType) {
      case ET.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED: {
        const a = e.activityTaskScheduledEventAttributes;
        const t: ActivityTrack = {
          activityId: a?.activityId ?? '',
          type: a?.activityType?.name ?? '',
          input: decode(a?.input),
          ...(e.userMetadata?.summary ? { summary: decodeOne<string>(e.userMetadata.summary) } : {}),
          ...(at !== undefined ? { scheduledAt: at } : {}),
          attempt: 0,
          failures: [],
          outcome: 'scheduled',
        };
        byScheduled.set(String(e.eventId), t);
        order.push(t);
        break;
      }
      case ET.EVENT_TYPE_ACTIVITY_TASK_STARTED: {
        const a = e.activityTaskStartedEventAttributes;
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
        const a = e.activityTaskCompletedEventAttributes;
        const t = get(a?.scheduledEventId);
        if (!t) break;
        t.outcome = 'completed';
        t.result = decode(a?.result);
        if (at !== undefined) t.endedAt = at;
        break;
      }
      case ET.EVENT_TYPE_ACTIVITY_TASK_FAILED: {
        const a = e.activityTaskFailedEventAttributes;
        const t = get(a?.scheduledEventId);
        if (!t) break;
        t.outcome = 'failed';
        const f = failureText(a?.failure);
        if (f) t.failures.push(f);
        if (at !== undefined) t.endedAt = at;
        break;
      }
      case ET.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT: {
        const a = e.activityTaskTimedOutEventAttributes;
        const t = get(a?.scheduledEventId);
        if (!t) break;
        t.outcome = 'timed_out';
        const f = failureText(a?.failure);
        if (f) t.failures.push(f);
        if (at !== undefined) t.endedAt = at;
        break;
      }
      case ET.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED: {
        const t = get(e.activityTaskCancelRequestedEventAttributes?.scheduledEventId);
        if (t && at !== undefined && t.cancelRequestedAt === undefined) t.cancelRequestedAt = at;
        break;
      }
      case ET.EVENT_TYPE_ACTIVITY_TASK_CANCELED: {
        const a = e.activityTaskCanceledEventAttributes;
        const t = get(a?.scheduledEventId);
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

const TOOL_ACTIVITY_TYPES = new Set(['runToolUse', 'prepareSubagent', 'finishSubagent']);

function activityView(t: ActivityTrack, pending?: PendingInfo): AuditActivity {
  const open = t.outcome === 'scheduled' || t.outcome === 'running';
  const attempts = open && pending ? pending.attempt : t.attempt;
  const failures = [...t.failures];
  if (open && pending?.lastFailure && !failures.includes(pending.lastFailure)) failures.push(pending.lastFailure);
  const startedAt = t.startedAt ?? (open ? pending?.lastStartedAt : undefined);
  const result = TOOL_ACTIVITY_TYPES.has(t.type) && t.outcome === 'completed' ? (t.result as ToolRunResult | undefined)?.kind : undefined;
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

// ---------------------------------------------------------------------------------------------
// One turn

interface TurnRef {
  turn: number;
  run: number;
  workflowId: string;
  runId?: string;
}

interface TurnAudit {
  model?: AuditModelCall;
  tools: AuditToolCall[];
  compactions: AuditCompaction[];
  open: boolean;
  reason?: string;
  usage?: Usage;
}

/** The local-activity marker of describeToolUses, when it can be read: concurrency safety per block. */
/**
 * The blocks' descriptions from the turn's describeToolUses markers, by tool_use id: streamed
 * blocks are described in several calls (each description names its block); a description of an
 * older turn names none and is matched by position in the first call.
 */
function describedBlocks(events: readonly HistoryEvent[], blocks: readonly ToolUseBlock[]): Map<string, ToolUseDescription> {
  const out = new Map<string, ToolUseDescription>();
  let first = true;
  for (const e of events) {
    if (e.eventType !== ET.EVENT_TYPE_MARKER_RECORDED) continue;
    const m = e.markerRecordedEventAttributes;
    const data = m?.details?.data ? decode<{ activity_type?: string; activityType?: string }>(m.details.data) : undefined;
    const type = data?.activity_type ?? data?.activityType;
    if (type !== 'describeToolUses') continue;
    const result = m?.details?.result ? decode<ToolUseDescription[]>(m.details.result) : undefined;
    if (!Array.isArray(result)) continue;
    result.forEach((d, i) => {
      const id = d.toolUseId ?? (first && result.length === blocks.length ? blocks[i]?.id : undefined);
      if (id !== undefined && !out.has(id)) out.set(id, d);
    });
    first = false;
  }
  return out;
}

async function auditTurn(client: Client, ref: TurnRef, opts: BuildAuditOptions): Promise<TurnAudit | undefined> {
  let history: History;
  try {
    history = await client.workflow.getHandle(ref.workflowId, ref.runId).fetchHistory();
  } catch {
    return undefined;
  }
  const events = history.events ?? [];
  let input: TurnWorkflowInput | undefined;
  let result: TurnWorkflowResult | undefined;
  let open = true;
  let closeError: string | undefined;
  const approvals = new Map<string, { decision: 'approve' | 'deny'; by?: string; reason?: string; at?: number }>();
  let interruptedAt: number | undefined;
  for (const e of events) {
    switch (e.eventType) {
      case ET.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
        input = decode<TurnWorkflowInput>(e.workflowExecutionStartedEventAttributes?.input);
        break;
      case ET.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED: {
        const s = e.workflowExecutionSignaledEventAttributes;
        if (s?.signalName === 'turnApproval') {
          const d = decode<{ toolUseId: string; decision: 'approve' | 'deny'; by?: string; reason?: string }>(s.input);
          const at = msOf(e.eventTime);
          if (d && !approvals.has(d.toolUseId)) approvals.set(d.toolUseId, { ...d, ...(at !== undefined ? { at } : {}) });
        } else if (s?.signalName === 'turnInterrupt' && interruptedAt === undefined) {
          interruptedAt = msOf(e.eventTime);
        }
        break;
      }
      case ET.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
        open = false;
        result = decode<TurnWorkflowResult>(e.workflowExecutionCompletedEventAttributes?.result);
        break;
      case ET.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED:
        open = false;
        closeError = failureText(e.workflowExecutionFailedEventAttributes?.failure);
        break;
      case ET.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED:
      case ET.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED:
      case ET.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT:
        open = false;
        closeError = e.eventType === ET.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED ? 'cancelled' : e.eventType === ET.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED ? 'terminated' : 'timed out';
        break;
      default:
        break;
    }
  }
  const turn = input?.turn ?? ref.turn;

  const pending = new Map<string, PendingInfo>();
  if (open && (opts.describeRunningTurns ?? true)) {
    try {
      const d = await client.workflow.getHandle(ref.workflowId, ref.runId).describe();
      for (const p of d.raw.pendingActivities ?? []) {
        if (!p.activityId) continue;
        const lastFailure = failureText(p.lastFailure);
        const lastStartedAt = msOf(p.lastStartedTime);
        pending.set(p.activityId, { attempt: p.attempt ?? 0, ...(lastFailure ? { lastFailure } : {}), ...(lastStartedAt !== undefined ? { lastStartedAt } : {}) });
      }
    } catch {
      // No describe: the history alone (attempts of running activities unknown).
    }
  }

  const activities = trackActivities(events);
  const byId = new Map<string, ActivityTrack>();
  for (const a of activities) byId.set(a.activityId, a);

  // Compactions (compact-<n>) of this turn's model step.
  const compactions = activities.filter((a) => a.type === 'compactContext').map((a) => {
    const v = activityView(a, pending.get(a.activityId));
    return compactionEntry({ activityId: a.activityId, input: a.input, result: a.result, attempts: v.attempts, status: v.outcome === 'completed' ? 'ok' : v.outcome, ...(v.startedAt ?? v.scheduledAt ? { startedAt: (v.startedAt ?? v.scheduledAt) as string } : {}), ...(v.endedAt ? { endedAt: v.endedAt } : {}), failures: v.failures }, turn, ref.run);
  });
  // The model call. An outage or a compaction makes several model activities in one turn
  // (model-<n>, model-<n>-attempt-<k>, model-<n>-2 after a compaction): one model call with all
  // their attempts and failures; the last one answered.
  const modelTracks = activities.filter((a) => a.type === 'callModel');
  const modelTrack = modelTracks[modelTracks.length - 1];
  let model: AuditModelCall | undefined;
  let blocks: ToolUseBlock[] = [];
  if (modelTrack) {
    const views = modelTracks.map((t) => activityView(t, pending.get(t.activityId)));
    const last = views[views.length - 1] as AuditActivity;
    const view: AuditActivity = {
      ...last,
      attempts: views.reduce((n, v) => n + v.attempts, 0),
      failures: views.flatMap((v) => v.failures),
      ...(views[0]?.scheduledAt ? { scheduledAt: views[0].scheduledAt } : {}),
    };
    const mIn = modelTrack.input as CallModelInput | undefined;
    const out = modelTrack.outcome === 'completed' ? (modelTrack.result as ModelCallOutcome | undefined) : undefined;
    const mOut = out && out.kind !== 'compact' ? out : undefined;
    blocks = (mOut?.message.content ?? []).filter((b): b is ToolUseBlock => b.type === 'tool_use');
    const text = (mOut?.message.content ?? []).filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join(' ');
    model = {
      kind: 'model_call',
      turn,
      run: ref.run,
      activityId: modelTrack.activityId,
      model: mIn?.settings?.model ?? input?.model.model ?? '?',
      // A retried call began with its first attempt: history dates only the last start, so take the scheduling time.
      ...((view.attempts > 1 ? view.scheduledAt : view.startedAt ?? view.scheduledAt) ? { startedAt: (view.attempts > 1 ? view.scheduledAt : view.startedAt ?? view.scheduledAt) as string } : {}),
      ...(view.endedAt ? { endedAt: view.endedAt } : {}),
      attempts: view.attempts,
      status: view.outcome === 'completed' ? 'ok' : view.outcome,
      ...(mOut ? { usage: mOut.usage, stopReason: mOut.stopReason, messageId: mOut.messageId } : {}),
      ...(mOut?.requestId ? { requestId: mOut.requestId } : {}),
      fallback: mOut?.fallback ?? false,
      tombstones: (mOut?.tombstones ?? []).map((t: Tombstone) => ({
        attempt: t.attempt,
        error: t.error,
        eventsReceived: t.eventsReceived,
        partialPreview: partialPreview(t.partialContent ?? []),
      })),
      failures: view.failures,
      ...(text ? { textPreview: preview(text) } : {}),
      toolUseIds: blocks.map((b) => b.id),
    };
  }

  // The tool calls: every tool_use block of the answer, in block order.
  const compactById = new Map<string, CompactRecord>((result?.records ?? []).map((r) => [r.toolUseId, r]));
  const batchOf = new Map<string, { index: number; concurrent: boolean }>();
  if (result) {
    result.batches.forEach((b, index) => b.toolUseIds.forEach((id) => batchOf.set(id, { index, concurrent: b.concurrencySafe })));
  } else if (blocks.length > 0) {
    const described = describedBlocks(events, blocks);
    if (blocks.every((b) => described.has(b.id))) {
      partitionToolCalls(blocks, (b) => described.get(b.id)?.concurrencySafe === true).forEach((b, index) =>
        b.blocks.forEach((x) => batchOf.set(x.id, { index, concurrent: b.concurrencySafe })),
      );
    }
  }
  const ids = blocks.map((b) => b.id);
  for (const r of result?.records ?? []) if (!ids.includes(r.toolUseId)) ids.push(r.toolUseId);
  // Calls started while streaming that the final message did not hold: listed, marked discarded.
  const discardedById = new Map((result?.discarded ?? []).map((d) => [d.toolUseId, d] as const));
  for (const id of discardedById.keys()) if (!ids.includes(id)) ids.push(id);

  const tools: AuditToolCall[] = ids.map((toolUseId) => {
    const block = blocks.find((b) => b.id === toolUseId);
    const compact = compactById.get(toolUseId);
    // An Agent call's activities: the pipeline's pre phase (and its approve/deny re-run), then the post phase.
    const tracks = [
      byId.get(`tool-${toolUseId}`),
      byId.get(`tool-${toolUseId}-approve`),
      byId.get(`tool-${toolUseId}-deny`),
      byId.get(`agent-pre-${toolUseId}`),
      byId.get(`agent-pre-${toolUseId}-approve`),
      byId.get(`agent-pre-${toolUseId}-deny`),
      byId.get(`agent-post-${toolUseId}`),
    ].filter(
      (t): t is ActivityTrack => t !== undefined,
    );
    const views = tracks.map((t) => activityView(t, pending.get(t.activityId)));
    const results = tracks.map((t) => (t.outcome === 'completed' ? (t.result as ToolRunResult | undefined) : undefined));
    let doneIndex = -1;
    results.forEach((r, i) => {
      if (r?.kind === 'done') doneIndex = i;
    });
    const record: ToolCallRecord | undefined = doneIndex >= 0 ? (results[doneIndex] as { record: ToolCallRecord }).record : undefined;
    const askIndex = results.findIndex((r) => r?.kind === 'ask');
    const ask = askIndex >= 0 ? (results[askIndex] as { kind: 'ask'; message: string; detail?: string }) : undefined;
    const last = tracks[tracks.length - 1];
    const lastView = views[views.length - 1];

    // Approval: the ask, then the approve/deny activity and the signal that resolved it.
    let approval: AuditApproval | undefined;
    if (ask) {
      let askedReason: DecisionReason | undefined;
      try {
        askedReason = ask.detail ? (JSON.parse(ask.detail) as DecisionReason) : undefined;
      } catch {
        askedReason = undefined;
      }
      const follow = tracks.slice(askIndex + 1)[0];
      // The approve/deny activity's input carries the resolution the turn applied (human or timeout).
      const applied = (follow?.input as RunToolUseInput | undefined)?.approval;
      const signal = approvals.get(toolUseId);
      let resolution: AuditApproval['resolution'];
      if (follow) {
        resolution = applied?.source === 'timeout' || record?.decision?.source === 'timeout' ? 'timeout' : follow.activityId.endsWith('-approve') ? 'approve' : 'deny';
      } else if (!open || compact) {
        resolution = 'interrupted';
      }
      const by = applied?.by ?? record?.decision?.by ?? signal?.by;
      const reason = applied?.reason ?? signal?.reason;
      const resolvedAt = signal?.at ?? follow?.scheduledAt ?? (resolution === 'interrupted' ? interruptedAt : undefined);
      approval = {
        asked: auditDecision(decisionFromReason('ask', askedReason, ask.message)) as AuditDecision,
        message: ask.message,
        ...(tracks[askIndex]?.endedAt !== undefined ? { askedAt: iso(tracks[askIndex]?.endedAt) } : {}),
        ...(resolution ? { resolution } : {}),
        ...(resolvedAt !== undefined ? { resolvedAt: iso(resolvedAt) } : {}),
        ...(by !== undefined ? { by } : {}),
        ...(reason !== undefined ? { reason } : {}),
      };
    }

    // Status: the turn's result is final; otherwise what the activities say so far.
    const dropped = !compact && !block ? discardedById.get(toolUseId) : undefined;
    let status: AuditToolStatus;
    if (dropped) status = 'discarded';
    else if (compact) status = compact.status;
    else if (record) status = record.status;
    else if (ask && tracks.length === askIndex + 1) status = open ? 'awaiting_approval' : 'interrupted';
    else if (last && (last.outcome === 'scheduled' || last.outcome === 'running')) status = open ? 'running' : 'interrupted';
    else if (last?.outcome === 'cancelled') status = 'interrupted';
    else if (last?.outcome === 'failed' || last?.outcome === 'timed_out') status = 'error';
    else status = open ? 'pending' : 'interrupted';

    const final = compact && record && record.status !== compact.status ? undefined : record;
    let decision = auditDecision(final?.decision ?? compact?.decision);
    if (!decision && approval) decision = approval.asked;
    // A timeout's decision record has no text of its own: the reason is the one the turn applied.
    if (decision && decision.source === 'timeout' && !decision.reason && approval?.reason) decision = { ...decision, reason: approval.reason };
    const startMs = Math.min(
      ...[record?.startedAt, ...tracks.map((t) => (t.attempt > 1 ? t.scheduledAt : t.startedAt ?? t.scheduledAt))].filter((x): x is number => typeof x === 'number'),
    );
    const endMs = record?.endedAt ?? (last && last.outcome !== 'scheduled' && last.outcome !== 'running' ? last.endedAt : undefined);
    const content = final ? resultText(final.result) : '';
    const batch = batchOf.get(toolUseId);
    const reused = record?.reused === true || compact?.reused === true;
    const summary = record?.summary ?? compact?.summary ?? tracks[0]?.summary ?? block?.name ?? '?';
    const entry: AuditToolCall = {
      kind: 'tool_call',
      turn,
      run: ref.run,
      toolUseId,
      tool: block?.name ?? record?.toolName ?? compact?.toolName ?? '?',
      ...(tracks.some((t) => t.activityId.startsWith('agent-')) ? { subagent: subagentSessionId(ref.workflowId.replace(/\/turn-\d+$/, ''), toolUseId) } : {}),
      input: final?.input ?? block?.input ?? (tracks[0]?.input as RunToolUseInput | undefined)?.block.input,
      summary,
      ...(decision ? { decision } : {}),
      ...(approval ? { approval } : {}),
      attempts: lastView?.attempts ?? 0,
      activities: views,
      ...(Number.isFinite(startMs) ? { startedAt: iso(startMs) } : {}),
      ...(endMs !== undefined ? { endedAt: iso(endMs) } : status === 'interrupted' && interruptedAt !== undefined ? { endedAt: iso(interruptedAt) } : {}),
      status,
      ...(final ? { isError: final.result.is_error === true } : compact ? { isError: compact.status !== 'ok' } : {}),
      resultPreview: dropped ? `never sent to the model (${dropped.state}): ${dropped.reason}` : compact ? preview(compact.preview) : final ? preview(content) : '',
      ...(batch ? { batch: batch.index, concurrent: batch.concurrent } : {}),
      ...(reused ? { reused: true } : {}),
      ...(compact?.early || record?.early || dropped ? { early: true } : {}),
      ...(dropped ? { discarded: { state: dropped.state, reason: dropped.reason, stream: dropped.stream } } : {}),
      ...(final?.persistedTo ? { persistedTo: final.persistedTo } : {}),
      ...(final?.notices?.length ? { notices: final.notices } : {}),
      ...(final?.hooks ? { hooks: final.hooks } : {}),
      ...(final?.sandbox ? { sandbox: final.sandbox } : {}),
    };
    return entry;
  });

  if (closeError && model && model.status !== 'ok' && !model.failures.includes(closeError)) model.failures.push(closeError);
  return {
    ...(model ? { model } : {}),
    tools,
    compactions,
    open,
    ...(result?.reason ? { reason: result.reason } : closeError ? { reason: `failed: ${closeError}` } : {}),
    usage: compactions.reduce((u, c) => addUsage(u, c.usage), addUsage({ input_tokens: 0, output_tokens: 0 }, model?.usage)),
  };
}

// ---------------------------------------------------------------------------------------------
// The session

interface RunInfo {
  runId: string;
  events: HistoryEvent[];
}

/** The runs of the session, oldest first: from the latest (or given) run back along continuedExecutionRunId. */
async function sessionRuns(client: Client, sessionId: string, runId?: string): Promise<RunInfo[]> {
  let current: string;
  try {
    current = runId ?? (await client.workflow.getHandle(sessionId).describe()).runId;
  } catch (err) {
    if (isWorkflowNotFound(err)) throw new SessionNotFoundError(sessionId);
    throw err;
  }
  const runs: RunInfo[] = [];
  const seen = new Set<string>();
  while (current && !seen.has(current)) {
    seen.add(current);
    const history = await client.workflow.getHandle(sessionId, current).fetchHistory();
    const events = history.events ?? [];
    runs.unshift({ runId: current, events });
    const first = events[0];
    current = first?.eventType === ET.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED ? first.workflowExecutionStartedEventAttributes?.continuedExecutionRunId ?? '' : '';
  }
  return runs;
}

/** Rebuilds the audit trail of a session from its Temporal histories alone. */
export async function buildAudit(client: Client, sessionId: string, opts: BuildAuditOptions = {}): Promise<AuditReport> {
  const runs = await sessionRuns(client, sessionId, opts.runId);
  const turnRefs: TurnRef[] = [];
  let sessionInput: SessionInput | undefined;
  let sandboxLine: string | undefined;
  let startedAt: number | undefined;
  let endedAt: number | undefined;
  let closeStatus: string | undefined;
  let endReason: string | undefined;
  const messages: AuditSession['messages'] = [];
  const interrupts: AuditSession['interrupts'] = [];

  runs.forEach((run, runIndex) => {
    const initiated = new Map<string, TurnRef>();
    for (const e of run.events) {
      const at = msOf(e.eventTime);
      switch (e.eventType) {
        case ET.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
          if (runIndex === 0) {
            sessionInput = decode<SessionInput>(e.workflowExecutionStartedEventAttributes?.input);
            sandboxLine = decodeOne<string>(e.workflowExecutionStartedEventAttributes?.memo?.fields?.sandbox);
            startedAt = at;
          }
          break;
        case ET.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED: {
          const a = e.startChildWorkflowExecutionInitiatedEventAttributes;
          const workflowId = a?.workflowId ?? '';
          const m = workflowId.startsWith(`${sessionId}/turn-`) ? /\/turn-(\d+)$/.exec(workflowId) : null;
          if (!m) break;
          const ref: TurnRef = { turn: Number(m[1]), run: runIndex, workflowId };
          initiated.set(String(e.eventId), ref);
          turnRefs.push(ref);
          break;
        }
        case ET.EVENT_TYPE_CHILD_WORKFLOW_EXECUTION_STARTED: {
          const a = e.childWorkflowExecutionStartedEventAttributes;
          const ref = initiated.get(String(a?.initiatedEventId));
          if (ref && a?.workflowExecution?.runId) ref.runId = a.workflowExecution.runId;
          break;
        }
        case ET.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_FAILED: {
          const a = e.startChildWorkflowExecutionFailedEventAttributes;
          const ref = initiated.get(String(a?.initiatedEventId));
          if (ref) turnRefs.splice(turnRefs.indexOf(ref), 1);
          break;
        }
        case ET.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED: {
          const s = e.workflowExecutionSignaledEventAttributes;
          if (s?.signalName === 'sendMessage') {
            const m = decode<{ text: string }>(s.input);
            if (m && typeof m.text === 'string') messages.push({ ...(at !== undefined ? { at: iso(at) } : {}), text: m.text });
          } else if (s?.signalName === 'interrupt') {
            const i = decode<{ by?: string; reason?: string }>(s.input) ?? {};
            interrupts.push({ ...(at !== undefined ? { at: iso(at) } : {}), ...(i.by ? { by: i.by } : {}), ...(i.reason ? { reason: i.reason } : {}) });
          }
          break;
        }
        case ET.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED: {
          const r = decode<SessionResult>(e.workflowExecutionCompletedEventAttributes?.result);
          closeStatus = r?.status ?? 'completed';
          endReason = r?.endReason;
          endedAt = at;
          break;
        }
        case ET.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED:
          closeStatus = 'failed';
          endReason = failureText(e.workflowExecutionFailedEventAttributes?.failure);
          endedAt = at;
          break;
        case ET.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED:
          closeStatus = 'cancelled';
          endedAt = at;
          break;
        case ET.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED:
          closeStatus = 'terminated';
          endReason = e.workflowExecutionTerminatedEventAttributes?.reason ?? undefined;
          endedAt = at;
          break;
        case ET.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT:
          closeStatus = 'timed_out';
          endedAt = at;
          break;
        default:
          break;
      }
    }
  });

  const turns = await mapLimit(turnRefs, opts.concurrency ?? 6, (ref) => auditTurn(client, ref, opts));
  const modelCalls: AuditModelCall[] = [];
  const toolCalls: AuditToolCall[] = [];
  const compactions: AuditCompaction[] = [];
  let usage: Usage = { input_tokens: 0, output_tokens: 0 };
  for (const t of turns) {
    if (!t) continue;
    if (t.model) modelCalls.push(t.model);
    toolCalls.push(...t.tools);
    compactions.push(...t.compactions);
    usage = addUsage(usage, t.usage);
  }

  let status = closeStatus;
  if (!status) {
    const lastTurn = [...turns].reverse().find((t) => t !== undefined);
    if (toolCalls.some((c) => c.status === 'awaiting_approval')) status = 'awaiting_approval';
    else if (lastTurn && !lastTurn.open && lastTurn.reason === 'interrupted') status = 'interrupted';
    else status = 'running';
  }

  const session: AuditSession = {
    kind: 'session',
    sessionId,
    prompt: sessionInput?.prompt ?? '',
    ...(sessionInput?.model?.model ? { model: sessionInput.model.model } : {}),
    ...(sessionInput?.cwd ? { cwd: sessionInput.cwd } : {}),
    ...(sessionInput?.permissionMode ? { permissionMode: sessionInput.permissionMode } : {}),
    ...(typeof sandboxLine === 'string' ? { sandbox: sandboxLine } : {}),
    ...(sessionInput?.sandbox ? { sandboxSettings: sessionInput.sandbox } : {}),
    ...(sessionInput?.settingsSources ? { settingsSources: sessionInput.settingsSources } : {}),
    ...(sessionInput?.memory ? { memory: { files: sessionInput.memory.files, sha256: sessionInput.memory.sha256 } } : {}),
    status,
    ...(endReason ? { endReason } : {}),
    runs: runs.length,
    runIds: runs.map((r) => r.runId),
    turns: turnRefs.length,
    ...(startedAt !== undefined ? { startedAt: iso(startedAt) } : {}),
    ...(endedAt !== undefined ? { endedAt: iso(endedAt) } : {}),
    usage,
    ...(compactions.length ? { compactions: compactions.length } : {}),
    toolCalls: toolCalls.length,
    modelCalls: modelCalls.length,
    messages,
    interrupts,
  };
  // Subagents: each Agent call's child session, audited the same way (the tree: session → agent → …).
  const subagents: AuditReport[] = [];
  if (opts.subagents !== false) {
    for (const c of toolCalls) {
      if (!c.subagent) continue;
      try {
        const { runId: _parentRun, ...childOpts } = opts;
        subagents.push(await buildAudit(client, c.subagent, childOpts));
      } catch {
        // never started (denied, interrupted before it ran): the call's own entry says so
      }
    }
  }
  return { session, modelCalls, toolCalls, ...(compactions.length ? { compactions } : {}), ...(subagents.length ? { subagents } : {}) };
}
