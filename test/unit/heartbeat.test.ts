// unit: when a tool activity heartbeats (runtime/heartbeat.ts): none for a short call, a
// keepalive after firstMs and then every idleMs, at once on progress (which restarts the wait).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ACTIVITY_KEEPALIVE, startHeartbeats, TOOL_HEARTBEATS, type Timers } from '../../src/runtime/heartbeat';
import {
  HEARTBEAT_THROTTLE_MS,
  MODEL_HEARTBEAT_TIMEOUT_MS,
  TOOL_HEARTBEAT_TIMEOUT_MS,
} from '../../src/core/heartbeats';

/** A virtual clock: advance(ms) fires due timers in order. */
function clock() {
  let now = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const t: Timers = {
    setTimeout: (fn, ms) => {
      const id = ++seq;
      timers.set(id, { at: now + ms, fn });
      return id;
    },
    clearTimeout: (h) => void timers.delete(h as number),
  };
  const advance = (ms: number): void => {
    const end = now + ms;
    for (;;) {
      const due = [...timers.entries()].filter(([, x]) => x.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].fn();
    }
    now = end;
  };
  return { t, advance, now: () => now, pending: () => timers.size };
}

test('unit: a call shorter than firstMs sends no heartbeat', () => {
  const c = clock();
  const sent: number[] = [];
  const hb = startHeartbeats(() => sent.push(c.now()), { firstMs: 300, idleMs: 500 }, c.t);
  c.advance(250);
  hb.stop();
  c.advance(10_000);
  assert.deepEqual(sent, []);
  assert.equal(c.pending(), 0, 'no timer left behind');
});

test('unit: a long quiet call sends a keepalive at firstMs, then every idleMs', () => {
  const c = clock();
  const sent: number[] = [];
  const hb = startHeartbeats(() => sent.push(c.now()), { firstMs: 300, idleMs: 500 }, c.t);
  c.advance(2_000);
  hb.stop();
  assert.deepEqual(sent, [300, 800, 1300, 1800]);
});

test('unit: progress heartbeats at once and restarts the keepalive wait', () => {
  const c = clock();
  const sent: number[] = [];
  const hb = startHeartbeats(() => sent.push(c.now()), { firstMs: 300, idleMs: 500 }, c.t);
  c.advance(100);
  hb.progress();
  c.advance(400);
  hb.progress();
  c.advance(600);
  hb.stop();
  hb.progress();
  assert.deepEqual(
    sent,
    [100, 500, 1000],
    'progress at 100 and 500, a keepalive 500 ms after the last; nothing after stop',
  );
});

test('unit: sent() (another heartbeat went out) moves the next keepalive without sending', () => {
  const c = clock();
  const sent: number[] = [];
  const hb = startHeartbeats(() => sent.push(c.now()), { firstMs: 1000, idleMs: 1000 }, c.t);
  c.advance(900);
  hb.sent();
  c.advance(900);
  hb.sent();
  c.advance(1500);
  hb.stop();
  hb.sent();
  c.advance(5000);
  assert.deepEqual(sent, [2800], 'one keepalive, 1000 ms after the last sent(); none after stop');
  assert.equal(c.pending(), 0);
});

test('unit: the keepalives keep up with the heartbeat timeouts, and a cancellation arrives within two seconds', () => {
  // The longest a living worker's call goes without a heartbeat reaching the server: the idle
  // keepalive plus one throttle interval. Half the timeout at most: a loaded machine's timers run late.
  for (const policy of [TOOL_HEARTBEATS, ACTIVITY_KEEPALIVE]) {
    assert.ok(policy.idleMs + HEARTBEAT_THROTTLE_MS <= TOOL_HEARTBEAT_TIMEOUT_MS / 2);
    assert.ok(policy.firstMs + HEARTBEAT_THROTTLE_MS <= TOOL_HEARTBEAT_TIMEOUT_MS / 2);
  }
  assert.ok(ACTIVITY_KEEPALIVE.idleMs + HEARTBEAT_THROTTLE_MS <= MODEL_HEARTBEAT_TIMEOUT_MS / 2);
  assert.ok(TOOL_HEARTBEATS.idleMs + HEARTBEAT_THROTTLE_MS <= 2_000, 'an interrupted Bash learns of it within 2 s');
  assert.ok(TOOL_HEARTBEATS.firstMs <= TOOL_HEARTBEATS.idleMs, 'a Read (20 ms) sends none');
  // The previous release's model calls heartbeat every 5 s while they wait: still in time on an old worker.
  assert.ok(MODEL_HEARTBEAT_TIMEOUT_MS >= 2 * 5_000);
});
