export interface CommandRunResult {
    exitCode: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
    timedOut: boolean;
    aborted: boolean;
    spawnError?: string;
    durationMs: number;
}
export interface CommandRunOptions {
    cwd: string;
    stdin: string;
    timeoutMs: number;
    signal?: AbortSignal;
    env?: NodeJS.ProcessEnv;
    /** Output beyond this many characters per stream is dropped (default 1 MB). */
    maxOutputChars?: number;
    /** Exec form: `command` is the executable and these its arguments (no shell). */
    args?: readonly string[];
    /** The shell of the string form (default `sh`). */
    shell?: 'sh' | 'bash';
}
export declare function runShellCommand(command: string, opts: CommandRunOptions): Promise<CommandRunResult>;
