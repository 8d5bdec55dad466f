// Background tasks in the in-process runner (issue 19): the same decisions as the session workflow's
// (tasks/core/taskScheduling.ts: a task a turn recorded starts once, after that turn; TaskStop and the
// session's end stop it without a notification, but for an agent TaskStop stopped; its end is
// recorded and its `<task-notification>` queued for the next turn, waking an idle session through LocalTimers), and the same cores as the
// `runBackgroundTask` / `runMonitorTask` activities (tasks/runtime/backgroundTask.ts, tasks/runtime/monitorTask.ts:
// the session's sandbox plan, its own process group, stdout and stderr into the task's output file in
// the session's temp dir), called here with an abort signal instead of an activity's cancellation.
// A Monitor's batches come straight from its run instead of as signals, and are taken as the
// workflow's SessionMonitors takes them (tasks/core/monitorTasks.ts: each (task, seq) once, nothing after
// TaskStop, the event's notification queued for the next turn, the end text from the run's result).
// The process is the limit: a task dies with it (the durable runner's outlives a worker, or is reported lost).
import type { CallRuntime } from '../../runtime/runtime';
import type { RunBackgroundTaskInput } from '../runtime/backgroundTask';
import type { ToolSessionSettings } from '../../toolCall/tools';
import type { BackgroundTask, TaskOutcome } from '../../core/autonomy';
import { MonitorWatches } from '../core/monitorTasks';
import type { SessionState } from '../../core/session';
import type { SessionEvents } from '../../core/sessionEvents';
import { taskNotification } from '../core/taskNotifications';
import {
  backgroundTaskRun,
  taskOutcomeOf,
  TaskScheduling,
  type TaskEnd,
  type TaskRunner,
} from '../core/taskScheduling';
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

export class LocalTasks implements TaskRunner {
  /** Each running task's stop, by id. */
  private readonly aborts = new Map<string, AbortController>();
  private readonly runs = new Set<Promise<void>>();
  readonly scheduling: TaskScheduling;
  /** Running Monitor tasks: their batches taken once per (task, seq), their ends (tasks/core/monitorTasks.ts). */
  private readonly monitors: MonitorWatches;

  constructor(
    private readonly host: LocalTasksHost,
    private readonly changed: () => void,
  ) {
    this.scheduling = new TaskScheduling(host.events, this, taskNotification, changed);
    this.monitors = new MonitorWatches(host.events, changed);
  }

  start(task: BackgroundTask, ended: (outcome: TaskOutcome, notification?: string | null) => void): void {
    const { host } = this;
    const abort = new AbortController();
    this.aborts.set(task.id, abort);
    const input = { session: host.session, ...backgroundTaskRun(task, host.events.state.context) };
    const rt = host.runtime(abort.signal, `task-${task.id}`);
    const run = (
      task.kind === 'local_agent'
        ? this.runAgent(task, abort.signal)
        : task.kind === 'monitor'
          ? this.runMonitor(task, input, rt)
          : this.runCommand(input, rt)
    ).then((end) => {
      this.aborts.delete(task.id);
      ended(end.outcome, end.notification);
    });
    this.runs.add(run);
    void run.finally(() => this.runs.delete(run));
  }

  /**
   * A background agent (its Agent call launched it, subagents.ts): its child session runs in this
   * process until it ends (the agent's notification) or the task's stop aborts it (no notification).
   */
  private runAgent(task: BackgroundTask, signal: AbortSignal): Promise<TaskEnd> {
    const launch = this.host.agentLaunches?.get(task.id);
    this.host.agentLaunches?.delete(task.id);
    if (launch) return launch(signal);
    return Promise.resolve(agentFailedTaskEnd(task, 'its launch is unknown to this runner', Date.now()));
  }

  stop(taskId: string): void {
    // A stopped monitor's batches still in flight are not queued (as SessionMonitors.stopped).
    this.monitors.stopped(taskId);
    this.aborts.get(taskId)?.abort();
  }

  /** The session ends (or `stop()`): every running task is killed (no notification) and awaited. */
  async stopAll(): Promise<void> {
    this.scheduling.stopAll();
    while (this.runs.size > 0) await Promise.allSettled([...this.runs]);
  }

  private runCommand(input: RunBackgroundTaskInput, rt: CallRuntime): Promise<TaskEnd> {
    return this.host.deps.runBackgroundTask(input, rt).then(
      (r) => ({ outcome: taskOutcomeOf(r, Date.now()) }),
      (err: unknown) => ({ outcome: thrownOutcome(err, rt.signal) }),
    );
  }

  /** A Monitor's watch: each batch queued as it comes (an idle session wakes), then its end text. */
  private async runMonitor(task: BackgroundTask, input: RunBackgroundTaskInput, rt: CallRuntime): Promise<TaskEnd> {
    this.monitors.begin(task);
    try {
      const r = await this.host.deps.runMonitorTask(input, rt, async (batch) => this.monitors.deliver(batch));
      return this.monitors.ended(task, r, Date.now());
    } catch (err) {
      // The core returns its failures as data; anything thrown is a failure to run (or the stop).
      return this.monitors.failed(task, thrownOutcome(err, rt.signal));
    }
  }
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
