// The turn algorithm, written once against an abstract executor (invariant 9 of the issue):
// the Temporal workflows supply activity-backed executors, src/inprocess supplies an in-process one.
// Pure and deterministic: no I/O, no clocks, no randomness — it is bundled into workflows.
import { applyContextModifiers, type AgentContext } from './context';
import { toolUseBlocksOf, type AssistantMessage, type StopDetails, type ToolUseBlock, type Usage } from './apiMessages';
import { cutOffRecord, cutOffToolUse } from './cutOff';
import { mapWithConcurrency, partitionToolCalls, type Batch } from './partition';
import { interruptedRecord, syntheticRecord, type ToolCallRecord } from './toolRecords';
import { toolResultsByRef, type ToolResultsByRef } from './payloads';
import { nextAttempt, retryPolicy, type OutageState, type RetryPolicy, type TransientFailure } from './retry';
import type { DiscardedExecution, EarlyStarts, StreamingToolExecution } from './streaming';
import type { Approval, ToolRunResult, ToolUseDescription } from './toolCall';

export type { Approval, ToolRunResult, ToolUseDescription } from './toolCall';

export type ModelCallResult =
  | { kind: 'message'; message: AssistantMessage; usage: Usage; stopReason: string; stopDetails?: StopDetails }
  | { kind: 'interrupted' }
  /** A retryable failure (overload, rate limit, 5xx, lost connection): the turn waits and calls again. */
  | { kind: 'unavailable'; failure: TransientFailure };

export interface TurnExecutor {
  /** Calls the model with the conversation so far (the executor knows how to find it); `attempt` counts from 1. */
  callModel(attempt: number): Promise<ModelCallResult>;
  /** Now, in ms (a workflow's deterministic clock). Needed for outages. */
  now?(): number;
  /** Shows that the model is unavailable (undefined: available again). */
  onOutage?(state: OutageState | undefined): void;
  /** Waits before the next model attempt; 'interrupted' if the turn is interrupted meanwhile. */
  sleep?(ms: number): Promise<'done' | 'interrupted'>;
  /** Concurrency safety and summaries need tool code, so the executor decides them. */
  describe(blocks: readonly ToolUseBlock[], context: AgentContext): Promise<ToolUseDescription[]>;
  /** Runs one call through the single pipeline. Never used for an id in `priorRecords`. */
  runTool(
    block: ToolUseBlock,
    context: AgentContext,
    description: ToolUseDescription,
    approval?: Approval,
  ): Promise<ToolRunResult>;
  /** Waits (durably, in a workflow) for an approve/deny of an `ask`; 'interrupted' if the turn is interrupted meanwhile. */
  awaitApproval(
    block: ToolUseBlock,
    ask: { message: string; detail?: string },
    description: ToolUseDescription,
  ): Promise<Approval | 'interrupted'>;
  /** True once the turn has been interrupted; checked before anything new starts. */
  isInterrupted(): boolean;
  /** Observability hooks (phase changes); optional. */
  onBatchStart?(batch: Batch, index: number): void;
  onRecord?(record: ToolCallRecord): void;
  /**
   * Whether a tool_use cut off by `stopReason` (max_tokens, model_context_window_exceeded) is
   * answered without running (core/cutOff.ts). Absent: yes. A workflow answers `patched(…)`, an
   * id per stop reason: turns recorded before the check ran the call.
   */
  skipCutOffToolUse?(stopReason: string): boolean;
}

export interface TurnInput {
  context: AgentContext;
  /**
   * Records of calls this scheduler already ran in earlier turns, by tool_use_id: a known id is
   * never executed again (invariant 5). The durable runner passes an empty map: its guard is the
   * execution ledger behind the tool activities.
   */
  priorRecords: ReadonlyMap<string, ToolCallRecord>;
  maxConcurrency: number;
  /** How model outages are waited out (default: retryPolicy()). */
  retry?: RetryPolicy;
  /**
   * Streaming tool execution (core/streaming.ts): the calls it started while the model streamed
   * are reused by id in the tool phase; absent, tools start when the message is complete.
   */
  streaming?: StreamingToolExecution;
  /** Set by executeTurn: the tool_use cut off by max_tokens (or the context window), answered without running. */
  cutOffId?: string;
  /** The stop reason that cut it off (its result says which). */
  cutOffStopReason?: string;
}

