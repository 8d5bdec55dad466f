import { type WorkerProc } from '../support/workerProcs';
export interface WorkerPoolOptions {
    /** Everything the worker process reads (TEMPORAL_TEST_ADDRESS, TASK_QUEUE, STORE_DIR, DURABLE_AGENT_STORE, …). */
    env: NodeJS.ProcessEnv;
    /** Name prefix (`worker` → worker-1, worker-2, …). */
    prefix?: string;
}
export declare class WorkerPool {
    readonly opts: WorkerPoolOptions;
    readonly live: WorkerProc[];
    private readonly all;
    private n;
    /** Workers replaced by the rolling deploy. */
    rolled: number;
    /** Workers that exited on their own and were replaced. */
    replaced: number;
    constructor(opts: WorkerPoolOptions);
    add(extra?: NodeJS.ProcessEnv): Promise<WorkerProc>;
    /** Starts workers until `want` are alive (one that died on its own is replaced); returns how many it started. */
    fill(want: number): Promise<number>;
    /**
     * A rolling deploy: for each worker alive now, start its replacement, then SIGTERM it and wait
     * until it has drained and exited (`graceMs` more, then SIGKILL — reported by the caller).
     */
    roll(graceMs: number, log: (line: string) => void): Promise<{
        rolled: number;
        forced: number;
    }>;
    stop(): Promise<void>;
}
