import { type RunMonitorTaskInput, type RunMonitorTaskResult } from '../calls/monitorTask';
import type { ToolDeps } from '../calls/tools';
export declare function createMonitorTaskActivities(deps: ToolDeps): {
    runMonitorTask(input: RunMonitorTaskInput): Promise<RunMonitorTaskResult>;
};
