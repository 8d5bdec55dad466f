// `run --worktree [NAME]`: the session works in a git worktree of the repository holding `--cwd`,
// made (or reused) before the session starts, at the reference's place and on its branch
// (`.claude/worktrees/<name>`, `worktree-<name>`: src/worktree/worktrees.ts). The worktree is then the
// session's cwd: its only working directory (with --add-dir's), so the sandbox's write allowlist,
// the protected paths and the permission rules are the worktree's, and parallel sessions in other
// worktrees of the same repository never see each other's files.
import { relative } from 'node:path';
import type { SandboxSettings } from '../sandbox/settings';
import { createOrReuseWorktree, randomWorktreeName, worktreeNameProblem, type Worktree } from '../worktree/worktrees';
import { prepareWorktreeGit, worktreeGitAccess } from '../worktree/git';
import { recordCheckout } from '../worktree/git/checkoutControl';
import { UsageError } from './options';

/** `--worktree` given bare (true) or with a name: the worktree to run in; a bad name or no repository is a UsageError. */
export async function prepareRunWorktree(cwd: string, flag: string | true): Promise<Worktree> {
  const name = flag === true ? randomWorktreeName() : flag;
  const problem = worktreeNameProblem(name);
  if (problem)
    throw new UsageError(
      `--worktree: ${problem} (put the prompt before --worktree, or write --worktree=NAME, when the next word is not a name)`,
    );
  try {
    const wt = await createOrReuseWorktree(cwd, name);
    // The worktree's branch is the one its commands may move in the repository (worktree/git/).
    await prepareWorktreeGit(wt, wt.created ? wt.branch : undefined, wt.created);
    // What it checked out is compared with the main checkout before a session loads it (worktree/git/checkoutControl.ts).
    if (wt.created) await recordCheckout(wt, 'run --worktree');
    return wt;
  } catch (err) {
    throw new UsageError(`--worktree: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The line `run` prints to stderr. */
export function worktreeNotice(wt: Worktree): string {
  const line = `durable-agent: ${wt.created ? 'created' : 'reusing'} worktree ${relative(wt.repoRoot, wt.path)} on branch ${wt.branch} (${wt.path})\n`;
  return wt.removedGitFiles?.length ? `${line}${removedGitFilesLine(wt.removedGitFiles)}\n` : line;
}

/** What `run` and EnterWorktree say about the git directories a branch carried (red team, issue 30, M5). */
export function removedGitFilesLine(files: readonly string[]): string {
  return `⚠ the branch carries git directories (a HEAD with a config, pointers or hooks below the top: a repository the person's git would use there); not checked out: ${files.join(', ')}`;
}

/**
 * The session's sandbox settings with what git needs of the repository's git directory (the
 * worktree's own git directory and its shadow's objects, refs and logs; never config, hooks or
 * pointers: worktreeGitAccess), and the worktree whose git each command redirects to its shadow
 * while it runs (src/worktree/git/), so that sandboxed Bash commits on the worktree's branch
 * without reaching the repository's other branches or objects.
 */
export function worktreeSandbox(sandbox: SandboxSettings | undefined, wt: Worktree): SandboxSettings {
  const access = worktreeGitAccess(wt.commonDir, wt.gitDir);
  return {
    ...(sandbox ?? {}),
    filesystem: {
      ...sandbox?.filesystem,
      allowWrite: [...(sandbox?.filesystem?.allowWrite ?? []), ...access.allowWrite],
      denyWrite: [...(sandbox?.filesystem?.denyWrite ?? []), ...access.denyWrite],
    },
    worktreeGit: [...(sandbox?.worktreeGit ?? []), access.worktreeGit],
  };
}
