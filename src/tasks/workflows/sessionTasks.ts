// The session's background tasks (issue 19): a tool call records a task in the context (Bash
// `run_in_background`: a `taskStarted` modifier); after the turn, the session starts it as its own
// long-lived activity `task-<id>` (runBackgroundTask) on the tool task queue — heartbeating, one
// attempt only (a non-idempotent command is never re-run behind the model's back), up to its
// timeout. When it ends, the task's record gets its end (core/autonomy.ts `endTask`) and its
// `<task-notification>` is queued for the next turn: an idle session wakes for it (the timers'
// wait is poked), a running turn sees it at the next model request (the next turn's messages).
// A heartbeat that stops (the worker died) makes the task `lost`, with a notification saying it was
// not re-run; the worker's guardian has killed its processes. TaskStop (`taskStopRequested`)
// cancels the activity (the process group is killed) and the task ends `killed` without one (an
// agent: with the reference's "was stopped" one, patch agent-stop-notice). No
// continue-as-new while a task's activity runs: activities do not cross it. A Monitor task runs
// `runMonitorTask` instead, its events and end texts handled by SessionMonitors (sessionMonitors.ts).
// The decisions (start once, stop, the end and its notification) are tasks/core/taskScheduling.ts, shared
// with the in-process runner (src/tasks/inprocess/tasks.ts); this file runs them as activities.
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  TimeoutFailure,
  condition,
  isCancellation,
  patched,
  proxyActivities,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { BackgroundTask, TaskOutcome } from '../../core/autonomy';
import { backgroundTaskRun, taskOutcomeOf, TaskScheduling } from '../core/taskScheduling';
import { taskNotification, taskNotificationBeforeTextPatch } from '../core/taskNotifications';
import { activityIds } from '../../core/ids';
import { oneLinePreview } from '../../core/apiMessages';
import type { BackgroundTaskActivities } from '../../temporal/activities';
import type { RunBackgroundTaskInput } from '../runtime/backgroundTask';
import type { ToolSessionInput } from '../../toolCall/tools';
import { runAgentTask } from './sessionAgentTasks';
import type { SessionEvents } from '../../core/sessionEvents';
import {
  AGENT_STOP_NOTICE_PATCH,
  BACKGROUND_AGENTS_PATCH,
  BACKGROUND_TASKS_PATCH,
  MONITOR_TASKS_PATCH,
  TASK_NOTIFICATION_TEXT_PATCH,
  type SessionCarry,
  type SessionInput,
} from '../../temporal/workflows/definitions';
import { SessionMonitors } from './sessionMonitors';

/** Beyond the task's own timeout (which the activity enforces by killing it): time to stop and store. */
const STOP_MARGIN_MS = 5 * 60_000;
const DEFAULT_HEARTBEAT_TIMEOUT_MS = 30_000;

export class SessionTasks {
  /** Running activities, by task id. */
  private readonly scopes = new Map<string, CancellationScope>();
  /** The decisions (start once, stop, the end and its notification): the engine's, shared with the in-process runner. */
  private readonly book: TaskScheduling;
  /** Monitor tasks' events (sessionMonitors.ts). */
  readonly monitors: SessionMonitors;

  constructor(
    private readonly events: SessionEvents<SessionCarry>,
    private readonly input: SessionInput,
    private readonly toolSession: () => ToolSessionInput,
    changed: () => void,
  ) {
    this.monitors = new SessionMonitors(events, changed);
    this.book = new TaskScheduling(
      events,
      {
        start: (task, ended) => this.start(task, ended),
        stop: (id) => {
          this.monitors.stopped(id);
          this.scopes.get(id)?.cancel();
        },
      },
      // The text a session recorded before the patch had no blank line after the preamble.
      (task) => (patched(TASK_NOTIFICATION_TEXT_PATCH) ? taskNotification : taskNotificationBeforeTextPatch)(task),
      changed,
      // A session recorded before it queued nothing for an agent TaskStop stopped.
      () => patched(AGENT_STOP_NOTICE_PATCH),
    );
  }

  /** Is any task's activity running? (No continue-as-new then.) */
  active(): boolean {
    return this.book.active();
  }

