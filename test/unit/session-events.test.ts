// unit: session events (core/sessionEvents.ts, issue 32) — handlers, tasks, monitors and timers
// append; one pure reducer applies; the loop settles at its fixed points. Orderings: a follow-up and
// a task's end in either order during a turn, a stop after a queued wake-up, two Monitor batches and
// a timer, events that arrive while the loop waits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Autonomy, BackgroundTask, TaskOutcome } from '../../src/core/autonomy';
import { initialContext } from '../../src/core/context';
import type { Message } from '../../src/core/apiMessages';
import {
  initialSessionState,
  runSession,
  sessionConfig,
  type SessionExecutor,
  type SessionState,
  type TurnReport,
} from '../../src/core/session';
import {
  SessionEvents,
  applySessionEvent,
  applySessionEvents,
  queuesMessage,
  type SessionEvent,
} from '../../src/core/sessionEvents';
import { TaskScheduling } from '../../src/tasks/core/taskScheduling';
import { taskNotification } from '../../src/tasks/core/taskNotifications';

const task = (id: string): BackgroundTask => ({
  id,
  kind: 'local_bash',
  toolUseId: `toolu_${id}`,
  description: `job ${id}`,
  command: `run ${id}`,
  startedAt: 1,
  timeoutMs: 60_000,
  state: 'running',
});
const done: TaskOutcome = { state: 'completed', endedAt: 5, exitCode: 0, outputBytes: 3 };
const wakeup = { at: 100, prompt: 'WAKE', reason: 'check', toolUseId: 'toolu_w' };
const cron = {
  id: 'j1',
  cron: '* * * * *',
  prompt: 'TICK',
  recurring: true,
  timeZone: 'UTC',
  createdAt: 0,
  nextFireAt: 60_000,
  fired: 0,
};

function stateWith(autonomy?: Autonomy): SessionState {
  const s = initialSessionState('go', initialContext('/w'));
  s.pendingMessages = [];
  if (autonomy) s.context = { ...s.context, autonomy };
  return s;
}

const EVERY_EVENT: SessionEvent[] = [
  { type: 'followUp', text: 'hi' },
  { type: 'taskEnded', taskId: 'b1', outcome: done, notification: 'N b1' },
  { type: 'taskEndsReapplied', ends: [{ taskId: 'b1', outcome: done }] },
  { type: 'monitorEvent', taskId: 'm1', text: 'M m1' },
  { type: 'timerDue', autonomy: { tasks: [], crons: [] }, prompts: ['WAKE'] },
  { type: 'stop' },
  { type: 'subagentUsage', modelUsage: {} },
];

test('unit: session events — the reducer is pure: the state it is given is never changed', () => {
  const state = stateWith({ tasks: [task('b1')], wakeup, crons: [cron] });
  const before = structuredClone(state);
  for (const e of EVERY_EVENT) applySessionEvent(state, e);
  applySessionEvents(state, EVERY_EVENT);
  assert.deepEqual(state, before);
});

