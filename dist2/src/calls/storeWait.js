"use strict";
// A tool call's store operations (its execution-ledger entries, its stored result) wait out a store
// outage — a full disk, a read-only remount, an unreachable shared store — inside the activity,
// heartbeating, instead of failing it (invariant 10). Failing would lose what only this attempt
// knows: a call that ran and could not record its result would be retried, find itself 'started'
// in the ledger and be reported as an unknown outcome — or, once the attempts ran out, as an error —
// although it completed. Found by `npm run test:faults` (disk faults).
Object.defineProperty(exports, "__esModule", { value: true });
exports.isStoreOutage = isStoreOutage;
exports.waitForStore = waitForStore;
/**
 * I/O failures a store recovers from: Node's system errors (`ENOSPC`, `EROFS`, `EIO`, `ENOTDIR`,
 * `ECONNREFUSED`, …) and errors a BlobStore marks `transient: true`. A parse error of a stored
 * record or an invalid key is permanent: retrying would not change it.
 */
function isStoreOutage(err) {
    if (typeof err !== 'object' || err === null)
        return false;
    const e = err;
    return e.transient === true || (typeof e.code === 'string' && /^E[A-Z0-9]+$/.test(e.code));
}
function defaultMaxWaitMs() {
    const n = Number(process.env.DURABLE_AGENT_STORE_WAIT_MS);
    return Number.isFinite(n) && n > 0 ? n : 10 * 60_000;
}
function sleep(ms, signal) {
    return new Promise((resolve, reject) => {
        if (signal.aborted)
            return reject(signal.reason ?? new Error('cancelled'));
        const timer = setTimeout(() => {
            signal.removeEventListener('abort', onAbort);
            resolve();
        }, ms);
        const onAbort = () => {
            clearTimeout(timer);
            reject(signal.reason ?? new Error('cancelled'));
        };
        signal.addEventListener('abort', onAbort, { once: true });
    });
}
/** Runs `op`, retrying while the store is out (see isStoreOutage), heartbeating what it waits for. */
async function waitForStore(what, op, ctx, opts = {}) {
    const maxWaitMs = opts.maxWaitMs ?? defaultMaxWaitMs();
    let delay = opts.firstDelayMs ?? 250;
    const since = Date.now();
    let warned = false;
    for (;;) {
        try {
            return await op();
        }
        catch (err) {
            if (!isStoreOutage(err) || ctx.signal.aborted || Date.now() - since >= maxWaitMs)
                throw err;
            const message = `${what}: ${err.message ?? String(err)}`;
            if (!warned) {
                warned = true;
                ctx.warn(`waiting for the store (${message})`);
            }
            ctx.heartbeat({ ...opts.details, waitingForStore: message.slice(0, 300), since });
            await sleep(delay, ctx.signal);
            // At most 1 s between tries: each try heartbeats, and a heartbeat timeout may be as short as a few seconds.
            delay = Math.min(delay * 2, opts.maxDelayMs ?? 1_000);
        }
    }
}
//# sourceMappingURL=storeWait.js.map