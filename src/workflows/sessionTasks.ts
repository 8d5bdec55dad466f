// The session's background tasks (issue 19): a tool call records a task in the context (Bash
// `run_in_background`: a `taskStarted` modifier); after the turn, the session starts it as its own
// long-lived activity `task-<id>` (runBackgroundTask) on the tool task queue — heartbeating, one
// attempt only (a non-idempotent command is never re-run behind the model's back), up to its
// timeout. When it ends, the task's record gets its end (engine/autonomy.ts `endTask`) and its
// `<task-notification>` is queued for the next turn: an idle session wakes for it (the timers'
// wait is poked), a running turn sees it at the next model request (the next turn's messages).
// A heartbeat that stops (the worker died) makes the task `lost`, with a notification saying it was
// not re-run; the worker's guardian has killed its processes. TaskStop (`taskStopRequested`)
// cancels the activity (the process group is killed) and the task ends `killed` without one. No
// continue-as-new while a task's activity runs: activities do not cross it. A Monitor task runs
// `runMonitorTask` instead, its events and end texts handled by SessionMonitors (sessionMonitors.ts).
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
import { endTask, type BackgroundTask, type TaskOutcome } from '../engine/autonomy';
import { taskNotification, taskNotificationBeforeTextPatch } from '../engine/taskNotifications';
import { activityIds } from '../engine/ids';
import { oneLinePreview } from '../engine/messages';
import type { BackgroundTaskActivities } from '../activities';
import type { RunBackgroundTaskInput, RunBackgroundTaskResult } from '../calls/backgroundTask';
import type { ToolSessionInput } from '../calls/tools';
import { runAgentTask } from './sessionAgentTasks';
import {
  BACKGROUND_AGENTS_PATCH,
  BACKGROUND_TASKS_PATCH,
  MONITOR_TASKS_PATCH,
  TASK_NOTIFICATION_TEXT_PATCH,
  type SessionCarry,
  type SessionInput,
} from './definitions';
import { SessionMonitors } from './sessionMonitors';

/** Beyond the task's own timeout (which the activity enforces by killing it): time to stop and store. */
const STOP_MARGIN_MS = 5 * 60_000;
const DEFAULT_HEARTBEAT_TIMEOUT_MS = 30_000;

export class SessionTasks {
  /** Running activities, by task id. */
  private readonly scopes = new Map<string, CancellationScope>();
  /** Tasks whose activity this run started (never twice). */
  private readonly started = new Map<string, BackgroundTask>();
  /** Ends not yet seen by a turn's context (a turn that ran meanwhile returns its stale context). */
  private readonly outcomes = new Map<string, TaskOutcome>();
  private readonly stopping = new Set<string>();
  /** Monitor tasks' events (sessionMonitors.ts). */
  readonly monitors: SessionMonitors;

  constructor(
    private readonly state: SessionCarry,
    private readonly input: SessionInput,
    private readonly toolSession: () => ToolSessionInput,
    private readonly changed: () => void,
  ) {
    this.monitors = new SessionMonitors(state, changed);
  }

  /** Is any task's activity running? (No continue-as-new then.) */
  active(): boolean {
    return this.scopes.size > 0;
  }

  /**
   * After a turn (its context is the state's now) and before a turn or a wait: ends recorded while a
   * turn ran are applied again, new tasks start, and tasks TaskStop asked for are cancelled.
   */
  sync(): void {
    const a = this.state.context.autonomy;
    if (!a) return;
    let autonomy = a;
    for (const [id, outcome] of this.outcomes) autonomy = endTask(autonomy, id, outcome, taskNotification).autonomy;
    if (autonomy !== a) this.state.context = { ...this.state.context, autonomy };
    for (const task of autonomy.tasks) {
      if (task.state !== 'running') continue;
      if (!this.started.has(task.id) && !this.outcomes.has(task.id)) this.start(task);
      if (task.stopRequested) this.stop(task.id);
    }
  }

  /** Before a turn starts: the state's context is whole again, the recorded ends can go. */
  beforeTurn(): void {
    this.sync();
    this.outcomes.clear();
  }

