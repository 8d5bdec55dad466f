/** What a retryable failure looked like to the caller (from the model or store activity). */
export interface TransientFailure {
    /** overloaded | rate_limited | server_error | connection | timeout | store | other */
    kind: string;
    message: string;
    /** The server's `retry-after`, when it gave one. */
    retryAfterMs?: number;
}
export interface RetryPolicy {
    initialMs: number;
    factor: number;
    /** No single wait is longer than this (a `retry-after` above it is capped too). */
    capMs: number;
    /** Give up once the outage has lasted this long; absent: wait for as long as it takes. */
    maxOutageMs?: number;
}
export declare const DEFAULT_RETRY_CAP_MS: number;
export declare function retryPolicy(opts?: {
    retryCapMs?: number;
    maxOutageMs?: number;
}): RetryPolicy;
/** The state shown while waiting: "waiting for the model: overloaded since …, next try in …". */
export interface OutageState {
    what: 'model' | 'store';
    kind: string;
    /** When the first failure of this outage happened (ms since the epoch). */
    since: number;
    /** Failed attempts so far. */
    attempts: number;
    lastError: string;
    /** When the next attempt starts. */
    nextTryAt: number;
}
/** The wait before attempt `failures + 1`: the server's retry-after if given, else exponential; capped. */
export declare function backoffMs(failures: number, policy: RetryPolicy, retryAfterMs?: number): number;
/**
 * Folds one more failure into the outage (or starts one) and says what to do: wait `delayMs`,
 * or give up because the session's own limit on outages would be passed.
 */
export declare function nextAttempt(previous: OutageState | undefined, what: OutageState['what'], failure: TransientFailure, now: number, policy: RetryPolicy): {
    action: 'wait';
    delayMs: number;
    state: OutageState;
} | {
    action: 'give_up';
    reason: string;
    state: OutageState;
};
/** One line for status, ls, the live view and the UI. */
export declare function describeOutage(o: OutageState, now: number): string;
/** The failure kind of a model API status (the activity classifies; this names it). */
export declare function failureKindOfStatus(status: number): string;