test('unit: session events — each event: what it changes, and whether it wakes an idle session', () => {
  const s0 = stateWith({ tasks: [task('b1')], wakeup, crons: [cron] });
  const follow = applySessionEvent(s0, { type: 'followUp', text: 'hi' });
  assert.deepEqual(follow.pendingMessages, ['hi']);
  const ended = applySessionEvent(s0, { type: 'taskEnded', taskId: 'b1', outcome: done, notification: 'N b1' });
  assert.equal(ended.context.autonomy?.tasks[0]?.state, 'completed');
  assert.equal(ended.context.autonomy?.tasks[0]?.command, undefined, 'the ended record keeps no command');
  assert.deepEqual(ended.pendingMessages, ['N b1']);
  // A stopped task's end: its record ends, nothing is queued.
  const killed = applySessionEvent(s0, { type: 'taskEnded', taskId: 'b1', outcome: { ...done, state: 'killed' } });
  assert.equal(killed.context.autonomy?.tasks[0]?.state, 'killed');
  assert.deepEqual(killed.pendingMessages, []);
  // Applied again over a stale context: the same end; over a context that has it already: no change.
  const again = applySessionEvent(s0, { type: 'taskEndsReapplied', ends: [{ taskId: 'b1', outcome: done }] });
  assert.deepEqual(again.context.autonomy, ended.context.autonomy);
  assert.equal(applySessionEvent(ended, { type: 'taskEndsReapplied', ends: [{ taskId: 'b1', outcome: done }] }), ended);
  const stopped = applySessionEvent(s0, { type: 'stop' });
  assert.deepEqual(stopped.context.autonomy, { tasks: s0.context.autonomy!.tasks, crons: [] });
  const entry = {
    inputTokens: 2,
    outputTokens: 1,
    cacheReadInputTokens: 0,
    cacheCreationInputTokens: 0,
    webSearchRequests: 0,
    costUSD: 0.5,
    calls: 1,
  };
  const usage = applySessionEvent(s0, { type: 'subagentUsage', modelUsage: { 'claude-x': entry } });
  assert.equal(usage.modelUsage?.['claude-x']?.calls, 1);
  assert.deepEqual(
    EVERY_EVENT.map((e) => [e.type, queuesMessage(e)]),
    [
      ['followUp', true],
      ['taskEnded', true],
      ['taskEndsReapplied', false],
      ['monitorEvent', true],
      ['timerDue', true],
      ['stop', false],
      ['subagentUsage', false],
    ],
  );
  assert.throws(() => applySessionEvent(s0, { type: 'nope' } as unknown as SessionEvent), /unknown session event/);
});

test('unit: session events — appended events wait for settle; view shows them without applying; hasMessages counts them', () => {
  const state = stateWith({ tasks: [], crons: [] });
  const events = new SessionEvents(state);
  events.append({ type: 'monitorEvent', taskId: 'm1', text: 'M1' });
  events.append({ type: 'monitorEvent', taskId: 'm1', text: 'M2' });
  events.append({ type: 'timerDue', autonomy: { tasks: [], crons: [] }, prompts: ['WAKE'] });
  assert.deepEqual(state.pendingMessages, [], 'nothing applied before the fixed point');
  assert.equal(events.hasMessages(), true);
  assert.deepEqual(events.view().pendingMessages, ['M1', 'M2', 'WAKE']);
  assert.deepEqual(state.pendingMessages, [], 'a view changes nothing');
  const held = state;
  assert.equal(events.settle(), held, 'the scheduler keeps its one state object');
  assert.deepEqual(state.pendingMessages, ['M1', 'M2', 'WAKE'], 'two Monitor batches and a timer, in arrival order');
  assert.deepEqual(events.pending(), []);
});

test('unit: session events — a stop after a queued wake-up: the prompt stays queued, the timers are dropped', () => {
  const state = stateWith({ tasks: [task('b1')], wakeup, crons: [cron] });
  const events = new SessionEvents(state);
  // The wake-up came due (its prompt queued, the wake-up gone), then `stop` reached the idle point.
  events.append({ type: 'timerDue', autonomy: { tasks: [task('b1')], crons: [cron] }, prompts: ['WAKE'] });
  events.append({ type: 'stop' });
  events.settle();
  assert.deepEqual(state.pendingMessages, ['WAKE']);
  assert.deepEqual(state.context.autonomy, { tasks: [task('b1')], crons: [] });
  // A follow-up after the stop is still a message for the next turn.
  events.apply({ type: 'followUp', text: 'one more' });
  assert.deepEqual(state.pendingMessages, ['WAKE', 'one more']);
});