  /**
   * After a turn (its context is the state's now) and before a turn or a wait: ends recorded while a
   * turn ran are applied again, new tasks start, and tasks TaskStop asked for are cancelled.
   */
  sync(): void {
    this.book.sync();
  }

  /** Before a turn starts: the state's context is whole again, the recorded ends can go. */
  beforeTurn(): void {
    this.book.beforeTurn();
  }

  /** The session ends: every running task is stopped (killed, no notification) and awaited. */
  async stopAll(): Promise<void> {
    if (!this.book.active()) return;
    this.book.stopAll();
    await condition(() => !this.book.active());
  }

  private start(task: BackgroundTask, ended: (outcome: TaskOutcome, notification?: string | null) => void): void {
    if (task.kind === 'local_agent') return this.startAgent(task, ended);
    // A history recorded before it had no task to start (Bash refused run_in_background).
    patched(BACKGROUND_TASKS_PATCH);
    const input = this.input;
    const options: ActivityOptions = {
      activityId: activityIds.task(task.id),
      summary: `${task.kind === 'monitor' ? 'Monitor' : 'Background task'} ${task.id}: ${oneLinePreview(task.description, 80)}`,
      startToCloseTimeout: task.timeoutMs + STOP_MARGIN_MS,
      heartbeatTimeout: input.toolHeartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS,
      retry: { maximumAttempts: 1 },
      cancellationType: 'WAIT_CANCELLATION_COMPLETED',
      ...(input.toolTaskQueue ? { taskQueue: input.toolTaskQueue } : {}),
    };
    const scope = new CancellationScope();
    this.scopes.set(task.id, scope);
    const taskInput: RunBackgroundTaskInput = {
      session: this.toolSession(),
      ...backgroundTaskRun(task, this.events.state.context),
    };
    const end = (outcome: TaskOutcome, notification?: string | null): void => {
      this.scopes.delete(task.id);
      ended(outcome, notification);
    };
    // A Monitor's watch (sessionMonitors.ts); a history recorded before held no monitor task.
    if (task.kind === 'monitor' && patched(MONITOR_TASKS_PATCH)) {
      void this.monitors
        .run(task, scope, options, taskInput, failureOutcome)
        .then((e) => end(e.outcome, e.notification));
      return;
    }
    const act = proxyActivities<BackgroundTaskActivities>(options);
    const run = scope.run(() => act.runBackgroundTask(taskInput));
    void run.then(
      (r) => end(taskOutcomeOf(r, Date.now())),
      (err: unknown) => end(failureOutcome(err, Date.now())),
    );
  }

  /** A background agent (sessionAgentTasks.ts): the wait for its child session is the task's activity. */
  private startAgent(task: BackgroundTask, ended: (outcome: TaskOutcome, notification?: string | null) => void): void {
    // A history recorded before it had no agent task (every Agent call ran in the foreground).
    patched(BACKGROUND_AGENTS_PATCH);
    const scope = new CancellationScope();
    this.scopes.set(task.id, scope);
    void runAgentTask(task, this.input, scope).then((end) => {
      this.scopes.delete(task.id);
      // The child's tree spent for its root: counted before the notification can start a turn.
      // Its reports to the budget so far (`bg:<child>`) are in this total: dropped as it is added.
      const chargeTo = task.agent?.sessionId ? { chargeTo: `bg:${task.agent.sessionId}` } : {};
      if (end.modelUsage) this.events.append({ type: 'subagentUsage', modelUsage: end.modelUsage, ...chargeTo });
      ended(end.outcome, end.notification);
    });
  }
}

/** The activity failed: cancelled (stopped), timed out (the worker was lost), or could not run. */
function failureOutcome(err: unknown, endedAt: number): TaskOutcome {
  if (isCancellation(err)) return { state: 'killed', endedAt, exitCode: null };
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof TimeoutFailure)
    return {
      state: 'lost',
      endedAt,
      exitCode: null,
      error: `its worker stopped answering (${cause.timeoutType ?? 'timeout'}); the task was not re-run`,
    };
  const message = cause instanceof ApplicationFailure || cause instanceof Error ? cause.message : String(cause);
  return { state: 'failed', endedAt, exitCode: null, error: message };
}
