import type { AgentContext } from '../engine/context';
import type { TaskState } from '../engine/autonomy';
import type { ToolUseContext } from '../tools/Tool';
import type { CallRuntime } from './runtime';
import { type ToolDeps, type ToolSessionInput } from './tools';
/** How often a running task heartbeats (the worker throttles what reaches the server to 80% of the heartbeat timeout). */
export declare const BACKGROUND_HEARTBEAT_MS = 1000;
export interface RunBackgroundTaskInput {
    session: ToolSessionInput;
    task: {
        id: string;
        toolUseId: string;
        command: string;
        /** Where it runs (the session's cwd when the call started it). */
        cwd: string;
        timeoutMs: number;
        outputPath: string;
        unsandboxed?: boolean;
    };
    /** The session's directories and worktree when the task starts (the sandbox plan reads them). */
    context: Pick<AgentContext, 'cwd' | 'additionalDirectories' | 'projectDir' | 'worktree'>;
}
export interface RunBackgroundTaskResult {
    state: Extract<TaskState, 'completed' | 'failed' | 'timed_out' | 'killed'>;
    exitCode: number | null;
    signal: string | null;
    outputBytes: number;
    /** `taskoutput-<sha256>` in the store; absent when it could not be stored or nothing ran. */
    outputRef?: string;
    /** Whether it ran in the OS sandbox, why, and how many violations were reported. */
    sandboxed?: boolean;
    violations?: number;
    /** Why it did not run, or what stopped it (not its own exit). */
    error?: string;
}
export declare function createBackgroundTaskCalls(deps: ToolDeps): {
    runBackgroundTask: (input: RunBackgroundTaskInput, rt: CallRuntime) => Promise<RunBackgroundTaskResult>;
    contextFor: (input: RunBackgroundTaskInput, signal: AbortSignal) => Promise<ToolUseContext>;
    wholeCommand: (input: RunBackgroundTaskInput) => Promise<string>;
    storeOutput: (path: string, warn: CallRuntime["warn"]) => Promise<string | undefined>;
};
