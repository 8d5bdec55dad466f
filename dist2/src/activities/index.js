"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createActivities = createActivities;
// The activities entry: every activity a worker registers, built from injected deps, and the
// interface of each group by role, which is what the workflows proxy (type-only imports, so no
// activity code reaches the workflow bundle). The keys are the activity TYPES recorded in
// histories: renaming one breaks the replay of running sessions (docs/architecture.md). Each one is
// a thin adapter over a Temporal-free core of src/calls (the in-process runner calls those directly).
const calls_1 = require("../calls");
const model_1 = require("./model");
const compact_1 = require("./compact");
const tools_1 = require("./tools");
const hooks_1 = require("./hooks");
const subagents_1 = require("./subagents");
const schedule_1 = require("./schedule");
const backgroundTask_1 = require("./backgroundTask");
const monitorTask_1 = require("./monitorTask");
const ids_1 = require("../engine/ids");
const errors_1 = require("./errors");
/**
 * Every activity of a worker, by its registered name (a DurableAgentError thrown by one fails it
 * with its code as the failure type), plus the in-process runner's direct entries.
 */
function createActivities(deps) {
    const model = (0, model_1.createModelActivities)(deps.model);
    const compaction = (0, compact_1.createCompactActivities)(deps.compaction);
    const tools = (0, tools_1.createToolActivities)(deps.tools);
    const hooks = (0, hooks_1.createHookActivities)(deps.hooks);
    const subagentWait = (0, subagents_1.createSubagentActivities)();
    const schedule = (0, schedule_1.createScheduleActivities)();
    const background = (0, backgroundTask_1.createBackgroundTaskActivities)(deps.tools);
    const monitor = (0, monitorTask_1.createMonitorTaskActivities)(deps.tools);
    const activities = {
        callModel: (0, errors_1.withErrorCodes)(model.callModel),
        appendTranscript: (0, errors_1.withErrorCodes)(model.appendTranscript),
        loadTranscript: (0, errors_1.withErrorCodes)(model.loadTranscript),
        compactContext: (0, errors_1.withErrorCodes)(compaction.compactContext),
        describeToolUses: (0, errors_1.withErrorCodes)(tools.describeToolUses),
        runToolUse: (0, errors_1.withErrorCodes)(tools.runToolUse),
        storeReadFiles: (0, errors_1.withErrorCodes)(tools.storeReadFiles),
        storeToolSettings: (0, errors_1.withErrorCodes)(tools.storeToolSettings),
        runSessionHooks: (0, errors_1.withErrorCodes)(hooks.runSessionHooks),
        prepareSubagent: (0, errors_1.withErrorCodes)(tools.prepareSubagent),
        finishSubagent: (0, errors_1.withErrorCodes)(tools.finishSubagent),
        awaitSubagent: (0, errors_1.withErrorCodes)(subagentWait.awaitSubagent),
        nextCronFires: (0, errors_1.withErrorCodes)(schedule.nextCronFires),
        runBackgroundTask: (0, errors_1.withErrorCodes)(background.runBackgroundTask),
        runMonitorTask: (0, errors_1.withErrorCodes)(monitor.runMonitorTask),
        prepareAgentWorktree: (0, errors_1.withErrorCodes)(subagentWait.prepareAgentWorktree),
        settleAgentWorktree: (0, errors_1.withErrorCodes)(subagentWait.settleAgentWorktree),
        awaitAgentTask: (0, errors_1.withErrorCodes)(subagentWait.awaitAgentTask),
    };
    // The keys are exactly ACTIVITY_TYPES (the names workflows schedule and the audit reads).
    const _exact = ids_1.ACTIVITY_TYPES;
    void _exact;
    // The in-process runner's direct entries: the Temporal-free cores (src/calls).
    const calls = (0, calls_1.createCalls)(deps);
    return {
        activities,
        runToolCall: calls.runToolCall,
        runSessionHooks: calls.runSessionHooks,
        runBackgroundTask: calls.runBackgroundTask,
        runMonitorTask: calls.runMonitorTask,
    };
}
//# sourceMappingURL=index.js.map