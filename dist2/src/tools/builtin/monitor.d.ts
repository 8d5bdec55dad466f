import { z } from 'zod';
export declare const MONITOR_DEFAULT_TIMEOUT_MS = 300000;
export declare const MONITOR_MIN_TIMEOUT_MS = 1000;
export declare const MONITOR_MAX_TIMEOUT_MS = 3600000;
declare const inputSchema: z.ZodObject<{
    description: z.ZodString;
    timeout_ms: z.ZodDefault<z.ZodNumber>;
    command: z.ZodOptional<z.ZodString>;
    ws: z.ZodOptional<z.ZodObject<{
        url: z.ZodString;
        protocols: z.ZodOptional<z.ZodArray<z.ZodString>>;
    }, z.core.$strict>>;
}, z.core.$strict>;
export type MonitorInput = z.infer<typeof inputSchema>;
export interface MonitorOutput {
    taskId: string;
    timeoutMs: number;
    /** Always false here (the reference's tool_response has it: a watch without a timeout, which its schema does not offer). */
    persistent: false;
}
/** A monitor's task id: `b` + 8 lowercase letters and digits (the reference's shell task ids), derived from the call. */
export declare function monitorTaskId(sessionId: string, toolUseId: string): string;
export declare const MonitorTool: import("../Tool").Tool<{
    description: string;
    timeout_ms: number;
    command?: string | undefined;
    ws?: {
        url: string;
        protocols?: string[] | undefined;
    } | undefined;
}, MonitorOutput>;
export {};
