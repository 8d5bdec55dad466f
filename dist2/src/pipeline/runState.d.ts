import type { ToolResultBlockParam, ToolUseBlock } from '../engine/messages';
import type { PostToolUseHooksResult } from '../hooks/run';
import type { HookRun } from '../hooks/types';
import type { FailureStage, ToolUseOutcome, ToolUseStatus } from './types';
export declare class RunState {
    readonly startedAt: number;
    readonly toolUseId: string;
    readonly toolName: string;
    /** The input actually used (after hooks' or the permission check's updatedInput). */
    input: unknown;
    readonly hookNotices: string[];
    readonly hookRuns: HookRun[];
    /** Text appended to the result the model sees (hooks' additional context and feedback). */
    readonly context: string[];
    permission: ToolUseOutcome['permission'];
    ask: ToolUseOutcome['ask'];
    stop: ToolUseOutcome['stop'];
    constructor(block: ToolUseBlock);
    /** The run ends here with this status. */
    outcome(status: ToolUseStatus, extra: Partial<ToolUseOutcome>): ToolUseOutcome;
    /** The result with the hooks' text appended. */
    withContext(result: ToolResultBlockParam): ToolResultBlockParam;
    /** The run ends with an is_error result (the message, unless a result is given). */
    failed(status: ToolUseStatus, stage: FailureStage, message: string, result?: ToolResultBlockParam): ToolUseOutcome;
    interrupted(detail?: string): ToolUseOutcome;
    /** After the call: feedback, context and a stop from PostToolUse or PostToolUseFailure hooks. */
    takeAfterCall(post: PostToolUseHooksResult, event: string): void;
}
