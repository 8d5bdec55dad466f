import { type HookDef, type HookEventName, type HooksConfig } from './types';
/**
 * Accepts either a whole settings object (`{ "hooks": {...} }`) or the inner map and returns a
 * validated HooksConfig. Throws with a precise message (naming the key) on bad shapes, on an
 * event name the reference does not define and on a hook type other than command/function: a
 * mistake shows at load, not at the first call.
 */
export declare function normalizeHooksConfig(raw: unknown): HooksConfig;
/**
 * Load warnings for keys of a valid hooks config that durable-agent does not honour: a command
 * hook's `once`, and keys neither the reference nor durable-agent define (a typo such as
 * `timout`). Each is `[key path, message]`; the config itself loads (normalizeHooksConfig).
 */
export declare function hookConfigWarnings(raw: unknown): Array<[string, string]>;
/** The reference's events in a hooks config that durable-agent accepts but never fires (for load warnings). */
export declare function referenceOnlyHookEvents(raw: unknown): string[];
/**
 * Does a matcher select this tool? Absent, empty and `*` select every tool; a plain list of names
 * (`Edit|Write`, spaces around `|` ignored) is compared exactly (aliases count); anything else is a
 * regular expression searched in the tool name, unanchored as the reference does (`B.s` and `Ba*`
 * select Bash; write `^…$` to match the whole name). An invalid regular expression selects nothing.
 */
export declare function matcherMatches(matcher: string | undefined, toolName: string, aliases?: readonly string[]): boolean;
export declare function isValidMatcher(matcher: string | undefined): boolean;
export interface MatchedHook {
    def: HookDef;
    matcher?: string;
    timeoutMs: number;
    label: string;
}
/**
 * The hooks of an event that apply to a query (the tool name for tool events, the source for
 * SessionStart, the reason for SessionEnd, the trigger for PreCompact, the notification type for
 * Notification; events without a matcher pass ''), in configuration order, identical commands once.
 */
export declare function hooksFor(config: HooksConfig | undefined, event: HookEventName, toolName: string, aliases?: readonly string[], callMatches?: (rule: string) => boolean): MatchedHook[];
/** Every command hook of a config (command and exec-form arguments), for the protected paths (src/permissions/protectedPaths.ts). */
export declare function hookCommandsOf(config: HooksConfig | undefined): Array<{
    command: string;
    args?: string[];
}>;
