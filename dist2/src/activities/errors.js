"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.toApplicationFailure = toApplicationFailure;
exports.withErrorCodes = withErrorCodes;
// Errors across the activity boundary, decided here once: the cores (src/calls, src/memory, the
// stores) throw domain errors and know nothing of Temporal; an activity that throws one fails with
// an ApplicationFailure that reaches the workflow (and the history, and the audit) with its code as
// the failure type — the same vocabulary the workflows use for their own failures
// (engine/errors.ts) — and retryable or not on purpose:
// - a ModelCallError keeps its own failure type (`ModelHttp529` …), its retryability and the
//   details the turn's outage handling reads (`TransientFailure`, the server's retry-after);
// - a DurableAgentError is retryable unless its code is in NON_RETRYABLE.
const common_1 = require("@temporalio/common");
const model_1 = require("../calls/model");
const errors_1 = require("../engine/errors");
/** Codes whose failure no retry can mend: the turn ends instead of waiting it out. */
const NON_RETRYABLE = new Set([
    // A memory blob missing or altered in the worker's store: waiting will not bring it back.
    'MEMORY_MISSING',
]);
/** The ApplicationFailure an activity fails with for a domain error; anything else as it is. */
function toApplicationFailure(err) {
    if (err instanceof model_1.ModelCallError) {
        return common_1.ApplicationFailure.create({
            message: err.message,
            type: err.failureType,
            nonRetryable: !err.retryable,
            ...(err.transient ? { details: [err.transient] } : {}),
            ...(err.retryAfterMs !== undefined ? { nextRetryDelay: err.retryAfterMs } : {}),
        });
    }
    if (err instanceof errors_1.DurableAgentError)
        return common_1.ApplicationFailure.create({
            type: err.code,
            message: err.message,
            nonRetryable: NON_RETRYABLE.has(err.code),
            cause: err,
        });
    return err;
}
function withErrorCodes(fn) {
    return async (...args) => {
        try {
            return await fn(...args);
        }
        catch (err) {
            throw toApplicationFailure(err);
        }
    };
}
//# sourceMappingURL=errors.js.map