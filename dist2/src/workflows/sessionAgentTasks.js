"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.agentEndOf = agentEndOf;
exports.runAgentTask = runAgentTask;
// A background agent's task in its parent session (issue 19, BACKGROUND_AGENTS_PATCH): the Agent
// call started the child session (parent close policy ABANDON, so it outlives its turn) and
// recorded a `local_agent` task; the session waits for the child as the task's activity
// `task-<id>` (awaitAgentTask: heartbeating, retried after a lost worker — waiting again is
// harmless — and, for `isolation: "worktree"`, it removes the child's worktree when the child
// changed nothing). The end becomes the reference's agent `<task-notification>` (result, usage,
// worktree). TaskStop or the session's end cancels the wait and the child session (killed, no
// notification). SessionTasks (sessionTasks.ts) owns the scopes and the no-continue-as-new rule.
const workflow_1 = require("@temporalio/workflow");
const ids_1 = require("../engine/ids");
const messages_1 = require("../engine/messages");
const subagents_1 = require("../engine/subagents");
const DEFAULT_HEARTBEAT_TIMEOUT_MS = 30_000;
/** The notification's view of a finished child session. */
function agentEndOf(r, durationMs) {
    return (0, subagents_1.agentSessionEnd)(r.result, durationMs, r.worktree);
}
/** Waits for the agent's child session in `scope` (cancelled by TaskStop or the session's end). */
async function runAgentTask(task, input, scope) {
    const child = task.agent?.sessionId ?? '';
    const act = (0, workflow_1.proxyActivities)({
        activityId: ids_1.activityIds.task(task.id),
        summary: `Background agent ${task.id}: ${(0, messages_1.oneLinePreview)(task.description, 80)}`,
        // An agent may run for days: heartbeats, not this, detect a lost worker (then the wait is retried elsewhere).
        startToCloseTimeout: '30 days',
        heartbeatTimeout: input.toolHeartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS,
        cancellationType: 'TRY_CANCEL',
        // The worktree lives where the tools run.
        ...(input.toolTaskQueue ? { taskQueue: input.toolTaskQueue } : {}),
    });
    try {
        const r = await scope.run(() => act.awaitAgentTask({ workflowId: child, ...(task.agent?.worktree ? { worktree: task.agent.worktree } : {}) }));
        const endedAt = Date.now();
        return (0, subagents_1.agentTaskEnd)(task, agentEndOf(r, endedAt - task.startedAt), endedAt);
    }
    catch (err) {
        const endedAt = Date.now();
        if ((0, workflow_1.isCancellation)(err)) {
            // Stopped: the child session is cancelled too (its running tools with it).
            await workflow_1.CancellationScope.nonCancellable(() => (0, workflow_1.getExternalWorkflowHandle)(child).cancel()).catch(() => undefined);
            return { outcome: { state: 'killed', endedAt, exitCode: null } };
        }
        const cause = err instanceof workflow_1.ActivityFailure ? err.cause : err;
        const message = cause instanceof workflow_1.ApplicationFailure || cause instanceof Error ? cause.message : String(cause);
        const { notification } = (0, subagents_1.agentTaskEnd)(task, (0, subagents_1.agentFailureEnd)(message, endedAt - task.startedAt), endedAt);
        return { outcome: { state: 'failed', endedAt, exitCode: null, error: message }, notification };
    }
}
//# sourceMappingURL=sessionAgentTasks.js.map