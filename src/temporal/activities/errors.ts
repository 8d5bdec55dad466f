// Errors across the activity boundary, decided here once: the cores (src/runtime, src/claudeMd, the
// stores) throw domain errors and know nothing of Temporal; an activity that throws one fails with
// an ApplicationFailure that reaches the workflow (and the history, and the audit) with its code as
// the failure type — the same vocabulary the workflows use for their own failures
// (core/errors.ts) — and retryable or not on purpose:
// - a ModelCallError keeps its own failure type (`ModelHttp529` …), its retryability and the
//   details the turn's outage handling reads (`TransientFailure`, the server's retry-after);
// - a DurableAgentError is retryable unless its code is in NON_RETRYABLE.
import { ApplicationFailure } from '@temporalio/common';
import { ModelCallError } from '../../runtime/model';
import { DurableAgentError, type ErrorCode } from '../../core/errors';

/** Codes whose failure no retry can mend: the turn ends instead of waiting it out. */
const NON_RETRYABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  // A memory blob missing or altered in the worker's store: waiting will not bring it back.
  'MEMORY_MISSING',
  // A content-addressed blob that does not match its hash: reading it again gives the same bytes.
  'STORE_BLOB_CORRUPT',
]);

/** The ApplicationFailure an activity fails with for a domain error; anything else as it is. */
export function toApplicationFailure(err: unknown): unknown {
  if (err instanceof ModelCallError) {
    return ApplicationFailure.create({
      message: err.message,
      type: err.failureType,
      nonRetryable: !err.retryable,
      ...(err.transient ? { details: [err.transient] } : {}),
      ...(err.retryAfterMs !== undefined ? { nextRetryDelay: err.retryAfterMs } : {}),
    });
  }
  if (err instanceof DurableAgentError)
    return ApplicationFailure.create({
      type: err.code,
      message: err.message,
      nonRetryable: NON_RETRYABLE.has(err.code),
      cause: err,
    });
  return err;
}

export function withErrorCodes<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A): Promise<R> => {
    try {
      return await fn(...args);
    } catch (err) {
      throw toApplicationFailure(err);
    }
  };
}
