"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.waitOutStoreOutage = waitOutStoreOutage;
exports.transientFailureFromDetails = transientFailureFromDetails;
exports.approvalTimeoutDenial = approvalTimeoutDenial;
exports.hookFailureRuns = hookFailureRuns;
exports.notifyApprovalPending = notifyApprovalPending;
// The glue both schedulers need around the engine (issue 21, finding 4): the session and turn
// workflows (Temporal) and the in-process runner (src/local) each used to write these themselves,
// and they had begun to diverge. Pure: the schedulers pass their clock, sleep and error reading in.
const session_1 = require("./session");
const retry_1 = require("./retry");
/**
 * A store write that waits out outages as the model call does (invariant 10), attempt by attempt:
 * not interruptible, because it records what happened. `call` gets the attempt number (1, 2, ...).
 */
async function waitOutStoreOutage(call, scheduler) {
    let outage;
    for (let attempt = 1;; attempt++) {
        try {
            const r = await call(attempt);
            if (outage)
                scheduler.onOutage(undefined);
            return r;
        }
        catch (err) {
            const failure = scheduler.classify(err);
            if (!failure)
                throw err;
            const step = (0, retry_1.nextAttempt)(outage, 'store', failure, scheduler.now(), scheduler.policy);
            outage = step.state;
            if (step.action === 'give_up')
                throw scheduler.giveUp(step.reason);
            scheduler.onOutage(outage);
            await scheduler.sleep(step.delayMs);
        }
    }
}
/**
 * A retryable failure of a model or store call, from what the activity core threw: its message and
 * the details it attached (`{ kind, retryAfterMs }`). A store failure is always of kind `store`.
 */
function transientFailureFromDetails(what, message, details) {
    const d = details?.[0];
    const kind = what === 'store' ? 'store' : typeof d?.kind === 'string' ? d.kind : 'other';
    return { kind, message, ...(typeof d?.retryAfterMs === 'number' ? { retryAfterMs: d.retryAfterMs } : {}) };
}
/** The decision when nobody answered an ask in time: denied, saying how long the call waited. */
function approvalTimeoutDenial(timeoutMs) {
    return {
        decision: 'deny',
        source: 'timeout',
        afterMs: timeoutMs,
        reason: `No approval arrived within ${Math.round(timeoutMs / 1000)} s; denied by default for unattended runs.`,
    };
}
/** A session hook firing that could not run at all: one non-blocking error (the reference carries on). */
function hookFailureRuns(event, err) {
    return [
        {
            event,
            hook: `${event} hooks`,
            outcome: 'non_blocking_error',
            durationMs: 0,
            error: err instanceof Error ? err.message : String(err),
        },
    ];
}
/**
 * A call waits for a human: the Notification hooks may page one. Their answers are notices only;
 * undefined when the session has none. Both schedulers run it beside the wait (the approval never
 * waits for a hook) and let the session finish only once it has finished.
 */
function notifyApprovalPending(runner, toolName, head) {
    if (!runner.runHooks || !runner.hasHooks?.('Notification'))
        return undefined;
    return runner.runHooks('Notification', (0, session_1.approvalNotification)(toolName), head);
}
//# sourceMappingURL=schedulerGlue.js.map