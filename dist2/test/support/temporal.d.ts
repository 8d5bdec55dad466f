import type { Client } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker, type WorkerOptions, type WorkflowBundle } from '@temporalio/worker';
import './isolatedHome';
/**
 * The test environment for this process, created on first use: connected to TEMPORAL_TEST_ADDRESS
 * (set by the test runner), or a dev server of its own when the variable is absent.
 */
export declare function getTestEnv(): Promise<TestWorkflowEnvironment>;
/** Close the shared environment (and its own server, if it started one). Call it from `after`. */
export declare function closeTestEnv(): Promise<void>;
/** e.g. `smoke-3f2a…`: one per test, so tests never see each other's tasks. */
export declare function uniqueTaskQueue(prefix?: string): string;
export declare function uniqueWorkflowId(prefix?: string): string;
/** Bundle once per workflows file per process: webpack takes seconds. */
export declare function getWorkflowBundle(workflowsPath: string): Promise<WorkflowBundle>;
export interface WithWorkerOptions {
    taskQueue: string;
    /** Absolute path of the workflows module (e.g. `require.resolve('../fixtures/smokeWorkflows')`). */
    workflowsPath: string;
    activities?: object;
    /** Anything else for `Worker.create`. */
    workerOptions?: Partial<Omit<WorkerOptions, 'connection' | 'taskQueue' | 'workflowsPath' | 'workflowBundle' | 'activities'>>;
}
export interface WorkerContext {
    env: TestWorkflowEnvironment;
    client: Client;
    worker: Worker;
    taskQueue: string;
}
/** Run `fn` while a worker polls `taskQueue`; the worker is shut down afterwards, also when `fn` throws. */
export declare function withWorker<T>(opts: WithWorkerOptions, fn: (ctx: WorkerContext) => Promise<T>): Promise<T>;
