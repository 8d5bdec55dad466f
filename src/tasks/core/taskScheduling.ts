// The session's background tasks between turns (issue 19), once for both schedulers: the session
// workflow runs each task as its own activity (tasks/workflows/sessionTasks.ts), the in-process runner as
// a call of the same core in this process (tasks/inprocess/tasks.ts). A tool call records a task in the
// context (a `taskStarted` modifier); after the turn the scheduler starts it — once — and when it
// ends, the task's record gets its end (core/autonomy.ts `endTask`) and, unless TaskStop or the
// session's end stopped it, its `<task-notification>` is queued for the next turn (a `taskEnded`
// event, core/sessionEvents.ts: appended when the run ends, applied at the loop's next fixed point). An agent that
// TaskStop stopped queues the reference's "was stopped" notification (a command or Monitor: none). A turn that ran
// meanwhile returns its own (stale) context, in which the task still runs: the ends seen since are
// applied again after it. Deterministic: no clock, no I/O; the scheduler's `TaskRunner` does the running.
import type { BackgroundTask, TaskOutcome, TaskState } from '../../core/autonomy';
import type { AgentContext } from '../../core/context';
import type { SessionEventState, SessionEvents } from '../../core/sessionEvents';
import { agentStoppedNotification } from './taskNotifications';

/** What the scheduler does with a task: start its run (which reports its end once), or stop it. */
export interface TaskRunner {
  /**
   * Starts the task; `ended` is called once, when its run ends (stopped or not), with the text to
   * queue when the kind has its own (null: none), else the scheduler's for a background command.
   */
  start(task: BackgroundTask, ended: (outcome: TaskOutcome, notification?: string | null) => void): void;
  /** Asks a started, running task to stop (its run still ends through `ended`). */
  stop(taskId: string): void;
}

/** How a task's run ended, and what the model is told (null: nothing; undefined: the task's default). */
export interface TaskEnd {
  outcome: TaskOutcome;
  notification?: string | null;
}

export class TaskScheduling {
  /** Tasks this scheduler started (never twice), by id. */
  private readonly started = new Map<string, BackgroundTask>();
  /** Started tasks whose run has not ended. */
  private readonly running = new Set<string>();
  /** Ends not yet seen by a turn's context (a turn that ran meanwhile returns its stale context). */
  private readonly outcomes = new Map<string, TaskOutcome>();
  private readonly stopping = new Set<string>();
  /** The session is ending (stopAll): what it stops sends nothing. */
  private closing = false;

  /**
   * @param notification the text queued for a background command that ended by itself (called only
   *   then, so a workflow may decide its version there)
   * @param changed called after each end (the idle wait looks again)
   * @param notifiesStoppedAgent whether an agent TaskStop stopped queues its notification (called
   *   only then, so a workflow may decide its version there)
   */
  constructor(
    private readonly events: SessionEvents<SessionEventState>,
    private readonly runner: TaskRunner,
    private readonly notification: (task: BackgroundTask) => string,
    private readonly changed: () => void,
    private readonly notifiesStoppedAgent: () => boolean = () => true,
  ) {}

  /** Is any task's run going on? */
  active(): boolean {
    return this.running.size > 0;
  }

  /**
   * After a turn (its context is the state's now) and before a turn or a wait: ends recorded while a
   * turn ran are applied again, new tasks start, and tasks TaskStop asked for are stopped.
   */
  sync(): void {
    const ends = [...this.outcomes].map(([taskId, outcome]) => ({ taskId, outcome }));
    const autonomy = this.events.apply({ type: 'taskEndsReapplied', ends }).context.autonomy;
    if (!autonomy) return;
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

  /** The session ends: every running task is asked to stop (it ends killed, without a notification). */
  stopAll(): void {
    this.closing = true;
    for (const id of [...this.running]) this.stop(id);
  }

  private stop(id: string): void {
    if (!this.running.has(id) || this.stopping.has(id)) return;
    this.stopping.add(id);
    this.runner.stop(id);
  }

  private start(task: BackgroundTask): void {
    this.started.set(task.id, task);
    this.running.add(task.id);
    this.runner.start(task, (outcome, notification) => this.ended(task.id, outcome, notification));
  }

  /** The task's run ended: its record ends, and unless it was stopped its notification is queued. */
  private ended(id: string, outcome: TaskOutcome, notification?: string | null): void {
    if (!this.running.delete(id)) return;
    const stopped = this.stopping.delete(id);
    const final: TaskOutcome = stopped ? { ...outcome, state: 'killed' } : outcome;
    this.outcomes.set(id, final);
    const task = this.started.get(id);
    let text: string | null | undefined;
    if (task && final.state !== 'killed') {
      const { command: _c, ...kept } = task;
      text = notification === undefined ? this.notification({ ...kept, ...final }) : notification;
    } else if (task?.kind === 'local_agent' && stopped && !this.closing && this.notifiesStoppedAgent())
      text = agentStoppedNotification(task);
    this.events.append({ type: 'taskEnded', taskId: id, outcome: final, ...(text ? { notification: text } : {}) });
    this.changed();
  }
}

/** What a task's run is given besides the session (tasks/runtime/backgroundTask.ts `RunBackgroundTaskInput`). */
export function backgroundTaskRun(task: BackgroundTask, context: AgentContext) {
  const { cwd, additionalDirectories, projectDir, worktree } = context;
  return {
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
}

/** What a task's run returns (tasks/runtime/backgroundTask.ts `RunBackgroundTaskResult`), as the task's end. */
export function taskOutcomeOf(
  r: {
    state: Exclude<TaskState, 'running' | 'lost'>;
    exitCode: number | null;
    outputBytes: number;
    outputRef?: string;
    error?: string;
  },
  endedAt: number,
): TaskOutcome {
  return {
    state: r.state,
    endedAt,
    exitCode: r.exitCode,
    outputBytes: r.outputBytes,
    ...(r.outputRef ? { outputRef: r.outputRef } : {}),
    ...(r.error ? { error: r.error } : {}),
  };
}
