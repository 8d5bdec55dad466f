// ONE answer to "could this session's sandboxed commands read this path?" for every reader that runs
// in the worker, outside the sandbox, and follows a path an agent can name or write (red team o, O8,
// O15, O1b): the file tools' decision (decide.ts step 0 and the mode's default), their re-check of
// the real path they opened (src/tools/fileAccess.ts), Grep's and Glob's filter of what a search
// finds (resultFilter.ts) and the memory loader's imports (src/claudeMd/claudeMd.ts). Closed: a
// credential file (the sandbox's read-deny list and the files the worker's environment names) and a
// closed part of HOME (homeReads.ts closedHomePath), both but where the person's own
// `sandbox.filesystem.allowRead` re-opens them.
import * as os from 'node:os';
import { credentialMatcher } from './credentials';
import { closedHomeMatcher, type HomeScope } from './homeClosure';
import { insideWorkingDirs } from './paths';

export type ClosedKind = 'credential' | 'home';

/** The session's side of the sandbox's read model: home directory, working directories, re-opened paths. */
export interface SessionScope extends HomeScope {
  /** The session's own directories (its temp directory, its stored results: sessionsApart's `own`): open. */
  own?: readonly string[];
}

/** The scope of a tool call: its environment, the person's allowRead, the session's own directories. */
export function sessionScopeOf(
  env: { home?: string; workingDirectories: readonly string[] },
  permission: {
    sandbox?: { filesystem?: { allowRead?: readonly string[] } };
    sessionsApart?: ReadonlyArray<{ own: string }>;
  },
): SessionScope {
  return {
    home: env.home,
    workingDirectories: env.workingDirectories,
    reopened: permission.sandbox?.filesystem?.allowRead ?? [],
    own: (permission.sessionsApart ?? []).map((a) => a.own),
  };
}

/**
 * Why a sandboxed command of this session could not read the absolute path `p` — `credential`, or
 * `home` (a closed part of HOME) — or undefined. Give it every form of a path (paths.ts pathForms).
 */
export function sessionReadClosed(scope: SessionScope): (p: string) => ClosedKind | undefined {
  const home = scope.home ?? os.homedir();
  const credential = credentialMatcher(home, scope.reopened);
  const closedHome = closedHomeMatcher(
    { ...scope, home, reopened: [...(scope.reopened ?? []), ...(scope.own ?? [])] },
    'read',
  );
  return (p) => (credential(p) ? 'credential' : closedHome(p) ? 'home' : undefined);
}

/**
 * What a search or a re-check leaves out without asking, besides the credential files (which
 * resultFilter.ts matches with the credential list's own cached view): a closed part of HOME inside the
 * working directories (which the mode's default reads unasked: a session in `~`, or in `/home`), and
 * anywhere in bypassPermissions (nobody was asked for the search's root: O1b). Outside the working
 * directories, in the other modes, the person approved the search of that root.
 */
export function hiddenHomeFromSession(scope: SessionScope, bypass: boolean): (p: string) => boolean {
  const closedHome = closedHomeMatcher(
    { ...scope, home: scope.home ?? os.homedir(), reopened: [...(scope.reopened ?? []), ...(scope.own ?? [])] },
    'read',
  );
  return (p) => closedHome(p) && (bypass || insideWorkingDirs([p], scope.workingDirectories));
}

/**
 * Why writing a path (all its forms) inside the working directories is protected: it is in a closed
 * part of HOME there — a dot-entry of a working directory that is HOME, or HOME under one that is
 * its ancestor (closedHomePath). Outside the working directories a write asks anyway (or the
 * person's own allow rule lets it).
 */
export function closedHomeWrite(forms: readonly string[], scope: SessionScope): string | undefined {
  const closed = closedHomeMatcher({ ...scope, home: scope.home ?? os.homedir() }, 'write');
  const hit = forms.find((f) => closed(f) && insideWorkingDirs([f], scope.workingDirectories));
  if (hit === undefined) return undefined;
  return `${hit} is protected: it is in a dot-entry (or a closed part) of the home directory, where tools keep their state, tokens and start-up files; a session started in the home directory or above it does not open them`;
}
