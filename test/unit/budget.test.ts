// unit: the tree budget's pure accounting (core/budget.ts) and its gate in the session loop (issue 34).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  budgetRaiseProblem,
  budgetSpend,
  chargeBudget,
  checkBudget,
  initialBudgetState,
  raiseBudget,
  settleInFlight,
  type BudgetLimits,
} from '../../src/core/budget';
import { callModelUsage } from '../../src/core/modelUsage';
import { applySessionEvents } from '../../src/core/sessionEvents';
import { initialContext } from '../../src/core/context';
import { initialSessionState, runSession, sessionConfig, type SessionExecutor } from '../../src/core/session';

// claude-sonnet-4-5: $3 in / $15 out per million tokens -> 100k in + 10k out = $0.45.
const call = () => callModelUsage('claude-sonnet-4-5', { input_tokens: 100_000, output_tokens: 10_000 });
const usd: BudgetLimits = { maxBudgetUsd: 1, onBudget: 'wait' };

test('unit: spend counts the session usage and every running child report, once per key', () => {
  let b = chargeBudget(undefined, { chargeTo: 'bg:a', key: 'a/model-1#1', modelUsage: call() });
  b = chargeBudget(b, { chargeTo: 'bg:a', key: 'a/model-1#1', modelUsage: call() }); // the same signal twice
  b = chargeBudget(b, { chargeTo: 'bg:b', key: 'b/model-1#1', modelUsage: call() });
  const s = budgetSpend({ modelUsage: call(), budget: b });
  assert.equal(s.usd, 1.35);
  assert.equal(s.tokens, 330_000);
});

test('unit: a child whose tree lands in modelUsage is dropped from inFlight (never counted twice)', () => {
  let state = { ...initialSessionState('p', initialContext('/tmp')), budget: initialBudgetState() };
  state = applySessionEvents(state, [
    { type: 'budgetCharge', charge: { chargeTo: 'bg:a', key: 'k1', modelUsage: call() } },
    { type: 'budgetCharge', charge: { chargeTo: 'fg:f', key: 'k2', modelUsage: call() } },
    { type: 'subagentUsage', modelUsage: call(), chargeTo: 'bg:a' },
  ]);
  assert.deepEqual(Object.keys(state.budget?.inFlight ?? {}), ['fg:f']);
  assert.equal(budgetSpend(state).usd, 0.9);
  assert.deepEqual(settleInFlight(state.budget, { foreground: true })?.inFlight, {});
});

