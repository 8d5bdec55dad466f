import { z } from 'zod';
import type { SandboxRecord } from '../../engine/records';
import { type PermissionResult, type ToolUseContext } from '../Tool';
export declare const BASH_DEFAULT_TIMEOUT_MS = 120000;
export declare const BASH_MAX_TIMEOUT_MS = 600000;
export declare const BASH_PROGRESS_INTERVAL_MS = 500;
export declare const BASH_PROGRESS_TAIL_BYTES = 4096;
/** Grace between SIGTERM and SIGKILL of the process group. */
export declare const BASH_KILL_GRACE_MS = 1000;
/** A background command's default limit (Bash `timeout` sets another, up to BASH_BACKGROUND_MAX_TIMEOUT_MS). */
export declare const BASH_BACKGROUND_DEFAULT_TIMEOUT_MS: number;
/** The reference's cap on a background command: 2 hours. */
export declare const BASH_BACKGROUND_MAX_TIMEOUT_MS: number;
export { BASH_MAX_OUTPUT_BYTES, BASH_DEFAULT_SPOOL_CAP_BYTES, bashSpoolCapBytes } from './bashProcess';
declare const inputSchema: z.ZodObject<{
    command: z.ZodString;
    timeout: z.ZodOptional<z.ZodNumber>;
    description: z.ZodOptional<z.ZodString>;
    run_in_background: z.ZodOptional<z.ZodBoolean>;
    dangerouslyDisableSandbox: z.ZodOptional<z.ZodBoolean>;
}, z.core.$strict>;
export type BashInput = z.infer<typeof inputSchema>;
export interface BashOutput {
    command: string;
    /** stdout and stderr, merged in the order they were written. */
    output: string;
    exitCode: number | null;
    /** Signal that ended the shell, if any. */
    signal: string | null;
    timedOut: boolean;
    /** Aborted through the abort signal (interrupt, cancellation). */
    interrupted: boolean;
    /** Non-zero exit code that is an answer, not a failure (e.g. grep found nothing). */
    benignExitCode: boolean;
    durationMs: number;
    timeoutMs: number;
    /** Bytes of output dropped from the middle (when above BASH_MAX_OUTPUT_BYTES). */
    omittedBytes?: number;
    /**
     * The output passed the spool's cap (DURABLE_AGENT_BASH_MAX_SPOOL_BYTES): the command's process
     * group was killed; `keptBytes` were spooled (the output above is made from them).
     */
    outputCapped?: {
        capBytes: number;
        keptBytes: number;
    };
    /** A standalone `cd` moved the session to this directory. */
    newCwd?: string;
    /** Whether the command ran in the OS sandbox, why, and what the sandbox blocked. */
    sandbox?: SandboxRecord;
    /** Writes to protected paths the sandbox could not stop and the check after the call undid (src/sandbox/protect.ts). */
    protectedUndone?: string[];
    /** `run_in_background`: the task it started (the session runs it as its own activity). */
    background?: {
        taskId: string;
        outputPath: string;
    };
}
export declare function clampTimeout(timeout: number | undefined): number;
/**
 * The sandbox's part of the permission decision (the reference's meaning): a call leaving the
 * sandbox always asks (decide.ts step 7b); a sandboxed call runs without asking when
 * autoAllowBashIfSandboxed (default true); with the sandbox unavailable and failIfUnavailable set,
 * nothing runs.
 */
export declare function sandboxPermission(input: Pick<BashInput, 'command' | 'dangerouslyDisableSandbox'>, ctx: ToolUseContext): Promise<PermissionResult>;
export declare const BashTool: import("../Tool").Tool<{
    command: string;
    timeout?: number | undefined;
    description?: string | undefined;
    run_in_background?: boolean | undefined;
    dangerouslyDisableSandbox?: boolean | undefined;
}, BashOutput>;
/** A background task's id: `b` + 8 lowercase letters and digits, derived from the call (a retried call names the same task). */
export declare function backgroundTaskId(sessionId: string, toolUseId: string): string;
/** Where a session's background tasks write their output on this worker: `<session temp dir>/tasks`. */
export declare function sessionTasksDir(sessionId: string): Promise<string>;
export declare function backgroundTimeout(timeout: number | undefined): number;
/** What a background command did (src/calls/backgroundTask.ts records it in the task). */
export interface BackgroundCommandResult {
    exitCode: number | null;
    signal: string | null;
    timedOut: boolean;
    /** Stopped through the abort signal (TaskStop, the session's end). */
    interrupted: boolean;
    outputBytes: number;
    outputCapped?: {
        capBytes: number;
        keptBytes: number;
    };
    sandbox?: SandboxRecord;
    protectedUndone?: string[];
}
/**
 * Runs a background task's command the way a foreground call runs (the same sandbox plan and
 * containment, its own process group, the reaper's marker, the output cap), its stdout and stderr
 * going to `outputPath`; `ctx.agent.cwd` is where it runs. `onProgress` gets the output's size.
 */
export declare function runBackgroundCommand(spec: {
    command: string;
    timeoutMs: number;
    unsandboxed?: boolean;
    outputPath: string;
}, ctx: ToolUseContext, onProgress: (outputBytes: number) => void, 
/** A Monitor's tap: each stdout chunk as it arrives (it still goes to the output file too). */
onStdout?: (chunk: Buffer) => void): Promise<BackgroundCommandResult>;
