"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Integration: a workflow calls an activity on a real worker on the real dev server.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const temporal_1 = require("../support/temporal");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const workflowsPath = require.resolve('../fixtures/smokeWorkflows');
(0, node_test_1.test)('integration: smoke workflow runs an activity and records ActivityTaskCompleted', async () => {
    const activities = { greet: async (name) => `hello, ${name}` };
    const taskQueue = (0, temporal_1.uniqueTaskQueue)('smoke');
    await (0, temporal_1.withWorker)({ taskQueue, workflowsPath, activities }, async ({ client }) => {
        const handle = await client.workflow.start('smokeWorkflow', {
            taskQueue,
            workflowId: (0, temporal_1.uniqueWorkflowId)('smoke'),
            args: ['temporal'],
        });
        strict_1.default.equal(await handle.result(), 'hello, temporal');
        const history = await handle.fetchHistory();
        const types = (history.events ?? []).map((e) => String(e.eventType));
        strict_1.default.ok(types.some((t) => t === 'EVENT_TYPE_ACTIVITY_TASK_COMPLETED' || t === '12'), `no ActivityTaskCompleted in history: ${types.join(', ')}`);
    });
});
(0, node_test_1.test)('integration: withWorker shuts the worker down when the body throws', async () => {
    let seen;
    await strict_1.default.rejects((0, temporal_1.withWorker)({ taskQueue: (0, temporal_1.uniqueTaskQueue)('smoke-throw'), workflowsPath }, async ({ worker }) => {
        seen = worker;
        throw new Error('boom');
    }), /boom/);
    strict_1.default.equal(seen?.getState(), 'STOPPED');
});
//# sourceMappingURL=smoke.test.js.map