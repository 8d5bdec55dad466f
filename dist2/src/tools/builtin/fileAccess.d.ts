import type { ToolUseContext } from '../Tool';
import type { RealPathCheck } from '../safeFs';
type AccessContext = Pick<ToolUseContext, 'agent' | 'permission' | 'permittedPaths'>;
/**
 * The check for reading the file at `given` (Read, Edit's old content, Write's comparison).
 * `phase: 'validate'` is for validateInput, before any decision: only the path as given, or a
 * place that passes the read checks.
 */
export declare function readCheck(ctx: AccessContext, toolName: string, given: string, phase?: 'validate' | 'call'): RealPathCheck;
/** The check for writing the file at `given`: only a real path the decision covered. */
export declare function writeCheck(ctx: AccessContext, given: string): RealPathCheck;
/**
 * The check for a search root (Glob, Grep; the directory a "Did you mean" lists): a form the
 * decision covered, or a place that passes the read checks. `validate`: before the decision.
 */
export declare function searchRootCheck(ctx: AccessContext, toolName: string, given: string, phase?: 'validate' | 'call'): RealPathCheck;
/** The check for a file found under a bound search root: inside its real path, or a place that passes the read checks. */
export declare function underRootCheck(ctx: AccessContext, toolName: string, rootReal: string): RealPathCheck;
export {};
