// Errors across the activity boundary: a DurableAgentError thrown by an activity reaches the
// workflow (and the history, and the audit) as an ApplicationFailure whose type is its code, not
// its class name — the same vocabulary the workflows use for their own failures (engine/errors.ts).
import { ApplicationFailure } from '@temporalio/common';
import { DurableAgentError } from '../engine/errors';

export function withErrorCodes<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A): Promise<R> => {
    try {
      return await fn(...args);
    } catch (err) {
      if (err instanceof DurableAgentError)
        throw ApplicationFailure.create({ type: err.code, message: err.message, cause: err });
      throw err;
    }
  };
}
