// The fake's request limit, as the Messages API enforces one (issue 34): a token bucket that holds
// `burst` requests and refills at `requestsPerMinute / 60` a second — the API's own words: "a rate
// limit of 60 RPM may be enforced as 1 request per second", capacity "continuously replenished".
// A request that finds the bucket empty is answered 429 `rate_limit_error` with `retry-after`
// (whole seconds until a request would pass) and `anthropic-ratelimit-requests-*` headers;
// refused requests take nothing from the bucket.

export interface RequestLimitOptions {
  /** Requests per minute (the bucket's refill). */
  requestsPerMinute: number;
  /** Requests the full bucket holds (a burst). Default: one second's worth, at least 1. */
  burst?: number;
}

export type Admission = { ok: true } | { ok: false; retryAfterMs: number; resetAt: number };

/** A token bucket of requests. */
export class RequestWindow {
  readonly limit: number;
  readonly burst: number;
  private tokens: number;
  private at: number | undefined;

  constructor(opts: RequestLimitOptions) {
    if (!Number.isInteger(opts.requestsPerMinute) || opts.requestsPerMinute < 1)
      throw new Error(`fake Anthropic: requestsPerMinute must be a positive integer (got ${opts.requestsPerMinute})`);
    this.limit = opts.requestsPerMinute;
    this.burst = opts.burst ?? Math.max(1, Math.ceil(opts.requestsPerMinute / 60));
    if (!(this.burst >= 1)) throw new Error(`fake Anthropic: burst must be at least 1 (got ${opts.burst})`);
    this.tokens = this.burst;
  }

  /** Admits a request now (and takes its token), or says how long until one would pass. */
  admit(now: number): Admission {
    const perMs = this.limit / 60_000;
    if (this.at !== undefined) this.tokens = Math.min(this.burst, this.tokens + (now - this.at) * perMs);
    this.at = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { ok: true };
    }
    const retryAfterMs = Math.ceil((1 - this.tokens) / perMs);
    return { ok: false, retryAfterMs, resetAt: now + retryAfterMs };
  }

  /** The headers of a 429 from this bucket. */
  static headers(a: { retryAfterMs: number; resetAt: number }, limit: number): Record<string, string> {
    return {
      'retry-after': String(Math.max(1, Math.ceil(a.retryAfterMs / 1000))),
      'anthropic-ratelimit-requests-limit': String(limit),
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': new Date(a.resetAt).toISOString(),
    };
  }
}
