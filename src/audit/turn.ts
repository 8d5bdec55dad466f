// One turn's audit, from the turn child workflow's history: its input and result, the
// approve/deny and interrupt signals, the model call (all its attempts), compactions and tool calls.
import { callModelUsage } from '../core/modelUsage';
import { modelAnswerFromHistory, turnResultFromHistory } from '../core/payloads';
import type { Client } from '@temporalio/client';
import type { LoadedDataConverter } from '@temporalio/common';
import type { CallModelInput, ModelCallOutcome, Tombstone } from '../runtime/model';
import { addUsage } from '../core/contextWindow';
import { ACTIVITY_TYPES, SIGNALS } from '../core/ids';
import type { AssistantContentBlock, ToolUseBlock, Usage } from '../core/apiMessages';
import type { TurnWorkflowInput, TurnWorkflowResult } from '../temporal/workflows/definitions';
import { compactionEntry } from './compactions';
import {
  activityView,
  describeRaw,
  ET,
  failureText,
  fetchEvents,
  HistoryDecoder,
  msOf,
  preview,
  trackActivities,
  type ActivityTrack,
  type PendingInfo,
} from './history';
import { auditToolCalls, type TurnSignals } from './toolCalls';
import type { AuditActivity, AuditCompaction, AuditGap, AuditModelCall, AuditToolCall, TurnRef } from './types';

export type { TurnRef } from './types';

export interface TurnAudit {
  model?: AuditModelCall;
  tools: AuditToolCall[];
  compactions: AuditCompaction[];
  open: boolean;
  reason?: string;
  usage?: Usage;
}

export interface TurnAuditOptions {
  /** Ask the server about a running turn's pending activities (attempts so far, last failure). Default true. */
  describeRunningTurns?: boolean;
}

function partialPreview(content: AssistantContentBlock[]): string {
  return preview(
    content
      .map((b) =>
        b.type === 'text'
          ? b.text
          : b.type === 'tool_use'
            ? `[tool_use ${b.id} ${b.name} ${JSON.stringify(b.input)}]`
            : b.type === 'redacted_thinking'
              ? '[redacted thinking]'
              : '[thinking]',
      )
      .join(' '),
  );
}

/**
 * A turn child's audit, one entry per model step (a child of several steps, issue 33: turns n, n+1, …
 * as the session counts them); undefined (and a gap) when its history cannot be fetched.
 */
export async function auditTurn(
  client: Client,
  converter: LoadedDataConverter,
  ref: TurnRef,
  opts: TurnAuditOptions,
  gaps: AuditGap[],
): Promise<TurnAudit[] | undefined> {
  const where = { workflowId: ref.workflowId, ...(ref.runId ? { runId: ref.runId } : {}), turn: ref.turn };
  const events = await fetchEvents(client, where, `turn ${ref.turn}: its model call, compactions and tool calls`);
  if (!Array.isArray(events)) {
    gaps.push(events);
    return undefined;
  }
  const decoder = new HistoryDecoder(converter, where, gaps);
  const read = await readTurnEvents(events, decoder);
  const turn = read.input?.turn ?? ref.turn;
  const pending =
    read.open && (opts.describeRunningTurns ?? true)
      ? await pendingActivities(client, ref, where, turn, gaps)
      : new Map<string, PendingInfo>();

  const activities = await trackActivities(events, decoder);
  const byId = new Map<string, ActivityTrack>();
  for (const a of activities) byId.set(a.activityId, a);
  const steps = stepTurnsOf(activities, turn);
  const audits: TurnAudit[] = [];
  for (const [i, t] of steps.entries()) {
    const last = i === steps.length - 1;
    // A step's model activities; compactions end a child's steps (core/turnSteps.ts): the last step's.
    const own = activities.filter((a) => a.type !== ACTIVITY_TYPES.callModel || modelTurnOf(a.activityId) === t);
    const step = { ...read, open: read.open && last, ...(last ? {} : { closeError: undefined }) };
    const stepAudit = await auditStep(
      { ref: { ...ref, turn: t }, turn: t, last, own, byId, pending, events, decoder },
      step,
    );
    audits.push(stepAudit);
  }
  return audits;
}

/** The model steps of a child: the turn numbers of its model activities (`model-<n>…`), at least its own. */
function stepTurnsOf(activities: ActivityTrack[], turn: number): number[] {
  const turns = new Set<number>([turn]);
  for (const a of activities)
    if (a.type === ACTIVITY_TYPES.callModel) {
      const n = modelTurnOf(a.activityId);
      if (n !== undefined) turns.add(n);
    }
  return [...turns].sort((a, b) => a - b);
}

const modelTurnOf = (activityId: string): number | undefined => {
  const m = /^model-(\d+)/.exec(activityId);
  return m ? Number(m[1]) : undefined;
};

