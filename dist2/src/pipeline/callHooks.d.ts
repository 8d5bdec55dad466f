import { type PreToolUseHooksResult } from '../hooks/run';
import type { ToolResult } from '../tools/Tool';
import type { ToolRun } from './toolRun';
import type { ToolUseOutcome } from './types';
export declare class CallHooks {
    private readonly run;
    private readonly env;
    private readonly transcriptPath;
    private constructor();
    /** The hooks of this call, or the outcome when the configuration is invalid (the tool does not run). */
    static of(run: ToolRun): Promise<CallHooks | ToolUseOutcome>;
    /**
     * What every hook of this call receives on stdin (PostToolUse adds tool_response): the input as
     * the tool's observableInput shows it (absolute paths, defaults filled in).
     */
    private input;
    /** PreToolUse: runs, notices, additional context and a stop go into the state; the rest is the caller's. */
    preToolUse(): Promise<PreToolUseHooksResult>;
    /** A call that failed: PostToolUseFailure hooks instead of PostToolUse (as the reference). */
    failure(error: string): Promise<void>;
    /** PostToolUse with the tool's response, run where a worktree call leaves the session. */
    postToolUse(result: ToolResult<unknown>, response: unknown): Promise<void>;
}
