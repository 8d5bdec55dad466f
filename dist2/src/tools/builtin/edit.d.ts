import { z } from 'zod';
import { type PatchHunk } from './patch';
declare const inputSchema: z.ZodObject<{
    file_path: z.ZodString;
    old_string: z.ZodString;
    new_string: z.ZodString;
    replace_all: z.ZodDefault<z.ZodBoolean>;
}, z.core.$strict>;
export type EditInput = z.input<typeof inputSchema>;
export interface EditOutput {
    type: 'create' | 'update';
    filePath: string;
    replacements: number;
    replaceAll: boolean;
    /** `cat -n` lines around the (first) edited region. */
    snippet: string;
    mtimeMs: number;
    /**
     * Only when a PostToolUse hook will see the call (ToolUseContext.fileChangeForHooks): the content
     * before ('' when created; with Windows line endings as '\n', as the reference reports it).
     */
    originalFile?: string;
    /** With originalFile: the hunks from it to the edited content. */
    structuredPatch?: PatchHunk[];
}
export declare const EditTool: import("../Tool").Tool<{
    file_path: string;
    old_string: string;
    new_string: string;
    replace_all?: boolean | undefined;
}, EditOutput>;
export {};
