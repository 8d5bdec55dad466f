import type { AgentWorktreeReady } from '../engine/subagents';
/** `.claude/worktrees/<name>` on branch `worktree-<name>` of the repository holding `cwd` (reused if it exists: a retry). */
export declare function prepareAgentWorktree(input: {
    cwd: string;
    name: string;
}): Promise<AgentWorktreeReady | {
    error: string;
}>;
/** After the child: an unchanged worktree (no file, no commit since its base) is removed with its branch; a changed one is kept. */
export declare function settleAgentWorktree(input: {
    worktree: AgentWorktreeReady;
}): Promise<{
    path: string;
    branch: string;
} | null>;
