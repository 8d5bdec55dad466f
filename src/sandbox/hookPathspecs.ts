// What git runs by itself on the person's checkout or merge, as tracked paths (red team p, P1; O6):
// the list every hook-path screen compares commits, index entries and patches against. When the
// person's hook configuration cannot be read (a reader threw on what a command wrote), the list is
// HOOKS_UNREAD, never empty: an empty list made every screen answer "no hook changed" (red team v,
// V11: P1's branch passed while `extends: ["["]` made the lefthook reader throw). Each screen treats
// HOOKS_UNREAD as "every fresh commit, staged hook entry or patch may change a hook": put back.
import * as path from 'node:path';
import { repositoryConfigTargets, workTreeOf } from './repoConfigTargets';
import { toolConfigTargets } from './toolConfigTargets';
import { trackedControl } from './controlCommits';
import { DENIED_EVEN_ABSENT } from './protect';

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
  for (const e of targets) {
    const rel = path.relative(tree, e.path);
    if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) continue;
    const r = rel.split(path.sep).join('/');
    out.add(e.kind === 'gitHooks' && /(^|\/)\.husky\/_$/.test(r) ? r.slice(0, -2) : r);
  }
  return [...out].sort();
}
