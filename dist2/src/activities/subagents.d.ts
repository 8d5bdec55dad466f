import type { SessionResult } from '../workflows/definitions';
import { prepareAgentWorktree, settleAgentWorktree } from '../calls/agentWorktree';
import type { AgentWorktreeReady } from '../engine/subagents';
export type { AgentWorktreeReady } from '../engine/subagents';
/** What a background agent's wait returns to its parent session. */
export interface AgentTaskResult {
    result: SessionResult;
    /** The worktree, when it was kept (the child changed something); absent when removed or none. */
    worktree?: {
        path: string;
        branch: string;
    };
}
export declare function createSubagentActivities(): {
    awaitSubagent: (input: {
        workflowId: string;
    }) => Promise<SessionResult>;
    prepareAgentWorktree: typeof prepareAgentWorktree;
    settleAgentWorktree: typeof settleAgentWorktree;
    awaitAgentTask: (input: {
        workflowId: string;
        worktree?: AgentWorktreeReady;
    }) => Promise<AgentTaskResult>;
};
