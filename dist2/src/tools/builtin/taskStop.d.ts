export interface TaskStopOutput {
    message: string;
    task_id: string;
    task_type: string;
    command?: string;
}
export declare const TaskStopTool: import("../Tool").Tool<{
    task_id?: string | undefined;
    shell_id?: string | undefined;
}, TaskStopOutput>;
