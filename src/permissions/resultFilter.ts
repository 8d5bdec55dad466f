// Files a search tool may show: Grep and Glob search whole directories, so a `Read` deny (or ask)
// rule must hold for every file they return, not only for the directory they were given. The
// same predicate keeps a "read-only" Bash command that names such a file from running unasked.
import type { AnyTool, ToolUseContext } from '../toolProtocol/Tool';
import type { PermissionRules } from '../toolProtocol/permissionTypes';
import * as os from 'node:os';
import * as path from 'node:path';
import { findMatchingRule, permissionEnvOf, type CallFacts, type PermissionEnv } from './matcher';
import { compilePathPattern, isInside, pathForms, resolveReal } from './paths';
import { parseRuleSafe } from './rules';
import { inAnotherSession, reachesAnotherSession, type SessionsApart } from './sessionsApart';
import { inProcessDir, reachesProcessDir } from './processPaths';
import { credentialView } from './credentials';
import { closableHome } from './homeReads';
import { hiddenHomeFromSession } from './sessionClosed';

/**
 * A predicate telling whether an absolute path is hidden from `toolName`: some deny or ask rule
 * for Read (or for the tool itself) with a path spec covers it, or it is another session's or a
 * per-process /proc entry (hidden in every mode).
 */
export type HiddenPaths = ((abs: string) => boolean) & { under: (dir: string) => boolean };

export function hiddenPathPredicate(
  toolName: string,
  rules: PermissionRules | undefined,
  env: PermissionEnv,
  apart?: SessionsApart,
  reopened?: readonly string[],
  /** bypassPermissions: the closed parts of HOME outside the working directories are hidden too (O1b). */
  bypass = false,
): HiddenPaths {
  const byRules = rulesPredicate(toolName, rules, env);
  // The closed parts of HOME (sessionClosed.ts: the one predicate the decision, the re-check at the
  // open and the memory loader use), inside the working directories (everywhere in bypassPermissions).
  let closed: ((p: string) => boolean) | undefined;
  const session = () =>
    (closed ??= hiddenHomeFromSession(
      {
        home: env.home ?? os.homedir(),
        workingDirectories: env.workingDirectories,
        reopened: reopened ?? [],
        own: (apart ?? []).map((a) => a.own),
      },
      bypass,
    ));
  // Another session's private directories (sessionsApart.ts), the per-process /proc entries
  // (processPaths.ts) and the credential files (credentials.ts, but where the person's own
  // `sandbox.filesystem.allowRead` re-opens one: issue 30, round o) are hidden whatever the rules say.
  let creds: { test: (p: string) => boolean; roots: string[] } | undefined;
  const credentials = () => {
    if (creds) return creds;
    const view = credentialView(env.home, reopened);
    return (creds = { test: view.match, roots: view.roots });
  };
  const hidden = (abs: string) => {
    const forms = pathForms(abs, env.cwd);
    return (
      inProcessDir(forms) ||
      inAnotherSession(forms, apart) ||
      forms.some(credentials().test) ||
      forms.some(session()) ||
      (byRules?.(abs) ?? false)
    );
  };
  const under = (dir: string) =>
    reachesProcessDir([dir, resolveReal(dir)]) ||
    reachesAnotherSession(dir, apart) ||
    [dir, resolveReal(dir)].some((d) => credentials().roots.some((c) => isInside(c, d) || isInside(d, c))) ||
    [dir, resolveReal(dir)].some((d) => session()(d) || homeClosedBelow(d, env, session())) ||
    (byRules?.under(dir) ?? false);
  return Object.assign(hidden, { under });
}

/** Is `d` HOME or an ancestor of it with a hidden closed part below (probed with a dot-entry of HOME)? */
function homeClosedBelow(d: string, env: PermissionEnv, hidden: (p: string) => boolean): boolean {
  const h = closableHome(env.home ?? os.homedir());
  return h !== undefined && isInside(h, d) && hidden(path.join(h, '.durable-agent-probe'));
}

function rulesPredicate(
  toolName: string,
  rules: PermissionRules | undefined,
  env: PermissionEnv,
): HiddenPaths | undefined {
  const r = rules ?? { allow: [], ask: [], deny: [] };
  const relevant = [...(r.deny ?? []), ...(r.ask ?? [])].filter((x) => {
    const p = parseRuleSafe(x);
    return p !== undefined && p.content !== undefined && (p.toolName === 'Read' || p.toolName === toolName);
  });
  if (relevant.length === 0) return undefined;
  const tool = { name: toolName, aliases: [] } as unknown as AnyTool;
  const hidden = (abs: string) => {
    const facts: CallFacts = {
      tool,
      input: undefined,
      readOnly: true,
      shell: false,
      path: { given: abs, forms: pathForms(abs, env.cwd) },
    };
    return findMatchingRule(relevant, 'deny', facts, env) !== undefined;
  };
  // Where each rule's pattern is anchored, up to its first wildcard (undefined: it matches anywhere).
  const anchors = relevant.map((r) => {
    const pat = compilePathPattern(parseRuleSafe(r)!.content!);
    if (pat.anywhere) return undefined;
    const base = pat.base === 'root' ? '/' : pat.base === 'home' ? (env.home ?? os.homedir()) : (env.root ?? env.cwd);
    const literal: string[] = [];
    for (const seg of pat.pattern.split('/')) {
      if (/[*?[\\]/.test(seg)) break;
      literal.push(seg);
    }
    return path.join(base, ...literal);
  });
  /** Could some file under this directory be hidden (a search of it would need filtering)? */
  const under = (dir: string) => {
    const dirs = [dir, resolveReal(dir)];
    return anchors.some(
      (a) => a === undefined || dirs.some((d) => isInside(a, d) || isInside(d, a) || isInside(resolveReal(a), d)),
    );
  };
  return Object.assign(hidden, { under });
}

/** hiddenPathPredicate for a tool call's context. */
export function hiddenPathFilter(
  toolName: string,
  ctx: Pick<ToolUseContext, 'agent' | 'permission'>,
): HiddenPaths | undefined {
  return hiddenPathPredicate(
    toolName,
    ctx.permission.rules,
    permissionEnvOf(ctx),
    ctx.permission.sessionsApart,
    ctx.permission.sandbox?.filesystem?.allowRead,
    ctx.permission.mode === 'bypassPermissions',
  );
}
