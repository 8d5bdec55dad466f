// The session's Monitor tasks (issue 19): a `monitor` task a turn recorded runs as its own activity
// `task-<id>` (runMonitorTask, started by SessionTasks with the options of every background task:
// heartbeating, one attempt, on the tool task queue). The activity sends each batch of the watch's
// output as a `monitorEvent` signal with the task id and a seq; this class takes each (task, seq)
// once (a doubled or retried signal never shows twice), drops what comes for a task that is not
// running or that TaskStop stopped, and queues the event's `<task-notification>` for the next turn
// — an idle session wakes for it (the timers' wait is poked), a running turn's session queues it
// for the turn after. When the activity ends, its result gives the end notification (stream ended,
// ended without output, script failed), the expiry notice at `timeout_ms`, or nothing (stopped);
// a lost worker gives the `lost` one. tasks/core/monitorTasks.ts (`MonitorWatches`) holds the rules and the
// book, pure and shared with the in-process runner; this file adds the signal and the activity.
import { proxyActivities, setHandler, type ActivityOptions, type CancellationScope } from '@temporalio/workflow';
import type { BackgroundTask, TaskOutcome } from '../../core/autonomy';
import { MonitorWatches } from '../core/monitorTasks';
import type { TaskEnd } from '../core/taskScheduling';
import type { MonitorTaskActivities } from '../../temporal/activities';
import type { RunMonitorTaskInput } from '../runtime/monitorTask';
import type { SessionEvents } from '../../core/sessionEvents';
import { monitorEventSignal, type SessionCarry } from '../../temporal/workflows/definitions';

export class SessionMonitors {
  private readonly watches: MonitorWatches;

  constructor(events: SessionEvents<SessionCarry>, changed: () => void) {
    this.watches = new MonitorWatches(events, changed);
  }

  register(): void {
    setHandler(monitorEventSignal, (batch) => this.watches.deliver(batch));
  }

  /** The monitor's activity in the task's scope; resolves to its end (never rejects: a failure is an outcome). */
  async run(
    task: BackgroundTask,
    scope: CancellationScope,
    options: ActivityOptions,
    input: RunMonitorTaskInput,
    failureOutcome: (err: unknown, endedAt: number) => TaskOutcome,
  ): Promise<TaskEnd> {
    this.watches.begin(task);
    const act = proxyActivities<MonitorTaskActivities>(options);
    try {
      const r = await scope.run(() => act.runMonitorTask(input));
      return this.watches.ended(task, r, Date.now());
    } catch (err) {
      return this.watches.failed(task, failureOutcome(err, Date.now()));
    }
  }

  /** TaskStop or the session's end stopped it: nothing more is queued for it. */
  stopped(taskId: string): void {
    this.watches.stopped(taskId);
  }
}