/**
 * 'failed': the model stayed unavailable past the session's outage limit (`error` says so).
 * 'refusal': the model refused (stop_reason refusal; the call's core dropped the refused content,
 * so there is nothing to run). 'context_window': the answer was cut off by the model's context
 * window (stop_reason model_context_window_exceeded) with no tool_use in it.
 */
export type TurnEndReason =
  'tool_use' | 'end_turn' | 'interrupted' | 'max_tokens' | 'refusal' | 'context_window' | 'other' | 'failed';

export interface TurnOutcome {
  reason: TurnEndReason;
  /** Why the turn failed (reason 'failed'). */
  error?: string;
  /** Absent when interrupted during the model call: nothing half-done is recorded. */
  assistant?: AssistantMessage;
  usage?: Usage;
  stopReason?: string;
  /** A refusal's `stop_details`. */
  stopDetails?: StopDetails;
  /** One record per tool_use block, in block order. */
  records: ToolCallRecord[];
  /** The message that answers `assistant`'s tool_use blocks (stored results by reference); absent when there were none. */
  toolResults?: ToolResultsByRef;
  context: AgentContext;
  batches: Array<{ concurrencySafe: boolean; toolUseIds: string[] }>;
  /** Calls started while the model streamed whose id the final message does not hold: never sent to the model. */
  discarded?: DiscardedExecution[];
}

export async function executeTurn(input: TurnInput, executor: TurnExecutor): Promise<TurnOutcome> {
  const model = await callModelThroughOutages(input, executor);
  // The model call is over: early starts end here; what the final message does not claim is discarded.
  const closeStreaming = async (
    ids: readonly string[],
    why: string,
  ): Promise<{ early?: EarlyStarts; discarded?: DiscardedExecution[] }> => {
    if (!input.streaming) return {};
    const { discarded, ...early } = input.streaming.finish(ids, why);
    const gone = await discarded;
    return { early, ...(gone.length > 0 ? { discarded: gone } : {}) };
  };
  if (model.kind === 'failed' || model.kind === 'interrupted') {
    const { discarded } = await closeStreaming(
      [],
      model.kind === 'failed' ? 'the model call failed' : 'the turn was interrupted while the model streamed',
    );
    const ended = { records: [], context: input.context, batches: [], ...(discarded ? { discarded } : {}) };
    return model.kind === 'failed'
      ? { reason: 'failed', error: model.error, ...ended }
      : { reason: 'interrupted', ...ended };
  }
  const blocks = toolUseBlocksOf(model.message);
  const { early, discarded } = await closeStreaming(
    blocks.map((b) => b.id),
    'its tool_use id is not in the final message (the stream was abandoned and the answer that replaced it differs)',
  );
  const base = {
    assistant: model.message,
    usage: model.usage,
    stopReason: model.stopReason,
    ...(model.stopDetails ? { stopDetails: model.stopDetails } : {}),
    ...(discarded ? { discarded } : {}),
  };
  if (blocks.length === 0) {
    return { reason: textEndReason(model.stopReason), ...base, records: [], context: input.context, batches: [] };
  }
  const cut = cutOffToolUse(model.message, model.stopReason);
  const cutOffId = cut && (executor.skipCutOffToolUse?.(model.stopReason) ?? true) ? cut.id : undefined;
  const phase = await runToolPhase(
    blocks,
    cutOffId ? { ...input, cutOffId, cutOffStopReason: model.stopReason } : input,
    executor,
    early,
  );
  return {
    reason: executor.isInterrupted() ? 'interrupted' : 'tool_use',
    ...base,
    ...phase,
  };
}

/** Why a turn whose answer holds no tool_use ended. */
function textEndReason(stopReason: string): TurnEndReason {
  switch (stopReason) {
    case 'max_tokens':
      return 'max_tokens';
    case 'end_turn':
      return 'end_turn';
    case 'refusal':
      return 'refusal';
    case 'model_context_window_exceeded':
      return 'context_window';
    default:
      return 'other';
  }
}

