// unit: the pure parts of the shared model-call limit (issue 34): the fairness key of a root
// session, the dispatch rate from requests and tokens per minute, the shared backoff, the worker's
// settings from the environment, and the fake API's request bucket.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FAIRNESS_KEY_MAX_BYTES,
  SharedBackoff,
  backoffUntil,
  fairnessKeyOf,
  modelActivitiesPerSecond,
} from '../../src/core/modelLimit';
import { modelLimitFromEnv } from '../../src/temporal/workerLimits';
import { RequestWindow } from '../../src/testing/fakeAnthropic';

test('unit: a short session id is its own fairness key; a long or non-ASCII one is cut to 64 bytes and stays distinct', () => {
  assert.equal(fairnessKeyOf('session-1'), 'session-1');
  const long = `session-${'x'.repeat(100)}`;
  const k1 = fairnessKeyOf(long);
  const k2 = fairnessKeyOf(`${long}y`);
  assert.ok(Buffer.byteLength(k1) <= FAIRNESS_KEY_MAX_BYTES);
  assert.notEqual(k1, k2);
  assert.equal(fairnessKeyOf(long), k1, 'the same id, the same key');
  const wide = fairnessKeyOf('séance-ü-'.repeat(8));
  assert.ok(Buffer.byteLength(wide) <= FAIRNESS_KEY_MAX_BYTES && /^[\x20-\x7e]+$/.test(wide));
});

test('unit: the dispatch rate is the request limit per second, lowered when the token limit allows fewer calls', () => {
  assert.equal(modelActivitiesPerSecond({ requestsPerMinute: 120 }, 8000), 2);
  // 80 000 tokens a minute at 8 000 a call: 10 calls a minute.
  assert.equal(modelActivitiesPerSecond({ requestsPerMinute: 120, tokensPerMinute: 80_000 }, 8000), 10 / 60);
  assert.equal(modelActivitiesPerSecond({ requestsPerMinute: 6, tokensPerMinute: 1_000_000 }, 8000), 0.1);
});

test('unit: the shared backoff only moves out, and says how long a call starting now waits', () => {
  const b = new SharedBackoff();
  assert.equal(b.waitMs(1000), 0);
  assert.equal(b.push(5000), true);
  assert.equal(b.push(3000), false, 'an earlier time does not shorten it');
  assert.equal(b.until, 5000);
  assert.equal(b.waitMs(4000), 1000);
  assert.equal(b.waitMs(6000), 0);
  assert.equal(backoffUntil(1000, 2500), 3500);
  assert.equal(backoffUntil(1000, undefined), 6000, 'no retry-after: 5 s');
  assert.equal(backoffUntil(0, 10 * 60_000), 60_000, 'capped at a minute');
});

test('unit: the model limit from the environment: none without DURABLE_AGENT_MODEL_RPM, bad values refused by name', () => {
  assert.equal(modelLimitFromEnv({}), undefined);
  assert.deepEqual(modelLimitFromEnv({ DURABLE_AGENT_MODEL_RPM: '50' }), {
    requestsPerMinute: 50,
    tokensPerCall: 8000,
  });
  assert.deepEqual(
    modelLimitFromEnv({
      DURABLE_AGENT_MODEL_RPM: '50',
      DURABLE_AGENT_MODEL_TPM: '400000',
      DURABLE_AGENT_MODEL_TOKENS_PER_CALL: '20000',
    }),
    { requestsPerMinute: 50, tokensPerMinute: 400_000, tokensPerCall: 20_000 },
  );
  assert.throws(() => modelLimitFromEnv({ DURABLE_AGENT_MODEL_RPM: '0' }), /DURABLE_AGENT_MODEL_RPM=0/);
  assert.throws(() => modelLimitFromEnv({ DURABLE_AGENT_MODEL_TPM: '1000' }), /needs DURABLE_AGENT_MODEL_RPM/);
});

test('unit: the fake API bucket passes one second’s worth at once, refuses past it with a retry-after, refills at the rate', () => {
  const w = new RequestWindow({ requestsPerMinute: 120 });
  assert.equal(w.burst, 2);
  assert.deepEqual(w.admit(0), { ok: true });
  assert.deepEqual(w.admit(0), { ok: true });
  const refused = w.admit(0);
  assert.equal(refused.ok, false);
  assert.ok(!refused.ok && refused.retryAfterMs === 500);
  assert.equal(RequestWindow.headers({ retryAfterMs: 500, resetAt: 500 }, 120)['retry-after'], '1');
  assert.deepEqual(w.admit(500), { ok: true }, 'half a second later: one more');
  assert.equal(w.admit(500).ok, false);
  assert.throws(() => new RequestWindow({ requestsPerMinute: 0 }), /positive integer/);
});
