// Git worktrees as the reference makes them (Claude Code 2.1.328, docs/reference-tools.md): a
// worktree named N lives at `<main repository root>/.claude/worktrees/<N, each "/" as "+">` on the
// branch `worktree-<same>`, started at the current HEAD. Used by `run --worktree` (before the
// session starts) and by the EnterWorktree/ExitWorktree tools and isolated agents. Node only; git
// runs through the one door for host processes, hardened (src/hostProcess/git.ts): no hook, filter,
// fsmonitor, pager or helper of the repository or the user's configuration runs, and it gets no
// secret of the worker. And it runs only on the session's project repository, fixed at the
// session's start (issue 30): always told its git directory, never left to discover one from a
// directory the agent could have made a repository.
import { existsSync, lstatSync } from 'node:fs';
import * as path from 'node:path';
import { hostGit } from '../hostProcess/git';
import { checkRepository, projectRepositoryOf, registeredWorktree, type WorktreeRegistration } from './repository';
import type { ProjectRepository } from './repository';
import { removeCarriedGitDirectories } from './carriedGitDirectories';

export {
  checkRepository,
  enterableWorktree,
  projectRepositoryOf,
  registeredWorktree,
  RepositoryError,
  sessionRepository,
  worktreeRegistrations,
  type ProjectRepository,
  type WorktreeRegistration,
} from './repository';

