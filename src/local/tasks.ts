// Background tasks in the in-process runner (issue 19): the same decisions as the session workflow's
// (engine/taskScheduling.ts: a task a turn recorded starts once, after that turn; TaskStop and the
// session's end stop it without a notification; its end is recorded and its `<task-notification>`
// queued for the next turn, waking an idle session through LocalTimers), and the same core as the
// `runBackgroundTask` activity (calls/backgroundTask.ts: the session's sandbox plan, its own process
// group, stdout and stderr into the task's output file in the session's temp dir), called here with
// an abort signal instead of an activity's cancellation. The process is the limit: a task dies with
// it (the durable runner's outlives a worker, or is reported lost).
import type { CallRuntime } from '../calls/runtime';
import type { ToolSessionSettings } from '../calls/tools';
import type { BackgroundTask, TaskOutcome } from '../engine/autonomy';
import type { SessionState } from '../engine/session';
import { taskNotification } from '../engine/taskNotifications';
import { backgroundTaskRun, taskOutcomeOf, TaskScheduling, type TaskRunner } from '../engine/taskScheduling';
import type { LocalDeps } from './turn';

/** What the tasks take from their session (src/local/sessionRun.ts). */
export interface LocalTasksHost {
  readonly state: SessionState;
  readonly session: ToolSessionSettings;
  readonly deps: Pick<LocalDeps, 'runBackgroundTask'>;
  runtime(signal: AbortSignal, key: string): CallRuntime;
}

export class LocalTasks implements TaskRunner {
  /** Each running task's stop, by id. */
  private readonly aborts = new Map<string, AbortController>();
  private readonly runs = new Set<Promise<void>>();
  readonly scheduling: TaskScheduling;

  constructor(
    private readonly host: LocalTasksHost,
    changed: () => void,
  ) {
    this.scheduling = new TaskScheduling(host.state, this, taskNotification, changed);
  }

  start(task: BackgroundTask, ended: (outcome: TaskOutcome) => void): void {
    const { host } = this;
    const abort = new AbortController();
    this.aborts.set(task.id, abort);
    const input = { session: host.session, ...backgroundTaskRun(task, host.state.context) };
    const run = host.deps
      .runBackgroundTask(input, host.runtime(abort.signal, `task-${task.id}`))
      .then(
        (r) => taskOutcomeOf(r, Date.now()),
        // The core returns its failures as data; anything thrown is a failure to run.
        (err: unknown): TaskOutcome => ({
          state: abort.signal.aborted ? 'killed' : 'failed',
          endedAt: Date.now(),
          exitCode: null,
          error: err instanceof Error ? err.message : String(err),
        }),
      )
      .then((outcome) => {
        this.aborts.delete(task.id);
        ended(outcome);
      });
    this.runs.add(run);
    void run.finally(() => this.runs.delete(run));
  }

  stop(taskId: string): void {
    this.aborts.get(taskId)?.abort();
  }

  /** The session ends (or `stop()`): every running task is killed (no notification) and awaited. */
  async stopAll(): Promise<void> {
    this.scheduling.stopAll();
    while (this.runs.size > 0) await Promise.allSettled([...this.runs]);
  }
}
