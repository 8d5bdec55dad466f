import type { CallRuntime } from '../calls/runtime';
import type { RunToolUseInput } from '../calls/tools';
import type { ToolCallRecord } from '../engine/records';
import { StreamingToolExecution } from '../engine/streaming';
import type { ToolRunResult, ToolUseDescription } from '../engine/turn';
import type { AgentContext } from '../engine/context';
import type { ToolUseBlock } from '../engine/messages';
export interface LocalStreamingDeps {
    context: AgentContext;
    maxConcurrency: number;
    priorRecords: ReadonlyMap<string, ToolCallRecord>;
    /** The turn's abort signal: an interrupt stops every early call. */
    signal: AbortSignal;
    describe(blocks: ToolUseBlock[], messageRefs: Array<string | null>, context: AgentContext): Promise<ToolUseDescription[]>;
    /** Runs one call through the pipeline (runToolCall) with the given abort signal. */
    run(input: Pick<RunToolUseInput, 'block' | 'messageRef' | 'context'>, signal: AbortSignal): Promise<ToolRunResult>;
}
export declare function localStreaming(deps: LocalStreamingDeps): StreamingToolExecution;
/** The model call's runtime with the hand-over of completed tool_use blocks to `streaming`. */
export declare function withStreamedToolUses(runtime: CallRuntime, streaming: StreamingToolExecution | undefined, id: string): CallRuntime;
