// unit: the in-process runner's wait for a session's own work (src/inprocess/timers.ts): a due wake-up
// is queued once, a recurring job moves on to its next firing, stop drops the timers, a poke wakes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalTimers } from '../../src/inprocess/timers';
import { initialContext } from '../../src/core/context';
import { initialSessionState } from '../../src/core/session';
import { SessionEvents } from '../../src/core/sessionEvents';

function stateWith(autonomy: NonNullable<ReturnType<typeof initialContext>['autonomy']>) {
  const s = initialSessionState('go', initialContext('/w'));
  s.pendingMessages = [];
  s.context = { ...s.context, autonomy };
  return s;
}

test('unit: local timers — a wake-up 50 ms ahead queues its prompt once; nothing left: false', async () => {
  const state = stateWith({
    tasks: [],
    crons: [],
    wakeup: { at: Date.now() + 50, prompt: 'WAKE', reason: 'r', toolUseId: 't' },
  });
  const timers = new LocalTimers(new SessionEvents(state));
  assert.equal(await timers.waitForWork(), true);
  assert.deepEqual(state.pendingMessages, ['WAKE']);
  assert.equal(state.context.autonomy?.wakeup, undefined);
  state.pendingMessages = [];
  assert.equal(await timers.waitForWork(), false);
});

test('unit: local timers — a due recurring job is queued and moves to its next minute; stop drops it', async () => {
  const now = Date.now();
  const state = stateWith({
    tasks: [],
    crons: [
      {
        id: 'j1',
        cron: '* * * * *',
        prompt: 'TICK',
        recurring: true,
        timeZone: 'UTC',
        createdAt: now,
        nextFireAt: now - 1,
        fired: 0,
      },
    ],
  });
  const timers = new LocalTimers(new SessionEvents(state));
  assert.equal(await timers.waitForWork(), true);
  assert.deepEqual(state.pendingMessages, ['TICK']);
  const job = state.context.autonomy?.crons[0];
  assert.ok(job && job.nextFireAt! > now && job.nextFireAt! % 60_000 === 0 && job.fired === 1);
  state.pendingMessages = [];
  const waiting = timers.waitForWork();
  setTimeout(() => timers.requestStop(), 20);
  assert.equal(await waiting, false);
  assert.deepEqual(state.context.autonomy?.crons, []);
});

test('unit: local timers — a poke after a message arrived ends the wait at once', async () => {
  const state = stateWith({
    tasks: [],
    crons: [],
    wakeup: { at: Date.now() + 3_600_000, prompt: 'later', reason: 'r', toolUseId: 't' },
  });
  const timers = new LocalTimers(new SessionEvents(state));
  const waiting = timers.waitForWork();
  setTimeout(() => {
    state.pendingMessages.push('follow-up');
    timers.poke();
  }, 20);
  assert.equal(await waiting, true);
  assert.deepEqual(state.pendingMessages, ['follow-up']);
  assert.ok(state.context.autonomy?.wakeup, 'the hour-long wake-up stays pending');
});

test('unit: local timers — sync runs before each look (the plug for background tasks); a task end that queues its notification and pokes wakes the wait', async () => {
  const state = stateWith({
    tasks: [
      {
        id: 'b1',
        kind: 'local_bash',
        toolUseId: 't1',
        description: 'sleep 100',
        startedAt: Date.now(),
        timeoutMs: 60_000,
        state: 'running',
      },
    ],
    crons: [],
  });
  let looks = 0;
  const timers = new LocalTimers(new SessionEvents(state), undefined, () => {
    looks++;
    // The first look starts the "task"; it ends 20 ms later as LocalTasks ends one.
    if (looks === 1)
      setTimeout(() => {
        state.pendingMessages.push('ENDED b1');
        timers.poke();
      }, 20);
  });
  assert.equal(await timers.waitForWork(), true);
  assert.deepEqual(state.pendingMessages, ['ENDED b1']);
  assert.equal(looks, 2, 'one look before the wait, one after the poke');
});
