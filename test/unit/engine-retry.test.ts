// unit: the outage policy (pure): backoff honouring retry-after, the cap, the outage limit, and
// the turn's wait-and-call-again loop against a scripted executor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialContext } from '../../src/core/context';
import { backoffMs, describeOutage, nextAttempt, retryPolicy, type OutageState } from '../../src/core/retry';
import { executeTurn, type ModelCallResult, type TurnExecutor } from '../../src/core/turn';

test('unit: retry — exponential from 2 s, retry-after wins, both capped', () => {
  const p = retryPolicy({ retryCapMs: 60_000 });
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7].map((n) => backoffMs(n, p)),
    [2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000],
  );
  assert.equal(backoffMs(1, p, 5_000), 5_000);
  assert.equal(backoffMs(1, p, 600_000), 60_000);
  assert.equal(backoffMs(1, retryPolicy({ retryCapMs: 500 })), 500);
});

test('unit: retry — an outage accumulates; the outage limit gives up with the reason', () => {
  const p = retryPolicy({ retryCapMs: 1_000, maxOutageMs: 2_500 });
  const f = { kind: 'overloaded', message: 'model API error 529', retryAfterMs: 5_000 };
  const a = nextAttempt(undefined, 'model', f, 10_000, p);
  assert.equal(a.action, 'wait');
  assert.deepEqual(a.state, {
    what: 'model',
    kind: 'overloaded',
    since: 10_000,
    attempts: 1,
    lastError: 'model API error 529',
    nextTryAt: 11_000,
  });
  const b = nextAttempt(a.state, 'model', f, 11_000, p);
  assert.equal(b.action, 'wait');
  const c = nextAttempt(b.state, 'model', f, 12_000, p);
  assert.equal(c.action, 'give_up');
  assert.match(
    c.action === 'give_up' ? c.reason : '',
    /model was unavailable for longer than 3 s \(3 attempts; last: model API error 529\)/,
  );
  const o: OutageState = {
    ...a.state,
    since: Date.parse('2026-01-01T10:00:00Z'),
    nextTryAt: Date.parse('2026-01-01T10:00:40Z'),
  };
  assert.equal(
    describeOutage(o, Date.parse('2026-01-01T10:00:10Z')),
    'waiting for the model: overloaded since 2026-01-01T10:00:00Z, next try in 30 s at 2026-01-01T10:00:40Z (1 failed attempt; last: model API error 529)',
  );
});

test('unit: turn — the model is called again after each wait; the outage is shown, then cleared', async () => {
  const results: ModelCallResult[] = [
    { kind: 'unavailable', failure: { kind: 'overloaded', message: '529', retryAfterMs: 5_000 } },
    { kind: 'unavailable', failure: { kind: 'connection', message: 'ECONNRESET' } },
    {
      kind: 'message',
      message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
      usage: { input_tokens: 1, output_tokens: 1 },
      stopReason: 'end_turn',
    },
  ];
  const log: string[] = [];
  let clock = 0;
  const exec: TurnExecutor = {
    async callModel(attempt) {
      log.push(`call ${attempt}`);
      return results.shift() as ModelCallResult;
    },
    now: () => clock,
    sleep: async (ms) => {
      log.push(`sleep ${ms}`);
      clock += ms;
      return 'done';
    },
    onOutage: (o) => log.push(o ? `outage ${o.kind} #${o.attempts}` : 'outage over'),
    describe: async () => [],
    runTool: async () => assert.fail('no tools'),
    awaitApproval: async () => 'interrupted',
    isInterrupted: () => false,
  };
  const out = await executeTurn(
    {
      context: initialContext('/w'),
      priorRecords: new Map(),
      maxConcurrency: 1,
      retry: retryPolicy({ retryCapMs: 3_000 }),
    },
    exec,
  );
  assert.equal(out.reason, 'end_turn');
  assert.deepEqual(log, [
    'call 1',
    'outage overloaded #1',
    'sleep 3000',
    'call 2',
    'outage connection #2',
    'sleep 3000',
    'call 3',
    'outage over',
  ]);
});

test('unit: turn — an interrupt during the wait ends the turn as interrupted and clears the outage', async () => {
  const log: string[] = [];
  const exec: TurnExecutor = {
    callModel: async () => ({ kind: 'unavailable', failure: { kind: 'overloaded', message: '529' } }),
    now: () => 0,
    sleep: async () => 'interrupted',
    onOutage: (o) => log.push(o ? 'outage' : 'outage over'),
    describe: async () => [],
    runTool: async () => assert.fail('no tools'),
    awaitApproval: async () => 'interrupted',
    isInterrupted: () => false,
  };
  const out = await executeTurn({ context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 1 }, exec);
  assert.equal(out.reason, 'interrupted');
  assert.equal(out.assistant, undefined);
  assert.deepEqual(log, ['outage', 'outage over']);
});
