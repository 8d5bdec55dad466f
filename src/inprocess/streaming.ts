// Streaming tool execution in-process: the engine's StreamingToolExecution (the same rules as the
// turn workflow) fed by the model call's callback instead of a signal, each early call with its
// own abort (a child of the turn's), so that a discarded call can be stopped alone.
import type { CallRuntime } from '../runtime/runtime';
import type { RunToolUseInput } from '../toolCall/tools';
import type { ToolCallRecord } from '../core/toolRecords';
import { StreamingToolExecution } from '../core/streaming';
import { isAgentTool } from '../core/subagents';
import type { ToolRunResult, ToolUseDescription } from '../core/turn';
import type { AgentContext } from '../core/context';
import type { ToolUseBlock } from '../core/apiMessages';

export interface LocalStreamingDeps {
  context: AgentContext;
  maxConcurrency: number;
  priorRecords: ReadonlyMap<string, ToolCallRecord>;
  /** The turn's abort signal: an interrupt stops every early call. */
  signal: AbortSignal;
  describe(
    blocks: ToolUseBlock[],
    messageRefs: Array<string | null>,
    context: AgentContext,
  ): Promise<ToolUseDescription[]>;
  /** Runs one call through the pipeline (runToolCall) with the given abort signal. */
  run(input: Pick<RunToolUseInput, 'block' | 'messageRef' | 'context'>, signal: AbortSignal): Promise<ToolRunResult>;
}

export function localStreaming(deps: LocalStreamingDeps): StreamingToolExecution {
  const { signal } = deps;
  return new StreamingToolExecution(
    { context: deps.context, maxConcurrency: deps.maxConcurrency, priorRecords: deps.priorRecords },
    {
      describeStreamed: (items, context) =>
        deps.describe(
          items.map((i) => i.block),
          items.map((i) => i.messageRef),
          context,
        ),
      startStreamed(item, context) {
        // A subagent waits for the complete message, as under Temporal.
        if (isAgentTool(item.block.name)) return undefined;
        const own = new AbortController();
        const stop = (): void => own.abort();
        signal.addEventListener('abort', stop, { once: true });
        const result = deps.run({ block: item.block, messageRef: item.messageRef, context }, own.signal);
        void result.finally(() => signal.removeEventListener('abort', stop)).catch(() => undefined);
        return { result, cancel: stop };
      },
      isInterrupted: () => signal.aborted,
    },
  );
}

/** The model call's runtime with the hand-over of completed tool_use blocks to `streaming`. */
export function withStreamedToolUses(
  runtime: CallRuntime,
  streaming: StreamingToolExecution | undefined,
  id: string,
): CallRuntime {
  return streaming
    ? {
        ...runtime,
        onStreamedToolUses: async (items) => {
          for (const item of items) streaming.add({ ...item, stream: `${id}#1` });
        },
      }
    : runtime;
}
