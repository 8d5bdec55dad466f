import { MONITOR_LIMITS } from '../engine/monitorLines';
import type { MonitorEventBatch, MonitorRunEnd } from '../engine/monitorTasks';
import type { ToolUseContext } from '../tools/Tool';
import { type RunBackgroundTaskInput } from './backgroundTask';
import type { CallRuntime } from './runtime';
import type { ToolDeps } from './tools';
/** Hands one batch to the session; resolves once it is there (the next waits for it). */
export type DeliverMonitorBatch = (batch: MonitorEventBatch) => Promise<void>;
export interface WatchOptions {
    taskId: string;
    deliver: DeliverMonitorBatch;
    /** The clock the rate limit reads (tests pass their own). */
    now?: () => number;
    warn?: (message: string) => void;
    onProgress?: (outputBytes: number) => void;
    /** Other limits than the reference's (tests). */
    limits?: Partial<Record<keyof typeof MONITOR_LIMITS, number>>;
}
/** What the watch did: how it ended (for the notification), the last seq delivered, the output's size. */
export interface MonitorWatchResult extends MonitorRunEnd {
    signal: string | null;
    outputBytes: number;
    /** The seq of the last batch handed to `deliver` (0: none). */
    lastSeq: number;
    sandboxed?: boolean;
    violations?: number;
}
export type RunMonitorTaskInput = RunBackgroundTaskInput;
export interface RunMonitorTaskResult extends MonitorWatchResult {
    /** `taskoutput-<sha256>` in the store; absent when it could not be stored or nothing ran. */
    outputRef?: string;
}
/**
 * Runs a monitor's watch command (`ctx.agent.cwd` is where it runs; `ctx.abortSignal` stops it) and
 * hands its stdout to `opts.deliver` as numbered batches; resolves when the command has ended and
 * every batch was delivered.
 */
export declare function watchMonitorCommand(spec: {
    command: string;
    timeoutMs: number;
    outputPath: string;
}, ctx: ToolUseContext, opts: WatchOptions): Promise<MonitorWatchResult>;
export declare function createMonitorTaskCalls(deps: ToolDeps): {
    runMonitorTask: (input: RunMonitorTaskInput, rt: CallRuntime, deliver: DeliverMonitorBatch) => Promise<RunMonitorTaskResult>;
};
