import { type PermissionDecision } from '../permissions/decide';
import type { AnyTool, ToolUseContext } from '../tools/Tool';
/**
 * The decision to give instead of a failed validateInput's message, or undefined when the
 * message may be shown: the call would be allowed, or only the mode's "needs approval" applies
 * inside the working directories (no secret there, and asking about a call that cannot work helps
 * nobody). Hooks have not run (they never run for invalid input). Never throws.
 */
export declare function decisionHidingFileErrors(tool: AnyTool, input: unknown, ctx: ToolUseContext): Promise<PermissionDecision | undefined>;
