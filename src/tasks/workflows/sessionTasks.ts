// The session's background tasks as activities (issue 19): a tool call records a task in the context
// (Bash `run_in_background`: a `taskStarted` modifier); after the turn, the session starts it as its own
// long-lived activity `task-<id>` (runBackgroundTask) on the tool task queue — heartbeating, one
// attempt only (a non-idempotent command is never re-run behind the model's back), up to its
// timeout. When it ends, the task's record gets its end (core/autonomy.ts `endTask`) and its
// `<task-notification>` is queued for the next turn: an idle session wakes for it (the timers'
// wait is poked), a running turn sees it at the next model request (the next turn's messages).
// A heartbeat that stops (the worker died) makes the task `lost`, with a notification saying it was
// not re-run; the worker's guardian has killed its processes. TaskStop (`taskStopRequested`)
// cancels the activity (the process group is killed) and the task ends `killed` without one (an
// agent: with the reference's "was stopped" one, patch agent-stop-notice). No
// continue-as-new while a task's activity runs: activities do not cross it.
// A Monitor task runs `runMonitorTask` instead (same options); the activity sends each batch of the
// watch's output as a `monitorEvent` signal with the task id and a seq, taken once per (task, seq),
// nothing for a task not running or stopped (tasks/core/monitorTasks.ts `MonitorWatches`); its result
// gives the end notification, the expiry notice or nothing (stopped); a lost worker the `lost` one.
// A background agent's run is the wait for its child session (sessionAgentTasks.ts).
// The runs, their stops and ends (tasks/core/taskRuns.ts) and the decisions (start once, stop, the end
// and its notification: tasks/core/taskScheduling.ts) are the engine's, shared with the in-process
// runner (src/tasks/inprocess/tasks.ts); this file gives the workflow's primitives.
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  TimeoutFailure,
  condition,
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { BackgroundTask, TaskOutcome } from '../../core/autonomy';
import { TaskRuns, taskRunKind, type TaskRunPrimitives } from '../core/taskRuns';
import { taskNotification, taskNotificationBeforeTextPatch } from '../core/taskNotifications';
import { activityIds } from '../../core/ids';
import { oneLinePreview } from '../../core/apiMessages';
import type { BackgroundTaskActivities, MonitorTaskActivities } from '../../temporal/activities';
import type { ToolSessionInput } from '../../toolCall/tools';
import { runAgentTask } from './sessionAgentTasks';
import type { SessionEvents } from '../../core/sessionEvents';
import {
  AGENT_STOP_NOTICE_PATCH,
  BACKGROUND_AGENTS_PATCH,
  BACKGROUND_TASKS_PATCH,
  MONITOR_TASKS_PATCH,
  TASK_NOTIFICATION_TEXT_PATCH,
  monitorEventSignal,
  type SessionCarry,
  type SessionInput,
} from '../../temporal/workflows/definitions';

/** Beyond the task's own timeout (which the activity enforces by killing it): time to stop and store. */
const STOP_MARGIN_MS = 5 * 60_000;
const DEFAULT_HEARTBEAT_TIMEOUT_MS = 30_000;

/** A run's stop in the workflow: its cancellation scope (cancelling it cancels the activity). */
interface ScopeStop {
  readonly scope: CancellationScope;
  stop(): void;
}

/**
 * The session's background tasks as activities: the runs, their stops and ends are the engine's
 * (tasks/core/taskRuns.ts, shared with the in-process runner); this class gives its primitives.
 */
export class SessionTasks {
  private readonly runs: TaskRuns<ToolSessionInput, ScopeStop>;

  constructor(
    events: SessionEvents<SessionCarry>,
    input: SessionInput,
    toolSession: () => ToolSessionInput,
    changed: () => void,
  ) {
    this.runs = new TaskRuns(
      events,
      sessionTaskPrimitives(input, toolSession),
      {
        // The text a session recorded before the patch had no blank line after the preamble.
        notification: (task) =>
          (patched(TASK_NOTIFICATION_TEXT_PATCH) ? taskNotification : taskNotificationBeforeTextPatch)(task),
        // A session recorded before it queued nothing for an agent TaskStop stopped.
        notifiesStoppedAgent: () => patched(AGENT_STOP_NOTICE_PATCH),
      },
      changed,
    );
  }

  /** A Monitor's activity sends its batches as `monitorEvent` signals (taken by tasks/core/monitorTasks.ts). */
  register(): void {
    setHandler(monitorEventSignal, (batch) => this.runs.deliver(batch));
  }

  /** Is any task's activity running? (No continue-as-new then.) */
  active(): boolean {
    return this.runs.active();
  }

  /**
   * After a turn (its context is the state's now) and before a turn or a wait: ends recorded while a
   * turn ran are applied again, new tasks start, and tasks TaskStop asked for are cancelled.
   */
  sync(): void {
    this.runs.sync();
  }

  /** Before a turn starts: the state's context is whole again, the recorded ends can go. */
  beforeTurn(): void {
    this.runs.beforeTurn();
  }

  /** The session ends: every running task is stopped (killed, no notification) and awaited. */
  stopAll(): Promise<void> {
    return this.runs.stopAll();
  }
}

/** The workflow's primitives: each run an activity `task-<id>` in its own cancellation scope. */
function sessionTaskPrimitives(
  input: SessionInput,
  toolSession: () => ToolSessionInput,
): TaskRunPrimitives<ToolSessionInput, ScopeStop> {
  return {
    kind: (task) => {
      // A history recorded before it had no agent task (every Agent call ran in the foreground).
      if (task.kind === 'local_agent') {
        patched(BACKGROUND_AGENTS_PATCH);
        return 'agent';
      }
      // A history recorded before it had no task to start (Bash refused run_in_background).
      patched(BACKGROUND_TASKS_PATCH);
      // A Monitor's watch; a history recorded before held no monitor task.
      return task.kind === 'monitor' && !patched(MONITOR_TASKS_PATCH) ? 'command' : taskRunKind(task);
    },
    stopper: () => {
      const scope = new CancellationScope();
      return { scope, stop: () => scope.cancel() };
    },
    session: toolSession,
    command: (task, taskInput, { scope }) => {
      const act = proxyActivities<BackgroundTaskActivities>(taskActivityOptions(task, input));
      return scope.run(() => act.runBackgroundTask(taskInput));
    },
    monitor: (task, taskInput, { scope }) => {
      const act = proxyActivities<MonitorTaskActivities>(taskActivityOptions(task, input));
      return scope.run(() => act.runMonitorTask(taskInput));
    },
    // A background agent (sessionAgentTasks.ts): the wait for its child session is the task's activity.
    agent: (task, { scope }) => runAgentTask(task, input, scope),
    failure: (err) => failureOutcome(err, Date.now()),
    now: () => Date.now(),
    allEnded: (done) => condition(done),
  };
}

/** A command's or a Monitor's activity: heartbeating, one attempt, up to its timeout, on the tool task queue. */
function taskActivityOptions(task: BackgroundTask, input: SessionInput): ActivityOptions {
  return {
    activityId: activityIds.task(task.id),
    summary: `${task.kind === 'monitor' ? 'Monitor' : 'Background task'} ${task.id}: ${oneLinePreview(task.description, 80)}`,
    startToCloseTimeout: task.timeoutMs + STOP_MARGIN_MS,
    heartbeatTimeout: input.toolHeartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS,
    retry: { maximumAttempts: 1 },
    cancellationType: 'WAIT_CANCELLATION_COMPLETED',
    ...(input.toolTaskQueue ? { taskQueue: input.toolTaskQueue } : {}),
  };
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
