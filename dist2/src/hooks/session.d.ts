import { type HookRunEnv } from './run';
import type { HookRun, SessionHookEventName, SessionHookInput } from './types';
/** The value an event's matcher is compared with. */
export declare function matchQueryOf(event: SessionHookEventName, input: Record<string, unknown>): string;
export declare function runSessionEventHooks(input: SessionHookInput, env: HookRunEnv): Promise<HookRun[]>;
