import { type HookRunEnv } from './run';
import type { HookRun, PreCompactHookInput } from './types';
export interface PreCompactHooksResult {
    runs: HookRun[];
    /** Instructions the hooks added for the summary. */
    instructions: string[];
    block?: {
        reason: string;
        hook: string;
    };
    notices: string[];
}
export declare function runPreCompactHooks(input: Omit<PreCompactHookInput, 'hook_event_name'>, env: HookRunEnv): Promise<PreCompactHooksResult>;