interface StepScope {
  ref: TurnRef;
  turn: number;
  last: boolean;
  own: ActivityTrack[];
  byId: Map<string, ActivityTrack>;
  pending: Map<string, PendingInfo>;
  events: HistoryEvent[];
  decoder: HistoryDecoder;
}

/** One model step's audit: its model call, compactions and tool calls (a child's result cut to the step's calls). */
async function auditStep(s: StepScope, read: TurnEvents): Promise<TurnAudit> {
  const { ref, turn, own, pending } = s;
  const { input, open, closeError, signals } = read;
  const compactions = s.last ? compactionsOf(own, pending, turn, ref.run) : [];
  const { model, blocks } = modelCallOf(own, pending, input, turn, ref.run);
  const result = read.result && (read.result.steps ?? 1) > 1 ? stepResult(read.result, blocks, s.last) : read.result;
  const tools = await auditToolCalls({
    ref,
    turn,
    open,
    result,
    blocks,
    events: s.events,
    decoder: s.decoder,
    byId: s.byId,
    pending,
    signals,
    ...(input?.permissionMode ? { mode: input.permissionMode } : {}),
  });

  if (closeError && model && model.status !== 'ok' && !model.failures.includes(closeError))
    model.failures.push(closeError);
  return {
    ...(model ? { model } : {}),
    tools,
    compactions,
    open,
    ...(result?.reason ? { reason: result.reason } : closeError ? { reason: `failed: ${closeError}` } : {}),
    usage: compactions.reduce(
      (u, c) => addUsage(u, c.usage),
      addUsage({ input_tokens: 0, output_tokens: 0 }, model?.usage),
    ),
  };
}

/** A child's result as one of its steps had it: that step's records, batches and discarded calls (the rest: the last). */
function stepResult(result: TurnWorkflowResult, blocks: ToolUseBlock[], last: boolean): TurnWorkflowResult {
  const ids = new Set(blocks.map((b) => b.id));
  const inStep = (id: string): boolean => ids.has(id);
  return {
    ...result,
    reason: last ? result.reason : 'tool_use',
    records: result.records.filter((r) => inStep(r.toolUseId)),
    batches: result.batches.filter((b) => b.toolUseIds.some(inStep)),
    ...(result.discarded ? { discarded: last ? result.discarded : [] } : {}),
  };
}

type HistoryEvent = Extract<Awaited<ReturnType<typeof fetchEvents>>, unknown[]>[number];

interface TurnEvents {
  input: TurnWorkflowInput | undefined;
  result: TurnWorkflowResult | undefined;
  open: boolean;
  closeError: string | undefined;
  signals: TurnSignals;
}

/** The turn workflow's own events: its input, its approval and interrupt signals, how it closed. */
async function readTurnEvents(events: HistoryEvent[], decoder: HistoryDecoder): Promise<TurnEvents> {
  const t: TurnEvents = {
    input: undefined,
    result: undefined,
    open: true,
    closeError: undefined,
    signals: { approvals: new Map() },
  };
  for (const e of events) {
    switch (e.eventType) {
      case ET.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
        t.input = await decoder.at<TurnWorkflowInput>(
          e.workflowExecutionStartedEventAttributes?.input,
          e,
          'turn input',
        );
        break;
      case ET.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
        await readSignal(e, decoder, t.signals);
        break;
      case ET.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
        t.open = false;
        t.result = await decoder.at<TurnWorkflowResult>(
          e.workflowExecutionCompletedEventAttributes?.result,
          e,
          'turn result',
        );
        if (t.result) t.result = turnResultFromHistory(t.result);
        break;
      case ET.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED:
        t.open = false;
        t.closeError = failureText(e.workflowExecutionFailedEventAttributes?.failure);
        break;
      case ET.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED:
      case ET.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED:
      case ET.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT:
        t.open = false;
        t.closeError =
          e.eventType === ET.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED
            ? 'cancelled'
            : e.eventType === ET.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED
              ? 'terminated'
              : 'timed out';
        break;
      default:
        break;
    }
  }
  return t;
}

/** An approve/deny signal (the first per call counts) or the first interrupt. */
async function readSignal(e: HistoryEvent, decoder: HistoryDecoder, signals: TurnSignals): Promise<void> {
  const s = e.workflowExecutionSignaledEventAttributes;
  if (s?.signalName === SIGNALS.turnApproval) {
    const d = await decoder.at<{ toolUseId: string; decision: 'approve' | 'deny'; by?: string; reason?: string }>(
      s.input,
      e,
      'approval signal',
    );
    const at = msOf(e.eventTime);
    if (d && !signals.approvals.has(d.toolUseId))
      signals.approvals.set(d.toolUseId, { ...d, ...(at !== undefined ? { at } : {}) });
  } else if (s?.signalName === SIGNALS.turnInterrupt && signals.interruptedAt === undefined) {
    const at = msOf(e.eventTime);
    if (at !== undefined) signals.interruptedAt = at;
  }
}

