export declare const WORKTREE_NAME_MAX = 64;
/** Why a worktree name is refused (the reference's rules), or undefined when it is valid. */
export declare function worktreeNameProblem(name: string): string | undefined;
/** The directory name under `.claude/worktrees/` (the reference: each "/" becomes "+"). */
export declare function worktreeDirName(name: string): string;
/** The branch a new worktree gets. */
export declare function worktreeBranch(name: string): string;
export declare function worktreePath(repoRoot: string, name: string): string;
/** A name when none is given: `<adjective>-<verb>ing-<noun>`, as the reference picks one. */
export declare function randomWorktreeName(random?: () => number): string;
export interface GitOptions {
    /** The model asked (a tool): the repository's hooks and fsmonitor do not run. */
    agentInvoked?: boolean;
}
/** Runs git; resolves with stdout, rejects with git's message. */
export declare function git(cwd: string, args: readonly string[], opts?: GitOptions): Promise<string>;
/** The main repository's root (the directory whose `.git` is the common directory), or undefined outside git. */
export declare function mainRepositoryRoot(cwd: string, opts?: GitOptions): Promise<string | undefined>;
export interface WorktreeEntry {
    path: string;
    /** `refs/heads/x` shortened to `x`; undefined when detached. */
    branch?: string;
    head?: string;
    locked: boolean;
}
/** `git worktree list --porcelain`, the main checkout first. */
export declare function listWorktrees(cwd: string, opts?: GitOptions): Promise<WorktreeEntry[]>;
export interface Worktree {
    path: string;
    branch: string;
    /** The commit it started from (for counting the commits made in it). */
    base: string;
    /** Made now (false: an existing worktree was reused). */
    created: boolean;
    /** The main repository's root. */
    repoRoot: string;
    /** The repository's common git directory (`<root>/.git`) and this worktree's own (`<common>/worktrees/<dir>`). */
    commonDir: string;
    gitDir: string;
}
/**
 * What sandboxed Bash in a linked worktree may write of the main repository's git directory so that
 * git works there (add, commit, branch): the object store, the refs and their logs, the worktree's
 * own git directory; and, denied inside those, what makes git run code or read another directory
 * (config, hooks, the worktree's commondir/gitdir pointers and per-worktree config). Everything
 * else of the main repository — its checkout, its config, other worktrees — stays read-only.
 * The paths come from git at creation, never from the worktree's `.git` file (which the agent
 * could rewrite).
 */
export declare function worktreeGitAccess(commonDir: string, gitDir: string): {
    allowWrite: string[];
    denyWrite: string[];
};
/** A worktree's own and common git directories, as git reports them. */
export declare function gitDirsOf(dir: string, opts: GitOptions): Promise<{
    gitDir: string;
    commonDir: string;
}>;
/**
 * Creates the worktree `name` of the repository holding `cwd`, or reuses it when it already is a
 * registered worktree at its place. Throws (with a message for the user or the model) outside a
 * git repository, on a bad name, or when something that is not its worktree is in the way.
 */
export declare function createOrReuseWorktree(cwd: string, name: string, opts?: GitOptions): Promise<Worktree>;
/** Uncommitted files and commits since `base` in a worktree (what removing it would discard). */
export declare function worktreeChanges(dir: string, base: string | undefined, opts?: GitOptions): Promise<{
    files: number;
    commits: number;
}>;
/** Removes a worktree and its branch (the branch stays when git refuses, e.g. it is checked out elsewhere). */
export declare function removeWorktree(repoRoot: string, dir: string, branch: string | undefined, opts?: GitOptions): Promise<void>;
