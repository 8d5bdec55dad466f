// Outage tolerance (invariant 10): a transient model or store failure waits, visibly, and goes on.
// The policy and the waiting state are pure data here; the schedulers sleep (a durable timer in a
// workflow, a timer in-process) and show the state (status query, search attribute, UI details).

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

export const DEFAULT_RETRY_CAP_MS = 5 * 60_000;

export function retryPolicy(opts: { retryCapMs?: number; maxOutageMs?: number } = {}): RetryPolicy {
  const capMs = opts.retryCapMs ?? DEFAULT_RETRY_CAP_MS;
  return {
    initialMs: Math.min(2_000, capMs),
    factor: 2,
    capMs,
    ...(opts.maxOutageMs !== undefined ? { maxOutageMs: opts.maxOutageMs } : {}),
  };
}

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
export function backoffMs(failures: number, policy: RetryPolicy, retryAfterMs?: number): number {
  const exp = policy.initialMs * policy.factor ** Math.max(0, failures - 1);
  const wanted = retryAfterMs !== undefined && retryAfterMs > 0 ? retryAfterMs : exp;
  return Math.max(0, Math.min(policy.capMs, wanted));
}

/**
 * Folds one more failure into the outage (or starts one) and says what to do: wait `delayMs`,
 * or give up because the session's own limit on outages would be passed.
 */
export function nextAttempt(
  previous: OutageState | undefined,
  what: OutageState['what'],
  failure: TransientFailure,
  now: number,
  policy: RetryPolicy,
): { action: 'wait'; delayMs: number; state: OutageState } | { action: 'give_up'; reason: string; state: OutageState } {
  const attempts = (previous?.attempts ?? 0) + 1;
  const since = previous?.since ?? now;
  const delayMs = backoffMs(attempts, policy, failure.retryAfterMs);
  const state: OutageState = {
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

const KIND_WORDS: Record<string, string> = {
  overloaded: 'overloaded',
  rate_limited: 'rate-limited',
  server_error: 'failing (server error)',
  connection: 'unreachable',
  timeout: 'not answering',
  store: 'failing',
  other: 'failing',
};

function clock(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** One line for status, ls, the live view and the UI. */
export function describeOutage(o: OutageState, now: number): string {
  const seconds = Math.max(0, Math.round((o.nextTryAt - now) / 1000));
  return `waiting for the ${o.what}: ${KIND_WORDS[o.kind] ?? o.kind} since ${clock(o.since)}, next try in ${seconds} s at ${clock(o.nextTryAt)} (${o.attempts} failed attempt${o.attempts === 1 ? '' : 's'}; last: ${o.lastError})`;
}

/** The failure kind of a model API status (the activity classifies; this names it). */
export function failureKindOfStatus(status: number): string {
  if (status === 529) return 'overloaded';
  if (status === 429) return 'rate_limited';
  if (status === 408) return 'timeout';
  return 'server_error';
}
