import type { AgentWorktreeReady } from './subagents';
/** A kind of background task (the reference's task types). */
export type TaskKind = 'local_bash' | 'monitor' | 'local_agent';
export type TaskState = 'running' | 'completed' | 'failed' | 'killed' | 'timed_out' | 'lost';
export interface BackgroundTask {
    /** The id the model sees (TaskStop's `task_id`). */
    id: string;
    kind: TaskKind;
    /** The tool call that started it. */
    toolUseId: string;
    /** What it runs: the command, or the agent's description (at most MAX_TASK_TEXT characters). */
    description: string;
    startedAt: number;
    /** Stopped after this long (Bash: `timeout`, default 30 min, at most 2 h; Monitor: `timeout_ms`). */
    timeoutMs: number;
    /** Where its output is written, readable by Read (the session's task output file). */
    outputPath?: string;
    state: TaskState;
    /** TaskStop asked for it; the scheduler cancels the task's activity. */
    stopRequested?: boolean;
    endedAt?: number;
    exitCode?: number | null;
    outputBytes?: number;
    /** What a `local_bash` task runs (at most MAX_TASK_TEXT characters; kept while it runs, the ended record keeps `description`). */
    command?: string;
    /** The directory it runs in (the session's cwd when it was started). */
    cwd?: string;
    /** Approved to run outside the OS sandbox (Bash `dangerouslyDisableSandbox`). */
    unsandboxed?: boolean;
    /** Its output in the store, once it ended (`taskoutput-<sha256>`), for the audit. */
    outputRef?: string;
    /** Why it failed to run or was lost (not its own exit). */
    error?: string;
    /** A `local_agent` task: its child session (started by the Agent call) and its worktree (`isolation: "worktree"`). */
    agent?: {
        sessionId: string;
        worktree?: AgentWorktreeReady;
    };
}
export interface Wakeup {
    /** Epoch ms it fires at (workflow time). */
    at: number;
    prompt: string;
    reason: string;
    toolUseId: string;
}
export interface CronJob {
    id: string;
    cron: string;
    prompt: string;
    recurring: boolean;
    /** IANA zone the expression is read in (the session's, fixed when the job was created). */
    timeZone: string;
    createdAt: number;
    /** Recurring jobs end after this (the reference: 7 days). */
    expiresAt?: number;
    /** The next firing (computed outside workflow code and recorded); null: none left. */
    nextFireAt: number | null;
    fired: number;
}
export interface Autonomy {
    tasks: BackgroundTask[];
    wakeup?: Wakeup;
    crons: CronJob[];
}
export type AutonomyModifier = {
    type: 'taskStarted';
    task: BackgroundTask;
} | {
    type: 'taskStopRequested';
    taskId: string;
} | {
    type: 'wakeupScheduled';
    wakeup: Wakeup;
} | {
    type: 'wakeupCancelled';
} | {
    type: 'cronCreated';
    job: CronJob;
} | {
    type: 'cronDeleted';
    id: string;
};
export declare const MAX_TASK_TEXT = 500;
/** Ended tasks kept in the context (the newest); running ones are always kept. */
export declare const MAX_ENDED_TASKS = 20;
export declare const WAKEUP_MIN_SECONDS = 60;
export declare const WAKEUP_MAX_SECONDS = 3600;
export declare const CRON_RECURRING_TTL_MS: number;
export declare function emptyAutonomy(): Autonomy;
/** Applies one modifier. Pure: returns a new value. */
export declare function applyAutonomyModifier(a: Autonomy | undefined, mod: AutonomyModifier): Autonomy;
/** Anything that can still wake the session: a running task, a wake-up, a cron job. */
export declare function hasPendingWork(a: Autonomy | undefined): boolean;
/** The earliest timer the idle session waits for (undefined: none, only task ends or messages). */
export declare function nextDeadline(a: Autonomy | undefined): number | undefined;
/** One thing that happened between turns, queued as a message for the next turn. */
export interface AutonomyEvent {
    /** Unique per firing/ending: a scheduler never queues the same key twice (no doubled firing). */
    key: string;
    source: 'task' | 'wakeup' | 'cron';
    text: string;
}
/** What is due at `now`: the wake-up and the cron jobs whose time has come (jobs still need their next time). */
export declare function dueTimers(a: Autonomy | undefined, now: number): {
    wakeup?: Wakeup;
    crons: CronJob[];
};
/** The wake-up fired: it leaves the context and its prompt is queued. */
export declare function fireWakeup(a: Autonomy, w: Wakeup): {
    autonomy: Autonomy;
    event: AutonomyEvent;
};
/**
 * A job fired at `firedAt`: its prompt is queued; a one-shot job or one past its expiry is deleted,
 * a recurring one moves to `next` (computed by the caller outside workflow code).
 */
export declare function fireCron(a: Autonomy, job: CronJob, next: number | null): {
    autonomy: Autonomy;
    event: AutonomyEvent;
};
/**
 * What is due at `now`, as one step both schedulers take: the recurring jobs whose next firing must
 * be computed outside workflow code (`recurring`), then `apply` with those times folds every due
 * firing into the record and returns the prompts to queue, in order (the wake-up first).
 */
export declare function dueFirings(a: Autonomy, now: number): {
    recurring: Array<{
        id: string;
        cron: string;
        timeZone: string;
        after: number;
    }>;
    apply(next: Record<string, number | null>): {
        autonomy: Autonomy;
        events: AutonomyEvent[];
    };
};
/** How a task ended, as its activity (or the loss of it) told the session. */
export interface TaskOutcome {
    state: Exclude<TaskState, 'running'>;
    endedAt: number;
    exitCode?: number | null;
    outputBytes?: number;
    outputRef?: string;
    error?: string;
}
/** A task's activity ended (or was lost): the task records it and its notification is queued. */
export declare function endTask(a: Autonomy, taskId: string, outcome: TaskOutcome, notification: (task: BackgroundTask) => string): {
    autonomy: Autonomy;
    event?: AutonomyEvent;
};
/** Clamps a wake-up delay to the reference's bounds. */
export declare function clampWakeupDelay(seconds: number): {
    seconds: number;
    clamped: boolean;
};
