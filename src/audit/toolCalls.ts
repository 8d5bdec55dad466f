// A turn's tool calls in the audit: every tool_use block of the answer, in block order, with its
// activities (`tool-<id>`, its approve/deny re-run, an Agent call's two phases), decision,
// approval, batch and result — matched through the same id functions the workflows use.
import type { RunToolUseInput } from '../toolCall/tools';
import { decisionFromReason } from '../toolCall/pipeline/outcomeRecords';
import { decidedByActivityId, isSubagentActivityId, sessionOfTurnWorkflowId, toolCallActivityIds } from '../core/ids';
import type { ToolResultBlockParam, ToolUseBlock } from '../core/apiMessages';
import { toolResultText } from '../core/apiMessages';
import { partitionToolCalls } from '../core/partition';
import type { DecisionRecord, ToolCallRecord } from '../core/toolRecords';
import { subagentSessionId } from '../core/subagents';
import type { ToolRunResult } from '../core/turn';
import { decisionFromHistory } from '../core/payloads';
import type { DecisionReason } from '../toolProtocol/Tool';
import type { CompactRecord, TurnWorkflowResult } from '../temporal/workflows/definitions';
import {
  activityView,
  describedBlocks,
  iso,
  streamedBlocks,
  preview,
  type ActivityTrack,
  type HistoryDecoder,
  type HistoryEvent,
  type PendingInfo,
} from './history';
import type { AuditApproval, AuditDecision, AuditToolCall, AuditToolStatus, DecisionSource, TurnRef } from './types';

type Discarded = NonNullable<TurnWorkflowResult['discarded']>[number];

export interface TurnSignals {
  approvals: Map<string, { decision: 'approve' | 'deny'; by?: string; reason?: string; at?: number }>;
  interruptedAt?: number;
}

export interface TurnToolContext {
  ref: TurnRef;
  turn: number;
  open: boolean;
  result: TurnWorkflowResult | undefined;
  blocks: ToolUseBlock[];
  events: readonly HistoryEvent[];
  decoder: HistoryDecoder;
  byId: Map<string, ActivityTrack>;
  pending: Map<string, PendingInfo>;
  signals: TurnSignals;
  /** The turn's permission mode: a decision by it is recorded without naming it (issue 33). */
  mode?: string;
}

const SOURCES: readonly DecisionSource[] = [
  'rule',
  'mode',
  'hook',
  'tool',
  'workingDirectory',
  'human',
  'timeout',
  'sandbox',
  'safetyCheck',
  'other',
];

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

function resultText(result: ToolResultBlockParam | undefined): string {
  if (!result) return '';
  return toolResultText(result);
}

