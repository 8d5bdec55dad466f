// unit: the in-process runner over its tree budget (issue 34) waits in budget_exceeded like the
// session workflow: no model call past the budget, a bad raise refused with its reason, a good one
// resumes the same work to completion; `onBudget: 'end'` (runLocalSession's default, where nothing
// can raise) ends it with status budget_exceeded. The real SDK against the fake API; no Temporal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { startFakeAnthropic, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { runLocalSession, startLocalSession } from '../../src/inprocess/runSession';

// claude-sonnet-4-5 at $3 per million input tokens: $0.30 a call.
const usage = { usage: { input_tokens: 100_000, output_tokens: 0 } };
const model = { model: 'claude-sonnet-4-5', maxTokens: 256 };

async function setup() {
  const fake = await startFakeAnthropic();
  const cwd = await mkdtemp(join(tmpdir(), 'da-local-budget-'));
  const worker = { anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) };
  const read = (n: number) =>
    toolUseResponse([{ id: `toolu_lb${n}`, name: 'Read', input: { file_path: '/nonexistent/x' } }], usage);
  return { fake, cwd, worker, read };
}

test('unit: in-process, a session over its budget waits in budget_exceeded; a bad raise is refused; a raise resumes it', async () => {
  const { fake, cwd, worker, read } = await setup();
  try {
    fake.enqueue(read(1), read(2), textResponse('done', usage));
    const s = startLocalSession(
      { prompt: 'go', cwd, tools: ['Read'], model, maxBudgetUsd: 0.5, onBudget: 'wait' },
      worker,
    );
    const over = await new Promise<ReturnType<typeof s.status>>((resolve, reject) => {
      const poll = (): void => {
        const st = s.status();
        if (st.status === 'budget_exceeded') return resolve(st);
        if (st.phase === 'ended') return reject(new Error(`ended: ${st.endReason}`));
        setTimeout(poll, 20);
      };
      poll();
    });
    assert.equal(over.phase, 'waiting_for_budget');
    assert.equal(fake.messageRequests().length, 2, 'no model call past the budget');
    assert.ok(over.budget?.exceeded && over.budget.spentUsd >= 0.6 - 1e-9, JSON.stringify(over.budget));
    assert.throws(() => s.raiseBudget({ addUsd: -1 }), /more than 0/);
    assert.throws(() => s.raiseBudget({ addTokens: 10 }), /no token budget/);
    assert.equal(s.status().status, 'budget_exceeded');
    const view = s.raiseBudget({ addUsd: 1 });
    assert.equal(view.limitUsd, 1.5);
    const result = await s.result;
    assert.equal(result.status, 'completed', result.endReason);
    assert.equal(fake.messageRequests().length, 3, 'the same work went on after the raise');
  } finally {
    await fake.close();
  }
});

test('unit: in-process, onBudget end (runLocalSession default) ends at the budget; a waiting session ends on raiseBudget({ end })', async () => {
  const { fake, cwd, worker, read } = await setup();
  try {
    fake.enqueue(read(1), read(2)); // a third call would find the script empty and fail loudly
    const ended = await runLocalSession({ prompt: 'go', cwd, tools: ['Read'], model, maxBudgetUsd: 0.5 }, worker);
    assert.equal(ended.status, 'budget_exceeded');
    assert.match(ended.endReason, /reached the budget of \$0\.5000/);
    assert.equal(fake.messageRequests().length, 2);

    fake.enqueue(read(3), read(4));
    const s = startLocalSession({ prompt: 'go', cwd, tools: ['Read'], model, maxBudgetUsd: 0.5 }, worker);
    await new Promise<void>((resolve) => {
      const poll = (): void => (s.status().status === 'budget_exceeded' ? resolve() : void setTimeout(poll, 20));
      poll();
    });
    s.raiseBudget({ end: true });
    const r = await s.result;
    assert.equal(r.status, 'budget_exceeded');
    assert.match(r.endReason, /ended by budget --on-budget end/);
  } finally {
    await fake.close();
  }
});
