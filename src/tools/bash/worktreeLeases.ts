// A linked worktree's git while a Bash command runs there: its git points at its shadow, and what the
// command did is brought into the repository after (src/worktree/git/).
import {
  activateWorktreeGit,
  deactivateWorktreeGit,
  worktreeSyncNote,
  type WorktreeGitLease,
} from '../../worktree/git';
import type { ToolUseContext } from '../../toolProtocol/Tool';

/**
 * The worktrees a command of this session runs in (EnterWorktree's, and those `run --worktree` or an
 * isolated agent put in the sandbox settings): each one's git points at its shadow while the
 * command runs, and what the command did there is brought into the repository after (worktree/git/).
 */
export class WorktreeGitLeases {
  private leases: WorktreeGitLease[] = [];

  async acquire(ctx: ToolUseContext): Promise<void> {
    const seen = new Set<string>();
    const all = [
      ...(ctx.permission.sandbox?.worktreeGit ?? []),
      ...(ctx.agent.worktree?.gitDir && ctx.agent.worktree.commonDir
        ? [{ commonDir: ctx.agent.worktree.commonDir, gitDir: ctx.agent.worktree.gitDir }]
        : []),
    ];
    for (const w of all) {
      if (seen.has(w.gitDir)) continue;
      seen.add(w.gitDir);
      try {
        this.leases.push(await activateWorktreeGit(w));
      } catch (err) {
        await this.release().catch(() => undefined);
        throw new Error(
          `Bash did not run: the worktree's git (${w.gitDir}) could not be prepared: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
  }

  /** Brings each worktree's work in; a note for the model when the repository did not take all of it. */
  async release(): Promise<string | undefined> {
    const leases = this.leases;
    this.leases = [];
    const notes: string[] = [];
    for (const lease of leases) {
      try {
        const note = worktreeSyncNote(await deactivateWorktreeGit(lease));
        if (note) notes.push(note);
      } catch (err) {
        notes.push(
          `<worktree_git>\nThe command's git work in the worktree was not brought into the repository: ${err instanceof Error ? err.message : String(err)}\n</worktree_git>`,
        );
      }
    }
    return notes.length > 0 ? notes.join('\n') : undefined;
  }
}
