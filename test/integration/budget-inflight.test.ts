// integration: the root's running turn counts in its tree's budget as it goes (issue 34, red team
// round f). A turn child runs many model steps; background agents ask the root's `budget` query before
// each of their calls. Before, the root's own steps counted only when the child returned, so a
// background agent could spend the remainder the foreground turn was spending too (up to twice what was
// left). Now each step of the root's turn is charged to the root as it returns, and counted once when
// the turn's usage lands. Real dev server, the real SDK against the fake API.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { budgetQuery } from '../../src/temporal/workflows/definitions';
import { totalCostUsd } from '../../src/core/modelUsage';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';

after(closeTestEnv);

// claude-sonnet-4-5 at $3 per million input tokens: every call costs $0.30 (and its cache writes).
const usage = { usage: { input_tokens: 100_000, output_tokens: 0 } };

test(
  "integration: the root's running turn shows its steps' spend in the budget query before the turn returns; each call is counted once at the end",
  { timeout: 180_000 },
  async () => {
    await withAgent({}, async ({ fake, start }) => {
      let open!: () => void;
      const held = new Promise<void>((r) => (open = r));
      let calls = 0;
      fake.script(async () => {
        calls++;
        // Two tool steps, then a third call held until the test has read the budget mid-turn.
        if (calls <= 2)
          return toolUseResponse(
            [{ id: `toolu_s${calls}`, name: 'Read', input: { file_path: '/nonexistent/x' } }],
            usage,
          );
        await held;
        return textResponse('done', usage);
      });
      const handle = await start({
        prompt: 'work',
        tools: ['Read'],
        model: { model: 'claude-sonnet-4-5', maxTokens: 1024 },
        maxBudgetUsd: 10,
        onBudget: 'wait',
      });
      // The turn child (several steps by default) is still running: its third call waits on `held`.
      await waitFor('the third call, held', async () => (calls === 3 ? true : undefined), 90_000);
      const mid = await handle.query(budgetQuery);
      // Before, the root's own steps counted only when its turn returned: 0 here.
      assert.ok(mid.spentUsd >= 0.6 - 1e-9, `the running turn's two steps in the root's budget: ${mid.spentUsd}`);
      assert.ok(mid.spentUsd < 0.65, `two steps counted once each: ${mid.spentUsd}`);
      open();
      const result = await handle.result();
      assert.equal(result.status, 'completed', result.endReason);
      // Counted once: the charges of the running turn were dropped when its usage landed.
      const counted = Object.values(result.modelUsage ?? {}).reduce((n, e) => n + e.calls, 0);
      assert.equal(counted, 3);
      const after = await handle.query(budgetQuery);
      const cost = totalCostUsd(result.modelUsage) ?? 0;
      assert.ok(Math.abs(after.spentUsd - cost) < 1e-9, `budget ${after.spentUsd} = the session's cost ${cost}`);
      assert.ok(cost >= 0.9 - 1e-9 && cost < 0.95, `cost ${cost}`);
    });
  },
);
