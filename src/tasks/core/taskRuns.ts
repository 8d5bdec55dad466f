// A background task's run, started and stopped once for both schedulers (issue 32): which run a task
// gets (a background agent's wait, a Monitor's watch, a command), the stop of each run, a Monitor's
// batches and end (monitorTasks.ts), a background agent's spend counted before its notification, the
// end handed to the decisions (taskScheduling.ts), and the session's end waiting for every run. The
// scheduler gives only its primitives (`TaskRunPrimitives`): the session workflow an activity in a
// cancellation scope per run (tasks/workflows/sessionTasks.ts), the in-process runner a call of the
// same core with an abort signal (tasks/inprocess/tasks.ts).
// Replay: the ends of runs that settle in one workflow activation are handled in the order their
// promise chains reach them, so each chain keeps the depth it had when the workflow wrote it: a
// command's end one `then` after its activity, a Monitor's one `await` in `watch` and one `then`, an
// agent's one `then` after its wait. A primitive returns its run's promise itself (no async wrapper).
import type { BackgroundTask, TaskOutcome } from '../../core/autonomy';
import type { SessionEventState, SessionEvents } from '../../core/sessionEvents';
import type { AgentTaskEnd } from '../../core/subagents';
import { MonitorWatches, type MonitorEventBatch, type MonitorRunEnd } from './monitorTasks';
import { backgroundTaskRun, taskOutcomeOf, TaskScheduling, type TaskEnd } from './taskScheduling';

/** How a task runs: a background agent's wait, a Monitor's watch, or a command (run_in_background). */
export type TaskRunKind = 'agent' | 'monitor' | 'command';

/** The run every scheduler gives a task of its kind (a scheduler that decides versions may differ). */
export function taskRunKind(task: BackgroundTask): TaskRunKind {
  return task.kind === 'local_agent' ? 'agent' : task.kind === 'monitor' ? 'monitor' : 'command';
}

/** What a command or a Monitor's run is given: the session's tool settings, the task, its context. */
export type TaskRunInput<S> = { session: S } & ReturnType<typeof backgroundTaskRun>;

/** What a command's run returns (tasks/runtime/backgroundTask.ts `RunBackgroundTaskResult`). */
export type CommandRunResult = Parameters<typeof taskOutcomeOf>[0];

/** What a Monitor's run returns (tasks/runtime/monitorTask.ts `RunMonitorTaskResult`). */
export type MonitorRunResult = MonitorRunEnd & { outputBytes: number };

/** A run's stop: a cancellation scope, an abort controller. */
export interface TaskStop {
  stop(): void;
}

/**
 * What a scheduler gives the runs. Each run returns its promise directly (see the header: replay):
 * a command's and a Monitor's settle with the run's result, or reject when it was stopped, lost or
 * could not run (`failure` says which); an agent's never rejects.
 */
export interface TaskRunPrimitives<S, H extends TaskStop> {
  /** Which run the task gets; the first call for a task (a workflow decides its versions here). */
  kind(task: BackgroundTask): TaskRunKind;
  /** A new stop for one task's run. */
  stopper(task: BackgroundTask): H;
  /** The session's tool settings a command or a Monitor runs with. */
  session(): S;
  command(task: BackgroundTask, input: TaskRunInput<S>, stop: H): Promise<CommandRunResult>;
  /** A Monitor's watch; `deliver` takes its batches where they come as calls (a workflow's come as signals). */
  monitor(
    task: BackgroundTask,
    input: TaskRunInput<S>,
    stop: H,
    deliver: (batch: MonitorEventBatch) => void,
  ): Promise<MonitorRunResult>;
  /** A background agent's wait for its child session, to its end (stopped: `agentStoppedTaskEnd`). */
  agent(task: BackgroundTask, stop: H): Promise<AgentTaskEnd>;
  /** A run that rejected: stopped (killed), lost, or failed to run. */
  failure(err: unknown, stop: H): TaskOutcome;
  now(): number;
  /** Resolves once every run has ended (`done`; `runs`: the runs' promises, each settles after its end). */
  allEnded(done: () => boolean, runs: ReadonlySet<Promise<void>>): Promise<void>;
}

