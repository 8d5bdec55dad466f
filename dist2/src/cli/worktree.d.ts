import type { SandboxSettings } from '../sandbox/settings';
import { type Worktree } from '../tools/worktree';
/** `--worktree` given bare (true) or with a name: the worktree to run in; a bad name or no repository is a UsageError. */
export declare function prepareRunWorktree(cwd: string, flag: string | true): Promise<Worktree>;
/** The line `run` prints to stderr. */
export declare function worktreeNotice(wt: Worktree): string;
/**
 * The session's sandbox settings with what git needs of the main repository's git directory (its
 * objects, refs and logs and the worktree's own git directory; never config, hooks or pointers:
 * worktreeGitAccess), so that sandboxed Bash can commit on the worktree's branch.
 */
export declare function worktreeSandbox(sandbox: SandboxSettings | undefined, wt: Worktree): SandboxSettings;
