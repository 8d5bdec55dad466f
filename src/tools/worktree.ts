// Git worktrees as the reference makes them (Claude Code 2.1.328, docs/reference-tools.md): a
// worktree named N lives at `<main repository root>/.claude/worktrees/<N, each "/" as "+">` on the
// branch `worktree-<same>`, started at the current HEAD. Used by `run --worktree` (before the
// session starts) and by the EnterWorktree/ExitWorktree tools. Node only; git runs through the one
// door for host processes, hardened (src/hostProcess/git.ts): no hook, filter, fsmonitor, pager or
// helper of the repository or the user's configuration runs, and it gets no secret of the worker.
import { hostGit } from '../hostProcess/git';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import * as path from 'node:path';

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

/** The main repository's root (the directory whose `.git` is the common directory), or undefined outside git. */
export async function mainRepositoryRoot(cwd: string, opts: GitOptions = {}): Promise<string | undefined> {
  let common: string;
  try {
    common = (await git(cwd, ['rev-parse', '--path-format=absolute', '--git-common-dir'], opts)).trim();
  } catch {
    return undefined;
  }
  common = commonOfShadow(common);
  if (path.basename(common) !== '.git') return undefined; // a bare repository: no checkout to branch from
  return path.dirname(common);
}

export interface WorktreeEntry {
  path: string;
  /** `refs/heads/x` shortened to `x`; undefined when detached. */
  branch?: string;
  head?: string;
  locked: boolean;
}

/** `git worktree list --porcelain`, the main checkout first. */
export async function listWorktrees(cwd: string, opts: GitOptions = {}): Promise<WorktreeEntry[]> {
  const out = await git(cwd, ['worktree', 'list', '--porcelain'], opts);
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

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};

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

/** While a command runs in a worktree its git names the shadow as common directory: the repository's is three levels up. */
function commonOfShadow(common: string): string {
  const m = common.match(/^(.*)\/durable-agent\/worktrees\/[^/]+\/?$/);
  return m && path.basename(m[1]!) === '.git' ? m[1]! : common;
}

/** A worktree's own and common git directories, as git reports them. */
export async function gitDirsOf(dir: string, opts: GitOptions): Promise<{ gitDir: string; commonDir: string }> {
  const [gitDir, commonDir] = (
    await git(dir, ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir'], opts)
  )
    .trim()
    .split('\n');
  if (!gitDir || !commonDir) throw new Error(`git did not name the git directories of ${dir}`);
  return { gitDir, commonDir: commonOfShadow(commonDir) };
}

/**
 * Creates the worktree `name` of the repository holding `cwd`, or reuses it when it already is a
 * registered worktree at its place. Throws (with a message for the user or the model) outside a
 * git repository, on a bad name, or when something that is not its worktree is in the way.
 */
export async function createOrReuseWorktree(cwd: string, name: string, opts: GitOptions = {}): Promise<Worktree> {
  const problem = worktreeNameProblem(name);
  if (problem) throw new Error(problem);
  const root = await mainRepositoryRoot(cwd, opts);
  if (!root) throw new Error(`Cannot create a worktree: ${cwd} is not in a git repository with a working tree.`);
  const dir = worktreePath(root, name);
  const branch = worktreeBranch(name);
  const known = (await listWorktrees(root, opts)).find((w) => real(w.path) === real(dir));
  if (known) {
    const head = known.head ?? (await git(dir, ['rev-parse', 'HEAD'], opts)).trim();
    const dirs = await gitDirsOf(dir, opts);
    return { path: dir, branch: known.branch ?? branch, base: head, created: false, repoRoot: root, ...dirs };
  }
  if (existsSync(dir) || isSymlink(dir))
    throw new Error(`Cannot create the worktree: ${dir} exists and is not a worktree of ${root}.`);
  // A symlinked `.claude` or `.claude/worktrees` would put the checkout elsewhere.
  for (const p of [path.join(root, '.claude'), path.join(root, '.claude', 'worktrees')])
    if (isSymlink(p)) throw new Error(`Cannot create the worktree: ${p} is a symbolic link.`);
  const base = (await git(root, ['rev-parse', 'HEAD'], opts)).trim();
  const branchExists = await git(root, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], opts).then(
    () => true,
    () => false,
  );
  await git(root, ['worktree', 'add', ...(branchExists ? [dir, branch] : ['-b', branch, dir, base])], opts);
  const start = branchExists ? (await git(dir, ['rev-parse', 'HEAD'], opts)).trim() : base;
  const dirs = await gitDirsOf(dir, opts);
  return { path: dir, branch, base: start, created: true, repoRoot: root, ...dirs };
}

function isSymlink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Uncommitted files and commits since `base` in a worktree (what removing it would discard). */
export async function worktreeChanges(
  dir: string,
  base: string | undefined,
  opts: GitOptions = {},
): Promise<{ files: number; commits: number }> {
  const status = await git(dir, ['status', '--porcelain', '--untracked-files=all'], opts);
  const files = status.split('\n').filter((l) => l.trim() !== '').length;
  let commits = 0;
  if (base) commits = Number((await git(dir, ['rev-list', '--count', `${base}..HEAD`], opts)).trim()) || 0;
  return { files, commits };
}

/** Removes a worktree and its branch (the branch stays when git refuses, e.g. it is checked out elsewhere). */
export async function removeWorktree(
  repoRoot: string,
  dir: string,
  branch: string | undefined,
  opts: GitOptions = {},
): Promise<void> {
  await git(repoRoot, ['worktree', 'remove', '--force', '--force', dir], opts);
  if (branch) await git(repoRoot, ['branch', '-D', branch], opts).catch(() => undefined);
}
