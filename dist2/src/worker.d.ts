import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { type AgentDepsOptions } from './workerDeps';
export { createAgentActivities, defaultStoreDir, sessionDirName, workerPrivatePaths, type AgentDepsOptions, } from './workerDeps';
export interface AgentWorkerOptions extends AgentDepsOptions {
    connection: NativeConnection;
    namespace?: string;
    /** Default: env DURABLE_AGENT_TASK_QUEUE, else 'durable-agent'. */
    taskQueue?: string;
    /** Pre-built workflow bundle (tests reuse one); default: bundled from src/workflows. */
    workflowBundle?: {
        code: string;
    };
    workerOptions?: Partial<Omit<WorkerOptions, 'connection' | 'taskQueue' | 'activities' | 'workflowsPath' | 'workflowBundle'>>;
}
export declare const workflowsPath: string;
export declare function createAgentWorker(opts: AgentWorkerOptions): Promise<Worker>;
/** Bundles the workflows once per process (webpack is slow). */
export declare function bundleAgentWorkflows(): Promise<{
    code: string;
}>;
