"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.workerLimits = workerLimits;
function positiveInt(env, name) {
    const raw = env[name];
    if (raw === undefined || raw === '')
        return undefined;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1)
        throw new Error(`${name}=${raw}: expected a positive integer`);
    return n;
}
function workerLimits(env = process.env) {
    const sessions = positiveInt(env, 'DURABLE_AGENT_WORKER_SESSIONS') ?? 50;
    const activities = positiveInt(env, 'DURABLE_AGENT_MAX_ACTIVITIES') ?? 2 * sessions;
    const workflowTasks = positiveInt(env, 'DURABLE_AGENT_MAX_WORKFLOW_TASKS') ?? 20;
    return {
        maxCachedWorkflows: positiveInt(env, 'DURABLE_AGENT_MAX_CACHED_WORKFLOWS') ?? 3 * sessions,
        maxConcurrentActivityTaskExecutions: activities,
        // describeToolUses (a local activity per tool batch): at most one per running turn.
        maxConcurrentLocalActivityExecutions: Math.max(10, sessions),
        // The SDK needs at least 2 when workflows are cached.
        maxConcurrentWorkflowTaskExecutions: Math.max(2, workflowTasks),
    };
}
//# sourceMappingURL=workerLimits.js.map