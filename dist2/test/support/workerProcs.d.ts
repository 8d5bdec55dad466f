import { type ChildProcess } from 'node:child_process';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
export declare function lines(file: string): Promise<string[]>;
/**
 * The environment of worker processes for a `withAgent({ noWorker: true })` test: the test's server
 * and namespace, its task queue, store and fake API, and the workflow bundle, written once into the
 * store directory (each process loads it instead of bundling again). Add what a test needs on top.
 */
export declare function workerProcessEnv(ctx: {
    env: TestWorkflowEnvironment;
    fake: {
        baseURL: string;
    };
    storeDir: string;
    taskQueue: string;
}): Promise<NodeJS.ProcessEnv>;
export interface WorkerProc {
    name: string;
    child: ChildProcess;
    exited: Promise<void>;
}
/**
 * Starts a worker process (its own process group) and waits for its "worker ready" line. `script`:
 * another build's workerProcess.js (an earlier release, test/integration/upgrade).
 */
export declare function spawnWorker(name: string, env: NodeJS.ProcessEnv, procs: WorkerProc[], script?: string): Promise<WorkerProc>;
export declare function killGroup(proc: WorkerProc): void;
