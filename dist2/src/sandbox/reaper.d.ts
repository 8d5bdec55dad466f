export declare const CALL_MARKER_ENV = "DURABLE_AGENT_CALL";
export declare const OWNER_MARKER_ENV = "DURABLE_AGENT_SANDBOX_OWNER";
/** Process names of the sandbox's machinery: never meant to outlive their call or worker. */
export declare const SANDBOX_MACHINERY: string[];
export declare const SWEEP_INTERVAL_MS = 60000;
/** This worker process: `<pid>.<start time>`. */
export declare function ownerId(): string;
/** Is the worker process `id` (from ownerId()) still running? */
export declare function ownerAlive(id: string): boolean;
export interface MarkedProcess {
    pid: number;
    comm: string;
    owner: string;
    /** Set for a call's process, unset for the runtime's bridges. */
    callId?: string;
}
/** Processes carrying a marker (those whose environment this user may read). Empty without /proc. */
export declare function markedProcesses(): Promise<MarkedProcess[]>;
/**
 * Kills the sandbox machinery (bwrap, socat, apply-seccomp) left by workers that are gone.
 * Killing a sandbox's bwrap kills its whole pid namespace. Returns what it killed.
 */
export declare function sweepLeftovers(): Promise<MarkedProcess[]>;
/** Kills every process still carrying this worker's marker for `callId` (after a call was killed). */
export declare function killCallProcesses(callId: string): Promise<number>;
/**
 * Sweeps at once and then every SWEEP_INTERVAL_MS while any worker of this process runs.
 * Returns the stop function. What was killed is reported through `log`.
 */
export declare function startSweeping(log?: (line: string) => void): () => void;
/** The guardian's pid, when one runs (tests). */
export declare function guardianPid(): number | undefined;
/** Announces a call before its process is spawned; returns the marker env var to give the process. */
export declare function callStarting(callId: string): Record<string, string>;
export declare function callSpawned(callId: string, pgid: number | undefined): void;
/** The call ended: what it left running on purpose (`cmd &`) is no longer the guardian's. */
export declare function callEnded(callId: string, pgid?: number): void;
/** Runs `fn` with the owner marker in process.env (for the runtime's bridges, which inherit it). */
export declare function withOwnerMarker<T>(fn: () => Promise<T>): Promise<T>;
