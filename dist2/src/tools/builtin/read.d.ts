import { z } from 'zod';
import { type RealPathCheck } from '../safeFs';
import { type RenderedCell } from './notebook';
export declare const READ_DEFAULT_LIMIT = 2000;
export declare const READ_MAX_LINE_CHARS = 2000;
/** Self-imposed budget for one Read's text: beyond it the page ends early (with a notice). */
export declare const READ_MAX_OUTPUT_CHARS = 100000;
export declare const EMPTY_FILE_NOTICE = "<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>";
declare const inputSchema: z.ZodObject<{
    file_path: z.ZodString;
    offset: z.ZodOptional<z.ZodNumber>;
    limit: z.ZodOptional<z.ZodNumber>;
    pages: z.ZodOptional<z.ZodString>;
    allow_large: z.ZodOptional<z.ZodBoolean>;
}, z.core.$strict>;
export type ReadInput = z.infer<typeof inputSchema>;
export interface ReadOutput {
    /** Absolute path read. */
    filePath: string;
    /** The numbered lines, `cat -n` style (empty when no line was shown). */
    content: string;
    /** First line shown (1-based) and how many lines were shown. */
    startLine: number;
    numLines: number;
    totalLines: number;
    /** Lines longer than READ_MAX_LINE_CHARS that were cut. */
    truncatedLines: number;
    /** Not every line of the file was shown. */
    partial: boolean;
    /** The file ends with a line break (the reference counts an empty last line after it: hooks see that). */
    endsWithNewline: boolean;
    /** Why the page ended before the requested limit, if it did. */
    stoppedBy?: 'charBudget';
    mtimeMs: number;
    /** A Jupyter notebook (.ipynb): its cells, shown as cells (content is their text). */
    notebook?: RenderedCell[];
}
/** validateInput-style check shared by the file tools: exists, is a regular file. */
export declare function checkReadableFile(filePath: string, cwd: string, hidden?: (abs: string) => boolean, 
/** Judges the real path of the directory listed for a "Did you mean" (fileAccess.ts). */
dirCheck?: RealPathCheck): Promise<{
    ok: true;
    abs: string;
    size: number;
} | {
    ok: false;
    message: string;
    missing: boolean;
}>;
export declare const ReadTool: import("../Tool").Tool<{
    file_path: string;
    offset?: number | undefined;
    limit?: number | undefined;
    pages?: string | undefined;
    allow_large?: boolean | undefined;
}, ReadOutput>;
export {};
