import { z } from 'zod';
/** The largest notebook NotebookEdit reads or writes (a notebook above it is edited with Bash). */
export declare const NOTEBOOK_MAX_BYTES: number;
declare const inputSchema: z.ZodObject<{
    notebook_path: z.ZodString;
    cell_id: z.ZodOptional<z.ZodString>;
    new_source: z.ZodString;
    cell_type: z.ZodOptional<z.ZodEnum<{
        code: "code";
        markdown: "markdown";
    }>>;
    edit_mode: z.ZodOptional<z.ZodEnum<{
        replace: "replace";
        insert: "insert";
        delete: "delete";
    }>>;
}, z.core.$strict>;
export type NotebookEditInput = z.infer<typeof inputSchema>;
export interface NotebookEditOutput {
    new_source: string;
    /** The cell's source before (replace and delete). */
    old_source?: string;
    cell_id?: string;
    cell_type: 'code' | 'markdown';
    language: string;
    edit_mode: 'replace' | 'insert' | 'delete';
    error: string;
    notebook_path: string;
    original_file: string;
    updated_file: string;
    mtimeMs: number;
}
export declare const NotebookEditTool: import("../Tool").Tool<{
    notebook_path: string;
    new_source: string;
    cell_id?: string | undefined;
    cell_type?: "code" | "markdown" | undefined;
    edit_mode?: "replace" | "insert" | "delete" | undefined;
}, NotebookEditOutput>;
export {};
