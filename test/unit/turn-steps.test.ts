// unit: a turn child of several model steps (issue 33, src/core/turnSteps.ts): when it runs the
// next step and when, and why, it returns to its session; and the steps' results as one report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runTurnSteps, type StepOutcome, type TurnStepLimits } from '../../src/core/turnSteps';
import { aggregateSteps, nextStepInput, turnStepLimits } from '../../src/temporal/workflows/turnSteps';
import type { SessionCarry, TurnWorkflowInput, TurnWorkflowResult } from '../../src/temporal/workflows/definitions';
import { sessionInput, type SessionOptions } from '../../src/sessionInput';
import type { AgentContext } from '../../src/core/context';
import { callModelUsage } from '../../src/core/modelUsage';

const context: AgentContext = { cwd: '/w', additionalDirectories: [], readFiles: {} } as AgentContext;
const toolStep = (over: Partial<StepOutcome> = {}): StepOutcome => ({
  reason: 'tool_use',
  usage: { input_tokens: 10, output_tokens: 5 },
  context,
  records: [{ status: 'ok' }],
  ...over,
});

async function run(
  limits: TurnStepLimits,
  steps: StepOutcome[],
  yieldAfter = Infinity,
): Promise<{ ran: number; returned: string }> {
  let ran = 0;
  const r = await runTurnSteps(limits, context, {
    runStep: async (index) => {
      ran++;
      return steps[Math.min(index, steps.length - 1)]!;
    },
    yieldRequested: () => ran >= yieldAfter,
  });
  assert.equal(r.steps.length, ran);
  return { ran, returned: r.returned };
}

test('unit: a child runs tool steps until the turn ends', async () => {
  assert.deepEqual(await run({ maxSteps: 50 }, [toolStep(), toolStep(), toolStep({ reason: 'end_turn' })]), {
    ran: 3,
    returned: 'turn_ended',
  });
});

test('unit: a child returns at the step cap, at the tokens left, and when the session asks it to yield', async () => {
  assert.deepEqual(await run({ maxSteps: 2 }, [toolStep()]), { ran: 2, returned: 'step_cap' });
  // 15 tokens a step: 3 steps spend 45 ≥ 40.
  assert.deepEqual(await run({ maxSteps: 50, tokensLeft: 40 }, [toolStep()]), { ran: 3, returned: 'tokens' });
  assert.deepEqual(await run({ maxSteps: 50 }, [toolStep()], 2), { ran: 2, returned: 'yield' });
});

test('unit: a child returns at the step whose spend reaches what the tree budget had left (USD or tokens)', async () => {
  const modelUsage = callModelUsage('claude-sonnet-4-5', { input_tokens: 100_000, output_tokens: 0 });
  const step = toolStep({ modelUsage });
  // $0.30 a step: the 4th step passes $1 left.
  assert.deepEqual(await run({ maxSteps: 50, budgetUsdLeft: 1 }, [step]), { ran: 4, returned: 'budget' });
  assert.deepEqual(await run({ maxSteps: 50, budgetTokensLeft: 250_000 }, [step]), { ran: 3, returned: 'budget' });
  // No budget: the step cap.
  assert.deepEqual(await run({ maxSteps: 6 }, [step]), { ran: 6, returned: 'step_cap' });
});

test('unit: a step the session must see ends the child (stop, unknown outcome, compaction, background work, skills)', async () => {
  const needs: StepOutcome[] = [
    toolStep({ records: [{ status: 'ok', stop: { reason: 'r', hook: 'h' } }] }),
    toolStep({ records: [{ status: 'unknown_outcome' }] }),
    toolStep({ records: [{ status: 'ok', controlWrites: [{}] }] }),
    toolStep({ compactions: [{}] }),
    toolStep({ context: { ...context, autonomy: { tasks: [] } } as unknown as AgentContext }),
    toolStep({ context: { ...context, skillGrants: { allowedTools: [], skills: ['x'] } } as AgentContext }),
  ];
  for (const step of needs)
    assert.deepEqual(await run({ maxSteps: 50 }, [step]), { ran: 1, returned: 'needs_session' }, JSON.stringify(step));
});

