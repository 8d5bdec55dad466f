import { type RunBackgroundTaskInput, type RunBackgroundTaskResult } from '../calls/backgroundTask';
import type { ToolDeps } from '../calls/tools';
export declare function createBackgroundTaskActivities(deps: ToolDeps): {
    runBackgroundTask(input: RunBackgroundTaskInput): Promise<RunBackgroundTaskResult>;
};
