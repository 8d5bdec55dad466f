import { z } from 'zod';
import { type GrepEngineName, type GrepMode } from './grepEngine';
export declare const GREP_DEFAULT_HEAD_LIMIT = 250;
/** Lines longer than this are cut in content output (the reference uses rg --max-columns 500). */
export declare const GREP_MAX_LINE_CHARS = 500;
declare const inputSchema: z.ZodObject<{
    pattern: z.ZodString;
    path: z.ZodOptional<z.ZodString>;
    glob: z.ZodOptional<z.ZodString>;
    type: z.ZodOptional<z.ZodString>;
    output_mode: z.ZodOptional<z.ZodEnum<{
        content: "content";
        files_with_matches: "files_with_matches";
        count: "count";
    }>>;
    '-i': z.ZodOptional<z.ZodBoolean>;
    '-n': z.ZodOptional<z.ZodBoolean>;
    '-o': z.ZodOptional<z.ZodBoolean>;
    '-A': z.ZodOptional<z.ZodNumber>;
    '-B': z.ZodOptional<z.ZodNumber>;
    '-C': z.ZodOptional<z.ZodNumber>;
    context: z.ZodOptional<z.ZodNumber>;
    head_limit: z.ZodOptional<z.ZodNumber>;
    offset: z.ZodOptional<z.ZodNumber>;
    multiline: z.ZodOptional<z.ZodBoolean>;
}, z.core.$strict>;
export type GrepInput = z.infer<typeof inputSchema>;
export interface GrepOutput {
    mode: GrepMode;
    engine: GrepEngineName;
    /** Files with at least one match (every file, not only the shown page). */
    numFiles: number;
    /** files_with_matches: the shown page of paths (relative to cwd when inside it, else absolute). */
    filenames?: string[];
    /** content: the shown page of output lines. count: the shown page of "path:N" lines. */
    lines?: string[];
    /** count: matches in every file, even those cut by head_limit/offset. */
    totalMatches?: number;
    /** Entries before pagination (files, lines or count lines). */
    totalEntries: number;
    appliedOffset: number;
    /** The head_limit in force (0 = none), present when the page is not the whole list. */
    appliedLimit?: number;
    /** Entries exist after the page. */
    hasMore: boolean;
    warnings?: string[];
}
export declare const GrepTool: import("../Tool").Tool<{
    pattern: string;
    path?: string | undefined;
    glob?: string | undefined;
    type?: string | undefined;
    output_mode?: "content" | "files_with_matches" | "count" | undefined;
    '-i'?: boolean | undefined;
    '-n'?: boolean | undefined;
    '-o'?: boolean | undefined;
    '-A'?: number | undefined;
    '-B'?: number | undefined;
    '-C'?: number | undefined;
    context?: number | undefined;
    head_limit?: number | undefined;
    offset?: number | undefined;
    multiline?: boolean | undefined;
}, GrepOutput>;
export {};
