"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AGENT_TOOL_NAMES = void 0;
exports.subagentCounters = subagentCounters;
exports.subagentUsageNote = subagentUsageNote;
exports.subagentSessionId = subagentSessionId;
exports.agentHookFields = agentHookFields;
exports.childSystemPrompt = childSystemPrompt;
exports.subagentSummary = subagentSummary;
exports.isAgentTool = isAgentTool;
exports.agentTaskId = agentTaskId;
exports.agentWorktreeName = agentWorktreeName;
exports.agentLaunchedText = agentLaunchedText;
exports.agentSessionEnd = agentSessionEnd;
exports.agentTaskEnd = agentTaskEnd;
exports.agentFailureEnd = agentFailureEnd;
const taskNotifications_1 = require("./taskNotifications");
/** The tool's names: `Agent` (the reference's current name) and its old name `Task`. */
exports.AGENT_TOOL_NAMES = ['Agent', 'Task'];
/** The counters of a finished child session, as the Agent output carries them. */
function subagentCounters(r) {
    const u = r.lastUsage;
    return {
        ...(r.toolCalls !== undefined ? { toolUses: r.toolCalls } : {}),
        ...(u
            ? {
                totalTokens: u.input_tokens + u.output_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0),
            }
            : {}),
    };
}
/**
 * The reference's second text block of a completed Agent result: `<usage>subagent_tokens: N
 * tool_uses: K duration_ms: D</usage>` (one per line). The reference's leading `agentId: … (use
 * SendMessage …)` line is left out: there is no SendMessage tool here. Absent for outputs recorded
 * before the counters existed.
 */
function subagentUsageNote(o) {
    const wt = o.worktree ? `worktreePath: ${o.worktree.path}\nworktreeBranch: ${o.worktree.branch}\n` : '';
    if (o.toolUses === undefined || o.totalTokens === undefined || o.durationMs === undefined)
        return wt ? wt.trimEnd() : undefined;
    return `${wt}<usage>subagent_tokens: ${o.totalTokens}\ntool_uses: ${o.toolUses}\nduration_ms: ${Math.round(o.durationMs)}</usage>`;
}
/** The child session's id: `<session>/agent-<tool_use_id>` — one child per call, ever (invariant 5). */
function subagentSessionId(sessionId, toolUseId) {
    return `${sessionId}/agent-${toolUseId}`;
}
/**
 * What every hook input inside a subagent carries, as the reference sends it: the parent's
 * session_id, the subagent's id and type (src/hooks/types.ts AgentHookFields).
 */
function agentHookFields(parent, childSessionId) {
    return { session_id: parent.sessionId, agent_id: childSessionId, agent_type: parent.agentType ?? 'general-purpose' };
}
/** The child session's system prompt: the agent's body and where it works (a file with an empty body gets the second part only). */
function childSystemPrompt(system, cwd) {
    const where = `The working directory is ${cwd}.`;
    return system.trim() === '' ? where : `${system}\n\n${where}`;
}
/** One line for the UI and the audit: `Agent reviewer: check the diff`. */
function subagentSummary(agentType, description) {
    const d = description.length > 80 ? `${description.slice(0, 79)}…` : description;
    return `Agent ${agentType}: ${d}`;
}
function isAgentTool(name) {
    return exports.AGENT_TOOL_NAMES.includes(name);
}
/**
 * A background agent's task id (TaskStop's `task_id`, the notification's `<task-id>`; its worktree
 * is `agent-<id>`): `a` and 16 hex digits, as the reference's agent ids look, derived from the
 * session and the tool_use_id (FNV-1a, pure: workflow code computes it, replay gets the same).
 */
function agentTaskId(sessionId, toolUseId) {
    const text = `${sessionId}/${toolUseId}`;
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193 ^ 0x5bd1e995;
    for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
        h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
        h2 = (h2 ^ (h2 >>> 13)) >>> 0;
    }
    return `a${h1.toString(16).padStart(8, '0')}${h2.toString(16).padStart(8, '0')}`;
}
/** The worktree name of an isolated agent (the reference's: `agent-<agent id>`). */
function agentWorktreeName(taskId) {
    return `agent-${taskId}`;
}
/**
 * The Agent result of a background launch: the reference's first sentence and `agentId:` line,
 * then our own guidance (no SendMessage here; TaskStop stops it; no output file to read: the
 * child is a session of its own, `durable-agent status <child session>` shows it).
 */
function agentLaunchedText(taskId, childSessionId) {
    return [
        'Async agent launched successfully.',
        `agentId: ${taskId} (internal ID - do not mention to user. TaskStop with this id stops the agent.)`,
        'The agent is working in the background as its own session. You will be notified automatically when it completes. You know nothing about its results until that notification arrives: do not report, assume, or predict them; continue other work or respond to the user in the meantime.',
        "Do not duplicate this agent's work: avoid working with the same files or topics it is using.",
        `session: ${childSessionId}`,
    ].join('\n');
}
/**
 * A background agent's end as its notification says it (engine/taskNotifications.ts `agentNotification`),
 * from its child session's result: the session workflow's wait (workflows/sessionAgentTasks.ts) and
 * the in-process runner's (local/subagents.ts) both read it here.
 */
function agentSessionEnd(r, durationMs, worktree) {
    const counters = subagentCounters(r);
    const completed = r.status === 'completed';
    return {
        state: completed ? 'completed' : 'failed',
        result: r.lastText,
        ...(completed ? {} : { error: `its session ended ${r.status}: ${r.endReason}` }),
        totalTokens: counters.totalTokens ?? 0,
        toolUses: counters.toolUses ?? 0,
        durationMs,
        ...(worktree ? { worktree } : {}),
    };
}
/** A background agent's task end: its outcome (completed or failed) and the notification to queue. */
function agentTaskEnd(task, end, endedAt) {
    const outcome = {
        state: end.state === 'completed' ? 'completed' : 'failed',
        endedAt,
        exitCode: null,
        ...(end.error ? { error: end.error } : {}),
    };
    const view = { id: task.id, description: task.description, toolUseId: task.toolUseId };
    return { outcome, notification: (0, taskNotifications_1.agentNotification)(view, end) };
}
/** A background agent whose child could not be waited for (or run): failed, with why. */
function agentFailureEnd(error, durationMs) {
    return { state: 'failed', error, totalTokens: 0, toolUses: 0, durationMs };
}
//# sourceMappingURL=subagents.js.map