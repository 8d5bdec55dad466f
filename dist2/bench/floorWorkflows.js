"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.noopChain = noopChain;
exports.turnShapeChild = turnShapeChild;
exports.sessionShape = sessionShape;
exports.parallelSleeps = parallelSleeps;
// Workflows for the floor benchmark (bench/floor.ts): the bare shapes of this project's work with
// no-op activities, so that what remains is what the server, the transport and the SDK cost.
const workflow_1 = require("@temporalio/workflow");
const { noop, sleepy } = (0, workflow_1.proxyActivities)({
    startToCloseTimeout: '1 minute',
    heartbeatTimeout: '30 seconds',
});
const localNoop = (0, workflow_1.proxyLocalActivities)({ startToCloseTimeout: '1 minute' }).noop;
/** N sequential no-op activities: read Scheduled→Started of every task from its history. */
async function noopChain(n) {
    for (let i = 0; i < n; i++)
        await noop();
}
/** One turn's shape: a child workflow whose steps run in order, each step's activities in parallel. */
async function turnShapeChild(shape) {
    for (const parallel of shape.steps) {
        if (parallel === 0)
            await localNoop();
        else if (parallel < 0)
            await Promise.all(Array.from({ length: -parallel }, () => localNoop()));
        else
            await Promise.all(Array.from({ length: parallel }, () => noop()));
    }
}
/** A session's shape: `turns` child workflows in sequence. */
async function sessionShape(turns, shape) {
    for (let t = 1; t <= turns; t++) {
        await (0, workflow_1.executeChild)(turnShapeChild, { workflowId: `${(0, workflow_1.workflowInfo)().workflowId}/turn-${t}`, args: [shape] });
    }
}
/** `n` activities of `ms` each, all at once (a batch of safe tool calls). */
async function parallelSleeps(n, ms, heartbeatMs) {
    await Promise.all(Array.from({ length: n }, () => sleepy(ms, heartbeatMs)));
}
//# sourceMappingURL=floorWorkflows.js.map