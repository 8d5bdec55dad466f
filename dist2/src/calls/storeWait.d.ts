export interface StoreWaitRuntime {
    signal: AbortSignal;
    heartbeat(details?: unknown): void;
    warn(message: string, meta?: Record<string, unknown>): void;
}
export interface StoreWaitOptions {
    /** Give up (throw the last error) after waiting this long. Default: env DURABLE_AGENT_STORE_WAIT_MS, else 10 min. */
    maxWaitMs?: number;
    firstDelayMs?: number;
    maxDelayMs?: number;
    /** Extra heartbeat details (e.g. the tool_use id) next to `waitingForStore`. */
    details?: Record<string, unknown>;
}
/**
 * I/O failures a store recovers from: Node's system errors (`ENOSPC`, `EROFS`, `EIO`, `ENOTDIR`,
 * `ECONNREFUSED`, …) and errors a BlobStore marks `transient: true`. A parse error of a stored
 * record or an invalid key is permanent: retrying would not change it.
 */
export declare function isStoreOutage(err: unknown): boolean;
/** Runs `op`, retrying while the store is out (see isStoreOutage), heartbeating what it waits for. */
export declare function waitForStore<T>(what: string, op: () => Promise<T>, ctx: StoreWaitRuntime, opts?: StoreWaitOptions): Promise<T>;
