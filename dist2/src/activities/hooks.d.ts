import { type HookDeps, type RunSessionHooksInput, type RunSessionHooksResult } from '../calls/sessionHooks';
export declare function createHookActivities(deps: HookDeps): {
    runSessionHooks: (input: RunSessionHooksInput) => Promise<RunSessionHooksResult>;
};
