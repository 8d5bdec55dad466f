"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the worker's concurrency limits follow the sizing rule of docs/deployment.md ("Sizing"):
// per concurrent session, 3 cached workflows and 2 activity slots; 20 workflow tasks at once.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const workerLimits_1 = require("../../src/workerLimits");
(0, node_test_1.test)('unit: worker limits default to 50 sessions per worker', () => {
    strict_1.default.deepEqual((0, workerLimits_1.workerLimits)({}), {
        maxCachedWorkflows: 150,
        maxConcurrentActivityTaskExecutions: 100,
        maxConcurrentLocalActivityExecutions: 50,
        maxConcurrentWorkflowTaskExecutions: 20,
    });
});
(0, node_test_1.test)('unit: DURABLE_AGENT_WORKER_SESSIONS scales the limits; each limit can be set on its own', () => {
    const l = (0, workerLimits_1.workerLimits)({ DURABLE_AGENT_WORKER_SESSIONS: '200' });
    strict_1.default.equal(l.maxCachedWorkflows, 600);
    strict_1.default.equal(l.maxConcurrentActivityTaskExecutions, 400);
    const own = (0, workerLimits_1.workerLimits)({
        DURABLE_AGENT_WORKER_SESSIONS: '10',
        DURABLE_AGENT_MAX_CACHED_WORKFLOWS: '7',
        DURABLE_AGENT_MAX_ACTIVITIES: '5',
        DURABLE_AGENT_MAX_WORKFLOW_TASKS: '1',
    });
    strict_1.default.deepEqual(own, {
        maxCachedWorkflows: 7,
        maxConcurrentActivityTaskExecutions: 5,
        maxConcurrentLocalActivityExecutions: 10,
        maxConcurrentWorkflowTaskExecutions: 2,
    });
});
(0, node_test_1.test)('unit: a limit that is not a positive integer is refused with its name', () => {
    for (const bad of ['0', '-3', '2.5', 'many']) {
        strict_1.default.throws(() => (0, workerLimits_1.workerLimits)({ DURABLE_AGENT_WORKER_SESSIONS: bad }), new RegExp(`DURABLE_AGENT_WORKER_SESSIONS=${bad.replace('.', '\\.')}: expected a positive integer`));
    }
});
//# sourceMappingURL=workerLimits.test.js.map