/**
 * Calls the model until it answers: a retryable failure waits (backoff honouring retry-after,
 * capped) and calls again, for as long as the outage limit allows (invariant 10).
 */
async function callModelThroughOutages(
  input: TurnInput,
  executor: TurnExecutor,
): Promise<Exclude<ModelCallResult, { kind: 'unavailable' }> | { kind: 'failed'; error: string }> {
  const policy = input.retry ?? retryPolicy();
  let outage: OutageState | undefined;
  for (let attempt = 1; ; attempt++) {
    if (executor.isInterrupted()) return { kind: 'interrupted' };
    const model = await executor.callModel(attempt);
    if (model.kind !== 'unavailable') {
      if (outage) executor.onOutage?.(undefined);
      return model;
    }
    if (!executor.sleep || !executor.now) return { kind: 'failed', error: model.failure.message };
    // The model activity also makes the previous step's writes: their failure is the store's.
    const what = model.failure.kind === 'store' ? 'store' : 'model';
    const step = nextAttempt(outage, what, model.failure, executor.now(), policy);
    outage = step.state;
    if (step.action === 'give_up') {
      executor.onOutage?.(undefined);
      return { kind: 'failed', error: step.reason };
    }
    executor.onOutage?.(outage);
    if ((await executor.sleep(step.delayMs)) === 'interrupted') {
      executor.onOutage?.(undefined);
      return { kind: 'interrupted' };
    }
  }
}

export interface ToolPhaseOutcome {
  records: ToolCallRecord[];
  toolResults: ToolResultsByRef;
  context: AgentContext;
  batches: Array<{ concurrencySafe: boolean; toolUseIds: string[] }>;
}

/**
 * A call that asks waits for its approval and runs again with it; one that still asks after an
 * approval is treated as denied rather than looping.
 */
async function untilAnswered(
  executor: TurnExecutor,
  block: ToolUseBlock,
  ctx: AgentContext,
  description: ToolUseDescription,
  first: ToolRunResult,
): Promise<ToolCallRecord> {
  let outcome = first;
  while (outcome.kind === 'ask') {
    const approval = await executor.awaitApproval(block, outcome, description);
    if (approval === 'interrupted') return interruptedRecord(block, false, description.summary);
    outcome = await executor.runTool(block, ctx, description, approval);
    if (outcome.kind === 'ask')
      return syntheticRecord(
        block,
        'denied',
        `Permission still required after approval: ${outcome.message}`,
        description.summary,
      );
  }
  return outcome.record;
}

/**
 * Runs the tool_use blocks of one assistant message: partition, batches in order, safe batches
 * concurrently (bounded), context modifiers applied after each batch in original block order.
 * Every block ends with exactly one record, whatever happens (invariant 1).
 */