export const WORKTREE_NAME_MAX = 64;
const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** Why a worktree name is refused (the reference's rules), or undefined when it is valid. */
export function worktreeNameProblem(name: string): string | undefined {
  if (name.length === 0) return `Invalid worktree name "": it must not be empty`;
  if (name.length > WORKTREE_NAME_MAX)
    return `Invalid worktree name: must be ${WORKTREE_NAME_MAX} characters or fewer (got ${name.length})`;
  const segments = name.split('/');
  if (segments.some((s) => s === '.' || s === '..'))
    return `Invalid worktree name "${name}": must not contain "." or ".." path segments`;
  if (segments.some((s) => !SEGMENT.test(s)))
    return `Invalid worktree name "${name}": each "/"-separated segment must be non-empty and contain only letters, digits, dots, underscores, and dashes`;
  return undefined;
}

/** The directory name under `.claude/worktrees/` (the reference: each "/" becomes "+"). */
export function worktreeDirName(name: string): string {
  return name.split('/').join('+');
}

/** The branch a new worktree gets. */
export function worktreeBranch(name: string): string {
  return `worktree-${worktreeDirName(name)}`;
}

export function worktreePath(repoRoot: string, name: string): string {
  return path.join(repoRoot, '.claude', 'worktrees', worktreeDirName(name));
}

const ADJECTIVES = ['brave', 'calm', 'eager', 'gentle', 'graceful', 'keen', 'lively', 'quiet', 'swift', 'tidy'];
const VERBS = ['dancing', 'drifting', 'humming', 'jumping', 'running', 'singing', 'sleeping', 'whistling'];
const NOUNS = ['bee', 'cedar', 'comet', 'falcon', 'harbor', 'lantern', 'otter', 'pebble', 'river', 'willow'];

/** A name when none is given: `<adjective>-<verb>ing-<noun>`, as the reference picks one. */
export function randomWorktreeName(random: () => number = Math.random): string {
  const pick = (xs: readonly string[]): string => xs[Math.floor(random() * xs.length) % xs.length]!;
  return `${pick(ADJECTIVES)}-${pick(VERBS)}-${pick(NOUNS)}`;
}

export interface GitOptions {
  /** The model asked (a tool). Kept for the callers' intent: every worker-side git is hardened now. */
  agentInvoked?: boolean;
}

/** Runs worker-side git in `cwd` (hardened, through the door); resolves with stdout, rejects with git's message. */
export function git(cwd: string, args: readonly string[], _opts: GitOptions = {}): Promise<string> {
  return hostGit(path.resolve(cwd), args, { timeoutMs: 60_000 });
}

/** A registered worktree's HEAD and the branch it names (undefined when detached). */
export async function worktreeHead(
  reg: Pick<WorktreeRegistration, 'path' | 'gitDir'>,
  opts: GitOptions = {},
): Promise<{ head?: string; branch?: string }> {
  const head = await worktreeGit(reg.path, reg.gitDir, ['rev-parse', '--verify', '-q', 'HEAD'], opts).then(
    (o) => o.trim() || undefined,
    () => undefined,
  );
  const branch = await branchOf(reg.path, reg.gitDir, opts);
  return { ...(head ? { head } : {}), ...(branch ? { branch } : {}) };
}

/** Git on the repository's common directory, from its root (never discovered). */
function repoGit(repo: ProjectRepository, args: readonly string[], opts: GitOptions): Promise<string> {
  return git(repo.root, [`--git-dir=${repo.commonDir}`, `--work-tree=${repo.root}`, ...args], opts);
}

/** Git on a linked worktree, through its own git directory (never its `.git` file). */
function worktreeGit(dir: string, gitDir: string, args: readonly string[], opts: GitOptions): Promise<string> {
  return git(dir, [`--git-dir=${gitDir}`, `--work-tree=${dir}`, ...args], opts);
}

/** The branch a worktree's HEAD names (`refs/heads/x` → `x`), undefined when detached. */
async function branchOf(dir: string, gitDir: string, opts: GitOptions): Promise<string | undefined> {
  const ref = await worktreeGit(dir, gitDir, ['symbolic-ref', '-q', 'HEAD'], opts).then(
    (o) => o.trim(),
    () => '',
  );
  return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
}

export interface WorktreeEntry {
  path: string;
  /** `refs/heads/x` shortened to `x`; undefined when detached. */
  branch?: string;
  head?: string;
  locked: boolean;
}

/** `git worktree list --porcelain` of the repository whose common directory is given, the main checkout first. */
export async function listWorktrees(commonDir: string, opts: GitOptions = {}): Promise<WorktreeEntry[]> {
  const out = await git(path.dirname(commonDir), [`--git-dir=${commonDir}`, 'worktree', 'list', '--porcelain'], opts);
  const entries: WorktreeEntry[] = [];
  for (const block of out.split('\n\n')) {
    const lines = block.split('\n').filter(Boolean);
    const wt = lines.find((l) => l.startsWith('worktree '));
    if (!wt) continue;
    const e: WorktreeEntry = { path: wt.slice('worktree '.length), locked: false };
    for (const l of lines) {
      if (l.startsWith('branch ')) e.branch = l.slice('branch '.length).replace(/^refs\/heads\//, '');
      else if (l.startsWith('HEAD ')) e.head = l.slice('HEAD '.length);
      else if (l === 'locked' || l.startsWith('locked ')) e.locked = true;
    }
    entries.push(e);
  }
  return entries;
}

export interface Worktree {
  path: string;
  branch: string;
  /** The commit it started from (for counting the commits made in it). */
  base: string;
  /** Made now (false: an existing worktree was reused). */
  created: boolean;
  /**
   * The files of git directories the checked-out commit carried (a bare repository below the top),
   * removed from the new worktree (relative paths; carriedGitDirectories.ts).
   */
  removedGitFiles?: string[];
  /** The main repository's root. */
  repoRoot: string;
  /** The repository's common git directory (`<root>/.git`) and this worktree's own (`<common>/worktrees/<dir>`). */
  commonDir: string;
  gitDir: string;
}

/**
 * Creates the worktree `name` of the repository (the session's, pinned at its start; or, given a
 * directory, the repository holding it: `run --worktree`, the person's choice), or reuses it when
 * it already is a registered worktree at its place. Throws (with a message for the user or the
 * model) outside a git repository, on a bad name, or when something that is not its worktree is in
 * the way.
 */
export async function createOrReuseWorktree(
  where: string | ProjectRepository,
  name: string,
  opts: GitOptions = {},
): Promise<Worktree> {
  const problem = worktreeNameProblem(name);
  if (problem) throw new Error(problem);
  const repo = typeof where === 'string' ? projectRepositoryOf(where) : where;
  if (!repo)
    throw new Error(`Cannot create a worktree: ${String(where)} is not in a git repository with a working tree.`);
  checkRepository(repo);
  const root = repo.root;
  const dir = worktreePath(root, name);
  const branch = worktreeBranch(name);
  // A symlinked `.claude` or `.claude/worktrees` would put the checkout elsewhere.
  for (const p of [path.join(root, '.claude'), path.join(root, '.claude', 'worktrees')])
    if (isSymlink(p)) throw new Error(`Cannot create the worktree: ${p} is a symbolic link.`);
  const known = registeredWorktree(repo, dir);
  if (known) {
    const head = (await worktreeGit(dir, known.gitDir, ['rev-parse', 'HEAD'], opts)).trim();
    const current = await branchOf(dir, known.gitDir, opts);
    return {
      path: dir,
      branch: current ?? branch,
      base: head,
      created: false,
      repoRoot: root,
      commonDir: repo.commonDir,
      gitDir: known.gitDir,
    };
  }
  if (existsSync(dir) || isSymlink(dir))
    throw new Error(`Cannot create the worktree: ${dir} exists and is not a worktree of ${root}.`);
  const base = (await repoGit(repo, ['rev-parse', 'HEAD'], opts)).trim();
  const branchExists = await repoGit(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], opts).then(
    () => true,
    () => false,
  );
  await repoGit(repo, ['worktree', 'add', ...(branchExists ? [dir, branch] : ['-b', branch, dir, base])], opts);
  const made = registeredWorktree(repo, dir);
  if (!made)
    throw new Error(`git made the worktree ${dir}, but it is not registered in ${repo.commonDir} as expected.`);
  const start = branchExists ? (await worktreeGit(dir, made.gitDir, ['rev-parse', 'HEAD'], opts)).trim() : base;
  // A git directory the branch carries (a bare repository in `src/`: HEAD, objects, refs, a config
  // with core.fsmonitor) is not left on disk for the person's git to find (red team, issue 30, M5).
  const tree = (await worktreeGit(dir, made.gitDir, ['ls-tree', '-r', '-z', '--name-only', 'HEAD'], opts))
    .split('\0')
    .filter(Boolean);
  const removed = await removeCarriedGitDirectories(dir, tree);
  return {
    path: dir,
    branch,
    base: start,
    created: true,
    ...(removed.length > 0 ? { removedGitFiles: removed } : {}),
    repoRoot: root,
    commonDir: repo.commonDir,
    gitDir: made.gitDir,
  };
}

function isSymlink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Uncommitted files and commits since `base` in a worktree (what removing it would discard), through its git directory. */
export async function worktreeChanges(
  dir: string,
  gitDir: string,
  base: string | undefined,
  opts: GitOptions = {},
): Promise<{ files: number; commits: number }> {
  const status = await worktreeGit(dir, gitDir, ['status', '--porcelain', '--untracked-files=all'], opts);
  const files = status.split('\n').filter((l) => l.trim() !== '').length;
  let commits = 0;
  if (base)
    commits = Number((await worktreeGit(dir, gitDir, ['rev-list', '--count', `${base}..HEAD`], opts)).trim()) || 0;
  return { files, commits };
}

/** Removes a worktree and its branch (the branch stays when git refuses, e.g. it is checked out elsewhere). */
export async function removeWorktree(
  repo: Pick<ProjectRepository, 'root' | 'commonDir'>,
  dir: string,
  branch: string | undefined,
  opts: GitOptions = {},
): Promise<void> {
  const g = (args: string[]) => git(repo.root, [`--git-dir=${repo.commonDir}`, ...args], opts);
  await g(['worktree', 'remove', '--force', '--force', dir]);
  if (branch) await g(['branch', '-D', branch]).catch(() => undefined);
}
