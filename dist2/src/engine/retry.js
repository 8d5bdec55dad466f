"use strict";
// Outage tolerance (invariant 10): a transient model or store failure waits, visibly, and goes on.
// The policy and the waiting state are pure data here; the schedulers sleep (a durable timer in a
// workflow, a timer in-process) and show the state (status query, search attribute, UI details).
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_RETRY_CAP_MS = void 0;
exports.retryPolicy = retryPolicy;
exports.backoffMs = backoffMs;
exports.nextAttempt = nextAttempt;
exports.describeOutage = describeOutage;
exports.failureKindOfStatus = failureKindOfStatus;
exports.DEFAULT_RETRY_CAP_MS = 5 * 60_000;
function retryPolicy(opts = {}) {
    const capMs = opts.retryCapMs ?? exports.DEFAULT_RETRY_CAP_MS;
    return {
        initialMs: Math.min(2_000, capMs),
        factor: 2,
        capMs,
        ...(opts.maxOutageMs !== undefined ? { maxOutageMs: opts.maxOutageMs } : {}),
    };
}
/** The wait before attempt `failures + 1`: the server's retry-after if given, else exponential; capped. */
function backoffMs(failures, policy, retryAfterMs) {
    const exp = policy.initialMs * policy.factor ** Math.max(0, failures - 1);
    const wanted = retryAfterMs !== undefined && retryAfterMs > 0 ? retryAfterMs : exp;
    return Math.max(0, Math.min(policy.capMs, wanted));
}
/**
 * Folds one more failure into the outage (or starts one) and says what to do: wait `delayMs`,
 * or give up because the session's own limit on outages would be passed.
 */
function nextAttempt(previous, what, failure, now, policy) {
    const attempts = (previous?.attempts ?? 0) + 1;
    const since = previous?.since ?? now;
    const delayMs = backoffMs(attempts, policy, failure.retryAfterMs);
    const state = {
        what,
        kind: failure.kind,
        since,
        attempts,
        lastError: failure.message,
        nextTryAt: now + delayMs,
    };
    if (policy.maxOutageMs !== undefined && now + delayMs - since > policy.maxOutageMs) {
        return {
            action: 'give_up',
            state,
            reason: `the ${what} was unavailable for longer than ${Math.round(policy.maxOutageMs / 1000)} s (${attempts} attempts; last: ${failure.message})`,
        };
    }
    return { action: 'wait', delayMs, state };
}
const KIND_WORDS = {
    overloaded: 'overloaded',
    rate_limited: 'rate-limited',
    server_error: 'failing (server error)',
    connection: 'unreachable',
    timeout: 'not answering',
    store: 'failing',
    other: 'failing',
};
function clock(ms) {
    return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
/** One line for status, ls, the live view and the UI. */
function describeOutage(o, now) {
    const seconds = Math.max(0, Math.round((o.nextTryAt - now) / 1000));
    return `waiting for the ${o.what}: ${KIND_WORDS[o.kind] ?? o.kind} since ${clock(o.since)}, next try in ${seconds} s at ${clock(o.nextTryAt)} (${o.attempts} failed attempt${o.attempts === 1 ? '' : 's'}; last: ${o.lastError})`;
}
/** The failure kind of a model API status (the activity classifies; this names it). */
function failureKindOfStatus(status) {
    if (status === 529)
        return 'overloaded';
    if (status === 429)
        return 'rate_limited';
    if (status === 408)
        return 'timeout';
    return 'server_error';
}
//# sourceMappingURL=retry.js.map