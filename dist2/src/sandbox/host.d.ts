import type { RuntimePlan } from './policy';
/** The parts of the runtime's SandboxManager we use (the package is ESM; it is loaded with import()). */
export interface SandboxRuntime {
    initialize(config: unknown, ask?: unknown, enableLogMonitor?: boolean): Promise<void>;
    isSupportedPlatform(): boolean;
    checkDependencies(): {
        errors: string[];
        warnings: string[];
    };
    wrapWithSandbox(command: string, binShell?: string, customConfig?: unknown, abortSignal?: AbortSignal, options?: {
        commandId?: string;
        commandText?: string;
    }): Promise<string>;
    registerCommandNetworkLists(commandId: string, lists: {
        allowedDomains?: string[];
    }): void;
    unregisterCommandNetworkLists(commandId: string): void;
    getSandboxViolationStore(): {
        getViolationsForCommand(key: string): Array<{
            line: string;
        }>;
    };
    cleanupAfterCommand(): void;
    reset(): Promise<void>;
}
/** The runtime package's SandboxManager: one object per process (the package's module state). */
export declare function loadSandboxRuntime(): Promise<SandboxRuntime>;
export declare function currentPlatform(): string;
export type SandboxAvailability = {
    available: true;
} | {
    available: false;
    reason: string;
};
/**
 * Bash's OS sandbox on this host: availability, wrapping one command with a session's plan, and
 * closing the runtime's proxies. The worker's start-up and the in-process runner each own one and
 * pass it to Bash through the tool context (`ToolUseContext.sandboxHost`); Bash has no other way
 * to the sandbox. Hosts of one runtime share its lock (see RuntimeLock).
 */
export declare class SandboxHost {
    private readonly load;
    private runtimePromise;
    private availabilityPromise;
    /** `load`: the runtime (default: the package's SandboxManager, loaded on first use). */
    constructor(load?: () => Promise<SandboxRuntime>);
    private runtime;
    /**
     * Can Bash be sandboxed here? Checks the platform and the dependencies, then runs `true` in a
     * real sandbox once (that is what catches a kernel without user namespaces, a missing
     * capability, a seccomp helper that does not run). Cached for the life of the runtime.
     */
    availability(): Promise<SandboxAvailability>;
    /** Wraps one command for the sandbox with this session's plan. The caller spawns it and calls finish(). */
    prepare(command: string, plan: RuntimePlan, tmpDir: string, abortSignal?: AbortSignal): Promise<PreparedCommand>;
    /**
     * Stops the runtime's proxies once no sandboxed command runs (they keep a process alive). The next
     * sandboxed command starts them again. For embedders that want their process to exit; the CLI exits anyway.
     */
    close(): Promise<void>;
}
/** The session's temp directory on this worker: writable inside the sandbox, TMPDIR of its commands. */
export declare function sessionTempDir(sessionId: string): Promise<string>;
/** The path of the session's temp directory on this worker (sessionTempDir creates it). */
export declare function sessionTempPath(sessionId: string): string;
/** Where the session's background tasks write their output on this worker (Read may read it). */
export declare function sessionTasksPath(sessionId: string): string;
export interface PreparedCommand {
    /** Run it with `bash -c`. */
    shellCommand: string;
    commandId: string;
    /** Call once the command (and its process group) has ended: the sandbox's violation reports. */
    finish(): string[];
}
