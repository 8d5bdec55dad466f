import { z } from 'zod';
export declare const GLOB_MAX_RESULTS = 100;
declare const inputSchema: z.ZodObject<{
    pattern: z.ZodString;
    path: z.ZodOptional<z.ZodString>;
}, z.core.$strict>;
export type GlobInput = z.infer<typeof inputSchema>;
export interface GlobOutput {
    /** Absolute paths, most recently modified first (at most GLOB_MAX_RESULTS). */
    filenames: string[];
    numFiles: number;
    /** Matches before the cap. */
    totalMatches: number;
    truncated: boolean;
    durationMs: number;
}
export declare const GlobTool: import("../Tool").Tool<{
    pattern: string;
    path?: string | undefined;
}, GlobOutput>;
export {};
