// The session's project repository (issue 30, docs/security.md "Worktrees"): fixed at the
// session's start (src/sessionInput.ts records it in the sandbox settings), the only repository
// worker-side git runs in (src/worktree/worktrees.ts tells git its git directory every time, so git
// never discovers one: a repository the agent built in a subdirectory — node_modules, deep down, a
// temp dir — is never a target). Linked worktrees are read from git's own files, and only when they
// stay inside the repository's git directory. Node's fs only: no process runs here (the edge loads it).
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import * as path from 'node:path';
import { sessionRootOf, type AgentContext } from '../core/context';
import type { ProjectRepository } from '../sandbox/settings';

export type { ProjectRepository } from '../sandbox/settings';

/** Why a session's repository is not usable, for the model. */
export class RepositoryError extends Error {}

function lstatOrUndefined(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

/** A small regular file's text, read without following a symbolic link; undefined otherwise. */
function readSmallFile(p: string, max = 4096): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(p, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > max) return undefined;
    const buf = Buffer.alloc(st.size);
    const n = readSync(fd, buf, 0, st.size, 0);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const realOrUndefined = (p: string): string | undefined => {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
};

/** A git directory as git would take one: its HEAD, and objects in its common directory. */
function looksLikeGitDir(gitDir: string, commonDir: string): boolean {
  return lstatOrUndefined(path.join(gitDir, 'HEAD')) !== undefined && statIsDir(path.join(commonDir, 'objects'));
}

function statIsDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The repository holding `dir` as git finds it (the nearest `.git` upwards: a directory, or a
 * worktree's `gitdir:` file and its `commondir`), read from the file system: no git runs. For the
 * edge (a session's start, `run --worktree`), where the directory is the person's choice; undefined
 * outside a repository with a working tree (a bare repository has no checkout to branch from).
 */
export function projectRepositoryOf(dir: string): ProjectRepository | undefined {
  let d = realOrUndefined(path.resolve(dir));
  while (d !== undefined) {
    const dotGit = path.join(d, '.git');
    let gitDir: string | undefined;
    if (statIsDir(dotGit)) gitDir = dotGit;
    else {
      const m = /^gitdir: *(.+?)\s*$/m.exec(readSmallFile(dotGit) ?? '');
      if (m) gitDir = path.resolve(d, m[1]!);
    }
    const commondir = gitDir !== undefined ? readSmallFile(path.join(gitDir, 'commondir')) : undefined;
    const named = gitDir !== undefined ? (commondir ? path.resolve(gitDir, commondir.trim()) : gitDir) : undefined;
    if (gitDir !== undefined && named !== undefined && looksLikeGitDir(gitDir, named)) {
      const common = realOrUndefined(commonOfShadow(named));
      if (!common || path.basename(common) !== '.git') return undefined;
      const st = statSync(common, { bigint: true });
      const root = path.dirname(common);
      return {
        root,
        commonDir: common,
        dev: String(st.dev),
        ino: String(st.ino),
        worktrees: worktreeRegistrations(common)
          .filter((w) => isInside(w.path, root) && w.path !== root)
          .map((w) => ({ name: w.name, path: w.path })),
      };
    }
    const up = path.dirname(d);
    d = up === d ? undefined : up;
  }
  return undefined;
}

/** Throws unless the pinned repository is still where and what it was at the session's start. */
export function checkRepository(repo: ProjectRepository): void {
  const st = lstatOrUndefined(repo.commonDir);
  let same = false;
  if (st?.isDirectory() && realOrUndefined(repo.commonDir) === repo.commonDir) {
    const id = statSync(repo.commonDir, { bigint: true });
    same = String(id.dev) === repo.dev && String(id.ino) === repo.ino;
  }
  if (
    !same ||
    realOrUndefined(repo.root) !== repo.root ||
    realOrUndefined(path.join(repo.root, '.git')) !== repo.commonDir
  )
    throw new RepositoryError(
      `The session's repository ${repo.root} is no longer the one it started in (${repo.commonDir} was replaced or moved): no worktree is made or entered.`,
    );
}

/**
 * The session's project repository: the one recorded at its start (the sandbox settings'
 * `repository`), checked to be still that directory; for a session started before it was recorded,
 * the repository of the directory the session started in (never its current cwd).
 */
export function sessionRepository(ctx: {
  agent: Pick<AgentContext, 'cwd' | 'projectDir' | 'worktree'>;
  permission: { sandbox?: { repository?: ProjectRepository | false } };
}): ProjectRepository {
  const pinned = ctx.permission.sandbox?.repository;
  if (pinned === false)
    throw new RepositoryError(
      `The session started outside a git repository: it makes and enters no worktree (a repository made since is not the session's).`,
    );
  const start = sessionRootOf(ctx.agent);
  const repo = pinned ?? projectRepositoryOf(start);
  if (!repo) throw new RepositoryError(`${start} is not in a git repository with a working tree.`);
  checkRepository(repo);
  return repo;
}

/** A linked worktree's registration in the common directory (`worktrees/<name>/gitdir`). */
export interface WorktreeRegistration {
  /** Its git directory's name under `<common>/worktrees`. */
  name: string;
  /** `<common>/worktrees/<name>`. */
  gitDir: string;
  /** The worktree, as its `gitdir` file names it. */
  path: string;
}

/**
 * The linked worktrees registered in a common directory, from git's own files, each read only when
 * it stays inside the common directory: `worktrees` and each entry a real directory (no symbolic
 * link), `gitdir` a small regular file (opened without following one).
 */
export function worktreeRegistrations(commonDir: string): WorktreeRegistration[] {
  const base = path.join(commonDir, 'worktrees');
  const st = lstatOrUndefined(base);
  if (!st?.isDirectory() || realOrUndefined(base) !== base) return [];
  let entries: Dirent[];
  try {
    entries = readdirSync(base, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: WorktreeRegistration[] = [];
  for (const e of entries) {
    if (!e.isDirectory()) continue; // a symbolic link is not followed
    const gitDir = path.join(base, e.name);
    const text = readSmallFile(path.join(gitDir, 'gitdir'))?.trim();
    if (!text) continue;
    const dotGit = path.resolve(gitDir, text);
    if (path.basename(dotGit) !== '.git') continue;
    out.push({ name: e.name, gitDir, path: path.dirname(dotGit) });
  }
  return out;
}

/**
 * The registration of the worktree at `dir` in the session's repository, when both ways agree: the
 * registration names `dir`, `dir` is a real path (no symbolic link on the way), its `.git` is a
 * regular file leading back to that git directory, and the git directory's `commondir` leads to the
 * repository (or, while a command runs there, to its shadow: src/sandbox/worktreeGit.ts).
 */
export function registeredWorktree(
  repo: Pick<ProjectRepository, 'commonDir'>,
  dir: string,
): WorktreeRegistration | undefined {
  const target = path.resolve(dir);
  if (realOrUndefined(target) !== target) return undefined;
  const reg = worktreeRegistrations(repo.commonDir).find((w) => w.path === target);
  if (!reg) return undefined;
  const m = /^gitdir: *(.+?)\s*$/m.exec(readSmallFile(path.join(target, '.git')) ?? '');
  if (!m || realOrUndefined(path.resolve(target, m[1]!)) !== reg.gitDir) return undefined;
  const commondir = readSmallFile(path.join(reg.gitDir, 'commondir'))?.trim();
  if (!commondir || commonOfShadow(path.resolve(reg.gitDir, commondir)) !== repo.commonDir) return undefined;
  return reg;
}

/**
 * The worktree at `dir` the session may enter (EnterWorktree `path`), or why not: a registered
 * worktree of the session's repository (registeredWorktree: both ways agree, nothing symlinked),
 * under the project root, and either registered when the session started or at the place this
 * session's worktrees (and its parent's) are made, `.claude/worktrees/` — which only git outside
 * the sandbox writes (`.claude` and `.git/worktrees` are protected).
 */
export function enterableWorktree(
  repo: ProjectRepository,
  dir: string,
): { worktree: WorktreeRegistration } | { problem: string } {
  // Outside the repository (as written, or once resolved): nothing more is said (no existence oracle).
  const outside = `${dir} is outside the session's repository ${repo.root}: only worktrees under it are entered`;
  if (!isInside(path.resolve(dir), repo.root)) return { problem: outside };
  const real = realOrUndefined(path.resolve(dir));
  if (real !== undefined && !isInside(real, repo.root)) return { problem: outside };
  if (real === repo.root) return { problem: `${dir} is the main checkout of ${repo.root}, not a linked worktree` };
  const reg = real === undefined ? undefined : registeredWorktree(repo, real);
  if (!reg) return { problem: `${dir} is not a registered worktree of ${repo.root}` };
  const atStart = repo.worktrees.some((w) => w.name === reg.name && w.path === reg.path);
  const ours = isInside(reg.path, path.join(repo.root, '.claude', 'worktrees'));
  if (!atStart && !ours)
    return {
      problem: `${dir} was registered as a worktree of ${repo.root} after the session started, outside .claude/worktrees: only worktrees that existed at the session's start or were made by EnterWorktree or an isolated agent are entered`,
    };
  return { worktree: reg };
}

function isInside(child: string, dir: string): boolean {
  const rel = path.relative(dir, child);
  return rel === '' || (!path.isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${path.sep}`));
}

/** While a command runs in a worktree its git names the shadow as common directory: the repository's is three levels up. */
export function commonOfShadow(common: string): string {
  const m = common.match(/^(.*)\/durable-agent\/worktrees\/[^/]+\/?$/);
  return m && path.basename(m[1]!) === '.git' ? m[1]! : common;
}
