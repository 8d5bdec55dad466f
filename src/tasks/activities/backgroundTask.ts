// `runBackgroundTask`: a session's background task (Bash `run_in_background`) as its own
// long-lived activity — the core of src/tasks/runtime/backgroundTask.ts with the activity's runtime: its
// heartbeats (how the session learns that the worker died: the heartbeat times out, the task is
// lost) and its cancellation signal (TaskStop: the process group is killed).
import {
  createBackgroundTaskCalls,
  type RunBackgroundTaskInput,
  type RunBackgroundTaskResult,
} from '../runtime/backgroundTask';
import type { ToolDeps } from '../../toolCall/tools';
import { countRunningTask } from '../../temporal/activities/metrics';
import { activityRuntime } from '../../temporal/activities/runtime';

export function createBackgroundTaskActivities(deps: ToolDeps) {
  const calls = createBackgroundTaskCalls(deps);
  return {
    async runBackgroundTask(input: RunBackgroundTaskInput): Promise<RunBackgroundTaskResult> {
      return countRunningTask('bash', () => calls.runBackgroundTask(input, activityRuntime()));
    },
  };
}
