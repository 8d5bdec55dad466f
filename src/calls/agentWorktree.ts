// An isolated agent's worktree (`isolation: "worktree"`, issue 19): made before the child session
// starts — `.claude/worktrees/agent-<task id>` on branch `worktree-agent-<task id>`, the reference's
// naming (the EnterWorktree code: src/tools/worktree.ts) — and after the child, removed with its
// branch when the child changed nothing (no file, no commit since its base), kept otherwise, as the
// reference does. Temporal-free; the activities (src/activities/subagents.ts) are thin adapters.
import type { AgentWorktreeReady } from '../engine/subagents';
import { createOrReuseWorktree, listWorktrees, removeWorktree, worktreeChanges } from '../tools/worktree';
import { prepareWorktreeGit, removeWorktreeGit, settleWorktreeGit, worktreeGitAccess } from '../sandbox/worktreeGit';
import { recordCheckout } from '../sandbox/checkoutControl';

const AGENT = { agentInvoked: true } as const;

/** `.claude/worktrees/<name>` on branch `worktree-<name>` of the repository holding `cwd` (reused if it exists: a retry). */
export async function prepareAgentWorktree(input: {
  cwd: string;
  name: string;
}): Promise<AgentWorktreeReady | { error: string }> {
  try {
    const wt = await createOrReuseWorktree(input.cwd, input.name, AGENT);
    // Its branch is the one the child's commands may move in the repository (sandbox/worktreeGit.ts).
    await prepareWorktreeGit(wt, wt.created ? wt.branch : undefined, wt.created);
    // A later session there compares what it checked out with the main checkout (sandbox/checkoutControl.ts).
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
    const registered = (await listWorktrees(wt.repoRoot, AGENT)).some((w) => w.path === wt.path);
    if (!registered) return null;
    // What a command left in the shadow (a worker lost mid-command) comes in first (worktreeGit.ts).
    if (wt.worktreeGit) await settleWorktreeGit(wt.worktreeGit);
    const changes = await worktreeChanges(wt.path, wt.base, AGENT);
    if (changes.files > 0 || changes.commits > 0) return { path: wt.path, branch: wt.branch };
    await removeWorktree(wt.repoRoot, wt.path, wt.branch, AGENT);
    await removeWorktreeGit(wt.worktreeGit);
    return null;
  } catch {
    // Unsure: keep it (never remove work) and say where it is.
    return { path: wt.path, branch: wt.branch };
  }
}
