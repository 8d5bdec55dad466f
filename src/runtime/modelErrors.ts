// A failed model call, classified on purpose (ModelCallError, classifyModelError): retryable when
// waiting may help, permanent otherwise, with the failure's type in history; and a prompt too long.
import Anthropic from '@anthropic-ai/sdk';
import { failureKindOfStatus, type TransientFailure } from '../core/retry';
import { isPromptTooLong } from '../core/contextWindow';
import { DurableAgentError } from '../core/errors';

export function promptTooLong(err: unknown): string | undefined {
  return err instanceof Anthropic.APIError && err.status === 400 && isPromptTooLong(err.message)
    ? err.message
    : undefined;
}

/**
 * A model call that failed, classified on purpose: `retryable` when waiting may help (overload,
 * rate limit, server errors, lost connections), with what the turn's outage handling reads
 * (`transient`: kind and the server's retry-after); permanent otherwise (401, 400 …). `failureType`
 * is the failure's type in history (`ModelHttp529`, `ModelConnectionError`, …).
 */
export class ModelCallError extends DurableAgentError {
  readonly retryable: boolean;
  readonly failureType: string;
  readonly transient?: TransientFailure;
  readonly retryAfterMs?: number;
  constructor(
    message: string,
    failure: { failureType: string; retryable: boolean; transient?: TransientFailure; retryAfterMs?: number },
    options?: { cause?: unknown },
  ) {
    super(failure.retryable ? 'MODEL_UNAVAILABLE' : 'MODEL_FAILED', message, options);
    this.retryable = failure.retryable;
    this.failureType = failure.failureType;
    if (failure.transient) this.transient = failure.transient;
    if (failure.retryAfterMs !== undefined) this.retryAfterMs = failure.retryAfterMs;
  }
}

/**
 * The API's error types (`{"type":"error","error":{"type":…}}`, in an HTTP error's body or in an
 * `event: error` of a 200 stream — the SDK raises the latter as an APIError with no status and the
 * body's type in `type`), classified by TYPE wherever they arrive (DESIGN invariant 16): these
 * are worth waiting out, with the outage kind the status line shows…
 */
const TRANSIENT_ERROR_TYPES: Readonly<Record<string, string>> = {
  overloaded_error: 'overloaded',
  rate_limit_error: 'rate_limited',
  api_error: 'server_error',
  timeout_error: 'timeout',
};

/** …and these end the call at once, with a word on what to do. */
const PERMANENT_ERROR_TYPES: Readonly<Record<string, string>> = {
  invalid_request_error: 'the API refused the request as invalid',
  authentication_error:
    'the API did not accept the credentials (ANTHROPIC_API_KEY, or ANTHROPIC_AUTH_TOKEN for a bearer token)',
  permission_error: 'the credentials lack permission for this model or feature',
  not_found_error: 'not found (check the model name and ANTHROPIC_BASE_URL)',
  request_too_large: 'the request is larger than the API accepts',
  billing_error: "the organization's billing does not allow the request",
};

/**
 * Spend limits: retrying does not help until a person raises the limit or the period resets, so
 * the session ends with the reason instead of waiting forever (issue 31 item 6). Where the shapes
 * come from: the SDK's error classes (@anthropic-ai/sdk 1.14 `resources/shared.d.ts`:
 * `EnforcedSpendLimitReachedError` "the organization has crossed the monthly API usage threshold
 * of its API tier" and `ContractSpendLimitReachedError`, both 429 `rate_limit_error` with
 * `error.details.error_code`; `LinkedOrganizationSpendLimitReachedError`, 402), and the API's
 * errors page as summarised at developersdigest.tech/errors/api/anthropic-api (checked 2026-10):
 * the 429 `enforced_spend_limit_reached` carries no `retry-after`; a spend limit the user set
 * answers 400 `invalid_request_error` "You have reached your specified API usage limits …". An
 * older body without `details` is known by its wording, and only without a `retry-after` (a
 * Claude Code workspace's limit answers 429 with one: that one is waited out).
 */
const SPEND_LIMIT_CODES: ReadonlySet<string> = new Set([
  'enforced_spend_limit_reached',
  'contract_spend_limit_reached',
  'linked_organization_spend_limit_reached',
]);
const SPEND_LIMIT_WORDS =
  /spend(ing)? limit|specified (workspace )?API usage limits|usage limits? (has been |was )?reached/i;