/** A running turn's pending activities as the server describes them (attempts so far, last failure); a gap if it cannot. */
async function pendingActivities(
  client: Client,
  ref: TurnRef,
  where: { workflowId: string; runId?: string; turn: number },
  turn: number,
  gaps: AuditGap[],
): Promise<Map<string, PendingInfo>> {
  const pending = new Map<string, PendingInfo>();
  try {
    const d = await describeRaw(client, ref.workflowId, ref.runId);
    for (const p of d.pendingActivities ?? []) {
      if (!p.activityId) continue;
      const lastFailure = failureText(p.lastFailure);
      const lastStartedAt = msOf(p.lastStartedTime);
      pending.set(p.activityId, {
        attempt: p.attempt ?? 0,
        ...(lastFailure ? { lastFailure } : {}),
        ...(lastStartedAt !== undefined ? { lastStartedAt } : {}),
      });
    }
  } catch (err) {
    gaps.push({
      kind: 'gap',
      what: 'pending_activities',
      ...where,
      error: err instanceof Error ? err.message : String(err),
      missing: `turn ${turn}: attempts and last failures of its running activities (the history alone is reported)`,
    });
  }
  return pending;
}

/** Compactions (compact-<n>) of this turn's model step. */
function compactionsOf(
  activities: ActivityTrack[],
  pending: Map<string, PendingInfo>,
  turn: number,
  run: number,
): AuditCompaction[] {
  return activities
    .filter((a) => a.type === ACTIVITY_TYPES.compactContext)
    .map((a) => {
      const v = activityView(a, pending.get(a.activityId));
      const startedAt = v.startedAt ?? v.scheduledAt;
      return compactionEntry(
        {
          activityId: a.activityId,
          input: a.input,
          result: a.result,
          attempts: v.attempts,
          status: v.outcome === 'completed' ? 'ok' : v.outcome,
          ...(startedAt ? { startedAt } : {}),
          ...(v.endedAt ? { endedAt: v.endedAt } : {}),
          failures: v.failures,
        },
        turn,
        run,
      );
    });
}

/**
 * The model call. An outage or a compaction makes several model activities in one turn
 * (model-<n>, model-<n>-attempt-<k>, model-<n>-2 after a compaction): one model call with all
 * their attempts and failures; the last one answered.
 */
function modelCallOf(
  activities: ActivityTrack[],
  pending: Map<string, PendingInfo>,
  input: TurnWorkflowInput | undefined,
  turn: number,
  run: number,
): { model?: AuditModelCall; blocks: ToolUseBlock[] } {
  const modelTracks = activities.filter((a) => a.type === ACTIVITY_TYPES.callModel);
  const modelTrack = modelTracks[modelTracks.length - 1];
  if (!modelTrack) return { blocks: [] };
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
  // Whole again: history leaves out what can be rebuilt (core/payloads.ts `modelAnswerForHistory`).
  const mOut = out && out.kind !== 'compact' ? modelAnswerFromHistory(out) : undefined;
  const blocks = (mOut?.message.content ?? []).filter((b): b is ToolUseBlock => b.type === 'tool_use');
  const text = (mOut?.message.content ?? [])
    .filter((b) => b.type === 'text')
    .map((b) => (b as { text: string }).text)
    .join(' ');
  const thinking = (mOut?.message.content ?? []).filter((b) => b.type === 'thinking').length;
  const redacted = (mOut?.message.content ?? []).filter((b) => b.type === 'redacted_thinking').length;
  // A retried call began with its first attempt: history dates only the last start, so take the scheduling time.
  const startedAt = view.attempts > 1 ? view.scheduledAt : (view.startedAt ?? view.scheduledAt);
  const model: AuditModelCall = {
    kind: 'model_call',
    turn,
    run,
    activityId: modelTrack.activityId,
    model: mIn?.settings?.model ?? input?.model.model ?? '?',
    ...(startedAt ? { startedAt } : {}),
    ...(view.endedAt ? { endedAt: view.endedAt } : {}),
    attempts: view.attempts,
    status: view.outcome === 'completed' ? 'ok' : view.outcome,
    ...(mOut ? { usage: mOut.usage, stopReason: mOut.stopReason, messageId: mOut.messageId } : {}),
    ...(mOut?.usage
      ? {
          modelUsage:
            mOut.modelUsage ?? callModelUsage(mIn?.settings?.model ?? input?.model.model ?? 'unknown', mOut.usage),
        }
      : {}),
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
    ...(thinking + redacted > 0 ? { thinkingBlocks: thinking + redacted } : {}),
    ...(redacted > 0 ? { redactedThinkingBlocks: redacted } : {}),
  };
  return { model, blocks };
}
