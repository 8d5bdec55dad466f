// Sessions apart (issue 30): a path under one of the worker's roots of per-session directories
// (the session temp root: temp files, background tasks' output, live Bash spools; the store's
// `results/`: large tool results) that is not under this session's own directory in it belongs to
// another session. The file tools are refused it in every mode, before any
// rule, hook or mode could allow it; Grep and Glob never list it (resultFilter.ts). The sandbox
// hides the same directories from Bash (src/sandbox/policy.ts, sessionsRoot).
import type { ToolPermissionContext } from '../toolProtocol/permissionTypes';
import { isInside, resolveReal } from './paths';

export type SessionsApart = NonNullable<ToolPermissionContext['sessionsApart']>;

const formsOf = (p: string): string[] => [...new Set([p, resolveReal(p)])];

/**
 * Does any form of the path lie in another session's directory (or is it a root itself)? A
 * subagent's directories that its parent reads lie inside the parent's own (runtime/callDeps.ts
 * sessionDirName): "inside my own directory" is the only exception, no name prefix is (issue 30
 * round g: `<own>_agent-` let session `p` read top-level session `p_agent-x`).
 */
export function inAnotherSession(forms: readonly string[], apart: SessionsApart | undefined): boolean {
  return (apart ?? []).some(({ root, own }) => {
    const roots = formsOf(root);
    const inRoot = forms.filter((f) => roots.some((r) => isInside(f, r)));
    // The own directory's forms only for a path in the root: resolving one that does not exist yet
    // walks up its parents, a failed realpath each (≈ 5 % of the worker's main thread, issue 33).
    if (inRoot.length === 0) return false;
    const owns = formsOf(own);
    return inRoot.some((f) => !owns.some((o) => isInside(f, o)));
  });
}

/**
 * Does a path refused by inAnotherSession lie in the results directory name a release before 0.3.0
 * gave this session (`formerly`)? Only the refusal's message differs.
 */
export function inFormerResultsDir(forms: readonly string[], apart: SessionsApart | undefined): boolean {
  return (apart ?? []).some(({ formerly }) =>
    (formerly ?? []).some((d) => formsOf(d).some((o) => forms.some((f) => isInside(f, o)))),
  );
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
export function withSessionsApart(apart: SessionsApart | undefined, entry: SessionsApart[number]): SessionsApart {
  return [...(apart ?? []).filter((e) => e.root !== entry.root), entry];
}

export function anotherSessionMessage(toolName: string, shown: string, former = false): string {
  if (former)
    return `${toolName} denied: ${shown} is in the results directory a release before 0.3.0 gave this session, under a name other session ids shared (\`a/b\` and \`a_b\` both had \`a_b\`): nothing proves a file there is this session's, so results stored there before the upgrade are no longer readable (docs/security.md, "Results stored before 0.3.0"). Results stored since the upgrade are in this session's own directory.`;
  return `${toolName} denied: ${shown} belongs to another session's private directories on this worker (temp files, task output, Bash spool, stored large results) or to the worker's own store and data directory; sessions never see each other's files.`;
}
