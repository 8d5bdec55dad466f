// An isolated agent's worktree (`isolation: "worktree"`, issue 19): made before the child session
// starts — `.claude/worktrees/agent-<task id>` on branch `worktree-agent-<task id>`, the reference's
// naming (the EnterWorktree code: src/worktree/worktrees.ts) — and after the child, removed with its
// branch when the child changed nothing (no file, no commit since its base), kept otherwise, as the
// reference does. Only in the session's project repository, fixed at its start (issue 30): the
// workflow passes the repository the session recorded (its sandbox settings' `repository`) and its
// start directory, never only the agent's current cwd. Temporal-free; the activities
// (src/temporal/activities/subagents.ts) are thin adapters.
import * as path from 'node:path';
import type { AgentWorktreeRequest, AgentWorktreeReady } from '../core/subagents';
import {
  createOrReuseWorktree,
  registeredWorktree,
  removeWorktree,
  sessionRepository,
  worktreeChanges,
} from '../worktree/worktrees';
import {
  prepareWorktreeGit,
  removeWorktreeFiles,
  removeWorktreeGit,
  settleWorktreeGit,
  worktreeGitAccess,
} from '../worktree/git';
import { recordCheckout } from '../worktree/git/checkoutControl';

const AGENT = { agentInvoked: true } as const;

/**
 * `.claude/worktrees/<name>` on branch `worktree-<name>` of the session's repository (reused if it
 * exists: a retry): the one recorded at the session's start; for a session started before it was
 * recorded, the repository of its start directory (`projectDir`). A request naming only the cwd
 * (scheduled by a workflow before issue 30) is refused.
 */
export async function prepareAgentWorktree(
  input: AgentWorktreeRequest,
): Promise<AgentWorktreeReady | { error: string }> {
  try {
    // A request naming only the agent's cwd (scheduled before issue 30) is refused: that cwd may be a repository the agent built.
    if (input.repository === undefined && input.projectDir === undefined)
      return {
        error: `Cannot create the agent's worktree: the request names no session repository (only the current directory ${input.cwd}).`,
      };
    const repo = sessionRepository({
      agent: { cwd: input.projectDir ?? input.cwd },
      permission: { sandbox: input.repository !== undefined ? { repository: input.repository } : {} },
    });
    const wt = await createOrReuseWorktree(repo, input.name, AGENT);
    // Its branch is the one the child's commands may move in the repository (worktree/git/).
    await prepareWorktreeGit(wt, wt.created ? wt.branch : undefined, wt.created);
    // A later session there compares what it checked out with the main checkout (worktree/git/checkoutControl.ts).
    if (wt.created) await recordCheckout(wt, 'Agent isolation');
    return {
      path: wt.path,
      branch: wt.branch,
      base: wt.base,
      repoRoot: wt.repoRoot,
      ...worktreeGitAccess(wt.commonDir, wt.gitDir),
    };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** After the child: an unchanged worktree (no file, no commit since its base) is removed with its branch; a changed one is kept. */
export async function settleAgentWorktree(input: {
  worktree: AgentWorktreeReady;
}): Promise<{ path: string; branch: string } | null> {
  const wt = input.worktree;
  try {
    // The worktree as the repository registers it (both ways agree, nothing symlinked): git goes through its git directory.
    const commonDir = wt.worktreeGit?.commonDir ?? path.join(wt.repoRoot, '.git');
    const repo = { root: wt.repoRoot, commonDir };
    const reg = registeredWorktree(repo, wt.path);
    if (!reg) return null;
    // What a command left in the shadow (a worker lost mid-command) comes in first (worktree/git/).
    if (wt.worktreeGit) await settleWorktreeGit(wt.worktreeGit);
    const changes = await worktreeChanges(wt.path, reg.gitDir, wt.base, AGENT);
    if (changes.files > 0 || changes.commits > 0) return { path: wt.path, branch: wt.branch };
    await removeWorktreeFiles(wt.path);
    await removeWorktree(repo, wt.path, wt.branch, AGENT);
    await removeWorktreeGit(wt.worktreeGit);
    return null;
  } catch {
    // Unsure: keep it (never remove work) and say where it is.
    return { path: wt.path, branch: wt.branch };
  }
}