test('unit: the next step starts from the last one, and the steps report as one turn', () => {
  const input = {
    turn: 4,
    head: 'h0',
    append: [{ role: 'user', content: 'hi' }],
    context,
    memory: { ref: 'm' },
    readFilesRef: 'r0',
    steps: { maxSteps: 50 },
  } as unknown as TurnWorkflowInput;
  const step = (turn: number, over: Partial<TurnWorkflowResult> = {}): TurnWorkflowResult =>
    ({
      turn,
      reason: 'tool_use',
      records: [{ toolUseId: `t${turn}`, toolName: 'Read', summary: '', status: 'ok' }],
      batches: [{ concurrencySafe: true, toolUseIds: [`t${turn}`] }],
      usage: { input_tokens: turn, output_tokens: 1 },
      fallback: false,
      text: turn === 5 ? 'last' : '',
      head: `h${turn}`,
      consumedAppend: true,
      context,
      ...over,
    }) as TurnWorkflowResult;
  const next = nextStepInput(input, step(4, { readFilesRef: 'r4' }));
  assert.equal(next.turn, 5);
  assert.equal(next.head, 'h4');
  assert.deepEqual(next.append, []);
  assert.equal(next.readFilesRef, 'r4');
  assert.equal('memory' in next, false);

  const all = aggregateSteps([step(4), step(5, { reason: 'end_turn' })], 'turn_ended');
  assert.equal(all.turn, 4);
  assert.equal(all.steps, 2);
  assert.equal(all.reason, 'end_turn');
  assert.equal(all.head, 'h5');
  assert.equal(all.text, 'last');
  assert.deepEqual(
    all.records.map((r) => r.toolUseId),
    ['t4', 't5'],
  );
  assert.deepEqual(all.usage, { input_tokens: 9, output_tokens: 2 });
  assert.deepEqual(all.lastUsage, { input_tokens: 5, output_tokens: 1 });
  assert.equal(all.returned, 'turn_ended');
  // One step: its result as it was, with why the child returned.
  assert.deepEqual(aggregateSteps([step(4)], 'yield'), { ...step(4), returned: 'yield' });
});

test('unit: a turn child runs up to 25 steps by default (a bounded replay, issue 32); maxStepsPerTurn (or DURABLE_AGENT_MAX_STEPS_PER_TURN) sets it, 1 a child per step', () => {
  const state = {} as SessionCarry;
  const input = (opts: Partial<SessionOptions> = {}) =>
    sessionInput({ prompt: 'x', cwd: '/tmp', tools: ['Read'], ...opts });
  assert.equal(input().maxStepsPerTurn, undefined);
  assert.equal(turnStepLimits(input(), state, 1).maxSteps, 25);
  assert.equal(turnStepLimits(input({ maxStepsPerTurn: 1 }), state, 1).maxSteps, 1);
  // The session's maxTurns left caps it (turn 8 of 10: 3 left).
  assert.equal(turnStepLimits(input({ maxTurns: 10 }), state, 8).maxSteps, 3);
  const was = process.env.DURABLE_AGENT_MAX_STEPS_PER_TURN;
  process.env.DURABLE_AGENT_MAX_STEPS_PER_TURN = '1';
  try {
    assert.equal(input().maxStepsPerTurn, 1);
    assert.equal(input({ maxStepsPerTurn: 5 }).maxStepsPerTurn, 5, 'the option beats the env');
  } finally {
    if (was === undefined) delete process.env.DURABLE_AGENT_MAX_STEPS_PER_TURN;
    else process.env.DURABLE_AGENT_MAX_STEPS_PER_TURN = was;
  }
});
