"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createSubagentActivities = createSubagentActivities;
// The activities a subagent needs besides the pipeline's two phases: waiting for a child session
// that already exists (a parent that re-ran an Agent call attaches to it instead of starting a
// second one, invariant 5), a background agent's wait in its parent session (awaitAgentTask), and
// an isolated agent's worktree (`isolation: "worktree"`: made before the child starts, removed
// after it when the child changed nothing, as the reference does). Uses the worker's client;
// heartbeats while it waits.
const activity_1 = require("@temporalio/activity");
const agentWorktree_1 = require("../calls/agentWorktree");
function createSubagentActivities() {
    async function awaitSubagent(input) {
        const ctx = activity_1.Context.current();
        const beat = setInterval(() => ctx.heartbeat({ waitingFor: input.workflowId }), 1000);
        try {
            return (await ctx.client.workflow.getHandle(input.workflowId).result());
        }
        finally {
            clearInterval(beat);
        }
    }
    /** A background agent, from its parent session: waits for the child session's end, then settles its worktree. */
    async function awaitAgentTask(input) {
        const ctx = activity_1.Context.current();
        const beat = setInterval(() => ctx.heartbeat({ waitingFor: input.workflowId }), 1000);
        let result;
        try {
            // TaskStop cancels this wait (the parent then cancels the child session itself).
            result = (await Promise.race([
                ctx.client.workflow.getHandle(input.workflowId).result(),
                ctx.cancelled,
            ]));
        }
        finally {
            clearInterval(beat);
        }
        if (!input.worktree)
            return { result };
        const kept = await (0, agentWorktree_1.settleAgentWorktree)({ worktree: input.worktree });
        return { result, ...(kept ? { worktree: kept } : {}) };
    }
    return { awaitSubagent, prepareAgentWorktree: agentWorktree_1.prepareAgentWorktree, settleAgentWorktree: agentWorktree_1.settleAgentWorktree, awaitAgentTask };
}
//# sourceMappingURL=subagents.js.map