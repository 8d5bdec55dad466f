import { z } from 'zod';
import { type AnyTool } from '../../src/tools/Tool';
declare const appendSlowInput: z.ZodObject<{
    file: z.ZodString;
    text: z.ZodString;
    delayMs: z.ZodOptional<z.ZodNumber>;
    idempotent: z.ZodOptional<z.ZodBoolean>;
}, z.core.$strict>;
export type AppendSlowInput = z.infer<typeof appendSlowInput>;
export interface AppendSlowOutput {
    file: string;
    text: string;
    waitedMs: number;
}
/** Appends `text\n` to `file` at once (the side effect), then waits `delayMs` (abortable). */
export declare const AppendSlowTool: import("../../src/tools/Tool").Tool<{
    file: string;
    text: string;
    delayMs?: number | undefined;
    idempotent?: boolean | undefined;
}, AppendSlowOutput>;
/**
 * A concurrency-safe tool with an observable side effect (a line per call, written at once):
 * streaming tool execution may start it early, and a test can count how often it really ran.
 */
export declare const CountSafeTool: import("../../src/tools/Tool").Tool<{
    file: string;
    text: string;
    delayMs?: number | undefined;
}, AppendSlowOutput>;
export declare const TEST_TOOLS: AnyTool[];
export {};
