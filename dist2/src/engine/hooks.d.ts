/** The session-level hook events (the same names as src/hooks/types.ts; the engine imports nothing outside itself). */
export declare const SESSION_HOOK_EVENT_NAMES: readonly ["UserPromptSubmit", "Stop", "SubagentStart", "SubagentStop", "SessionStart", "SessionEnd", "Notification"];
export type SessionHookEventName = (typeof SESSION_HOOK_EVENT_NAMES)[number];
/** What the engine reads of a hook's JSON output (src/hooks/types.ts HookOutput). */
interface HookOutput {
    continue?: boolean;
    stopReason?: string;
    systemMessage?: string;
    decision?: string;
    reason?: string;
    hookSpecificOutput?: {
        additionalContext?: string;
        [k: string]: unknown;
    };
}
/** One hook execution as the engine reads it (src/hooks/types.ts HookRun is one). */
export interface HookRun {
    event: string;
    hook: string;
    outcome: 'success' | 'blocking' | 'non_blocking_error' | 'timeout' | 'cancelled';
    exitCode?: number | null;
    stdout?: string;
    stderr?: string;
    output?: HookOutput;
    durationMs: number;
    error?: string;
}
export interface SessionHookDecision {
    /** Exit code 2 or `decision: "block"`: UserPromptSubmit drops the prompt; Stop keeps the session going with `reason`. */
    block?: {
        reason: string;
        hook: string;
    };
    /** `continue: false`: the session stops (any event). */
    stop?: {
        reason: string;
        hook: string;
    };
    /** Text for the model: `additionalContext`, or plain stdout of UserPromptSubmit/SessionStart. */
    additionalContext: string[];
    /** For the user (recorded, never shown to the model): systemMessage, non-blocking errors. */
    notices: string[];
}
export declare function decideSessionHooks(event: string, runs: readonly HookRun[]): SessionHookDecision;
/** The hook runs an activity returns: outputs kept, long streams cut (the workflow history holds them). */
export declare function trimHookRun<R extends HookRun>(run: R, max?: number): R;
export {};
