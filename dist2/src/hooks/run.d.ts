import type { HookPermissionDecision } from '../permissions/decide';
import { type MatchedHook } from './config';
import type { HookEventName, HookInput, HookOutput, HookRun, HooksConfig, PostToolUseFailureHookInput, PostToolUseHookInput, PreToolUseHookInput } from './types';
export interface HookRunEnv {
    config?: HooksConfig;
    cwd: string;
    signal?: AbortSignal;
    /** Extra environment for command hooks. */
    env?: NodeJS.ProcessEnv;
    /** Aliases of the tool, so that matchers may name them. */
    aliases?: readonly string[];
    /** Tool events: does the call match a hook's `if` permission rule? (absent: hooks with `if` never run) */
    callMatches?: (rule: string) => boolean;
}
export interface PreToolUseHooksResult {
    runs: HookRun[];
    /** Combined permission decision of all hooks: deny > ask > allow. */
    decision?: HookPermissionDecision;
    /** Exit code 2, `decision: "block"` or `continue: false`: the call must not run. */
    block?: {
        reason: string;
        hook: string;
    };
    /** `continue: false`: the agent should stop after this call. */
    stop?: {
        reason: string;
        hook: string;
    };
    /** The last hook (in configuration order) that replaced the input wins. */
    updatedInput?: Record<string, unknown>;
    additionalContext: string[];
    /** Non-blocking errors, timeouts, system messages: recorded, never shown to the model. */
    notices: string[];
}
export interface PostToolUseHooksResult {
    runs: HookRun[];
    /** Exit code 2 or `decision: "block"`: feedback appended to the result the model sees. */
    feedback: Array<{
        reason: string;
        hook: string;
    }>;
    stop?: {
        reason: string;
        hook: string;
    };
    additionalContext: string[];
    notices: string[];
}
/** Parses stdout as hook JSON output when it looks like JSON; otherwise undefined. */
export declare function parseHookStdout(stdout: string): HookOutput | undefined;
export declare function runOne(h: MatchedHook, event: HookEventName, input: HookInput, env: HookRunEnv): Promise<HookRun>;
export declare function runPreToolUseHooks(input: Omit<PreToolUseHookInput, 'hook_event_name'>, env: HookRunEnv): Promise<PreToolUseHooksResult>;
export declare function runPostToolUseHooks(input: Omit<PostToolUseHookInput, 'hook_event_name'>, env: HookRunEnv): Promise<PostToolUseHooksResult>;
/** After a failed call (it threw, or its result is an error), in place of PostToolUse: the same answers are honoured. */
export declare function runPostToolUseFailureHooks(input: Omit<PostToolUseFailureHookInput, 'hook_event_name'>, env: HookRunEnv): Promise<PostToolUseHooksResult>;