/** The `error` object of an API error's body, whatever the SDK version made of it. */
function errorObject(err: InstanceType<typeof Anthropic.APIError>): {
  type?: string;
  message?: string;
  code?: string;
} {
  const body = err.error as
    { error?: { type?: unknown; message?: unknown; details?: { error_code?: unknown } } } | undefined;
  const inner = body && typeof body === 'object' ? body.error : undefined;
  const type = (err as { type?: unknown }).type ?? inner?.type;
  const message = (err as { apiMessage?: unknown }).apiMessage ?? inner?.message;
  const code = (err as { errorCode?: unknown }).errorCode ?? inner?.details?.error_code;
  return {
    ...(typeof type === 'string' ? { type } : {}),
    ...(typeof message === 'string' ? { message } : {}),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

/** A spend limit, by its code, else by its wording without a retry-after (see SPEND_LIMIT_CODES). */
export function isSpendLimit(
  status: number | undefined,
  error: { type?: string; message?: string; code?: string },
  retryAfter: number | undefined,
): boolean {
  if (error.code !== undefined && SPEND_LIMIT_CODES.has(error.code)) return true;
  if (retryAfter !== undefined || !SPEND_LIMIT_WORDS.test(error.message ?? '')) return false;
  return status === 429 || status === 402 || status === 400 || error.type === 'rate_limit_error';
}

/**
 * Retry on purpose: overload, rate limit, server errors and lost connections retry; client errors,
 * spend limits and authentication do not. An API error is classified by its type first (an
 * `event: error` in a 200 stream has no status), then by its status.
 */
export function classifyModelError(err: unknown): Error {
  if (err instanceof DurableAgentError) return err;
  if (err instanceof Anthropic.APIUserAbortError) return err;
  // `transient` carries the failure as the turn's outage handling reads it.
  if (err instanceof Anthropic.APIConnectionError) {
    const message = `model connection failed: ${err.message}`;
    return new ModelCallError(
      message,
      { failureType: 'ModelConnectionError', retryable: true, transient: { kind: 'connection', message } },
      { cause: err },
    );
  }
  if (err instanceof Anthropic.APIError) {
    const status: number | undefined = err.status ?? undefined;
    const retryAfter = retryAfterMs(err.headers);
    const error = errorObject(err);
    // A status error keeps the words `model API error <status>:` (the -p output reads them).
    const message =
      status !== undefined
        ? `model API error ${status}: ${err.message}`
        : `model API error in the stream (${error.type ?? 'unknown type'}): ${error.message ?? err.message}`;
    const failureType = status !== undefined ? `ModelHttp${status}` : 'ModelStreamError';
    if (isSpendLimit(status, error, retryAfter)) {
      const why = `the organization's API spend limit was reached${error.code ? ` (${error.code})` : ''}: retrying will not help until the limit is raised or resets`;
      return new ModelCallError(
        `${message} — ${why}`,
        { failureType: 'ModelSpendLimit', retryable: false },
        { cause: err },
      );
    }
    const typed = error.type;
    const transientKind = typed !== undefined ? TRANSIENT_ERROR_TYPES[typed] : undefined;
    const permanent = typed !== undefined ? PERMANENT_ERROR_TYPES[typed] : undefined;
    const byStatus =
      status !== undefined && (status === 429 || status === 529 || status === 408 || status === 409 || status >= 500);
    // A known type decides; without one, the status; an unknown stream error (no status, no known
    // type) is waited out like any other failure we cannot name (invariant 10).
    const kind =
      transientKind ??
      (permanent !== undefined
        ? undefined
        : byStatus
          ? failureKindOfStatus(status)
          : status === undefined
            ? 'other'
            : undefined);
    if (kind !== undefined) {
      const transient: TransientFailure = {
        kind,
        message,
        ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
      };
      return new ModelCallError(
        message,
        {
          failureType,
          retryable: true,
          transient,
          ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
        },
        { cause: err },
      );
    }
    return new ModelCallError(
      permanent !== undefined ? `${message} — ${typed}: ${permanent}` : message,
      { failureType, retryable: false },
      { cause: err },
    );
  }
  const message = `model call failed: ${err instanceof Error ? err.message : String(err)}`;
  // The SDK found no credentials (or a named profile it cannot use) before sending anything:
  // waiting does not help, and the session says so instead of retrying silently (issue 31 item 7).
  if (isCredentialsError(err)) {
    return new ModelCallError(
      `${message} — the worker has no usable Anthropic API credentials: give it ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN, or an SDK profile)`,
      { failureType: 'ModelCredentials', retryable: false },
      { cause: err },
    );
  }
  return new ModelCallError(
    message,
    { failureType: 'ModelError', retryable: true, transient: { kind: 'other', message } },
    { cause: err },
  );
}

/** The SDK's own words when it has no credentials to send (@anthropic-ai/sdk 1.14 client.js, credential-chain.js). */
function isCredentialsError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  // Not a WorkloadIdentityError as such: a token endpoint that answers 503 is worth waiting out.
  return /^Could not resolve authentication method\b|^ANTHROPIC_PROFILE names the profile|^Profile ".*" could not be resolved/.test(
    err.message,
  );
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const s = headers.get('retry-after');
  if (s && Number.isFinite(Number(s))) return Math.max(0, Number(s) * 1000);
  if (s) {
    const at = Date.parse(s);
    if (Number.isFinite(at)) return Math.max(0, at - Date.now());
  }
  return undefined;
}
