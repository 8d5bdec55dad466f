import { type AgentContext } from './context';
import { type AssistantMessage, type ToolUseBlock, type Usage } from './messages';
import { type Batch } from './partition';
import { type ToolCallRecord } from './records';
import { type ToolResultsByRef } from './payloads';
import { type OutageState, type RetryPolicy, type TransientFailure } from './retry';
import type { DiscardedExecution, EarlyStarts, StreamingToolExecution } from './streaming';
export interface ToolUseDescription {
    known: boolean;
    concurrencySafe: boolean;
    readOnly: boolean;
    idempotent: boolean;
    summary: string;
    /** A pre-check (rules and mode, before hooks) says this call will ask for approval. */
    mayAsk?: boolean;
    /** Which block this describes (set by describeToolUses: the audit matches streamed descriptions by id). */
    toolUseId?: string;
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
export type ToolRunResult = {
    kind: 'done';
    record: ToolCallRecord;
} | {
    kind: 'ask';
    message: string;
    detail?: string;
};
export type ModelCallResult = {
    kind: 'message';
    message: AssistantMessage;
    usage: Usage;
    stopReason: string;
} | {
    kind: 'interrupted';
}
/** A retryable failure (overload, rate limit, 5xx, lost connection): the turn waits and calls again. */
 | {
    kind: 'unavailable';
    failure: TransientFailure;
};
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
    awaitApproval(block: ToolUseBlock, ask: {
        message: string;
        detail?: string;
    }, description: ToolUseDescription): Promise<Approval | 'interrupted'>;
    /** True once the turn has been interrupted; checked before anything new starts. */
    isInterrupted(): boolean;
    /** Observability hooks (phase changes); optional. */
    onBatchStart?(batch: Batch, index: number): void;
    onRecord?(record: ToolCallRecord): void;
    /**
     * Whether a tool_use cut off by max_tokens is answered without running (engine/cutOff.ts).
     * Absent: yes. A workflow answers `patched(…)`: turns recorded before the check ran the call.
     */
    skipCutOffToolUse?(): boolean;
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
     * Streaming tool execution (engine/streaming.ts): the calls it started while the model streamed
     * are reused by id in the tool phase; absent, tools start when the message is complete.
     */
    streaming?: StreamingToolExecution;
    /** Set by executeTurn: the tool_use cut off by max_tokens, answered without running. */
    cutOffId?: string;
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
    batches: Array<{
        concurrencySafe: boolean;
        toolUseIds: string[];
    }>;
    /** Calls started while the model streamed whose id the final message does not hold: never sent to the model. */
    discarded?: DiscardedExecution[];
}
export declare function executeTurn(input: TurnInput, executor: TurnExecutor): Promise<TurnOutcome>;
export interface ToolPhaseOutcome {
    records: ToolCallRecord[];
    toolResults: ToolResultsByRef;
    context: AgentContext;
    batches: Array<{
        concurrencySafe: boolean;
        toolUseIds: string[];
    }>;
}
/**
 * Runs the tool_use blocks of one assistant message: partition, batches in order, safe batches
 * concurrently (bounded), context modifiers applied after each batch in original block order.
 * Every block ends with exactly one record, whatever happens (invariant 1).
 */
export declare function runToolPhase(blocks: readonly ToolUseBlock[], input: TurnInput, executor: TurnExecutor, early?: EarlyStarts): Promise<ToolPhaseOutcome>;
/** Splits a batch after every call that will ask: later calls wait until it is decided. */
export declare function askSegments<T>(blocks: readonly T[], mayAsk: (block: T) => boolean): T[][];