  /** The session ends: every running task is stopped (killed, no notification) and awaited. */
  async stopAll(): Promise<void> {
    if (this.scopes.size === 0) return;
    for (const id of this.scopes.keys()) this.stop(id);
    await condition(() => this.scopes.size === 0);
  }

  private stop(id: string): void {
    const scope = this.scopes.get(id);
    if (!scope || this.stopping.has(id)) return;
    this.stopping.add(id);
    this.monitors.stopped(id);
    scope.cancel();
  }

  private start(task: BackgroundTask): void {
    if (task.kind === 'local_agent') return this.startAgent(task);
    // A history recorded before it had no task to start (Bash refused run_in_background).
    patched(BACKGROUND_TASKS_PATCH);
    this.started.set(task.id, task);
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
    const { cwd, additionalDirectories, projectDir, worktree } = this.state.context;
    const scope = new CancellationScope();
    this.scopes.set(task.id, scope);
    const taskInput: RunBackgroundTaskInput = {
      session: this.toolSession(),
      task: {
        id: task.id,
        toolUseId: task.toolUseId,
        command: task.command ?? task.description,
        cwd: task.cwd ?? cwd,
        timeoutMs: task.timeoutMs,
        outputPath: task.outputPath ?? '',
        ...(task.unsandboxed ? { unsandboxed: true } : {}),
      },
      context: {
        cwd,
        additionalDirectories,
        ...(projectDir !== undefined ? { projectDir } : {}),
        ...(worktree ? { worktree } : {}),
      },
    };
    // A Monitor's watch (sessionMonitors.ts); a history recorded before held no monitor task.
    if (task.kind === 'monitor' && patched(MONITOR_TASKS_PATCH)) {
      void this.monitors
        .run(task, scope, options, taskInput, failureOutcome)
        .then((end) => this.ended(task.id, end.outcome, end.notification));
      return;
    }
    const act = proxyActivities<BackgroundTaskActivities>(options);
    const run = scope.run(() => act.runBackgroundTask(taskInput));
    void run.then(
      (r) => this.ended(task.id, outcomeOf(r, Date.now())),
      (err: unknown) => this.ended(task.id, failureOutcome(err, Date.now())),
    );
  }

  /** A background agent (sessionAgentTasks.ts): the wait for its child session is the task's activity. */
  private startAgent(task: BackgroundTask): void {
    // A history recorded before it had no agent task (every Agent call ran in the foreground).
    patched(BACKGROUND_AGENTS_PATCH);
    this.started.set(task.id, task);
    const scope = new CancellationScope();
    this.scopes.set(task.id, scope);
    void runAgentTask(task, this.input, scope).then((end) => this.ended(task.id, end.outcome, end.notification));
  }

  /**
   * The task's activity ended: its record ends, and unless it was stopped its notification is queued
   * (`notification`: the task kind's own text, null for none; by default the Bash task's).
   */
  private ended(id: string, outcome: TaskOutcome, notification?: string | null): void {
    this.scopes.delete(id);
    const stopped = this.stopping.delete(id);
    const final: TaskOutcome = stopped ? { ...outcome, state: 'killed' } : outcome;
    this.outcomes.set(id, final);
    const a = this.state.context.autonomy;
    if (a) this.state.context = { ...this.state.context, autonomy: endTask(a, id, final, taskNotification).autonomy };
    const task = this.started.get(id);
    if (task && final.state !== 'killed') {
      const { command: _c, ...kept } = task;
      let text: string | null = notification ?? null;
      if (notification === undefined) {
        // The text a session recorded before the patch had no blank line after the preamble.
        const format = patched(TASK_NOTIFICATION_TEXT_PATCH) ? taskNotification : taskNotificationBeforeTextPatch;
        text = format({ ...kept, ...final });
      }
      if (text) this.state.pendingMessages.push(text);
    }
    this.changed();
  }
}

function outcomeOf(r: RunBackgroundTaskResult, endedAt: number): TaskOutcome {
  return {
    state: r.state,
    endedAt,
    exitCode: r.exitCode,
    outputBytes: r.outputBytes,
    ...(r.outputRef ? { outputRef: r.outputRef } : {}),
    ...(r.error ? { error: r.error } : {}),
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
