// The repositories below the working directories whose refs the ref screens cover (red team z, Z6, Z6b).
//
// movedRefs.ts refSnapshots reads each working directory's own `.git` and its submodules. A repository
// nested in a working directory — a workspace folder of the person's repositories (no `.git` at its
// root), a clone inside the project (`vendor/lib`, not a submodule), a bare repository — has its objects
// and refs writable to the sandbox as well (the agent's own commits there work): P1's branch there (a
// commit replacing the person's hook) stood, and the person's checkout of it and next commit ran the
// agent's hook. So every git directory the tree watches record below a working directory (treeWatch.ts:
// any depth, node_modules too, or a full walk) is snapshotted with its submodules, shallowest first,
// MAX_REF_REPOSITORIES git directories at the most: the check after the call (undoCarriedRefs) and the
// live guard (liveRefs.ts) screen them as they screen the root's. A repository the agent made in an
// earlier call of the session is among them (the person may use it now). One the command makes while it
// runs is in no snapshot: nothing of the person's to put back there; the next call's snapshot has it.
//
// Past the bound — where an attacker puts the person's repository, behind repositories of its own — a
// repository is not screened: its whole git directory is write-denied instead (fail closed: the agent's
// git there fails, loudly; mountBound.ts refuses a call that needs more mounts than the runtime makes).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readRefState } from './refFiles';
import { refSnapshots, type RefSnapshots } from './movedRefs';
import { submoduleGitDirs } from './repoConfigTargets';
import { gitEntriesOf } from './treeWatch';

/** Git directories (a nested repository's and each of its submodules') snapshotted per command, at the most. */
export const MAX_REF_REPOSITORIES = 64;

const isDirectory = (p: string) => {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
};

/**
 * The git directories below `roots` (not a root's own `.git`, nor one inside another git directory:
 * a submodule's, a linked worktree's), from the record of each of `gitRoots`, shallowest first.
 */
export function nestedGitDirs(roots: readonly string[], gitRoots: readonly string[]): string[] {
  const own = new Set(roots.map((r) => path.join(r, '.git')));
  const out = new Set<string>();
  for (const gitRoot of gitRoots)
    for (const g of gitEntriesOf(gitRoot)) {
      const root = roots.find((r) => g.startsWith(r.endsWith(path.sep) ? r : r + path.sep));
      if (root === undefined || own.has(g)) continue;
      const parts = path.relative(root, g).split(path.sep);
      if (parts.slice(0, -1).some((c) => c.toLowerCase() === '.git')) continue;
      if (isDirectory(g)) out.add(g);
    }
  const depth = (p: string) => p.split(path.sep).length;
  return [...out].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : 1));
}

/**
 * Adds the refs of the repositories nested in `roots` (and of their submodules) to `refs`, with the
 * event loop's turn between repositories; returns the git directories past the bound, which the call
 * must write-deny whole.
 */
export async function nestedRefSnapshots(
  refs: RefSnapshots,
  roots: readonly string[],
  gitRoots: readonly string[],
  tick: () => Promise<void> = async () => undefined,
): Promise<string[]> {
  const over: string[] = [];
  let taken = 0;
  for (const g of nestedGitDirs(roots, gitRoots)) {
    if (refs.has(g)) continue;
    const dirs = [g, ...submoduleGitDirs(g)].filter((d) => !refs.has(d));
    if (taken + dirs.length > MAX_REF_REPOSITORIES) {
      over.push(g);
      continue;
    }
    taken += dirs.length;
    for (const d of dirs) refs.set(d, readRefState(d));
    await tick();
  }
  return over;
}

/**
 * Adds each of `dirs` to `denyWrite` whole, dropping the paths denied below them: the runtime's argument
 * build is quadratic in the denied paths (red team u, U10b: a thousand repositories' hooks and configs
 * held the worker's event loop for seconds), and what lies in a read-only directory needs no mount of its own.
 */
export function denyWhole(denyWrite: string[], dirs: readonly string[]): void {
  if (dirs.length === 0) return;
  const whole = new Set(dirs.map((d) => path.resolve(d)));
  const below = (p: string) => {
    for (let d = path.dirname(p); d !== path.dirname(d); d = path.dirname(d)) if (whole.has(d)) return true;
    return false;
  };
  const kept = denyWrite.filter((p) => !below(path.resolve(p)));
  denyWrite.splice(0, denyWrite.length, ...kept, ...whole);
}

/**
 * The refs of the working directories' repositories (movedRefs.ts refSnapshots) and of those nested in
 * them; the git directories past the bound are denied whole in `denyWrite`.
 */
export async function allRefSnapshots(
  roots: readonly string[],
  gitRoots: readonly string[],
  denyWrite: string[],
  tick?: () => Promise<void>,
): Promise<RefSnapshots> {
  const refs = refSnapshots(roots);
  denyWhole(denyWrite, await nestedRefSnapshots(refs, roots, gitRoots, tick));
  return refs;
}
