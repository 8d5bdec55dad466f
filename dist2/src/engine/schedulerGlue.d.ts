import type { HookRun, SessionHookEventName } from './hooks';
import { type OutageState, type RetryPolicy, type TransientFailure } from './retry';
import type { Approval } from './turn';
/** How a scheduler waits out a store outage: its clock and sleep, how it reads a failure, how it shows the wait. */
export interface StoreOutageScheduler {
    policy: RetryPolicy;
    now(): number;
    sleep(ms: number): Promise<unknown>;
    /** The failure as the outage handling reads it; undefined when it is permanent (it is rethrown). */
    classify(err: unknown): TransientFailure | undefined;
    /** The outage's state after each failed attempt; undefined once an attempt after an outage succeeded. */
    onOutage(state: OutageState | undefined): void;
    /** The error thrown when the session's limit on outages would be passed. */
    giveUp(reason: string): Error;
}
/**
 * A store write that waits out outages as the model call does (invariant 10), attempt by attempt:
 * not interruptible, because it records what happened. `call` gets the attempt number (1, 2, ...).
 */
export declare function waitOutStoreOutage<T>(call: (attempt: number) => Promise<T>, scheduler: StoreOutageScheduler): Promise<T>;
/**
 * A retryable failure of a model or store call, from what the activity core threw: its message and
 * the details it attached (`{ kind, retryAfterMs }`). A store failure is always of kind `store`.
 */
export declare function transientFailureFromDetails(what: 'model' | 'store', message: string, details: readonly unknown[] | null | undefined): TransientFailure;
/** The decision when nobody answered an ask in time: denied, saying how long the call waited. */
export declare function approvalTimeoutDenial(timeoutMs: number): Approval;
/** A session hook firing that could not run at all: one non-blocking error (the reference carries on). */
export declare function hookFailureRuns(event: SessionHookEventName, err: unknown): HookRun[];
/** What a scheduler offers to run session hooks (the session executor's two hook methods). */
export interface SessionHookRunner {
    hasHooks?(event: SessionHookEventName): boolean;
    runHooks?(event: SessionHookEventName, fields: Record<string, unknown>, head: string | null): Promise<HookRun[]>;
}
/**
 * A call waits for a human: the Notification hooks may page one. Their answers are notices only;
 * undefined when the session has none. Both schedulers run it beside the wait (the approval never
 * waits for a hook) and let the session finish only once it has finished.
 */
export declare function notifyApprovalPending(runner: SessionHookRunner, toolName: string, head: string | null): Promise<HookRun[]> | undefined;
