export interface OfflineDirs {
    /** The temp root (remove it when done). */
    root: string;
    /** `<root>/project`: the run's working directory. */
    dir: string;
    /** `<root>/home`, with `.claude/` in it. */
    home: string;
}
/** A scratch project and home (`home/.claude/`, with an empty `settings.json` when `settings`). */
export declare function offlineDirs(prefix: string, opts?: {
    settings?: boolean;
}): Promise<OfflineDirs>;
/**
 * The whole environment of an offline reference run: PATH, its own home and config directory, the
 * fake API's address and a test key, no nonessential traffic, and IS_SANDBOX (it runs as root here).
 */
export declare function offlineEnv(home: string, baseURL: string, extra?: Record<string, string>, configDir?: string): Record<string, string>;
export interface ProcessRun {
    code: number | null;
    stdout: string;
    stderr: string;
}
/** Runs a command to its exit (SIGKILL after `timeoutMs`, default 120 s) and collects its output. */
export declare function runToExit(cmd: string, args: string[], opts: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    stdin?: string;
    timeoutMs?: number;
}): Promise<ProcessRun>;
/** `claude exited N: <stderr>` for a run that did not exit 0; undefined when it did. */
export declare function exitError(r: ProcessRun): string | undefined;