/** The decisions' texts and gates (taskScheduling.ts's constructor), as a scheduler has them. */
export interface TaskRunTexts {
  notification: (task: BackgroundTask) => string;
  notifiesStoppedAgent?: () => boolean;
}

export class TaskRuns<S, H extends TaskStop> {
  /** The decisions (start once, stop, the end and its notification). */
  private readonly book: TaskScheduling;
  /** Running Monitor tasks: their batches taken once per (task, seq), their ends. */
  private readonly watches: MonitorWatches;
  /** Each running task's stop, by id. */
  private readonly stops = new Map<string, H>();
  private readonly runs = new Set<Promise<void>>();

  constructor(
    private readonly events: SessionEvents<SessionEventState>,
    private readonly prim: TaskRunPrimitives<S, H>,
    texts: TaskRunTexts,
    changed: () => void,
  ) {
    this.watches = new MonitorWatches(events, changed);
    this.book = new TaskScheduling(
      events,
      { start: (task, ended) => this.start(task, ended), stop: (id) => this.stop(id) },
      texts.notification,
      changed,
      texts.notifiesStoppedAgent,
    );
  }

  /** Is any task's run going on? (A workflow does not continue-as-new then.) */
  active(): boolean {
    return this.book.active();
  }

  /** After a turn and before a turn or a wait: recorded ends again, new tasks start, TaskStop's stop. */
  sync(): void {
    this.book.sync();
  }

  /** Before a turn starts (taskScheduling.ts `beforeTurn`). */
  beforeTurn(): void {
    this.book.beforeTurn();
  }

  /** A batch of a running Monitor (a workflow's signal): queued once, as the next turn's message. */
  deliver(batch: MonitorEventBatch): void {
    this.watches.deliver(batch);
  }

  /** The session ends: every running task is stopped (killed, no notification) and awaited. */
  async stopAll(): Promise<void> {
    if (!this.book.active()) return;
    this.book.stopAll();
    await this.prim.allEnded(() => !this.book.active(), this.runs);
  }

  private stop(id: string): void {
    // A stopped monitor's batches still in flight are not queued.
    this.watches.stopped(id);
    this.stops.get(id)?.stop();
  }

  private start(task: BackgroundTask, ended: (outcome: TaskOutcome, notification?: string | null) => void): void {
    const { prim } = this;
    const kind = prim.kind(task);
    const stop = prim.stopper(task);
    this.stops.set(task.id, stop);
    const end = (e: TaskEnd): void => {
      this.stops.delete(task.id);
      ended(e.outcome, e.notification);
    };
    let run: Promise<void>;
    if (kind === 'agent')
      run = prim.agent(task, stop).then((e) => {
        this.stops.delete(task.id);
        // The child's tree spent for its root: counted before the notification can start a turn.
        // Its reports to the budget so far (`bg:<child>`) are in this total: dropped as it is added.
        const chargeTo = task.agent?.sessionId ? { chargeTo: `bg:${task.agent.sessionId}` } : {};
        if (e.modelUsage) this.events.append({ type: 'subagentUsage', modelUsage: e.modelUsage, ...chargeTo });
        ended(e.outcome, e.notification);
      });
    else {
      const input: TaskRunInput<S> = { session: prim.session(), ...backgroundTaskRun(task, this.events.state.context) };
      run =
        kind === 'monitor'
          ? this.watch(task, input, stop).then(end)
          : prim.command(task, input, stop).then(
              (r) => end({ outcome: taskOutcomeOf(r, prim.now()) }),
              (err: unknown) => end({ outcome: prim.failure(err, stop) }),
            );
    }
    this.runs.add(run);
    const done = (): void => void this.runs.delete(run);
    void run.then(done, done);
  }

  /** A Monitor's watch: its batches taken while it runs, then its end text (never rejects). */
  private async watch(task: BackgroundTask, input: TaskRunInput<S>, stop: H): Promise<TaskEnd> {
    this.watches.begin(task);
    try {
      const r = await this.prim.monitor(task, input, stop, (batch) => this.watches.deliver(batch));
      return this.watches.ended(task, r, this.prim.now());
    } catch (err) {
      return this.watches.failed(task, this.prim.failure(err, stop));
    }
  }
}
