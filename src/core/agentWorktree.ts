// An isolated agent's worktree, ready before its child starts: shared by the subagent records
// (subagents.ts) and the background agent tasks (autonomy.ts). Pure types.
/** An isolated agent's worktree as made before its child starts (git's answers, never the worktree's own `.git` file). */
export interface AgentWorktreeReady {
  path: string;
  branch: string;
  base: string;
  repoRoot: string;
  /** What sandboxed Bash in it may write of the main repository's git directory (worktreeGitAccess). */
  allowWrite: string[];
  denyWrite: string[];
  /** Its git directories: each command's git goes to a shadow while it runs (src/worktree/git/); absent in worktrees made before that. */
  worktreeGit?: { commonDir: string; gitDir: string };
}
