"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.localStreaming = localStreaming;
exports.withStreamedToolUses = withStreamedToolUses;
const streaming_1 = require("../engine/streaming");
const subagents_1 = require("../engine/subagents");
function localStreaming(deps) {
    const { signal } = deps;
    return new streaming_1.StreamingToolExecution({ context: deps.context, maxConcurrency: deps.maxConcurrency, priorRecords: deps.priorRecords }, {
        describeStreamed: (items, context) => deps.describe(items.map((i) => i.block), items.map((i) => i.messageRef), context),
        startStreamed(item, context) {
            // A subagent waits for the complete message, as under Temporal.
            if ((0, subagents_1.isAgentTool)(item.block.name))
                return undefined;
            const own = new AbortController();
            const stop = () => own.abort();
            signal.addEventListener('abort', stop, { once: true });
            const result = deps.run({ block: item.block, messageRef: item.messageRef, context }, own.signal);
            void result.finally(() => signal.removeEventListener('abort', stop)).catch(() => undefined);
            return { result, cancel: stop };
        },
        isInterrupted: () => signal.aborted,
    });
}
/** The model call's runtime with the hand-over of completed tool_use blocks to `streaming`. */
function withStreamedToolUses(runtime, streaming, id) {
    return streaming
        ? { ...runtime, onStreamedToolUse: async (item) => streaming.add({ ...item, stream: `${id}#1` }) }
        : runtime;
}
//# sourceMappingURL=streaming.js.map