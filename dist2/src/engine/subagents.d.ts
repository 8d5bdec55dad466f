import type { ControlWrite } from './records';
import type { BackgroundTask, TaskOutcome } from './autonomy';
import { type AgentEnd } from './taskNotifications';
/** The tool's names: `Agent` (the reference's current name) and its old name `Task`. */
export declare const AGENT_TOOL_NAMES: readonly string[];
/** A validated Agent call, resolved by the pre-call phase (schema, validateInput, hooks, permission passed). */
export interface SubagentCall {
    agentType: string;
    description: string;
    prompt: string;
    /** The child's system prompt (the agent definition's body). */
    system: string;
    /** The child's model id (alias resolved); absent = the parent's. */
    model?: string;
    /** The child's tools: the definition's within the parent's, never the Agent tool (no nesting). */
    tools: string[];
    maxTurns?: number;
    /** The child gets the parent's MCP servers (its tools inherit all, or name an `mcp__` tool). */
    mcp?: boolean;
    /** Deny rules the child adds to the parent's (the agent's `disallowedTools` MCP names). */
    denyRules?: string[];
    /** `run_in_background` as the model gave it (absent: the scheduler's default, background on the workflow path). */
    background?: boolean;
    /** `isolation: "worktree"`: the child works in a git worktree of its own (`.claude/worktrees/agent-<task id>`). */
    isolation?: 'worktree';
    /** The pipeline state the post-call phase continues from: the validated input, hook context, the decision. */
    resume: SubagentResume;
}
export interface SubagentResume {
    input: unknown;
    /** Text that PreToolUse hooks asked to add to the result (`additionalContext`). */
    context: string[];
    notices: string[];
    permission?: unknown;
    /** The PreToolUse hooks that ran (for the record and the audit). */
    hookRuns?: unknown[];
}
/** What the child session returned: the Agent tool's output (`call()`'s data). */
export interface SubagentOutput {
    agentType: string;
    /** The child session's id (its workflow id under Temporal). */
    sessionId: string;
    status: string;
    endReason: string;
    /** The child's final assistant text, whole. */
    text: string;
    turns: number;
    usage?: {
        input_tokens: number;
        output_tokens: number;
    };
    /** The child's tool calls (the reference's `tool_uses` / `totalToolUseCount`). */
    toolUses?: number;
    /** Tokens of the child's last model call, input (cache included) + output (the reference's `subagent_tokens` / `totalTokens`). */
    totalTokens?: number;
    /** How long the child ran (workflow time under Temporal). */
    durationMs?: number;
    /** The model the child ran on (the reference's `resolvedModel`). */
    model?: string;
    /** Control files the child session's calls changed (a child session workflow: its result says; in-process the call's own fingerprint sees them). */
    controlWrites?: ControlWrite[];
    /** A background agent: the call returned at once; its report comes later as a task notification. */
    launched?: {
        taskId: string;
    };
    /** The child's worktree (`isolation: "worktree"`), when it was kept (the child changed something). */
    worktree?: AgentWorktree;
}
/** An isolated agent's worktree as made before its child starts (git's answers, never the worktree's own `.git` file). */
export interface AgentWorktreeReady {
    path: string;
    branch: string;
    base: string;
    repoRoot: string;
    /** What sandboxed Bash in it may write of the main repository's git directory (worktreeGitAccess). */
    allowWrite: string[];
    denyWrite: string[];
}
/** Where an isolated agent worked: the reference's `worktreePath` / `worktreeBranch`. */
export interface AgentWorktree {
    path: string;
    branch: string;
}
/** The counters of a finished child session, as the Agent output carries them. */
export declare function subagentCounters(r: {
    toolCalls?: number;
    lastUsage?: {
        input_tokens: number;
        output_tokens: number;
        cache_read_input_tokens?: number | null;
        cache_creation_input_tokens?: number | null;
    };
}): Pick<SubagentOutput, 'toolUses' | 'totalTokens'>;
/**
 * The reference's second text block of a completed Agent result: `<usage>subagent_tokens: N
 * tool_uses: K duration_ms: D</usage>` (one per line). The reference's leading `agentId: … (use
 * SendMessage …)` line is left out: there is no SendMessage tool here. Absent for outputs recorded
 * before the counters existed.
 */
export declare function subagentUsageNote(o: SubagentOutput): string | undefined;
/** The child session's id: `<session>/agent-<tool_use_id>` — one child per call, ever (invariant 5). */
export declare function subagentSessionId(sessionId: string, toolUseId: string): string;
/** Where a subagent's session came from (its SessionInput.parent). */
export interface SubagentParent {
    sessionId: string;
    toolUseId: string;
    /** The agent type (absent in sessions started before it was recorded). */
    agentType?: string;
}
/**
 * What every hook input inside a subagent carries, as the reference sends it: the parent's
 * session_id, the subagent's id and type (src/hooks/types.ts AgentHookFields).
 */
export declare function agentHookFields(parent: SubagentParent, childSessionId: string): {
    session_id: string;
    agent_id: string;
    agent_type: string;
};
/** The child session's system prompt: the agent's body and where it works (a file with an empty body gets the second part only). */
export declare function childSystemPrompt(system: string, cwd: string): string;
/** One line for the UI and the audit: `Agent reviewer: check the diff`. */
export declare function subagentSummary(agentType: string, description: string): string;
export declare function isAgentTool(name: string): boolean;
/**
 * A background agent's task id (TaskStop's `task_id`, the notification's `<task-id>`; its worktree
 * is `agent-<id>`): `a` and 16 hex digits, as the reference's agent ids look, derived from the
 * session and the tool_use_id (FNV-1a, pure: workflow code computes it, replay gets the same).
 */
export declare function agentTaskId(sessionId: string, toolUseId: string): string;
/** The worktree name of an isolated agent (the reference's: `agent-<agent id>`). */
export declare function agentWorktreeName(taskId: string): string;
/**
 * The Agent result of a background launch: the reference's first sentence and `agentId:` line,
 * then our own guidance (no SendMessage here; TaskStop stops it; no output file to read: the
 * child is a session of its own, `durable-agent status <child session>` shows it).
 */
export declare function agentLaunchedText(taskId: string, childSessionId: string): string;
/**
 * A background agent's end as its notification says it (engine/taskNotifications.ts `agentNotification`),
 * from its child session's result: the session workflow's wait (workflows/sessionAgentTasks.ts) and
 * the in-process runner's (local/subagents.ts) both read it here.
 */
export declare function agentSessionEnd(r: Parameters<typeof subagentCounters>[0] & {
    status: string;
    endReason?: string | undefined;
    lastText: string;
}, durationMs: number, worktree?: {
    path: string;
    branch: string;
}): AgentEnd;
/** A background agent's task end: its outcome (completed or failed) and the notification to queue. */
export declare function agentTaskEnd(task: Pick<BackgroundTask, 'id' | 'description' | 'toolUseId'>, end: AgentEnd, endedAt: number): {
    outcome: TaskOutcome;
    notification: string;
};
/** A background agent whose child could not be waited for (or run): failed, with why. */
export declare function agentFailureEnd(error: string, durationMs: number): AgentEnd;
