"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createMonitorTaskActivities = createMonitorTaskActivities;
// `runMonitorTask`: a session's Monitor task as its own long-lived activity — the core of
// src/calls/monitorTask.ts with the activity's runtime (heartbeats: a dead worker makes the task
// lost; cancellation: TaskStop kills the process group). Each batch of the watch's output reaches
// the session workflow that scheduled the activity as a `monitorEvent` signal (through the worker's
// client, as streamed tool_use blocks reach their turn), carrying the task id and its seq.
const activity_1 = require("@temporalio/activity");
const monitorTask_1 = require("../calls/monitorTask");
const ids_1 = require("../engine/ids");
const runtime_1 = require("./runtime");
function createMonitorTaskActivities(deps) {
    const calls = (0, monitorTask_1.createMonitorTaskCalls)(deps);
    return {
        async runMonitorTask(input) {
            const ctx = activity_1.Context.current();
            const wf = ctx.info.workflowExecution;
            if (!wf)
                throw new Error('runMonitorTask runs only inside a session workflow (its events are signals to it)');
            const session = ctx.client.workflow.getHandle(wf.workflowId, wf.runId);
            return calls.runMonitorTask(input, (0, runtime_1.activityRuntime)(), (batch) => session.signal(ids_1.SIGNALS.monitorEvent, batch));
        },
    };
}
//# sourceMappingURL=monitorTask.js.map