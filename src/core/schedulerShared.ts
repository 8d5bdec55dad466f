// The glue both schedulers need around the engine (issue 21, finding 4): the session and turn
// workflows (Temporal) and the in-process runner (src/inprocess) each used to write these themselves,
// and they had begun to diverge. Pure: the schedulers pass their clock, sleep and error reading in.
import { approvalNotification } from './session';
import type { HookRun, SessionHookEventName } from './hooks';
import { nextAttempt, type OutageState, type RetryPolicy, type TransientFailure } from './retry';
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
export async function waitOutStoreOutage<T>(
  call: (attempt: number) => Promise<T>,
  scheduler: StoreOutageScheduler,
): Promise<T> {
  let outage: OutageState | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      const r = await call(attempt);
      if (outage) scheduler.onOutage(undefined);
      return r;
    } catch (err) {
      const failure = scheduler.classify(err);
      if (!failure) throw err;
      const step = nextAttempt(outage, 'store', failure, scheduler.now(), scheduler.policy);
      outage = step.state;
      if (step.action === 'give_up') throw scheduler.giveUp(step.reason);
      scheduler.onOutage(outage);
      await scheduler.sleep(step.delayMs);
    }
  }
}

/**
 * A retryable failure of a model or store call, from what the activity core threw: its message and
 * the details it attached (`{ kind, retryAfterMs }`). A store failure is always of kind `store`.
 */
export function transientFailureFromDetails(
  what: 'model' | 'store',
  message: string,
  details: readonly unknown[] | null | undefined,
): TransientFailure {
  const d = details?.[0] as Partial<TransientFailure> | undefined;
  const kind = what === 'store' ? 'store' : typeof d?.kind === 'string' ? d.kind : 'other';
  return { kind, message, ...(typeof d?.retryAfterMs === 'number' ? { retryAfterMs: d.retryAfterMs } : {}) };
}

/** The decision when nobody answered an ask in time: denied, saying how long the call waited. */
export function approvalTimeoutDenial(timeoutMs: number): Approval {
  return {
    decision: 'deny',
    source: 'timeout',
    afterMs: timeoutMs,
    reason: `No approval arrived within ${Math.round(timeoutMs / 1000)} s; denied by default for unattended runs.`,
  };
}

/** A session hook firing that could not run at all: one non-blocking error (the reference carries on). */
export function hookFailureRuns(event: SessionHookEventName, err: unknown): HookRun[] {
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
export function notifyApprovalPending(
  runner: SessionHookRunner,
  toolName: string,
  head: string | null,
): Promise<HookRun[]> | undefined {
  if (!runner.runHooks || !runner.hasHooks?.('Notification')) return undefined;
  return runner.runHooks('Notification', approvalNotification(toolName), head);
}