export async function auditToolCalls(ctx: TurnToolContext): Promise<AuditToolCall[]> {
  const { result, blocks } = ctx;
  const compactById = new Map<string, CompactRecord>((result?.records ?? []).map((r) => [r.toolUseId, r]));
  const batchOf = new Map<string, { index: number; concurrent: boolean }>();
  if (result) {
    result.batches.forEach((b, index) =>
      b.toolUseIds.forEach((id) => batchOf.set(id, { index, concurrent: b.concurrencySafe })),
    );
  } else if (blocks.length > 0) {
    const described = await describedBlocks(ctx.events, ctx.decoder, blocks);
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
  // A call sent by its tool_use id (issue 33) whose block the answer does not hold: the signal's.
  const streamed = ids.some((id) => !blocks.some((b) => b.id === id))
    ? await streamedBlocks(ctx.events, ctx.decoder)
    : new Map<string, ToolUseBlock>();
  return ids.map((toolUseId) =>
    toolCallEntry(
      ctx,
      toolUseId,
      compactById.get(toolUseId),
      batchOf.get(toolUseId),
      discardedById.get(toolUseId),
      streamed.get(toolUseId),
    ),
  );
}

function toolCallEntry(
  ctx: TurnToolContext,
  toolUseId: string,
  compact: CompactRecord | undefined,
  batch: { index: number; concurrent: boolean } | undefined,
  discarded: Discarded | undefined,
  streamed: ToolUseBlock | undefined,
): AuditToolCall {
  const { ref, turn, open, signals } = ctx;
  const block = ctx.blocks.find((b) => b.id === toolUseId);
  // The call's activities: the call (or an Agent call's pre phase), its approve/deny re-run, the post phase.
  const tracks = toolCallActivityIds(toolUseId)
    .map((id) => ctx.byId.get(id))
    .filter((t): t is ActivityTrack => t !== undefined);
  const views = tracks.map((t) => activityView(t, ctx.pending.get(t.activityId)));
  const results = tracks.map((t) => (t.outcome === 'completed' ? (t.result as ToolRunResult | undefined) : undefined));
  let doneIndex = -1;
  results.forEach((r, i) => {
    if (r?.kind === 'done') doneIndex = i;
  });
  const record: ToolCallRecord | undefined =
    doneIndex >= 0 ? (results[doneIndex] as { record: ToolCallRecord }).record : undefined;
  const askIndex = results.findIndex((r) => r?.kind === 'ask');
  const ask = askIndex >= 0 ? (results[askIndex] as { kind: 'ask'; message: string; detail?: string }) : undefined;
  const last = tracks[tracks.length - 1];
  const lastView = views[views.length - 1];

  const approval = ask ? approvalOf(ctx, toolUseId, tracks, askIndex, ask, record, compact) : undefined;
  const dropped = !compact && !block ? discarded : undefined;
  const status = statusOf(open, { dropped, compact, record, asked: ask !== undefined, askIndex, tracks, last });

  const final = compact && record && record.status !== compact.status ? undefined : record;
  // A turn's result leaves out a stored result's decision: the tool activity's record holds it (issue 33).
  const keptDecision = compact && !compact.decision && record?.resultRef ? record.decision : undefined;
  const recorded = final?.decision ?? compact?.decision ?? keptDecision;
  let decision = auditDecision(recorded && decisionFromHistory(recorded, ctx.mode));
  if (!decision && approval) decision = approval.asked;
  // A timeout's decision record has no text of its own: the reason is the one the turn applied.
  if (decision && decision.source === 'timeout' && !decision.reason && approval?.reason)
    decision = { ...decision, reason: approval.reason };
  const startMs = Math.min(
    ...[
      record?.startedAt,
      ...tracks.map((t) => (t.attempt > 1 ? t.scheduledAt : (t.startedAt ?? t.scheduledAt))),
    ].filter((x): x is number => typeof x === 'number'),
  );
  const endMs =
    record?.endedAt ?? (last && last.outcome !== 'scheduled' && last.outcome !== 'running' ? last.endedAt : undefined);
  const content = final ? resultText(final.result) : '';
  const reused = record?.reused === true || compact?.reused === true;
  const summary = record?.summary ?? compact?.summary ?? tracks[0]?.summary ?? block?.name ?? '?';
  const sessionId = sessionOfTurnWorkflowId(ref.workflowId) ?? ref.workflowId;
  return {
    kind: 'tool_call',
    turn,
    run: ref.run,
    toolUseId,
    tool: block?.name ?? record?.toolName ?? compact?.toolName ?? streamed?.name ?? '?',
    ...(tracks.some((t) => isSubagentActivityId(t.activityId))
      ? { subagent: subagentSessionId(sessionId, toolUseId) }
      : {}),
    input: final?.input ?? block?.input ?? (tracks[0]?.input as RunToolUseInput)?.block?.input ?? streamed?.input,
    summary,
    ...(decision ? { decision } : {}),
    ...(approval ? { approval } : {}),
    attempts: lastView?.attempts ?? 0,
    activities: views,
    ...(Number.isFinite(startMs) ? { startedAt: iso(startMs) } : {}),
    ...(endMs !== undefined
      ? { endedAt: iso(endMs) }
      : status === 'interrupted' && signals.interruptedAt !== undefined
        ? { endedAt: iso(signals.interruptedAt) }
        : {}),
    status,
    ...(final ? { isError: final.result.is_error === true } : compact ? { isError: compact.status !== 'ok' } : {}),
    resultPreview: dropped
      ? `never sent to the model (${dropped.state}): ${dropped.reason}`
      : compact
        ? // Left out of the turn's result when the tool activity's result holds it (issue 33).
          preview(compact.preview ?? (record ? resultText(record.result) : ''))
        : final
          ? preview(content)
          : '',
    ...(batch ? { batch: batch.index, concurrent: batch.concurrent } : {}),
    ...(reused ? { reused: true } : {}),
    ...(compact?.early || record?.early || dropped ? { early: true } : {}),
    ...(dropped ? { discarded: { state: dropped.state, reason: dropped.reason, stream: dropped.stream } } : {}),
    ...(final?.persistedTo ? { persistedTo: final.persistedTo } : {}),
    ...(final?.notices?.length ? { notices: final.notices } : {}),
    ...(final?.hooks ? { hooks: final.hooks } : {}),
    ...(final?.sandbox ? { sandbox: final.sandbox } : {}),
    ...(final?.network ? { network: final.network } : {}),
    ...(record?.modelUsage ? { modelUsage: record.modelUsage } : {}),
    ...(final?.controlWrites?.length
      ? { controlWrites: final.controlWrites }
      : compact?.controlWrites?.length
        ? { controlWrites: compact.controlWrites }
        : {}),
  };
}

/** Approval: the ask, then the approve/deny activity and the signal that resolved it. */
function approvalOf(
  ctx: TurnToolContext,
  toolUseId: string,
  tracks: ActivityTrack[],
  askIndex: number,
  ask: { kind: 'ask'; message: string; detail?: string },
  record: ToolCallRecord | undefined,
  compact: CompactRecord | undefined,
): AuditApproval {
  let askedReason: DecisionReason | undefined;
  try {
    askedReason = ask.detail ? (JSON.parse(ask.detail) as DecisionReason) : undefined;
  } catch {
    askedReason = undefined;
  }
  const follow = tracks.slice(askIndex + 1)[0];
  // The approve/deny activity's input carries the resolution the turn applied (human or timeout).
  const applied = (follow?.input as RunToolUseInput | undefined)?.approval;
  const signal = ctx.signals.approvals.get(toolUseId);
  let resolution: AuditApproval['resolution'];
  if (follow) {
    resolution =
      applied?.source === 'timeout' || record?.decision?.source === 'timeout'
        ? 'timeout'
        : (decidedByActivityId(follow.activityId) ?? 'deny');
  } else if (!ctx.open || compact) {
    resolution = 'interrupted';
  }
  const by = applied?.by ?? record?.decision?.by ?? signal?.by;
  const reason = applied?.reason ?? signal?.reason;
  const resolvedAt =
    signal?.at ?? follow?.scheduledAt ?? (resolution === 'interrupted' ? ctx.signals.interruptedAt : undefined);
  return {
    asked: auditDecision(decisionFromReason('ask', askedReason, ask.message)) as AuditDecision,
    message: ask.message,
    ...(tracks[askIndex]?.endedAt !== undefined ? { askedAt: iso(tracks[askIndex]?.endedAt) } : {}),
    ...(resolution ? { resolution } : {}),
    ...(resolvedAt !== undefined ? { resolvedAt: iso(resolvedAt) } : {}),
    ...(by !== undefined ? { by } : {}),
    ...(reason !== undefined ? { reason } : {}),
  };
}

/** Status: the turn's result is final; otherwise what the activities say so far. */
function statusOf(
  open: boolean,
  c: {
    dropped: Discarded | undefined;
    compact: CompactRecord | undefined;
    record: ToolCallRecord | undefined;
    asked: boolean;
    askIndex: number;
    tracks: ActivityTrack[];
    last: ActivityTrack | undefined;
  },
): AuditToolStatus {
  const { last } = c;
  if (c.dropped) return 'discarded';
  if (c.compact) return c.compact.status;
  if (c.record) return c.record.status;
  if (c.asked && c.tracks.length === c.askIndex + 1) return open ? 'awaiting_approval' : 'interrupted';
  if (last && (last.outcome === 'scheduled' || last.outcome === 'running')) return open ? 'running' : 'interrupted';
  if (last?.outcome === 'cancelled') return 'interrupted';
  if (last?.outcome === 'failed' || last?.outcome === 'timed_out') return 'error';
  return open ? 'pending' : 'interrupted';
}
