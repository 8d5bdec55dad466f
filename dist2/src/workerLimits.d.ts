import type { WorkerOptions } from '@temporalio/worker';
export interface WorkerLimits {
    maxCachedWorkflows: number;
    maxConcurrentActivityTaskExecutions: number;
    maxConcurrentLocalActivityExecutions: number;
    maxConcurrentWorkflowTaskExecutions: number;
}
export declare function workerLimits(env?: NodeJS.ProcessEnv): WorkerLimits & Pick<WorkerOptions, 'maxCachedWorkflows'>;
