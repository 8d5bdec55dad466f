// `runBackgroundTask`: a session's background task (Bash `run_in_background`) as its own
// long-lived activity — the core of src/calls/backgroundTask.ts with the activity's runtime: its
// heartbeats (how the session learns that the worker died: the heartbeat times out, the task is
// lost) and its cancellation signal (TaskStop: the process group is killed).
import {
  createBackgroundTaskCalls,
  type RunBackgroundTaskInput,
  type RunBackgroundTaskResult,
} from '../calls/backgroundTask';
import type { ToolDeps } from '../calls/tools';
import { countRunningTask } from './metrics';
import { activityRuntime } from './runtime';

export function createBackgroundTaskActivities(deps: ToolDeps) {
  const calls = createBackgroundTaskCalls(deps);
  return {
    async runBackgroundTask(input: RunBackgroundTaskInput): Promise<RunBackgroundTaskResult> {
      return countRunningTask('bash', () => calls.runBackgroundTask(input, activityRuntime()));
    },
  };
}
