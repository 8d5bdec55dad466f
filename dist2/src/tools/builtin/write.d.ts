import { z } from 'zod';
import { type PatchHunk } from './patch';
declare const inputSchema: z.ZodObject<{
    file_path: z.ZodString;
    content: z.ZodString;
}, z.core.$strict>;
export type WriteInput = z.infer<typeof inputSchema>;
export interface WriteOutput {
    type: 'create' | 'update';
    filePath: string;
    /** The file already held exactly this content: nothing was written (e.g. a retried call). */
    unchanged?: boolean;
    bytes: number;
    mtimeMs: number;
    /** Only when a PostToolUse hook will see the call (ToolUseContext.fileChangeForHooks): the content before (null: created). */
    originalFile?: string | null;
    /** With originalFile: the hunks from it to the new content. */
    structuredPatch?: PatchHunk[];
}
export declare const WriteTool: import("../Tool").Tool<{
    file_path: string;
    content: string;
}, WriteOutput>;
export {};
