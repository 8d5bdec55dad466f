import type { AgentContext } from './context';
import type { ToolUseBlock } from './messages';
import type { ToolRunResult, ToolUseDescription } from './turn';
/** The signal a model activity sends its own turn workflow for each completed tool_use block. */
export declare const STREAMED_TOOL_USE_SIGNAL: "streamedToolUse";
/** A tool_use block that was complete (content_block_stop) while its message still streamed. */
export interface StreamedToolUse {
    /** The streamed model call: `<model activity id>#<attempt>` (a retried attempt streams again). */
    stream: string;
    /** The block's index in the streamed message's content. */
    index: number;
    /** id and name whole; the input as history carries it (a preview when large, invariant 11). */
    block: ToolUseBlock;
    /** The stored transcript node holding the whole block (what a tool activity reads its input from). */
    messageRef: string | null;
}
/** A call started early: its outcome, and how to stop it when it is discarded. */
export interface EarlyHandle {
    result: Promise<ToolRunResult>;
    cancel(): void;
}
export interface StreamingExecutor {
    /** Safety, summary and `mayAsk` for streamed blocks (tool code: the executor decides). */
    describeStreamed(items: readonly StreamedToolUse[], context: AgentContext): Promise<ToolUseDescription[]>;
    /** Starts one call through the single pipeline; undefined: this call waits for the whole message (e.g. a subagent). */
    startStreamed(item: StreamedToolUse, context: AgentContext, description: ToolUseDescription): EarlyHandle | undefined;
    isInterrupted(): boolean;
}
/** An early execution the final message did not claim: it never reaches the model. */
export interface DiscardedExecution {
    toolUseId: string;
    toolName: string;
    summary: string;
    /** The streamed model call whose block started it. */
    stream: string;
    /** `completed`: it finished (its effect stays, its result is dropped); `cancelled`: it was stopped before it finished. */
    state: 'completed' | 'cancelled';
    reason: string;
}
/** What the tool phase takes over once the message is final. */
export interface EarlyStarts {
    /** Early executions of ids in the final message, by tool_use_id: reused, never run again. */
    reuse: ReadonlyMap<string, EarlyHandle & {
        description: ToolUseDescription;
    }>;
    /** Descriptions made while streaming, by tool_use_id (not asked for again). */
    descriptions: ReadonlyMap<string, ToolUseDescription>;
}
/** Whether a described block lets an early start happen at all (and lets later blocks start). */
export declare function startsEarly(d: ToolUseDescription): boolean;
export interface StreamedEntry {
    id: string;
    description?: ToolUseDescription;
    /** Started (here or from an earlier stream), or answered by the ledger: nothing to start. */
    started: boolean;
    /** The executor said this call waits for the whole message (safe: not a barrier). */
    deferred?: boolean;
}
/**
 * Which blocks of one streamed message may start now, in block order: a block starts only when
 * it and every block before it are described and safe (known, concurrency-safe for their input,
 * not asking for approval) — an unsafe or undecided block stops the scan, so nothing after it
 * starts before the message is complete — and while fewer than `max` early calls run.
 */
export declare function earlyStartable(entries: readonly StreamedEntry[], running: number, max: number): number[];
/**
 * One turn's early starts. `add` takes streamed blocks (a signal handler, a stream callback);
 * `finish` closes the intake when the model call ended and hands over what the final message
 * claims. Blocks are described in arrival order, in one call per burst.
 */
export declare class StreamingToolExecution {
    private readonly input;
    private readonly exec;
    private readonly onStart?;
    private readonly streams;
    private readonly executions;
    private readonly descriptions;
    private running;
    private pumping;
    private again;
    private closed;
    /** Blocks that arrived after the intake closed (a late signal): never started. */
    readonly late: StreamedToolUse[];
    constructor(input: {
        context: AgentContext;
        maxConcurrency: number;
        priorRecords?: ReadonlyMap<string, unknown>;
    }, exec: StreamingExecutor, onStart?: ((item: StreamedToolUse, description: ToolUseDescription) => void) | undefined);
    /** Ids started early so far (for progress views). */
    startedIds(): string[];
    add(item: StreamedToolUse): void;
    private pump;
    private startEligible;
    /**
     * The model call is over: no more early starts. `finalIds` are the tool_use ids of the final
     * message (none when the turn was interrupted or failed). Executions of those ids are handed
     * over; the others are discarded — cancelled when still running — and reported once they have
     * stopped (`discarded` resolves then; the tool phase awaits it, so that nothing discarded still
     * runs alongside a call that must run alone).
     */
    finish(finalIds: readonly string[], reason: string): EarlyStarts & {
        discarded: Promise<DiscardedExecution[]>;
    };
}
