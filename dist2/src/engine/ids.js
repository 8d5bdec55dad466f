"use strict";
// The names a session leaves in Temporal histories, defined once: activity types, signal, query
// and update names, child workflow ids and activity ids. The workflows build them with these
// functions and the audit (src/audit/) reads histories with the same ones, so the two cannot drift.
// Pure; every string here is recorded in running sessions' histories: changing one breaks their
// replay and their audit (docs/architecture.md "Vocabulary").
Object.defineProperty(exports, "__esModule", { value: true });
exports.activityIds = exports.UPDATES = exports.QUERIES = exports.SIGNALS = exports.TOOL_ACTIVITY_TYPES = exports.ACTIVITY_TYPES = void 0;
exports.turnWorkflowId = turnWorkflowId;
exports.turnOfWorkflowId = turnOfWorkflowId;
exports.sessionOfTurnWorkflowId = sessionOfTurnWorkflowId;
exports.toolCallActivityIds = toolCallActivityIds;
exports.decidedByActivityId = decidedByActivityId;
exports.isSubagentActivityId = isSubagentActivityId;
/** The registered activity types (src/activities/index.ts uses exactly these keys). */
exports.ACTIVITY_TYPES = {
    callModel: 'callModel',
    appendTranscript: 'appendTranscript',
    loadTranscript: 'loadTranscript',
    compactContext: 'compactContext',
    describeToolUses: 'describeToolUses',
    runToolUse: 'runToolUse',
    storeReadFiles: 'storeReadFiles',
    storeToolSettings: 'storeToolSettings',
    runSessionHooks: 'runSessionHooks',
    prepareSubagent: 'prepareSubagent',
    finishSubagent: 'finishSubagent',
    awaitSubagent: 'awaitSubagent',
    nextCronFires: 'nextCronFires',
    runBackgroundTask: 'runBackgroundTask',
    runMonitorTask: 'runMonitorTask',
    prepareAgentWorktree: 'prepareAgentWorktree',
    settleAgentWorktree: 'settleAgentWorktree',
    awaitAgentTask: 'awaitAgentTask',
};
/** Activity types whose result is a tool call's `ToolRunResult`. */
exports.TOOL_ACTIVITY_TYPES = new Set([
    exports.ACTIVITY_TYPES.runToolUse,
    exports.ACTIVITY_TYPES.prepareSubagent,
    exports.ACTIVITY_TYPES.finishSubagent,
]);
/** Signals, queries and updates of the session and turn workflows (workflows/definitions.ts defines them with these names). */
exports.SIGNALS = {
    interrupt: 'interrupt',
    sendMessage: 'sendMessage',
    /** Ends a session's loop of wake-ups and cron jobs (engine/autonomy.ts). */
    stop: 'stop',
    turnInterrupt: 'turnInterrupt',
    turnApproval: 'turnApproval',
    approvalPending: 'approvalPending',
    approvalResolved: 'approvalResolved',
    outage: 'outage',
    /** From a turn's own model activity: a tool_use block complete while the message streams. */
    streamedToolUse: 'streamedToolUse',
    /** From a Monitor task's activity to its session: one numbered batch of the watch's output (engine/monitorTasks.ts). */
    monitorEvent: 'monitorEvent',
};
exports.QUERIES = { status: 'status', transcriptHead: 'transcriptHead', turnProgress: 'turnProgress' };
exports.UPDATES = { approve: 'approve', deny: 'deny' };
// ---------------------------------------------------------------------------------------------
// Child workflow ids
/** The turn child workflow `<session-id>/turn-<n>`. */
function turnWorkflowId(sessionId, turn) {
    return `${sessionId}/turn-${turn}`;
}
/** The turn number of a session's turn workflow id; undefined for any other workflow id. */
function turnOfWorkflowId(sessionId, workflowId) {
    const prefix = `${sessionId}/turn-`;
    if (!workflowId.startsWith(prefix))
        return undefined;
    const rest = workflowId.slice(prefix.length);
    return /^\d+$/.test(rest) ? Number(rest) : undefined;
}
/** The session id of a turn workflow id (`<session-id>/turn-<n>`); undefined if it is not one. */
function sessionOfTurnWorkflowId(workflowId) {
    const m = /^(.*)\/turn-\d+$/.exec(workflowId);
    return m ? m[1] : undefined;
}
// ---------------------------------------------------------------------------------------------
// Activity ids inside a turn (the session's own: `hook-<event>-<n>`)
exports.activityIds = {
    /**
     * The model call of turn n: `model-<n>`; a retry after an outage `model-<n>-attempt-<k>`; a call
     * after a compaction adds `-<j>` (stepAttempt j-1).
     */
    model: (turn, outageAttempt = 1, stepAttempt = 0) => {
        const base = outageAttempt <= 1 ? `model-${turn}` : `model-${turn}-attempt-${outageAttempt}`;
        return stepAttempt === 0 ? base : `${base}-${stepAttempt + 1}`;
    },
    compact: (n) => `compact-${n}`,
    /** One tool call; re-run with a human/timeout decision as `tool-<id>-approve` / `tool-<id>-deny`. */
    tool: (toolUseId, decided) => decided ? `tool-${toolUseId}-${decided}` : `tool-${toolUseId}`,
    /** The Agent call's pre-call phase (and its decided re-run) and post-call phase. */
    agentPre: (toolUseId, decided) => decided ? `agent-pre-${toolUseId}-${decided}` : `agent-pre-${toolUseId}`,
    agentPost: (toolUseId) => `agent-post-${toolUseId}`,
    /** Waiting for a child session that already existed. */
    agentAwait: (toolUseId) => `agent-await-${toolUseId}`,
    /** An isolated agent's worktree: made before the child (`agent-worktree-<id>`), settled after a foreground child. */
    agentWorktree: (toolUseId) => `agent-worktree-${toolUseId}`,
    agentWorktreeSettle: (toolUseId) => `agent-worktree-settle-${toolUseId}`,
    append: (turn) => `append-${turn}`,
    readFiles: (turn) => `read-files-${turn}`,
    hook: (event, n) => `hook-${event}-${n}`,
    /** A background task's own activity in the session (Bash run_in_background, Monitor): `task-<task id>`. */
    task: (taskId) => `task-${taskId}`,
    /** A retried attempt of any of these (the turn waits out outages): `<id>-attempt-<k>`. */
    attempt: (base, attempt) => (attempt <= 1 ? base : `${base}-attempt-${attempt}`),
};
/** Every activity id a tool call may have, in the order they run (audit: one call's activities). */
function toolCallActivityIds(toolUseId) {
    return [
        exports.activityIds.tool(toolUseId),
        exports.activityIds.tool(toolUseId, 'approve'),
        exports.activityIds.tool(toolUseId, 'deny'),
        exports.activityIds.agentPre(toolUseId),
        exports.activityIds.agentPre(toolUseId, 'approve'),
        exports.activityIds.agentPre(toolUseId, 'deny'),
        exports.activityIds.agentPost(toolUseId),
    ];
}
/** The decision an approve/deny re-run carries in its activity id, if it is one. */
function decidedByActivityId(activityId) {
    return activityId.endsWith('-approve') ? 'approve' : activityId.endsWith('-deny') ? 'deny' : undefined;
}
/** True for the Agent call's phases (`agent-pre-…`, `agent-post-…`). */
function isSubagentActivityId(activityId) {
    return activityId.startsWith('agent-pre-') || activityId.startsWith('agent-post-');
}
// Each activity type is named after its key (the key is what a workflow proxy calls).
const _selfNamed = exports.ACTIVITY_TYPES;
void _selfNamed;
//# sourceMappingURL=ids.js.map