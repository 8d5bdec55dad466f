import type { temporal } from '@temporalio/proto';
import { type WorkerOptions } from '@temporalio/worker';
import { type DevServer } from '../src/temporal/devServer';
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
export declare function eventMs(e: HistoryEvent): number;
export declare function median(xs: number[]): number;
export interface TaskTimes {
    /** Workflow task Scheduled→Started, per task in history order (ms). */
    wftWait: number[];
    /** Workflow task Started→Completed (the worker's processing). */
    wftWork: number[];
    /** Activity task Scheduled→Started. */
    atWait: number[];
    /** Activity task Started→Completed. */
    atWork: number[];
    /** Scheduled of activity i to Scheduled of activity i+1 (sequential chains). */
    atCycle: number[];
    /** First event to last event. */
    totalMs: number;
}
/** Reads the task timings of one workflow's history. */
export declare function taskTimes(events: HistoryEvent[]): TaskTimes;
export interface FloorVariant {
    name: string;
    /** `--dynamic-config-value` entries for the dev server. */
    dynamicConfig?: Record<string, string | number | boolean>;
    /** SQLite file instead of in-memory. */
    dbFile?: boolean;
    worker?: Partial<WorkerOptions>;
}
export interface FloorResult {
    variant: string;
    /** Sequential no-op chain. */
    chain: TaskTimes;
    /** Per no-op activity, wall time of the whole chain / n. */
    perActivityMs: number;
    /** Session shape: wall ms per turn (child workflow + steps), when measured. */
    perTurnMs?: number;
    turn?: TaskTimes;
    /** Batches of parallel sleeps: wall ms of the workflow per heartbeat interval. */
    batches?: Array<{
        heartbeatMs: number;
        wallMs: number;
        activitiesMs: number;
    }>;
}
/** A variant's dynamic config relative to the CLI's own defaults (this project's defaults dropped). */
export declare function dynamicConfigFor(v: FloorVariant): Record<string, string | number | boolean | null>;
/** Runs the floor workloads of one variant on its own dev server (or on `server` when given). */
export declare function measureFloor(v: FloorVariant, opts: {
    n: number;
    sessionTurns?: number;
    shape?: number[];
    server?: DevServer;
    batch?: {
        n: number;
        ms: number;
        heartbeats: number[];
        repeat: number;
    };
}): Promise<FloorResult>;
export declare function describeResult(r: FloorResult): string;
/** The levers of docs: one variant each, against the CLI's defaults. */
export declare const MATRIX: FloorVariant[];
export {};
