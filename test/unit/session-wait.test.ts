// unit: the session's wait for its own work, once for both schedulers (src/core/sessionWait.ts): the
// adapter gives a clock, a sleep and the cron lookup; the loop decides what is due, what the wait is
// for (the UI's line) and when it ends — the same for the session workflow (sessionTimers.ts) and the
// in-process runner (inprocess/timers.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionWait, waitReason, type WaitingFor, type WaitPrimitives } from '../../src/core/sessionWait';
import { initialContext, type AgentContext } from '../../src/core/context';
import { initialSessionState } from '../../src/core/session';
import { SessionEvents } from '../../src/core/sessionEvents';

type Autonomy = NonNullable<AgentContext['autonomy']>;

function stateWith(autonomy: Autonomy) {
  const s = initialSessionState('go', initialContext('/w'));
  s.pendingMessages = [];
  s.context = { ...s.context, autonomy };
  return s;
}

/** A clock that only moves when the wait sleeps to a deadline; every call recorded. */
function scripted(start: number) {
  const calls: string[] = [];
  const described: Array<WaitingFor | undefined> = [];
  let now = start;
  let poked: (() => void) | undefined;
  const primitives: WaitPrimitives = {
    now: () => now,
    nextCronFires: async (input) => {
      calls.push(`cron ${input.jobs.map((j) => j.id).join(',')}`);
      return Object.fromEntries(input.jobs.map((j) => [j.id, j.after + 60_000]));
    },
    sleep: (woken, until) => {
      calls.push(`sleep ${until === undefined ? 'none' : until - start}`);
      if (until !== undefined) {
        now = until;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        poked = () => {
          if (woken()) resolve();
        };
      });
    },
    poked: () => poked?.(),
    describe: (w) => described.push(w),
  };
  return { primitives, calls, described };
}

test('unit: session wait — sleeps to the wake-up, queues its prompt once, says what it waited for, then ends', async () => {
  const t0 = 1_000_000;
  const state = stateWith({
    tasks: [],
    crons: [],
    wakeup: { at: t0 + 500, prompt: 'WAKE', reason: 'check CI', toolUseId: 't' },
  });
  const s = scripted(t0);
  const wait = new SessionWait(new SessionEvents(state), s.primitives);
  assert.equal(await wait.waitForWork(), true);
  assert.deepEqual(state.pendingMessages, ['WAKE']);
  assert.deepEqual(s.calls, ['sleep 500']);
  assert.deepEqual(s.described, [{ until: t0 + 500, reason: 'wake-up: check CI' }, undefined]);
  assert.equal(wait.waiting(), undefined);
  state.pendingMessages = [];
  assert.equal(await wait.waitForWork(), false);
});

test('unit: session wait — a due recurring job asks the adapter for its next firing once and moves on', async () => {
  const t0 = 2_000_000;
  const job = {
    id: 'j1',
    cron: '* * * * *',
    prompt: 'TICK',
    recurring: true,
    timeZone: 'UTC',
    createdAt: t0,
    nextFireAt: t0 - 1,
    fired: 0,
  };
  const state = stateWith({ tasks: [], crons: [job] });
  const s = scripted(t0);
  const wait = new SessionWait(new SessionEvents(state), s.primitives);
  assert.equal(await wait.waitForWork(), true);
  assert.deepEqual(state.pendingMessages, ['TICK']);
  assert.deepEqual(s.calls, ['cron j1']);
  assert.equal(state.context.autonomy?.crons[0]?.nextFireAt, t0 + 60_000);
});

test('unit: session wait — a running task: no deadline, a poke without news sleeps on, stop ends it', async () => {
  const t0 = 3_000_000;
  const task = {
    id: 'b1',
    kind: 'local_bash' as const,
    toolUseId: 'u',
    description: 'sleep',
    startedAt: t0,
    timeoutMs: 60_000,
    state: 'running' as const,
  };
  const state = stateWith({ tasks: [task], crons: [] });
  const s = scripted(t0);
  let syncs = 0;
  const wait = new SessionWait(new SessionEvents(state), s.primitives, () => syncs++);
  const ended = wait.waitForWork();
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(wait.waiting(), { reason: '1 background task running' });
  assert.equal(syncs, 1);
  wait.poke(); // a change: the wait looks again (sync, due firings) and sleeps again
  await new Promise((r) => setImmediate(r));
  assert.equal(syncs, 2);
  assert.deepEqual(s.calls, ['sleep none', 'sleep none']);
  wait.requestStop();
  assert.equal(await ended, false);
  assert.equal(wait.stopRequested, true);
});

test('unit: session wait — the reason names the wake-up and jobs due at the deadline and the running tasks', () => {
  const job = {
    id: 'j2',
    cron: '0 * * * *',
    prompt: 'P',
    recurring: true,
    timeZone: 'UTC',
    createdAt: 0,
    nextFireAt: 100,
    fired: 0,
  };
  const running = {
    id: 'b',
    kind: 'local_bash' as const,
    toolUseId: 'u',
    description: 'd',
    startedAt: 0,
    timeoutMs: 1,
    state: 'running' as const,
  };
  const a: Autonomy = {
    tasks: [running, { ...running, id: 'c' }],
    crons: [job],
    wakeup: { at: 100, prompt: 'W', reason: 'r', toolUseId: 't' },
  };
  assert.equal(waitReason(a, 100), 'wake-up: r; cron j2; 2 background tasks running');
  assert.equal(waitReason(a, 50), '2 background tasks running');
  assert.equal(waitReason(undefined, undefined), 'background work');
});