test('unit: the check says exceeded at the limit, and the threshold once', () => {
  const holder = { modelUsage: call(), budget: initialBudgetState() };
  assert.equal(checkBudget(usd, holder, 0).kind, 'ok');
  assert.equal((checkBudget(usd, holder, 0) as { threshold?: unknown }).threshold, undefined); // $0.45 < 80 % of $1
  const two = {
    modelUsage: { ...call(), ...callModelUsage('claude-opus-4-5', { input_tokens: 70_000, output_tokens: 0 }) },
    budget: initialBudgetState(),
  };
  const v = checkBudget(usd, two, 5); // $0.45 + $0.35 = $0.80
  assert.equal(v.kind, 'ok');
  assert.equal(v.kind === 'ok' && v.threshold?.type, 'budgetThreshold');
  assert.equal(
    (checkBudget(usd, { ...two, budget: { ...two.budget, thresholdNotified: true } }, 5) as { threshold?: unknown })
      .threshold,
    undefined,
  );
  const over = checkBudget({ maxTotalTokens: 100_000, onBudget: 'wait' }, holder, 9);
  assert.equal(over.kind, 'exceeded');
  assert.match(over.kind === 'exceeded' ? over.reason : '', /100000 tokens \(used 110000/);
  // A raise moves the limit.
  const raised = raiseBudget(
    holder.budget,
    { addTokens: 20_000 },
    { type: 'budgetRaised', at: 1, spentUsd: 0, spentTokens: 0, message: '' },
  );
  assert.equal(checkBudget({ maxTotalTokens: 100_000, onBudget: 'wait' }, { ...holder, budget: raised }, 9).kind, 'ok');
});

test('unit: a raise is refused with its reason when negative, zero, NaN, absurd or of the wrong kind', () => {
  assert.match(budgetRaiseProblem({ addUsd: -1 }, usd) ?? '', /more than 0/);
  assert.match(budgetRaiseProblem({ addUsd: 0 }, usd) ?? '', /more than 0/);
  assert.match(budgetRaiseProblem({ addUsd: Number.NaN }, usd) ?? '', /number of US dollars/);
  assert.match(budgetRaiseProblem({ addUsd: 1e9 }, usd) ?? '', /largest raise/);
  assert.match(budgetRaiseProblem({ addTokens: 5 }, usd) ?? '', /no token budget/);
  assert.match(budgetRaiseProblem({}, usd) ?? '', /nothing to add/);
  assert.match(budgetRaiseProblem({ addUsd: 5 }, undefined) ?? '', /no budget/);
  assert.equal(budgetRaiseProblem({ addUsd: 5 }, usd), undefined);
  assert.equal(budgetRaiseProblem({ end: true }, usd), undefined);
});

test('unit: sessionConfig keeps an old maxTotalTokens session to its own limit; onBudget makes it the tree budget', () => {
  assert.equal(sessionConfig({ maxTotalTokens: 10 }).maxTotalTokens, 10);
  assert.equal(sessionConfig({ maxTotalTokens: 10 }).budget, undefined);
  const c = sessionConfig({ maxTotalTokens: 10, onBudget: 'wait', maxBudgetUsd: 2 });
  assert.equal(c.maxTotalTokens, undefined);
  assert.deepEqual(c.budget, { maxBudgetUsd: 2, maxTotalTokens: 10, onBudget: 'wait' });
});

function executor(log: string[], waits: Array<() => boolean>): SessionExecutor {
  return {
    async runTurn(turn) {
      log.push(`turn ${turn}`);
      return {
        reason: turn === 1 ? 'tool_use' : 'end_turn',
        consumedAppend: true,
        head: null,
        context: initialContext('/tmp'),
        records: [],
        text: 'ok',
        modelUsage: call(),
      };
    },
    takeInterrupt: () => false,
    waitForMessage: async () => false,
    onStatus: (s, p) => log.push(`${s}/${p}`),
    onBudgetEvent: (e) => log.push(e.type),
    now: () => 1,
    waitForBudget: async () => {
      const next = waits.shift();
      assert.ok(next, 'an unexpected wait');
      return next();
    },
  };
}

test('unit: the loop stops before the next model call past the budget, waits, and resumes on a raise', async () => {
  const state = initialSessionState('p', initialContext('/tmp'));
  const log: string[] = [];
  const config = sessionConfig({ maxBudgetUsd: 0.4, onBudget: 'wait' });
  const end = await runSession(
    state,
    config,
    executor(log, [
      () => {
        state.budget = raiseBudget(
          state.budget,
          { addUsd: 1 },
          { type: 'budgetRaised', at: 2, spentUsd: 0, spentTokens: 0, message: 'raised' },
        );
        return true;
      },
    ]),
  );
  assert.equal(end.kind === 'end' && end.status, 'completed');
  assert.deepEqual(
    log.filter((l) => l.startsWith('turn') || l.startsWith('budget')),
    ['turn 1', 'budgetExceeded', 'budget_exceeded/waiting_for_budget', 'turn 2'],
  );
});

test('unit: --on-budget end ends the session over budget with status budget_exceeded, no further turn', async () => {
  const state = initialSessionState('p', initialContext('/tmp'));
  const log: string[] = [];
  const end = await runSession(state, sessionConfig({ maxBudgetUsd: 0.4, onBudget: 'end' }), executor(log, []));
  assert.equal(end.kind === 'end' && end.status, 'budget_exceeded');
  assert.deepEqual(
    log.filter((l) => l.startsWith('turn')),
    ['turn 1'],
  );
});
