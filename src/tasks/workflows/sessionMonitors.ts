// The session's Monitor tasks (issue 19): a `monitor` task a turn recorded runs as its own activity
// `task-<id>` (runMonitorTask, started by SessionTasks with the options of every background task:
// heartbeating, one attempt, on the tool task queue). The activity sends each batch of the watch's
// output as a `monitorEvent` signal with the task id and a seq; this class takes each (task, seq)
// once (a doubled or retried signal never shows twice), drops what comes for a task that is not
// running or that TaskStop stopped, and queues the event's `<task-notification>` for the next turn
// — an idle session wakes for it (the timers' wait is poked), a running turn's session queues it
// for the turn after. When the activity ends, its result gives the end notification (stream ended,
// ended without output, script failed), the expiry notice at `timeout_ms`, or nothing (stopped);
// a lost worker gives the `lost` one. tasks/core/monitorTasks.ts holds the rules, pure.
import { proxyActivities, setHandler, type ActivityOptions, type CancellationScope } from '@temporalio/workflow';
import type { BackgroundTask, TaskOutcome } from '../../core/autonomy';
import { MonitorEventLog, monitorBatchText, monitorEndText, type MonitorEventBatch } from '../core/monitorTasks';
import { taskOutcomeOf } from '../core/taskScheduling';
import type { MonitorTaskActivities } from '../../temporal/activities';
import type { RunMonitorTaskInput } from '../runtime/monitorTask';
import type { SessionEvents } from '../../core/sessionEvents';
import { monitorEventSignal, type SessionCarry } from '../../temporal/workflows/definitions';

/** How a task's run ended, and what the model is told (null: nothing; undefined: the task's default). */
export interface TaskEnd {
  outcome: TaskOutcome;
  notification?: string | null;
}

export class SessionMonitors {
  private readonly log = new MonitorEventLog();
  /** Monitor tasks whose activity runs, by id. */
  private readonly running = new Map<string, BackgroundTask>();
  /** Events queued per task (for a lost task's notification). */
  private readonly events = new Map<string, number>();

  constructor(
    private readonly sessionEvents: SessionEvents<SessionCarry>,
    private readonly changed: () => void,
  ) {}

  register(): void {
    setHandler(monitorEventSignal, (batch) => this.onEvent(batch));
  }

  /** The monitor's activity in the task's scope; resolves to its end (never rejects: a failure is an outcome). */
  async run(
    task: BackgroundTask,
    scope: CancellationScope,
    options: ActivityOptions,
    input: RunMonitorTaskInput,
    failureOutcome: (err: unknown, endedAt: number) => TaskOutcome,
  ): Promise<TaskEnd> {
    this.running.set(task.id, task);
    const act = proxyActivities<MonitorTaskActivities>(options);
    try {
      const r = await scope.run(() => act.runMonitorTask(input));
      return { outcome: taskOutcomeOf(r, Date.now()), notification: monitorEndText(task, r) };
    } catch (err) {
      const outcome = failureOutcome(err, Date.now());
      const events = this.events.get(task.id) ?? 0;
      const end =
        outcome.state === 'lost'
          ? { state: 'lost' as const, events, ...(outcome.error ? { error: outcome.error } : {}) }
          : outcome.state === 'killed'
            ? { state: 'killed' as const, exitCode: null, events }
            : { state: 'failed' as const, exitCode: null, events, ...(outcome.error ? { error: outcome.error } : {}) };
      return { outcome, notification: monitorEndText(task, end) };
    } finally {
      this.stopped(task.id);
    }
  }

  /** TaskStop or the session's end stopped it (or it ended): nothing more is queued for it. */
  stopped(taskId: string): void {
    this.running.delete(taskId);
    this.log.close(taskId);
  }

  private onEvent(batch: MonitorEventBatch): void {
    const task = this.running.get(batch.taskId);
    if (!task || !this.log.accept(batch)) return;
    if (batch.kind === 'event') this.events.set(task.id, (this.events.get(task.id) ?? 0) + 1);
    this.sessionEvents.append({ type: 'monitorEvent', taskId: task.id, text: monitorBatchText(task, batch) });
    this.changed();
  }
}
