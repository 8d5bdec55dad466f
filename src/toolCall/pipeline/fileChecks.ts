// Existence oracles: a path tool's validateInput looks at the file system ("File does not exist",
// "Did you mean …", "is a directory", "has not been read"). Run before the permission decision
// (the pipeline's order: validateInput → hooks → permission), those answers would tell the model
// whether a denied or outside path exists. So when validateInput fails for a tool with getPath,
// the pipeline asks this first and, unless the call would be allowed, answers with the permission
// decision instead — the same answer whether the file exists or not.
import { decidePermission, type PermissionDecision } from '../../permissions/decide';
import type { AnyTool, ToolUseContext } from '../../toolProtocol/Tool';

/**
 * The decision to give instead of a failed validateInput's message, or undefined when the
 * message may be shown: the call would be allowed, or only the mode's "needs approval" applies
 * inside the working directories (no secret there, and asking about a call that cannot work helps
 * nobody). Hooks have not run (they never run for invalid input). Never throws.
 */
export async function decisionHidingFileErrors(
  tool: AnyTool,
  input: unknown,
  ctx: ToolUseContext,
): Promise<PermissionDecision | undefined> {
  if (typeof tool.getPath !== 'function') return undefined;
  let d: PermissionDecision;
  try {
    d = await decidePermission(tool, input, ctx);
  } catch (e) {
    return {
      behavior: 'deny',
      message: `Permission check failed: ${(e as Error)?.message ?? String(e)}`,
      decisionReason: { type: 'other', reason: 'permission engine error' },
    };
  }
  if (d.behavior === 'allow' || (d.behavior === 'ask' && d.decisionReason?.type === 'mode')) return undefined;
  return d;
}
