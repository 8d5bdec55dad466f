// integration: a budget that holds across the tree (issue 34) on the real dev server. A session with
// `maxBudgetUsd` starts two background agents and a one-shot cron job (CronCreate): the firing is the
// session's own turn, so its call is the tree's spend like any other. Each step waits on an event, in
// an order that leaves nothing to chance: the root's first two calls, then the cron firing, then SUB2
// (its call, charged to the root as it returns, passes the budget while the root is idle), then SUB1's
// first call (the budget is spent already, so its second call waits in its activity). A worker restart
// while over budget changes nothing; the `budget` Update refuses a bad raise with its reason and a good
// one resumes the session, which completes with every call of the tree counted.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { textResponse, toolUseResponse, type MessagesRequest } from '../../src/testing/fakeAnthropic';
import { sessionStatus } from '../../src/temporal/client';
import { budgetQuery, budgetUpdate } from '../../src/temporal/workflows/definitions';
import { totalCostUsd } from '../../src/core/modelUsage';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';
import { cli } from '../support/cli';

after(closeTestEnv);

function texts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((b: { type?: string; text?: string; content?: unknown }) =>
    b.type === 'text' ? [b.text ?? ''] : b.type === 'tool_result' ? texts(b.content) : [],
  );
}
const firstUser = (req: MessagesRequest): string => texts(req.messages[0]?.content).join('\n');
const lastUser = (req: MessagesRequest): string => texts(req.messages[req.messages.length - 1]?.content).join('\n');
// claude-sonnet-4-5 at $3 per million input tokens: every call of this test costs $0.30 (and its cache writes).
const usage = { usage: { input_tokens: 100_000, output_tokens: 0 } };

