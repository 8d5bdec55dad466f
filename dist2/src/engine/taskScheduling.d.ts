import { type BackgroundTask, type TaskOutcome, type TaskState } from './autonomy';
import type { AgentContext } from './context';
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
export interface TaskSchedulingState {
    context: AgentContext;
    pendingMessages: string[];
}
export declare class TaskScheduling {
    private readonly state;
    private readonly runner;
    private readonly notification;
    private readonly changed;
    /** Tasks this scheduler started (never twice), by id. */
    private readonly started;
    /** Started tasks whose run has not ended. */
    private readonly running;
    /** Ends not yet seen by a turn's context (a turn that ran meanwhile returns its stale context). */
    private readonly outcomes;
    private readonly stopping;
    /**
     * @param notification the text queued for a background command that ended by itself (called only
     *   then, so a workflow may decide its version there)
     * @param changed called after each end (the idle wait looks again)
     */
    constructor(state: TaskSchedulingState, runner: TaskRunner, notification: (task: BackgroundTask) => string, changed: () => void);
    /** Is any task's run going on? */
    active(): boolean;
    /**
     * After a turn (its context is the state's now) and before a turn or a wait: ends recorded while a
     * turn ran are applied again, new tasks start, and tasks TaskStop asked for are stopped.
     */
    sync(): void;
    /** Before a turn starts: the state's context is whole again, the recorded ends can go. */
    beforeTurn(): void;
    /** The session ends: every running task is asked to stop (it ends killed, without a notification). */
    stopAll(): void;
    private stop;
    private start;
    /** The task's run ended: its record ends, and unless it was stopped its notification is queued. */
    private ended;
}
/** What a task's run is given besides the session (calls/backgroundTask.ts `RunBackgroundTaskInput`). */
export declare function backgroundTaskRun(task: BackgroundTask, context: AgentContext): {
    task: {
        unsandboxed?: boolean | undefined;
        id: string;
        toolUseId: string;
        command: string;
        cwd: string;
        timeoutMs: number;
        outputPath: string;
    };
    context: {
        worktree?: import("./context").WorktreeState | undefined;
        projectDir?: string | undefined;
        cwd: string;
        additionalDirectories: string[];
    };
};
/** What a task's run returns (calls/backgroundTask.ts `RunBackgroundTaskResult`), as the task's end. */
export declare function taskOutcomeOf(r: {
    state: Exclude<TaskState, 'running' | 'lost'>;
    exitCode: number | null;
    outputBytes: number;
    outputRef?: string;
    error?: string;
}, endedAt: number): TaskOutcome;
