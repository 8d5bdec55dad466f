import { z } from 'zod';
declare const enterSchema: z.ZodObject<{
    name: z.ZodOptional<z.ZodString>;
    path: z.ZodOptional<z.ZodString>;
}, z.core.$strict>;
export type EnterWorktreeInput = z.infer<typeof enterSchema>;
export interface EnterWorktreeOutput {
    worktreePath: string;
    worktreeBranch?: string;
    message: string;
}
export declare const EnterWorktreeTool: import("../Tool").Tool<{
    name?: string | undefined;
    path?: string | undefined;
}, EnterWorktreeOutput>;
declare const exitSchema: z.ZodObject<{
    action: z.ZodEnum<{
        remove: "remove";
        keep: "keep";
    }>;
    discard_changes: z.ZodOptional<z.ZodBoolean>;
}, z.core.$strict>;
export type ExitWorktreeInput = z.infer<typeof exitSchema>;
export interface ExitWorktreeOutput {
    action: 'keep' | 'remove';
    originalCwd: string;
    worktreePath: string;
    worktreeBranch?: string;
    discardedFiles?: number;
    discardedCommits?: number;
    /** Where the session is now (the reference's keys). */
    restoredCwd: string;
    originalCwdMissing: boolean;
    message: string;
}
export declare const ExitWorktreeTool: import("../Tool").Tool<{
    action: "remove" | "keep";
    discard_changes?: boolean | undefined;
}, ExitWorktreeOutput>;
export {};