/** A gate the fake's script waits on; the test opens it when the event it stands for has happened. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

// The first test waits for a cron firing (up to a minute): the tests run side by side, each on its
// own fake API, task queue and worker, so the others run during that wait (issue 32).
describe('budgets across the tree', { concurrency: true }, () => {
  test(
    'integration: two background agents and a cron firing stop the root at the budget with all their spend counted; a restart changes nothing; budget --add resumes it to completion',
    { timeout: 300_000 },
    async () => {
      await withAgent({ noWorker: true }, async ({ fake, start, client, startWorker }) => {
        let worker = await startWorker();
        const sub1 = gate();
        const sub2 = gate();
        let raised = false;
        const parentCalls: string[] = [];
        const lateChildCalls: boolean[] = [];
        fake.script(async (req) => {
          const first = firstUser(req);
          if (first.includes('SUB1')) {
            if (req.messages.length === 1) {
              await sub1.opened;
              return toolUseResponse([{ id: 'toolu_r1', name: 'Read', input: { file_path: '/nonexistent/x' } }], usage);
            }
            lateChildCalls.push(raised);
            return textResponse('SUB1 done', usage);
          }
          if (first.includes('SUB2')) {
            await sub2.opened;
            return textResponse('SUB2 done', usage);
          }
          parentCalls.push(lastUser(req).includes('TICK') ? 'tick' : String(req.messages.length));
          if (req.messages.length === 1)
            return toolUseResponse(
              [
                { id: 'toolu_b1', name: 'Agent', input: { description: 'one', prompt: 'SUB1: look' } },
                { id: 'toolu_b2', name: 'Agent', input: { description: 'two', prompt: 'SUB2: look' } },
                // The next minute's match, once: the firing is a turn of this session.
                {
                  id: 'toolu_c1',
                  name: 'CronCreate',
                  input: { cron: '* * * * *', prompt: 'TICK: count', recurring: false },
                },
              ],
              usage,
            );
          return textResponse('noted', usage);
        });
        const handle = await start({
          prompt: 'delegate',
          tools: ['Read', 'Agent', 'CronCreate'],
          model: { model: 'claude-sonnet-4-5', maxTokens: 1024 },
          maxBudgetUsd: 1,
          onBudget: 'wait',
        });
        const id = handle.workflowId;
        const idleAfter = (what: string, done: () => boolean) =>
          waitFor(
            what,
            async () => {
              if (!done()) return undefined;
              const s = await sessionStatus(client, id);
              return s.status === 'waiting' ? s : undefined;
            },
            90_000,
          );
        await idleAfter('the root to wait for its agents and its cron job', () => parentCalls.length === 2);
        // The cron job fires within a minute: the root's third call ($0.90 in all, under the budget of $1).
        await idleAfter('the cron firing to be handled', () => parentCalls.includes('tick'));
        assert.deepEqual(parentCalls, ['1', '3', 'tick']);
        sub2.open();
        // SUB2's call, charged as it returned, passes $1 while the root is idle: budget_exceeded at once;
        // SUB2's end notification then stops at the check before the root's next call.
        const over = await waitFor(
          'the root to stop in budget_exceeded',
          async () => {
            const s = await sessionStatus(client, id);
            return s.status === 'budget_exceeded' && s.phase === 'waiting_for_budget' ? s : undefined;
          },
          60_000,
        );
        assert.ok(over.budget, 'status shows the budget');
        assert.equal(over.budget.exceeded, true);
        // The root's two calls, the cron firing's, SUB2's: $1.20.
        assert.ok(over.budget.spentUsd >= 1.2 - 1e-9 && over.budget.spentUsd < 1.25, `spent ${over.budget.spentUsd}`);
        assert.deepEqual(
          over.budget.events.map((e) => e.type),
          ['budgetExceeded'],
        );
        const callsWhenStopped = parentCalls.length;
        assert.equal(callsWhenStopped, 3, 'the root made no model call past its budget');

        // SUB1's first call now answers: charged at once ($1.50); its second call waits in its activity.
        sub1.open();
        await waitFor('SUB1 charged to the root', async () => {
          const v = await handle.query(budgetQuery);
          return v.spentUsd >= 1.5 - 1e-9 ? v : undefined;
        });

        // A worker restart while over budget: the session replays into the same wait.
        await worker.stop();
        worker = await startWorker();
        const again = await sessionStatus(client, id);
        assert.equal(again.status, 'budget_exceeded');
        assert.equal(again.phase, 'waiting_for_budget');
        assert.ok(again.budget && again.budget.spentUsd >= 1.5 - 1e-9, JSON.stringify(again.budget));
        assert.equal(parentCalls.length, callsWhenStopped);
        assert.deepEqual(lateChildCalls, [], 'SUB1 made no call past the budget');

        // A bad raise is refused with its reason, nothing recorded.
        for (const [bad, why] of [
          [-1, /more than 0/],
          [0, /more than 0/],
          [Number.NaN, /number of US dollars/],
          [1e9, /largest raise/],
        ] as const) {
          await assert.rejects(
            handle.executeUpdate(budgetUpdate, { args: [{ addUsd: bad }] }),
            (err: unknown) => err instanceof WorkflowUpdateFailedError && why.test(err.cause?.message ?? ''),
          );
        }
        assert.equal((await sessionStatus(client, id)).status, 'budget_exceeded');

        raised = true;
        const view = await handle.executeUpdate(budgetUpdate, { args: [{ addUsd: 2 }] });
        assert.equal(view.limitUsd, 3);
        const result = await handle.result();
        assert.equal(result.status, 'completed', result.endReason);
        assert.ok(parentCalls.length > callsWhenStopped, 'the root resumed');
        // Every call of the tree counted: the root's (the cron firing's among them), SUB1's two, SUB2's one.
        const calls = Object.values(result.modelUsage ?? {}).reduce((n, e) => n + e.calls, 0);
        assert.equal(calls, parentCalls.length + 3);
        // $0.30 of input per call, plus the fake's prompt-cache writes (a few cents in all).
        const cost = totalCostUsd(result.modelUsage) ?? 0;
        assert.ok(cost >= 0.3 * calls && cost < 0.3 * calls + 0.05, `cost ${cost} for ${calls} calls`);
        // SUB1's second call went out only after the raise (its activity waited on the root's budget).
        assert.deepEqual(lateChildCalls, [true]);
        await worker.stop();
      });
    },
  );

  test(
    'integration: a single long turn (a child of many tool steps) that passes its budget mid-turn stops at the next step boundary in budget_exceeded; budget --add resumes it',
    { timeout: 240_000 },
    async () => {
      await withAgent({}, async ({ fake, start, client }) => {
        let raised = false;
        let calls = 0;
        let callsAfterRaise = 0;
        fake.script(async () => {
          calls++;
          if (raised) callsAfterRaise++;
          // Tool step after tool step ($0.30 each) until the raise; then two more steps and the end.
          if (raised && callsAfterRaise >= 3) return textResponse('done', usage);
          return toolUseResponse(
            [{ id: `toolu_s${calls}`, name: 'Read', input: { file_path: '/nonexistent/x' } }],
            usage,
          );
        });
        const handle = await start({
          prompt: 'work for a long time',
          tools: ['Read'],
          model: { model: 'claude-sonnet-4-5', maxTokens: 1024 },
          maxBudgetUsd: 1,
          onBudget: 'wait',
        });
        const id = handle.workflowId;
        const over = await waitFor(
          'the session to stop in budget_exceeded',
          async () => {
            const s = await sessionStatus(client, id);
            return s.status === 'budget_exceeded' && s.phase === 'waiting_for_budget' ? s : undefined;
          },
          120_000,
        );
        // $0.30 per call (and a few cents of cache writes): the 4th call passes $1; the turn child
        // (50 steps by default) returned at that step's boundary instead of calling a 5th time.
        assert.equal(calls, 4, 'no model call after the step that spent the budget');
        assert.ok(
          over.budget && over.budget.exceeded && over.budget.spentUsd >= 1.2 - 1e-9,
          JSON.stringify(over.budget),
        );
        assert.deepEqual(
          over.budget.events.map((e) => e.type),
          ['budgetThreshold', 'budgetExceeded'].filter((t) => over.budget?.events.some((e) => e.type === t)),
        );
        assert.ok(over.budget.events.some((e) => e.type === 'budgetExceeded'));

        raised = true;
        const view = await handle.executeUpdate(budgetUpdate, { args: [{ addUsd: 2 }] });
        assert.equal(view.limitUsd, 3);
        const result = await handle.result();
        assert.equal(result.status, 'completed', result.endReason);
        assert.equal(callsAfterRaise, 3, 'the session resumed the same work after the raise');
        const counted = Object.values(result.modelUsage ?? {}).reduce((n, e) => n + e.calls, 0);
        assert.equal(counted, calls);
      });
    },
  );

  test(
    "integration: a background agent's side call (its WebSearch's own model call) is charged to the root when made, not when the child ends",
    { timeout: 180_000 },
    async () => {
      await withAgent({}, async ({ fake, start }) => {
        const held = gate();
        let childCalls = 0;
        fake.script(async (req) => {
          const tools = (req.tools ?? []) as Array<{ type?: string }>;
          if (tools.length > 0 && tools.every((t) => t.type?.startsWith('web_search_')))
            return {
              content: [
                { type: 'server_tool_use', input: { query: 'durable execution' } },
                { type: 'web_search_tool_result', results: [{ url: 'https://temporal.io/', title: 'Temporal' }] },
                { type: 'text', text: 'Temporal runs durable workflows.' },
              ],
              // The worker's small model (claude-haiku-4-5, $1 per million input tokens): $0.50.
              usage: { input_tokens: 500_000, output_tokens: 0 },
            };
          if (firstUser(req).includes('SUB3')) {
            childCalls++;
            if (childCalls === 1)
              return toolUseResponse(
                [{ id: 'toolu_ws', name: 'WebSearch', input: { query: 'durable execution' } }],
                usage,
              );
            await held.opened; // the child stays running until its side call was seen charged
            return textResponse('SUB3 done', usage);
          }
          if (req.messages.length === 1)
            return toolUseResponse(
              [{ id: 'toolu_b3', name: 'Agent', input: { description: 'three', prompt: 'SUB3: search' } }],
              usage,
            );
          return textResponse('noted', usage);
        });
        const handle = await start({
          prompt: 'delegate',
          tools: ['Agent', 'WebSearch'],
          rules: { allow: ['WebSearch'], ask: [], deny: [] },
          model: { model: 'claude-sonnet-4-5', maxTokens: 1024 },
          maxBudgetUsd: 10,
          onBudget: 'wait',
        });
        // The root's two calls and SUB3's first ($0.90), and the side call ($0.50) while SUB3 still runs.
        const seen = await waitFor(
          'the side call charged to the root',
          async () => {
            const v = await handle.query(budgetQuery);
            return v.spentUsd >= 1.4 - 1e-9 ? v : undefined;
          },
          90_000,
        );
        // SUB3 cannot have ended: its second call (if made yet) waits on `held`; before, its side call was
        // counted only with its end, and this wait timed out.
        assert.ok(childCalls >= 1 && childCalls <= 2, `SUB3 made ${childCalls} calls`);
        assert.ok(seen.spentUsd < 1.45, `spent ${seen.spentUsd}`);
        held.open();
        const result = await handle.result();
        assert.equal(result.status, 'completed', result.endReason);
        // Counted once: the tree's cost is the calls' ($0.30 each), the side call's, and cache writes.
        const calls = Object.values(result.modelUsage ?? {}).reduce((n, e) => n + e.calls, 0);
        const cost = totalCostUsd(result.modelUsage) ?? 0;
        assert.ok(cost >= 0.3 * (calls - 1) + 0.5 - 1e-9 && cost < 0.3 * (calls - 1) + 0.55, `cost ${cost}`);
      });
    },
  );

  test('cli: bad budget flags get a one-line message and a non-zero exit', { timeout: 120_000 }, async () => {
    const oneLine = (r: { code: number | null; stderr: string }, pattern: RegExp) => {
      assert.notEqual(r.code, 0, 'non-zero exit');
      const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
      assert.equal(lines.length, 1, `one line on stderr, got: ${JSON.stringify(r.stderr)}`);
      assert.match(lines[0] ?? '', pattern);
    };
    oneLine(
      await cli(['run', '--max-budget-usd', '-1', 'x']),
      /--max-budget-usd must be an amount of US dollars above 0/,
    );
    oneLine(await cli(['run', '--max-budget-usd', 'abc', 'x']), /--max-budget-usd must be an amount/);
    oneLine(await cli(['run', '--max-budget-usd', '1e9', 'x']), /more than \$1,000,000/);
    oneLine(await cli(['run', '--max-budget-usd', '1', '--on-budget', 'maybe', 'x']), /Allowed choices are wait, end/);
    oneLine(
      await cli(['run', '--max-budget-usd', '1', '--budget-threshold', '1.5', 'x']),
      /--budget-threshold must be a fraction between 0 and 1/,
    );
    oneLine(await cli(['budget', 'some-id', '--add', 'abc']), /--add must be a number/);
    oneLine(await cli(['budget', 'some-id', '--on-budget', 'later']), /Allowed choices are end/);
  });
});
