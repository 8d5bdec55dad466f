// The Temporal-free cores of every call a session makes, for any scheduler: the activities
// (src/temporal/activities) are thin adapters over them that add the activity's runtime and turn domain
// errors into ApplicationFailures; the in-process runner (src/inprocess) calls them directly with a
// CallRuntime of its own. A core never imports @temporalio/*: it throws domain errors
// (DurableAgentError, ModelCallError) and returns data.
import { createBackgroundTaskCalls } from '../tasks/runtime/backgroundTask';
import { compactContextWith, type CompactContextInput, type CompactDeps } from './compact';
import { callModelWith, type CallModelInput, type ModelDeps } from './model';
import { createMonitorTaskCalls } from '../tasks/runtime/monitorTask';
import type { CallRuntime } from './runtime';
import { runSessionHooksWith, type HookDeps, type RunSessionHooksInput } from './sessionHooks';
import { createToolCalls, type ToolDeps } from '../toolCall/tools';
import { createTranscriptCalls } from './transcript';
import { nextCronFires } from './cronFires';

export interface CallDeps {
  model: ModelDeps;
  compaction: CompactDeps;
  tools: ToolDeps;
  hooks: HookDeps;
}

/**
 * Every core bound to its dependencies: model call, the transcript's append and load, compaction,
 * session hooks, the tool calls, a background task's and a Monitor's run, the next cron firings.
 */
export function createCalls(deps: CallDeps) {
  return {
    callModel: (input: CallModelInput, ctx: CallRuntime) => callModelWith(deps.model, input, ctx),
    ...createTranscriptCalls(deps.model),
    compactContext: (input: CompactContextInput, ctx: CallRuntime) => compactContextWith(deps.compaction, input, ctx),
    runSessionHooks: (input: RunSessionHooksInput, signal?: AbortSignal) =>
      runSessionHooksWith(deps.hooks, input, signal),
    ...createToolCalls(deps.tools),
    ...createBackgroundTaskCalls(deps.tools),
    ...createMonitorTaskCalls(deps.tools),
    nextCronFires,
  };
}

export { ModelCallError, classifyModelError } from './model';
export type { CallRuntime } from './runtime';
