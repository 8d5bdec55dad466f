// Background tasks in the in-process runner (issue 19): the same runs and decisions as the session
// workflow's (tasks/core/taskRuns.ts and taskScheduling.ts: a task a turn recorded starts once, after
// that turn; TaskStop and the session's end stop it without a notification, but for an agent TaskStop
// stopped; its end is recorded and its `<task-notification>` queued for the next turn, waking an idle
// session through LocalTimers; a Monitor's batches taken once per (task, seq), nothing after TaskStop),
// and the same cores as the `runBackgroundTask` / `runMonitorTask` activities
// (tasks/runtime/backgroundTask.ts, tasks/runtime/monitorTask.ts: the session's sandbox plan, its own
// process group, stdout and stderr into the task's output file in the session's temp dir), called here
// with an abort signal instead of an activity's cancellation; a Monitor's batches come straight from
// its run instead of as signals. This file gives only those primitives.
// The process is the limit: a task dies with it (the durable runner's outlives a worker, or is reported lost).
import type { CallRuntime } from '../../runtime/runtime';
import type { ToolSessionSettings } from '../../toolCall/tools';
import type { BackgroundTask, TaskOutcome } from '../../core/autonomy';
import type { SessionState } from '../../core/session';
import type { SessionEvents } from '../../core/sessionEvents';
import { taskNotification } from '../core/taskNotifications';
import { TaskRuns, taskRunKind, type TaskRunPrimitives, type TaskStop } from '../core/taskRuns';
import { agentFailedTaskEnd } from '../../core/subagents';
import type { LocalAgentLaunch } from '../../inprocess/subagents';
import type { LocalDeps } from '../../inprocess/turn';

/** What the tasks take from their session (src/inprocess/sessionRun.ts). */
export interface LocalTasksHost {
  readonly events: SessionEvents<SessionState>;
  readonly session: ToolSessionSettings;
  readonly deps: Pick<LocalDeps, 'runBackgroundTask' | 'runMonitorTask'>;
  runtime(signal: AbortSignal, key: string): CallRuntime;
  /** Background agents the session's Agent calls launched, by task id (subagents.ts). */
  readonly agentLaunches?: Map<string, LocalAgentLaunch>;
}

/** A run's stop in process: its abort controller. */
interface AbortStop extends TaskStop {
  readonly signal: AbortSignal;
}

/** The in-process runner's background tasks: the engine's runs (tasks/core/taskRuns.ts) over these primitives. */
export type LocalTasks = TaskRuns<ToolSessionSettings, AbortStop>;

export function localTasks(host: LocalTasksHost, changed: () => void): LocalTasks {
  return new TaskRuns(host.events, localTaskPrimitives(host), { notification: taskNotification }, changed);
}

function localTaskPrimitives(host: LocalTasksHost): TaskRunPrimitives<ToolSessionSettings, AbortStop> {
  const runtime = (task: BackgroundTask, stop: AbortStop) => host.runtime(stop.signal, `task-${task.id}`);
  return {
    kind: taskRunKind,
    stopper: () => {
      const abort = new AbortController();
      return { signal: abort.signal, stop: () => abort.abort() };
    },
    session: () => host.session,
    command: (task, input, stop) => host.deps.runBackgroundTask(input, runtime(task, stop)),
    monitor: (task, input, stop, deliver) =>
      host.deps.runMonitorTask(input, runtime(task, stop), async (batch) => deliver(batch)),
    // A background agent (its Agent call launched it, subagents.ts): its child session runs in this
    // process until it ends (the agent's notification) or the task's stop aborts it (no notification).
    agent: (task, stop) => {
      const launch = host.agentLaunches?.get(task.id);
      host.agentLaunches?.delete(task.id);
      if (launch) return launch(stop.signal);
      return Promise.resolve(agentFailedTaskEnd(task, 'its launch is unknown to this runner', Date.now()));
    },
    failure: (err, stop) => thrownOutcome(err, stop.signal),
    now: () => Date.now(),
    allEnded: async (_done, runs) => {
      while (runs.size > 0) await Promise.allSettled([...runs]);
    },
  };
}

/** A run that threw: stopped if its signal was aborted, else a failure to run. */
function thrownOutcome(err: unknown, signal: AbortSignal): TaskOutcome {
  return {
    state: signal.aborted ? 'killed' : 'failed',
    endedAt: Date.now(),
    exitCode: null,
    error: err instanceof Error ? err.message : String(err),
  };
}
