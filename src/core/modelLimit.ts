// One model-call limit for many workers (issue 34; docs/deployment.md "One rate limit for many
// workers"): the pure parts. Sessions whose input names a model task queue schedule their model
// calls there with the root session as the fairness key; the workers of that queue ask the server
// for at most `requestsPerMinute / 60` activity starts a second across all of them
// (`maxTaskQueueActivitiesPerSecond`), and a 429 or overload one of them sees pushes the shared
// backoff out for all (temporal/activities/modelGate.ts keeps it in a limiter workflow).

/** Temporal's limit on a fairness key (bytes). */
export const FAIRNESS_KEY_MAX_BYTES = 64;

/**
 * The fairness key of a session's model calls: its root session's id, so a session and every agent
 * it starts share one key (one share of the limit). An id longer than Temporal allows keeps its
 * head and a hash of the whole (still one key per id).
 */
export function fairnessKeyOf(rootSessionId: string): string {
  if (utf8Length(rootSessionId) <= FAIRNESS_KEY_MAX_BYTES && /^[\x20-\x7e]*$/.test(rootSessionId)) return rootSessionId;
  const hash = fnv1a(rootSessionId).toString(16).padStart(8, '0');
  const head = rootSessionId.replace(/[^\x20-\x7e]/g, '_').slice(0, FAIRNESS_KEY_MAX_BYTES - hash.length - 1);
  return `${head}~${hash}`;
}

function utf8Length(s: string): number {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The model limit a worker is configured with (requests per minute across the model queue; tokens per minute optional). */
export interface ModelLimit {
  requestsPerMinute: number;
  tokensPerMinute?: number;
}

/**
 * Activity starts per second the model queue's workers ask the server for: the request limit, or
 * fewer when the token limit allows fewer calls of `tokensPerCall` (an estimate of a call's input and
 * output tokens) a minute.
 */
export function modelActivitiesPerSecond(limit: ModelLimit, tokensPerCall: number): number {
  const byRequests = limit.requestsPerMinute;
  const byTokens =
    limit.tokensPerMinute !== undefined && tokensPerCall > 0 ? limit.tokensPerMinute / tokensPerCall : Infinity;
  return Math.min(byRequests, byTokens) / 60;
}

/**
 * The shared backoff: the time until which no worker of the queue calls the model. A 429 or an
 * overload pushes it out to `now + retry-after` (or `fallbackMs` without one); it never moves back.
 */
export class SharedBackoff {
  until = 0;

  /** Pushes the backoff out; true when it moved. */
  push(until: number): boolean {
    if (!(until > this.until)) return false;
    this.until = until;
    return true;
  }

  /** How long a call starting now waits (ms). */
  waitMs(now: number): number {
    return Math.max(0, this.until - now);
  }
}

/** When a refused call pushes the backoff to: the server's retry-after, else `fallbackMs`, capped at `capMs`. */
export function backoffUntil(
  now: number,
  retryAfterMs: number | undefined,
  fallbackMs = 5_000,
  capMs = 60_000,
): number {
  return now + Math.min(capMs, retryAfterMs ?? fallbackMs);
}

/** The limiter workflow that holds a model queue's shared backoff: its type, id, signal and query. */
export const MODEL_GATE = {
  workflowType: 'modelGateWorkflow',
  signal: 'modelBackoff',
  query: 'modelBackoffUntil',
  workflowId: (modelTaskQueue: string): string => `model-gate/${modelTaskQueue}`,
} as const;

/** The transient kinds of a refused model call that push the shared backoff out (a 429, an overload). */
export const BACKOFF_KINDS: ReadonlySet<string> = new Set(['rate_limited', 'overloaded']);
