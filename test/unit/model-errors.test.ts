// unit: a model API error is classified by its TYPE wherever it arrives (issue 31, DESIGN invariant
// 16): an `event: error` in a 200 stream (the SDK raises an APIError with no status), an HTTP error's
// body, or only a status. Overload, rate limit and api_error wait; invalid request, authentication,
// permission, not found and too large end the call with a clear message; a spend limit ends it too.
// The errors are the SDK's own, built as it builds them (no mock of the SDK).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { classifyModelError, isSpendLimit, ModelCallError } from '../../src/runtime/model';

/** The body the API sends, in an HTTP error or an `event: error`. */
function body(type: string, message: string, details?: Record<string, string>): Record<string, unknown> {
  return { type: 'error', error: { type, message, ...(details ? { details } : {}) }, request_id: 'req_x' };
}

/** What the SDK throws for an `event: error` frame (core/streaming: status and message undefined, the body's type). */
function streamError(type: string, message: string): InstanceType<typeof Anthropic.APIError> {
  const b = body(type, message);
  return new Anthropic.APIError(undefined, b, undefined, new Headers(), type as never);
}

/** What the SDK throws for an HTTP error (APIError.generate picks the class by status). */
function httpError(status: number, b: Record<string, unknown>, headers: Record<string, string> = {}) {
  return Anthropic.APIError.generate(status, b, undefined, new Headers(headers));
}

function classify(err: unknown): ModelCallError {
  const c = classifyModelError(err);
  assert.ok(c instanceof ModelCallError, String(c));
  return c;
}

test('unit: an error event as the first event of a 200 stream is classified by its type', () => {
  const overloaded = classify(streamError('overloaded_error', 'Overloaded'));
  assert.equal(overloaded.retryable, true);
  assert.equal(overloaded.code, 'MODEL_UNAVAILABLE');
  assert.equal(overloaded.failureType, 'ModelStreamError');
  assert.equal(overloaded.transient?.kind, 'overloaded');
  assert.doesNotMatch(overloaded.message, /error 0/);
  assert.match(overloaded.message, /overloaded_error.*Overloaded/);
  assert.equal(classify(streamError('rate_limit_error', 'slow down')).transient?.kind, 'rate_limited');
  assert.equal(classify(streamError('api_error', 'Internal server error')).transient?.kind, 'server_error');
  // A type nobody documented, in a stream: waited out like any failure we cannot name.
  assert.equal(classify(streamError('brand_new_error', '?')).retryable, true);
  for (const type of [
    'invalid_request_error',
    'authentication_error',
    'permission_error',
    'not_found_error',
    'request_too_large',
  ]) {
    const c = classify(streamError(type, 'no'));
    assert.equal(c.retryable, false, type);
    assert.equal(c.code, 'MODEL_FAILED', type);
    assert.match(c.message, new RegExp(`${type}: \\S`), type);
  }
});

test('unit: an HTTP error is classified by its type first, then its status; the status stays in the message', () => {
  const overloaded = classify(httpError(529, body('overloaded_error', 'Overloaded'), { 'retry-after': '3' }));
  assert.equal(overloaded.retryable, true);
  assert.equal(overloaded.failureType, 'ModelHttp529');
  assert.deepEqual(overloaded.transient, { kind: 'overloaded', message: overloaded.message, retryAfterMs: 3000 });
  assert.match(overloaded.message, /^model API error 529: /);
  assert.equal(classify(httpError(429, body('rate_limit_error', 'per-minute'))).transient?.kind, 'rate_limited');
  assert.equal(classify(httpError(500, body('api_error', 'oops'))).transient?.kind, 'server_error');
  // A 5xx from a proxy with no API body: the status decides.
  assert.equal(classify(httpError(502, { html: '<h1>Bad gateway</h1>' })).transient?.kind, 'server_error');
  const auth = classify(httpError(401, body('authentication_error', 'invalid x-api-key')));
  assert.equal(auth.retryable, false);
  assert.equal(auth.failureType, 'ModelHttp401');
  assert.match(auth.message, /^model API error 401: .*invalid x-api-key.*ANTHROPIC_API_KEY.*ANTHROPIC_AUTH_TOKEN/);
  assert.match(classify(httpError(404, body('not_found_error', 'model: x'))).message, /check the model name/);
  assert.equal(classify(httpError(413, body('request_too_large', 'too big'))).retryable, false);
  assert.equal(classify(httpError(403, body('permission_error', 'no'))).retryable, false);
  assert.equal(classify(httpError(400, body('invalid_request_error', 'bad'))).retryable, false);
});

test('unit: a spend-limit 429 is permanent (by error_code, or by its wording without retry-after)', () => {
  const coded = classify(
    httpError(
      429,
      body('rate_limit_error', 'Your organization has reached its monthly spend limit.', {
        error_code: 'enforced_spend_limit_reached',
      }),
    ),
  );
  assert.equal(coded.retryable, false);
  assert.equal(coded.code, 'MODEL_FAILED');
  assert.equal(coded.failureType, 'ModelSpendLimit');
  assert.match(coded.message, /^model API error 429: .*spend limit was reached \(enforced_spend_limit_reached\)/);
  const worded = classify(httpError(429, body('rate_limit_error', 'You have reached your spend limit for this month')));
  assert.equal(worded.retryable, false);
  // The same wording with a retry-after (a Claude Code workspace's limit) is waited out.
  const timed = classify(httpError(429, body('rate_limit_error', 'spend limit reached'), { 'retry-after': '60' }));
  assert.equal(timed.retryable, true);
  assert.equal(timed.transient?.retryAfterMs, 60_000);
  // A plain rate limit is not a spend limit.
  assert.equal(classify(httpError(429, body('rate_limit_error', 'tokens per minute'))).retryable, true);
  assert.equal(isSpendLimit(400, { message: 'You have reached your specified API usage limits.' }, undefined), true);
  assert.equal(
    isSpendLimit(429, { message: 'Number of request tokens has exceeded your rate limit' }, undefined),
    false,
  );
});

test('unit: a lost connection and an unknown error stay transient', () => {
  assert.equal(classify(new Anthropic.APIConnectionError({ message: 'reset' })).transient?.kind, 'connection');
  assert.equal(classify(new Error('socket hang up')).transient?.kind, 'other');
});
