// The turn algorithm, written once against an abstract executor (invariant 9 of the issue):
// the Temporal workflows supply activity-backed executors, src/local supplies an in-process one.
// Pure and deterministic: no I/O, no clocks, no randomness — it is bundled into workflows.
import { applyContextModifiers, type AgentContext } from './context';
import { toolUseBlocksOf, type AssistantMessage, type ToolUseBlock, type Usage } from './messages';
import { mapWithConcurrency, partitionToolCalls, type Batch } from './partition';
import { interruptedRecord, syntheticRecord, type ToolCallRecord } from './records';
import { toolResultsByRef, type ToolResultsByRef } from './payloads';
import { nextAttempt, retryPolicy, type OutageState, type RetryPolicy, type TransientFailure } from './retry';

export interface ToolUseDescription {
  known: boolean;
  concurrencySafe: boolean;
  readOnly: boolean;
  idempotent: boolean;
  summary: string;
  /** A pre-check (rules and mode, before hooks) says this call will ask for approval. */
  mayAsk?: boolean;
}

export interface Approval {
  decision: 'approve' | 'deny';
  by?: string;
  reason?: string;
  /** 'unattended': nobody can answer (an in-process session without an approver). */
  source: 'human' | 'timeout' | 'mode' | 'unattended';
  /** For a timeout: how long the call waited. */
  afterMs?: number;
}

export type ToolRunResult = { kind: 'done'; record: ToolCallRecord } | { kind: 'ask'; message: string; detail?: string };

export type ModelCallResult =
  | { kind: 'message'; message: AssistantMessage; usage: Usage; stopReason: string }
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
  runTool(block: ToolUseBlock, context: AgentContext, description: ToolUseDescription, approval?: Approval): Promise<ToolRunResult>;
  /** Waits (durably, in a workflow) for an approve/deny of an `ask`; 'interrupted' if the turn is interrupted meanwhile. */
  awaitApproval(block: ToolUseBlock, ask: { message: string; detail?: string }, description: ToolUseDescription): Promise<Approval | 'interrupted'>;
  /** True once the turn has been interrupted; checked before anything new starts. */
  isInterrupted(): boolean;
  /** Observability hooks (phase changes); optional. */
  onBatchStart?(batch: Batch, index: number): void;
  onRecord?(record: ToolCallRecord): void;
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
}

/** 'failed': the model stayed unavailable past the session's outage limit (`error` says so). */
export type TurnEndReason = 'tool_use' | 'end_turn' | 'interrupted' | 'max_tokens' | 'other' | 'failed';

export interface TurnOutcome {
  reason: TurnEndReason;
  /** Why the turn failed (reason 'failed'). */
  error?: string;
  /** Absent when interrupted during the model call: nothing half-done is recorded. */
  assistant?: AssistantMessage;
  usage?: Usage;
  stopReason?: string;
  /** One record per tool_use block, in block order. */
  records: ToolCallRecord[];
  /** The message that answers `assistant`'s tool_use blocks (stored results by reference); absent when there were none. */
  toolResults?: ToolResultsByRef;
  context: AgentContext;
  batches: Array<{ concurrencySafe: boolean; toolUseIds: string[] }>;
}

export async function executeTurn(input: TurnInput, executor: TurnExecutor): Promise<TurnOutcome> {
  const model = await callModelThroughOutages(input, executor);
  if (model.kind === 'failed') return { reason: 'failed', error: model.error, records: [], context: input.context, batches: [] };
  if (model.kind === 'interrupted') return { reason: 'interrupted', records: [], context: input.context, batches: [] };
  const blocks = toolUseBlocksOf(model.message);
  const base = { assistant: model.message, usage: model.usage, stopReason: model.stopReason };
  if (blocks.length === 0) {
    const reason: TurnEndReason = model.stopReason === 'max_tokens' ? 'max_tokens' : model.stopReason === 'end_turn' ? 'end_turn' : 'other';
    return { reason, ...base, records: [], context: input.context, batches: [] };
  }
  const phase = await runToolPhase(blocks, input, executor);
  return {
    reason: executor.isInterrupted() ? 'interrupted' : 'tool_use',
    ...base,
    ...phase,
  };
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
    const step = nextAttempt(outage, 'model', model.failure, executor.now(), policy);
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
 * Runs the tool_use blocks of one assistant message: partition, batches in order, safe batches
 * concurrently (bounded), context modifiers applied after each batch in original block order.
 * Every block ends with exactly one record, whatever happens (invariant 1).
 */
export async function runToolPhase(blocks: readonly ToolUseBlock[], input: TurnInput, executor: TurnExecutor): Promise<ToolPhaseOutcome> {
  let context = input.context;
  const records = new Map<string, ToolCallRecord>();
  let descriptions: ToolUseDescription[];
  try {
    descriptions = await executor.describe(blocks, context);
  } catch {
    // Safety unknown: everything runs alone (invariant 3).
    descriptions = blocks.map((b) => ({ known: false, concurrencySafe: false, readOnly: false, idempotent: false, summary: b.name }));
  }
  const describe = (i: number): ToolUseDescription =>
    descriptions[i] ?? { known: false, concurrencySafe: false, readOnly: false, idempotent: false, summary: blocks[i]?.name ?? '?' };
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
    if (executor.isInterrupted()) return record(interruptedRecord(block, false, description.summary));
    try {
      let outcome = await executor.runTool(block, ctx, description);
      while (outcome.kind === 'ask') {
        const approval = await executor.awaitApproval(block, outcome, description);
        if (approval === 'interrupted') return record(interruptedRecord(block, false, description.summary));
        outcome = await executor.runTool(block, ctx, description, approval);
        if (outcome.kind === 'ask') {
          // An approval was given but the pipeline still asks: treat as denied rather than loop.
          return record(syntheticRecord(block, 'denied', `Permission still required after approval: ${outcome.message}`, description.summary));
        }
      }
      return record(outcome.record);
    } catch (err) {
      if (executor.isInterrupted()) return record(interruptedRecord(block, true, description.summary));
      const message = err instanceof Error ? err.message : String(err);
      return record(syntheticRecord(block, 'error', `Error calling tool ${block.name}: ${message}`, description.summary));
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

/** Splits a batch after every call that will ask: later calls wait until it is decided. */
export function askSegments<T>(blocks: readonly T[], mayAsk: (block: T) => boolean): T[][] {
  const segments: T[][] = [[]];
  for (const b of blocks) {
    (segments[segments.length - 1] as T[]).push(b);
    if (mayAsk(b)) segments.push([]);
  }
  return segments.filter((s) => s.length > 0);
}
