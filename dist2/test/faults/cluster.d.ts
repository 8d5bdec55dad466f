import { Client } from '@temporalio/client';
import { type DevServer } from '../../src/temporal/devServer';
import { type WorkerProc } from '../support/workerProcs';
export interface ClusterOptions {
    /** Everything of this run: the SQLite file, the workflow bundle, worker logs. */
    dir: string;
    taskQueue: string;
    storeDir: string;
    fakeURL: string;
    /** Extra env for the worker processes (e.g. DURABLE_AGENT_BLOB_STORE). */
    workerEnv?: NodeJS.ProcessEnv;
}
export declare class Cluster {
    readonly opts: ClusterOptions;
    server: DevServer;
    client: Client;
    private connection;
    readonly workers: WorkerProc[];
    private readonly all;
    private port;
    private bundlePath;
    private started;
    serverRestarts: number;
    constructor(opts: ClusterOptions);
    get dbFile(): string;
    start(workers: number): Promise<void>;
    private workerEnv;
    /** Starts one more worker process and waits until it polls. */
    addWorker(): Promise<WorkerProc>;
    /**
     * SIGKILLs the worker process alone — what the OOM killer or `kill -9 <pid>` does — and waits
     * until it is gone. What it had started (Bash calls, sandboxes, the sandbox's host bridges) is
     * the product's to clean up; run.ts counts what is left at the end.
     */
    killWorker(proc: WorkerProc): Promise<void>;
    /** The worker identity Temporal records for this process (the SDK's default `pid@host`). */
    static identityPid(identity: string | null | undefined): number | undefined;
    /** SIGKILL of the dev server, then a new one on the same port and SQLite file. */
    restartServer(downMs: number): Promise<void>;
    /** Workers that died on their own (not killed by the suite) are replaced; returns how many. */
    replaceDead(want: number): Promise<number>;
    stop(): Promise<void>;
}
