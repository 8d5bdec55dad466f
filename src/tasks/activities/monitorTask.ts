// `runMonitorTask`: a session's Monitor task as its own long-lived activity — the core of
// src/tasks/runtime/monitorTask.ts with the activity's runtime (heartbeats: a dead worker makes the task
// lost; cancellation: TaskStop kills the process group). Each batch of the watch's output reaches
// the session workflow that scheduled the activity as a `monitorEvent` signal (through the worker's
// client, as streamed tool_use blocks reach their turn), carrying the task id and its seq.
import { Context } from '@temporalio/activity';
import { createMonitorTaskCalls, type RunMonitorTaskInput, type RunMonitorTaskResult } from '../runtime/monitorTask';
import type { ToolDeps } from '../../toolCall/tools';
import { SIGNALS } from '../../core/ids';
import { countRunningTask } from '../../temporal/activities/metrics';
import { activityRuntime } from '../../temporal/activities/runtime';

export function createMonitorTaskActivities(deps: ToolDeps) {
  const calls = createMonitorTaskCalls(deps);
  return {
    async runMonitorTask(input: RunMonitorTaskInput): Promise<RunMonitorTaskResult> {
      const ctx = Context.current();
      const wf = ctx.info.workflowExecution;
      if (!wf) throw new Error('runMonitorTask runs only inside a session workflow (its events are signals to it)');
      const session = ctx.client.workflow.getHandle(wf.workflowId, wf.runId);
      return countRunningTask('monitor', () =>
        calls.runMonitorTask(input, activityRuntime(), (batch) => session.signal(SIGNALS.monitorEvent, batch)),
      );
    },
  };
}
