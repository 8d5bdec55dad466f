import { type ActivityOptions, type CancellationScope } from '@temporalio/workflow';
import type { BackgroundTask, TaskOutcome } from '../engine/autonomy';
import type { RunMonitorTaskInput } from '../calls/monitorTask';
import { type SessionCarry } from './definitions';
/** How a task's run ended, and what the model is told (null: nothing; undefined: the task's default). */
export interface TaskEnd {
    outcome: TaskOutcome;
    notification?: string | null;
}
export declare class SessionMonitors {
    private readonly state;
    private readonly changed;
    private readonly log;
    /** Monitor tasks whose activity runs, by id. */
    private readonly running;
    /** Events queued per task (for a lost task's notification). */
    private readonly events;
    constructor(state: SessionCarry, changed: () => void);
    register(): void;
    /** The monitor's activity in the task's scope; resolves to its end (never rejects: a failure is an outcome). */
    run(task: BackgroundTask, scope: CancellationScope, options: ActivityOptions, input: RunMonitorTaskInput, failureOutcome: (err: unknown, endedAt: number) => TaskOutcome): Promise<TaskEnd>;
    /** TaskStop or the session's end stopped it (or it ended): nothing more is queued for it. */
    stopped(taskId: string): void;
    private onEvent;
}
