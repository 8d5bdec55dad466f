// The `runSessionHooks` activity: the core (src/runtime/sessionHooks.ts) with the activity's cancellation signal.
import { Context } from '@temporalio/activity';
import {
  runSessionHooksWith,
  type HookDeps,
  type RunSessionHooksInput,
  type RunSessionHooksResult,
} from '../../runtime/sessionHooks';

export function createHookActivities(deps: HookDeps) {
  async function runSessionHooks(input: RunSessionHooksInput): Promise<RunSessionHooksResult> {
    return runSessionHooksWith(deps, input, Context.current().cancellationSignal);
  }
  return { runSessionHooks };
}
