import type { BackgroundTask } from './autonomy';
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
export declare class MonitorEventLog {
    private readonly last;
    accept(batch: Pick<MonitorEventBatch, 'taskId' | 'seq'>): boolean;
    /** The task ended: nothing more is taken for it. */
    close(taskId: string): void;
}
/** The notification of one batch (events and notices alike reach the model as a monitor event). */
export declare function monitorBatchText(task: Pick<BackgroundTask, 'id' | 'description'>, batch: MonitorEventBatch): string;
/** What the model is told when a monitor's run ends; null: nothing (stopped, or the rate limit's notice said it). */
export declare function monitorEndText(task: Pick<BackgroundTask, 'id' | 'description' | 'toolUseId' | 'outputPath' | 'timeoutMs'>, end: MonitorRunEnd | {
    state: 'lost';
    error?: string;
    events?: number;
}): string | null;