export async function runToolPhase(
  blocks: readonly ToolUseBlock[],
  input: TurnInput,
  executor: TurnExecutor,
  early?: EarlyStarts,
): Promise<ToolPhaseOutcome> {
  let context = input.context;
  const records = new Map<string, ToolCallRecord>();
  const descriptions = await describeBlocks(blocks, context, executor, early);
  const describe = (i: number): ToolUseDescription =>
    descriptions[i] ?? {
      known: false,
      concurrencySafe: false,
      readOnly: false,
      idempotent: false,
      summary: blocks[i]?.name ?? '?',
    };
  const indexOf = new Map(blocks.map((b, i) => [b.id, i] as const));
  const batches = partitionToolCalls(blocks, (_b, i) => describe(i).concurrencySafe);

  const record = (r: ToolCallRecord): ToolCallRecord => {
    records.set(r.toolUseId, r);
    executor.onRecord?.(r);
    return r;
  };

  const runOne = async (block: ToolUseBlock, ctx: AgentContext): Promise<ToolCallRecord> => {
    const description = describe(indexOf.get(block.id) ?? -1);
    const recorded = input.priorRecords.get(block.id) ?? records.get(block.id);
    if (recorded) {
      // Already executed (an earlier turn, a repeated id after a fallback): reuse, never re-run.
      // Its context modifiers were applied when it first ran.
      return record({ ...recorded, contextModifiers: [], reused: true });
    }
    // Started while the model streamed: its outcome is this call's, whatever came first.
    const started = early?.reuse.get(block.id);
    if (!started && executor.isInterrupted()) return record(interruptedRecord(block, false, description.summary));
    // Cut off by max_tokens (and not already started while streaming): answered without running.
    if (!started && block.id === input.cutOffId)
      return record(cutOffRecord(block, description.summary, input.cutOffStopReason));
    try {
      const outcome = started ? await started.result : await executor.runTool(block, ctx, description);
      if (started && outcome.kind === 'done') return record({ ...outcome.record, early: true });
      return record(await untilAnswered(executor, block, ctx, description, outcome));
    } catch (err) {
      if (executor.isInterrupted()) return record(interruptedRecord(block, true, description.summary));
      const message = err instanceof Error ? err.message : String(err);
      return record(
        syntheticRecord(block, 'error', `Error calling tool ${block.name}: ${message}`, description.summary),
      );
    }
  };

  for (const [batchIndex, batch] of batches.entries()) {
    if (executor.isInterrupted()) break;
    executor.onBatchStart?.(batch, batchIndex);
    if (batch.concurrencySafe) {
      // All calls of the batch see the same context; their modifiers are queued per id and
      // applied after the batch in block order, so the final context never depends on timing.
      // A call that will ask pauses the calls after it in batch order: the batch runs in
      // segments that each end with such a call (the calls before it run alongside it).
      const batchContext = context;
      const done: ToolCallRecord[] = [];
      for (const segment of askSegments(batch.blocks, (b) => describe(indexOf.get(b.id) ?? -1).mayAsk === true)) {
        if (executor.isInterrupted()) break;
        done.push(...(await mapWithConcurrency(segment, input.maxConcurrency, (b) => runOne(b, batchContext))));
      }
      for (const r of done) context = applyContextModifiers(context, r.contextModifiers);
    } else {
      for (const block of batch.blocks) {
        const r = await runOne(block, context);
        context = applyContextModifiers(context, r.contextModifiers);
      }
    }
  }
  // Protocol completeness: anything not run (interrupt) gets an interruption result.
  for (const block of blocks) {
    if (!records.has(block.id)) record(interruptedRecord(block, false, describe(indexOf.get(block.id) ?? -1).summary));
  }
  const ordered = blocks.map((b) => records.get(b.id) as ToolCallRecord);
  return {
    records: ordered,
    toolResults: toolResultsByRef(ordered),
    context,
    batches: batches.map((b) => ({ concurrencySafe: b.concurrencySafe, toolUseIds: b.blocks.map((x) => x.id) })),
  };
}

/** Descriptions of the blocks: those made while streaming are kept, the rest asked for in one call. */
async function describeBlocks(
  blocks: readonly ToolUseBlock[],
  context: AgentContext,
  executor: TurnExecutor,
  early?: EarlyStarts,
): Promise<ToolUseDescription[]> {
  const known = early?.descriptions ?? new Map<string, ToolUseDescription>();
  const missing = blocks.filter((b) => !known.has(b.id));
  let fresh: ToolUseDescription[] = [];
  if (missing.length > 0) {
    try {
      fresh = await executor.describe(missing, context);
    } catch {
      // Safety unknown: everything runs alone (invariant 3).
      fresh = missing.map((b) => ({
        known: false,
        concurrencySafe: false,
        readOnly: false,
        idempotent: false,
        summary: b.name,
      }));
    }
  }
  const byId = new Map(missing.map((b, i) => [b.id, fresh[i]] as const));
  return blocks.map(
    (b) =>
      known.get(b.id) ??
      byId.get(b.id) ?? { known: false, concurrencySafe: false, readOnly: false, idempotent: false, summary: b.name },
  );
}

/** Splits a batch after every call that will ask: later calls wait until it is decided. */
export function askSegments<T>(blocks: readonly T[], mayAsk: (block: T) => boolean): T[][] {
  const segments: T[][] = [[]];
  for (const b of blocks) {
    (segments[segments.length - 1] as T[]).push(b);
    if (mayAsk(b)) segments.push([]);
  }
  return segments.filter((s) => s.length > 0);
}
