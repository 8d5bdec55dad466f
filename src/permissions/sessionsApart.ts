// Sessions apart (issue 30): a path under one of the worker's roots of per-session directories
// (the session temp root: temp files, background tasks' output, live Bash spools; the store's
// `results/`: large tool results) that is not under this session's own directory in it belongs to
// another session. The file tools are refused it in every mode, before any
// rule, hook or mode could allow it; Grep and Glob never list it (resultFilter.ts). The sandbox
// hides the same directories from Bash (src/sandbox/policy.ts, sessionsRoot).
import * as path from 'node:path';
import type { ToolPermissionContext } from '../toolProtocol/permissionTypes';
import { isInside, resolveReal } from './paths';

export type SessionsApart = NonNullable<ToolPermissionContext['sessionsApart']>;

const formsOf = (p: string): string[] => [...new Set([p, resolveReal(p)])];

/** Does any form of the path lie in another session's directory (or is it a root itself)? */
export function inAnotherSession(forms: readonly string[], apart: SessionsApart | undefined): boolean {
  return (apart ?? []).some(({ root, own, also }) => {
    const roots = formsOf(root);
    const inRoot = forms.filter((f) => roots.some((r) => isInside(f, r)));
    // The own directory's forms only for a path in the root: resolving one that does not exist yet
    // walks up its parents, a failed realpath each (≈ 5 % of the worker's main thread, issue 33).
    if (inRoot.length === 0) return false;
    // `also`: the session's directory under an older name (results stored before an upgrade).
    const owns = [own, ...(also ?? [])].flatMap(formsOf);
    // A subagent's directories are its parent's too (`<own>_agent-<id>`: the child session
    // `<parent>/agent-<id>` with its `/` made `_`): the parent reads what its child stored.
    const children = owns.map((o) => `${o}_agent-`);
    return inRoot.some(
      (f) =>
        !owns.some((o) => isInside(f, o)) &&
        !children.some((c) => f.startsWith(c) && !f.slice(c.length).split(path.sep)[0]!.includes('..')),
    );
  });
}

/** Could a search of this directory reach another session's files (it holds a root, or lies in one)? */
export function reachesAnotherSession(dir: string, apart: SessionsApart | undefined): boolean {
  const dirs = formsOf(dir);
  return (
    (apart ?? []).some(({ root }) => formsOf(root).some((r) => dirs.some((d) => isInside(r, d)))) ||
    inAnotherSession(dirs, apart)
  );
}

/** `apart` with one more root (its own directory in it), replacing an earlier entry for the same root. */
export function withSessionsApart(
  apart: SessionsApart | undefined,
  entry: { root: string; own: string; also?: string[] },
): SessionsApart {
  return [...(apart ?? []).filter((e) => e.root !== entry.root), entry];
}

export function anotherSessionMessage(toolName: string, shown: string): string {
  return `${toolName} denied: ${shown} belongs to another session's private directories on this worker (temp files, task output, Bash spool, stored large results) or to the worker's own store and data directory; sessions never see each other's files.`;
}