/** A session whose turn 1 starts task b1; during turn 1 a follow-up and the task's end arrive in `order`. */
async function followUpAndTaskEnd(order: 'followUp first' | 'taskEnd first') {
  const state = stateWith({ tasks: [task('b1')], crons: [] });
  state.pendingMessages = ['go'];
  const events = new SessionEvents(state);
  const ends = new Map<string, () => void>();
  const book = new TaskScheduling(
    events,
    { start: (t, ended) => void ends.set(t.id, () => ended(done)), stop: () => undefined },
    taskNotification,
    () => undefined,
  );
  const sent: string[][] = [];
  const seenDuringTurn: number[] = [];
  const exec: SessionExecutor = {
    events,
    async runTurn(turn: number, append: Message[]): Promise<TurnReport> {
      book.beforeTurn();
      const stale = state.context;
      sent.push(append.map((m) => String(m.content)));
      if (turn === 1) {
        const arrivals = [() => events.append({ type: 'followUp', text: 'also this' }), () => ends.get('b1')!()];
        if (order === 'taskEnd first') arrivals.reverse();
        for (const a of arrivals) a();
        seenDuringTurn.push(state.pendingMessages.length);
      }
      // The turn returns the context it started with (the task still running in it).
      return {
        reason: 'end_turn',
        consumedAppend: true,
        head: `h${turn}`,
        context: stale,
        records: [],
        text: `t${turn}`,
      };
    },
    takeInterrupt: () => false,
    waitForMessage: async () => false,
  };
  const end = await runSession(state, sessionConfig({}), exec);
  book.sync();
  return { end, sent, seenDuringTurn, state };
}

test('unit: session events — a follow-up and a task end during a turn, in either order: one more turn gets both, in arrival order; the task ends', async () => {
  const a = await followUpAndTaskEnd('followUp first');
  const b = await followUpAndTaskEnd('taskEnd first');
  for (const r of [a, b]) {
    assert.equal(r.end.kind === 'end' && r.end.status, 'completed');
    assert.deepEqual(r.seenDuringTurn, [1], 'nothing is applied while the turn runs (only its own prompt is pending)');
    assert.equal(r.sent.length, 2, 'a turn for what came during turn 1');
    assert.deepEqual(r.sent[0], ['go']);
    assert.equal(r.sent[1]!.length, 2);
    assert.deepEqual(r.state.pendingMessages, []);
    assert.equal(
      r.state.context.autonomy?.tasks[0]?.state,
      'completed',
      'the end is applied again over the stale context',
    );
  }
  assert.equal(a.sent[1]![0], 'also this');
  assert.match(a.sent[1]![1]!, /<task-notification>[\s\S]*b1[\s\S]*completed/);
  assert.match(b.sent[1]![0]!, /<task-notification>/);
  assert.equal(b.sent[1]![1], 'also this');
});

test('unit: session events — a follow-up that arrives while the loop waits after an interrupt wakes it and is applied before the next turn', async () => {
  const state = stateWith();
  state.pendingMessages = ['go'];
  const events = new SessionEvents(state);
  const sent: string[][] = [];
  let waited = false;
  const exec: SessionExecutor = {
    events,
    async runTurn(turn, append) {
      sent.push(append.map((m) => String(m.content)));
      return {
        reason: turn === 1 ? 'interrupted' : 'end_turn',
        consumedAppend: true,
        head: null,
        context: state.context,
        records: [],
        text: '',
      };
    },
    takeInterrupt: () => false,
    async waitForMessage() {
      waited = true;
      events.append({ type: 'followUp', text: 'carry on' });
      // The wait's predicate sees the appended message; the state has it only after the loop settles.
      assert.equal(events.hasMessages(), true);
      assert.deepEqual(state.pendingMessages, []);
      return true;
    },
  };
  const end = await runSession(state, sessionConfig({}), exec);
  assert.ok(waited);
  assert.deepEqual(sent, [['go'], ['carry on']]);
  assert.equal(end.kind === 'end' && end.status, 'completed');
});

test('unit: session events — a message appended while the Stop hooks run is settled before the loop looks: a turn for it', async () => {
  const state = stateWith();
  state.pendingMessages = ['go'];
  const events = new SessionEvents(state);
  const sent: string[][] = [];
  const exec: SessionExecutor = {
    events,
    async runTurn(_turn, append) {
      sent.push(append.map((m) => String(m.content)));
      return { reason: 'end_turn', consumedAppend: true, head: null, context: state.context, records: [], text: 'x' };
    },
    takeInterrupt: () => false,
    waitForMessage: async () => false,
    wakesForQueued: () => true,
    hasHooks: (e) => e === 'Stop',
    async runHooks() {
      if (sent.length === 1) events.append({ type: 'monitorEvent', taskId: 'm1', text: 'M late' });
      return [];
    },
  };
  await runSession(state, sessionConfig({}), exec);
  assert.deepEqual(sent, [['go'], ['M late']]);
});
