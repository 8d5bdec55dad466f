// What git runs by itself on the person's checkout or merge, as tracked paths (red team p, P1; O6):
// the list every hook-path screen compares commits, index entries and patches against. When the
// person's hook configuration cannot be read (a reader threw on what a command wrote), the list is
// HOOKS_UNREAD, never empty: an empty list made every screen answer "no hook changed" (red team v,
// V11: P1's branch passed while `extends: ["["]` made the lefthook reader throw). Each screen treats
// HOOKS_UNREAD as "every fresh commit, staged hook entry or patch may change a hook": put back.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repositoryConfigTargets, workTreeOf } from './repoConfigTargets';
import { toolConfigTargets } from './toolConfigTargets';
import { trackedControl } from './controlCommits';
import { DENIED_EVEN_ABSENT } from './protect';

/** Session control files kept at most (the oldest dropped past it). */
const MAX_SESSION_CONTROL = 4096;
/** The files sessions' own hooks and MCP servers run (the plans' controlFiles), real paths. */
const sessionControl = new Set<string>();

const realOf = (p: string): string => {
  try {
    return path.join(fs.realpathSync.native(path.dirname(p)), path.basename(p));
  } catch {
    return p;
  }
};

/**
 * The files a session's own hooks and MCP servers run (sessionPlan.ts, before each command): a ref,
 * staged entry or patch carries none, as it carries no git hook (red team z, Z5: a plumbing branch
 * changing `scripts/check.sh`, which the project's Stop hook runs and the sandbox denies on disk,
 * stood; the person's merge put it where the next session's hook ran it). Kept for every session on
 * this worker: a file one session's hook runs is protected in another's screens too (fail closed).
 */
export function registerSessionControlFiles(files: readonly string[]): void {
  for (const f of files) {
    const r = realOf(f);
    sessionControl.delete(r);
    sessionControl.add(r);
    if (sessionControl.size > MAX_SESSION_CONTROL) sessionControl.delete(sessionControl.values().next().value!);
  }
}

/** The hook paths of a repository whose hook configuration could not be read (compared by identity). */
export const HOOKS_UNREAD: readonly string[] = Object.freeze([':(unread)']);

/** Is `specs` the list of a repository whose hook configuration could not be read? */
export const hooksUnread = (specs: readonly string[]): boolean => specs === HOOKS_UNREAD;

/**
 * What git runs by itself on the person's checkout or merge, as tracked paths (`/`-separated, from
 * the work tree's top): the hooks directory `core.hooksPath` names inside the work tree (husky 9's
 * `.husky/_`: `.husky` whole) and the files its hooks run (O6). A branch the session made that
 * changes one of them ran the session's hook on the person's `git checkout` or `git merge` of it,
 * before they could read the diff (red team p, P1): a ref carries nothing the sandbox may not write.
 * A linked worktree's import applies them to the commits it brings in (worktree/git/refs.ts, Q7).
 * With them the protected entries, which a ref carries no more than the sandbox writes them (X1).
 * HOOKS_UNREAD when the configuration could not be read (V11: fail closed).
 */
export function hookPathspecs(gitDir: string): readonly string[] {
  const tree = workTreeOf(gitDir);
  const out = new Set<string>();
  let targets: ReturnType<typeof repositoryConfigTargets>;
  try {
    targets = repositoryConfigTargets([tree]);
    // And the files the person's direnv and mise configs load with no new question (toolConfigTargets.ts):
    // a branch that changes `.envrc.local` runs it at the person's next prompt after their checkout.
    targets = [
      ...targets,
      ...toolConfigTargets([tree]).filter((e) => (e.kind === 'file' || e.kind === 'dir') && e.loose === undefined),
    ];
  } catch {
    return HOOKS_UNREAD;
  }
  // And the protected entries (red team x, X1): those HEAD tracks, and the top-level names, absent too,
  // that configure this agent or what git, a shell or an editor runs (protect.ts DENIED_EVEN_ABSENT).
  const control = trackedControl(gitDir);
  if (control === undefined) return HOOKS_UNREAD;
  for (const c of [...control, ...DENIED_EVEN_ABSENT]) out.add(c);
  // And the files the sessions' own hooks and MCP servers run (Z5), by the work tree's real path.
  const real = realOf(tree);
  const own = [...sessionControl].filter((f) => f.startsWith(real + path.sep)).map((f) => tree + f.slice(real.length));
  for (const e of [...targets, ...own.map((p) => ({ kind: 'file', path: p }))]) {
    const rel = path.relative(tree, e.path);
    if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) continue;
    const r = rel.split(path.sep).join('/');
    out.add(e.kind === 'gitHooks' && /(^|\/)\.husky\/_$/.test(r) ? r.slice(0, -2) : r);
  }
  return [...out].sort();
}
