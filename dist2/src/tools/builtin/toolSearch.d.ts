import { z } from 'zod';
declare const inputSchema: z.ZodObject<{
    query: z.ZodString;
    max_results: z.ZodDefault<z.ZodNumber>;
}, z.core.$strict>;
export type ToolSearchInput = z.output<typeof inputSchema>;
export interface ToolSearchOutput {
    query: string;
    matches: string[];
    /** How many tools the session defers (the reference's PostToolUse tool_response has it too). */
    total_deferred_tools: number;
}
export declare const ToolSearchTool: import("../Tool").Tool<{
    query: string;
    max_results: number;
}, ToolSearchOutput>;
export {};
