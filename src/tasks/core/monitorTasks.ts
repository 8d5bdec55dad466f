// A Monitor task's events on their way to the session (issue 19): the watch command's run (src/runtime/
// monitorTask.ts) numbers each batch of stdout lines (1, 2, …) and hands it to its scheduler — the
// session workflow as a signal, the in-process runner directly — which keeps each (task, seq) once,
// in order (a retried or doubled delivery never shows twice), and queues its notification for the
// next turn. When the run ends, `monitorEndText` says what the model is told: the reference's end
// notification, the expiry notice, or nothing (stopped by TaskStop or by its own rate limit, whose
// notice was the last event). `MonitorWatches` does both for either scheduler, held by TaskRuns (taskRuns.ts: the
// workflow gets the batches as signals, the in-process runner as calls). Pure and
// deterministic (bundled into the workflow).
import type { BackgroundTask, TaskOutcome } from '../../core/autonomy';
import type { SessionEventState, SessionEvents } from '../../core/sessionEvents';
import { taskOutcomeOf, type TaskEnd } from './taskScheduling';
import {
  monitorEndNotification,
  monitorEventNotification,
  monitorExpiredText,
  type MonitorEnd,
} from './taskNotifications';

/** One batch of a monitor's output: an event (stdout lines), or a notice (suppressed events, the rate-limit stop). */
export interface MonitorEventBatch {
  taskId: string;
  /** 1, 2, … per task run, in the order the lines came. */
  seq: number;
  kind: 'event' | 'notice' | 'stop';
  text: string;
}

/** How a monitor's run ended, as its core reports it (the parts the notification needs). */
export interface MonitorRunEnd {
  state: 'completed' | 'failed' | 'killed' | 'timed_out';
  exitCode: number | null;
  /** Events delivered (the lines drained at the exit included). */
  events: number;
  /** The lines that came with the exit: the end notification's `<event>`. */
  lastEvent?: string;
  /** The rate limit stopped it (its notice was sent as the last event). */
  rateStopped?: boolean;
  error?: string;
}

/** Keeps each (task, seq) once: a batch at or below the last accepted seq of its task is a duplicate. */
export class MonitorEventLog {
  private readonly last = new Map<string, number>();

  accept(batch: Pick<MonitorEventBatch, 'taskId' | 'seq'>): boolean {
    if (!Number.isInteger(batch.seq) || batch.seq <= (this.last.get(batch.taskId) ?? 0)) return false;
    this.last.set(batch.taskId, batch.seq);
    return true;
  }

  /** The task ended: nothing more is taken for it. */
  close(taskId: string): void {
    this.last.set(taskId, Number.POSITIVE_INFINITY);
  }
}

/** The notification of one batch (events and notices alike reach the model as a monitor event). */
export function monitorBatchText(task: Pick<BackgroundTask, 'id' | 'description'>, batch: MonitorEventBatch): string {
  return monitorEventNotification(task, batch.text);
}

/** What the model is told when a monitor's run ends; null: nothing (stopped, or the rate limit's notice said it). */
export function monitorEndText(
  task: Pick<BackgroundTask, 'id' | 'description' | 'toolUseId' | 'outputPath' | 'timeoutMs'>,
  end: MonitorRunEnd | { state: 'lost'; error?: string; events?: number },
): string | null {
  if (end.state === 'killed') return null;
  if (end.state === 'timed_out') return monitorEventNotification(task, monitorExpiredText(task.timeoutMs, end.events));
  const body: MonitorEnd =
    end.state === 'lost'
      ? { state: 'lost', events: end.events ?? 0, ...(end.error ? { error: end.error } : {}) }
      : {
          state: end.state,
          exitCode: end.exitCode,
          events: end.events,
          ...(end.error ? { error: end.error } : {}),
          ...(end.lastEvent ? { lastEvent: end.lastEvent } : {}),
        };
  return monitorEndNotification(task, body);
}

/**
 * The session's running Monitor tasks, for both schedulers: each batch taken once per (task, seq),
 * nothing for a task that is not running or that TaskStop stopped, its notification appended as a
 * `monitorEvent` (the wait is poked); a run's end or failure turned into the task's end and text.
 */
export class MonitorWatches {
  private readonly log = new MonitorEventLog();
  /** Monitor tasks whose run goes on, by id. */
  private readonly running = new Map<string, BackgroundTask>();
  /** Events queued per task (a failed or lost run's notification counts them). */
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly events: SessionEvents<SessionEventState>,
    private readonly changed: () => void,
  ) {}

  /** The task's run starts: its batches are taken from now on. */
  begin(task: BackgroundTask): void {
    this.running.set(task.id, task);
  }

  /** One batch of a running monitor: queued once, as a monitor event for the next turn. */
  deliver(batch: MonitorEventBatch): void {
    const task = this.running.get(batch.taskId);
    if (!task || !this.log.accept(batch)) return;
    if (batch.kind === 'event') this.counts.set(task.id, (this.counts.get(task.id) ?? 0) + 1);
    this.events.append({ type: 'monitorEvent', taskId: task.id, text: monitorBatchText(task, batch) });
    this.changed();
  }

  /** The run returned: the task's end, and its end text (tasks/runtime/monitorTask.ts's result). */
  ended(
    task: BackgroundTask,
    r: MonitorRunEnd & { state: 'completed' | 'failed' | 'killed' | 'timed_out'; outputBytes: number },
    endedAt: number,
  ): TaskEnd {
    this.closed(task.id);
    return { outcome: taskOutcomeOf(r, endedAt), notification: monitorEndText(task, r) };
  }

  /** The run failed (stopped, lost, could not run): the end text says so, with the events queued before. */
  failed(task: BackgroundTask, outcome: TaskOutcome): TaskEnd {
    const events = this.counts.get(task.id) ?? 0;
    this.closed(task.id);
    const error = outcome.error ? { error: outcome.error } : {};
    const end =
      outcome.state === 'lost'
        ? { state: 'lost' as const, events, ...error }
        : outcome.state === 'killed'
          ? { state: 'killed' as const, exitCode: null, events }
          : { state: 'failed' as const, exitCode: null, events, ...error };
    return { outcome, notification: monitorEndText(task, end) };
  }

  /** TaskStop or the session's end stopped it (or it ended): nothing more is queued for it. */
  stopped(taskId: string): void {
    this.running.delete(taskId);
    this.log.close(taskId);
  }

  private closed(taskId: string): void {
    this.stopped(taskId);
    this.counts.delete(taskId);
  }
}
