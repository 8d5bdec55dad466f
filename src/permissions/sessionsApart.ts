// Sessions apart (issue 30): a path under the worker's root of session directories that is not
// under this session's own directory belongs to another session (its temp files, its background
// tasks' output, its live Bash spool). The file tools are refused it in every mode, before any
// rule, hook or mode could allow it; Grep and Glob never list it (resultFilter.ts). The sandbox
// hides the same directories from Bash (src/sandbox/policy.ts, sessionsRoot).
import type { ToolPermissionContext } from '../tools/permissionTypes';
import { isInside, resolveReal } from './paths';

export type SessionsApart = NonNullable<ToolPermissionContext['sessionsApart']>;

const formsOf = (p: string): string[] => [...new Set([p, resolveReal(p)])];

/** Does any form of the path lie in another session's directory (or is it the root itself)? */
export function inAnotherSession(forms: readonly string[], apart: SessionsApart | undefined): boolean {
  if (!apart) return false;
  const roots = formsOf(apart.root);
  const own = formsOf(apart.own);
  return forms.some((f) => roots.some((r) => isInside(f, r)) && !own.some((o) => isInside(f, o)));
}

/** Could a search of this directory reach another session's files (it holds the root, or lies in it)? */
export function reachesAnotherSession(dir: string, apart: SessionsApart | undefined): boolean {
  if (!apart) return false;
  const dirs = formsOf(dir);
  const roots = formsOf(apart.root);
  return dirs.some((d) => roots.some((r) => isInside(r, d))) || inAnotherSession(dirs, apart);
}

export function anotherSessionMessage(toolName: string, shown: string): string {
  return `${toolName} denied: ${shown} belongs to another session's private directories on this worker (temp files, task output, Bash spool); sessions never see each other's files.`;
}
