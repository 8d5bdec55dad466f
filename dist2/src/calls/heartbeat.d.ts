export interface HeartbeatPolicy {
    /** The first keepalive, after the call has run this long (ms). */
    firstMs: number;
    /** Then a keepalive whenever nothing was sent for this long (ms): bounds how late a cancellation arrives. */
    idleMs: number;
}
export declare const TOOL_HEARTBEATS: HeartbeatPolicy;
export interface Heartbeats {
    /** The tool reported progress: heartbeat now (its details are the caller's). */
    progress(): void;
    stop(): void;
}
export interface Timers {
    setTimeout(fn: () => void, ms: number): unknown;
    clearTimeout(handle: unknown): void;
}
/** Starts the keepalive schedule; `send` heartbeats with the caller's current details. */
export declare function startHeartbeats(send: () => void, policy?: HeartbeatPolicy, timers?: Timers): Heartbeats;
