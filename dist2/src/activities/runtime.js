"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.activityRuntime = activityRuntime;
// The CallRuntime of a call run as a Temporal activity: its cancellation signal, heartbeats,
// attempt, logger and the channel of streaming tool execution, from the activity's Context.
const activity_1 = require("@temporalio/activity");
const streaming_1 = require("../engine/streaming");
function activityRuntime() {
    const ctx = activity_1.Context.current();
    const wf = ctx.info.workflowExecution;
    return {
        signal: ctx.cancellationSignal,
        heartbeat: (d) => ctx.heartbeat(d),
        attempt: ctx.info.attempt,
        callKey: `${wf?.workflowId ?? '?'}/${ctx.info.activityId}`,
        warn: (m, meta) => ctx.log.warn(m, meta),
        // The channel of streaming tool execution: a signal to this activity's own turn workflow
        // through the worker's client (durable and ordered; see docs/architecture.md).
        onStreamedToolUse: async (item) => {
            if (!wf)
                throw new Error('no workflow to hand the block to');
            const stream = `${ctx.info.activityId}#${ctx.info.attempt}`;
            await ctx.client.workflow
                .getHandle(wf.workflowId, wf.runId)
                .signal(streaming_1.STREAMED_TOOL_USE_SIGNAL, { ...item, stream });
        },
    };
}
//# sourceMappingURL=runtime.js.map