import type { CallHooks } from './callHooks';
import type { ToolRun } from './toolRun';
import type { ToolUseOutcome } from './types';
/**
 * Takes `raw` as the call's input if it validates. Invalid: its outcome; with 'decide', a path
 * tool's file-system answer is shown only after the permission decision (fileChecks.ts).
 */
export declare function acceptInput(run: ToolRun, raw: unknown, invalid: 'decide' | 'report', note?: string): Promise<ToolUseOutcome | undefined>;
/** PreToolUse hooks: they may stop, block or replace the input (validated again). */
export declare function preToolUse(run: ToolRun, hooks: CallHooks): Promise<ToolUseOutcome | undefined>;
/** The permission decision (with the hooks' say); an allow may replace the input (validated again). */
export declare function permit(run: ToolRun): Promise<ToolUseOutcome | undefined>;
/**
 * Right before call(): not aborted; in phase 'pre' the run stops with status 'ready' (the
 * scheduler runs the call itself, a child workflow; phase 'post' continues from here); the
 * scheduler's beforeCall (its execution ledger) must succeed.
 */
export declare function readyToCall(run: ToolRun): Promise<ToolUseOutcome | undefined>;
