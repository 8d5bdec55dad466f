// What a file tool may open, judged on the REAL path of what it opened (src/files/safeFs.ts
// binds every open to it). The permission decision looked at a path's forms (logical, real,
// physical); the pipeline hands those to call() as ctx.permittedPaths. A real path among them is
// what the decision covered. Any other real path means the file system changed between the check
// and the open (a symlink swapped in, a directory replaced): a read may still go on when the new
// place passes the read checks themselves (inside the working directories, no Read deny/ask rule,
// not a credential file), a write never.
import { permissionEnvOf } from '../permissions/matcher';
import { insideWorkingDirs, isInside, pathForms, resolveLogical } from '../permissions/paths';
import { hiddenPathFilter } from '../permissions/resultFilter';
import { isCredentialPath } from '../permissions/credentials';
import { inProcessDir } from '../permissions/processPaths';
import type { ToolUseContext } from '../toolProtocol/Tool';
import type { RealPathCheck } from '../files/safeFs';

type AccessContext = Pick<ToolUseContext, 'agent' | 'permission' | 'permittedPaths'>;

/** The forms the decision covered; outside the pipeline (a direct call()), the forms right now. */
function covered(ctx: AccessContext, given: string, fallbackNow: boolean): readonly string[] {
  if (ctx.permittedPaths) return ctx.permittedPaths;
  return fallbackNow ? pathForms(given, ctx.agent.cwd) : [resolveLogical(given, ctx.agent.cwd)];
}

const CHANGED =
  'The permission check was made for another path: the file system changed between the check and the open (e.g. a symlink was swapped in), so nothing was read.';

/** The read checks for a real path the decision did not see; undefined when it passes. */
function readPolicy(ctx: AccessContext, toolName: string, real: string): string | undefined {
  if (isCredentialPath(real)) return `${CHANGED} ${real} is a credential file.`;
  if (inProcessDir([real])) return `${CHANGED} ${real} is a per-process /proc entry.`;
  if (!insideWorkingDirs([real], permissionEnvOf(ctx).workingDirectories))
    return `${CHANGED} ${real} is outside the working directories.`;
  // A Read deny/ask rule, a credential file, a closed part of HOME (sessionClosed.ts: the decision's predicate, O15).
  if (hiddenPathFilter(toolName, ctx)?.(real))
    return `${CHANGED} ${real} is hidden from this session (a permission rule, a credential file or a closed part of the home directory).`;
  return undefined;
}

/**
 * The check for reading the file at `given` (Read, Edit's old content, Write's comparison).
 * `phase: 'validate'` is for validateInput, before any decision: only the path as given, or a
 * place that passes the read checks.
 */
export function readCheck(
  ctx: AccessContext,
  toolName: string,
  given: string,
  phase: 'validate' | 'call' = 'call',
): RealPathCheck {
  const ok = covered(ctx, given, phase === 'call');
  return (real) => (ok.includes(real) ? undefined : readPolicy(ctx, toolName, real));
}

/** The check for writing the file at `given`: only a real path the decision covered. */
export function writeCheck(ctx: AccessContext, given: string): RealPathCheck {
  const ok = covered(ctx, given, true);
  return (real) =>
    ok.includes(real)
      ? undefined
      : `The permission check was made for another path: the file system changed between the check and the write (e.g. a symlink was swapped in), so nothing was written. ${real} is not ${ok[ok.length - 1] ?? given}.`;
}

/**
 * The check for a search root (Glob, Grep; the directory a "Did you mean" lists): a form the
 * decision covered, or a place that passes the read checks. `validate`: before the decision.
 */
export function searchRootCheck(
  ctx: AccessContext,
  toolName: string,
  given: string,
  phase: 'validate' | 'call' = 'call',
): RealPathCheck {
  const ok = phase === 'validate' ? [resolveLogical(given, ctx.agent.cwd)] : covered(ctx, given, true);
  return (real) => (ok.includes(real) ? undefined : readPolicy(ctx, toolName, real));
}

/** The check for a file found under a bound search root: inside its real path, or a place that passes the read checks. */
export function underRootCheck(ctx: AccessContext, toolName: string, rootReal: string): RealPathCheck {
  const hidden = hiddenPathFilter(toolName, ctx);
  return (real) => {
    if (isInside(real, rootReal)) return hidden?.(real) ? `A permission rule covers ${real}.` : undefined;
    return readPolicy(ctx, toolName, real);
  };
}
