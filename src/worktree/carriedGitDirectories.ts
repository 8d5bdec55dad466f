// Git directories a branch carries (red team, issue 30, M5): a commit's tree may hold `src/HEAD`,
// `src/objects/…`, `src/refs/…` and `src/config` — a bare repository, which git takes for one as
// soon as it is on disk. A checkout the worker or the CLI makes (`git worktree add`, outside the
// sandbox) does not leave one there (docs/security.md "Checkouts").
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
/**
 * What makes a directory a git directory for git (setup.c `is_git_directory`: a `HEAD`, then
 * `objects` and `refs`) and what git then runs from it: its `config` (`core.fsmonitor`,
 * `core.worktree`), `config.worktree`, `commondir` (another config) and `hooks`.
 */
export const CARRIED_GIT_DIR_ENTRIES = ['HEAD', 'config', 'config.worktree', 'commondir', 'hooks'] as const;

/**
 * The paths of a commit's tree (`git ls-tree -r --name-only`, relative to the checkout's top) that
 * make a directory of the checkout a git directory and configure it: for each directory below the
 * top whose `HEAD` the tree holds, its `HEAD`, `config`, `config.worktree`, `commondir` and `hooks/…`
 * present in the tree (red team, issue 30, M5). A branch moved by sandboxed plumbing can carry such
 * a bare repository (`src/HEAD`, `src/objects/…`, `src/refs/…`, `src/config` with `core.worktree =
 * ..` and `core.fsmonitor`); checked out, the person's `git status` anywhere below `src/` ran its
 * fsmonitor. The checkout's top itself is never one (its `.git` is found first).
 */
export function carriedGitDirectoryFiles(paths: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const p of paths) {
    const i = p.lastIndexOf('/');
    if (i > 0 && p.slice(i + 1).toUpperCase() === 'HEAD') dirs.add(p.slice(0, i));
  }
  if (dirs.size === 0) return [];
  const folded = new Map([...dirs].map((d) => [d.toLowerCase(), d]));
  const out: string[] = [];
  for (const p of paths) {
    for (let i = p.indexOf('/'); i > 0; i = p.indexOf('/', i + 1)) {
      const dir = p.slice(0, i);
      if (!folded.has(dir.toLowerCase())) continue;
      const first = p.slice(i + 1).split('/')[0]!;
      if (CARRIED_GIT_DIR_ENTRIES.some((n) => n.toLowerCase() === first.toLowerCase())) out.push(p);
    }
  }
  return [...new Set(out)].sort();
}

/**
 * A checkout just made (`git worktree add` by the worker or the CLI): the git directories its commit
 * carries (carriedGitDirectoryFiles) are taken off the disk — their `HEAD`, config, pointers and hooks
 * removed, so that no directory of the checkout is a repository for the person's git — and named.
 * `tree`: the checkout's paths as its commit lists them. Returns the paths removed (relative).
 */
export async function removeCarriedGitDirectories(top: string, tree: readonly string[]): Promise<string[]> {
  const files = carriedGitDirectoryFiles(tree);
  const removed: string[] = [];
  for (const rel of files) {
    const p = path.join(top, rel);
    // Nothing in the way but what git just checked out: no symlink on the way out of the checkout.
    const parent = await fs.realpath(path.dirname(p)).catch(() => undefined);
    if (parent !== path.join(await fs.realpath(top), path.dirname(rel))) continue;
    if ((await fs.lstat(p).catch(() => undefined)) === undefined) continue;
    await fs.rm(p, { force: true, recursive: true });
    removed.push(rel);
  }
  return removed;
}
