// integration: the default step cap of a turn child (issue 32): a child runs at most 25 model steps,
// then returns to its session, which starts the next child — so a worker that takes a running
// child over (a rolling deploy, a crash) replays at most 25 steps of history. Nothing of the
// steps is lost at the boundary: every tool call's result reaches the model once, the session
// counts every step as a turn.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import type { TurnWorkflowResult } from '../../src/temporal/workflows/definitions';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';

after(closeTestEnv);

const STEPS = 27;

test('integration: a turn of 27 tool steps runs in two children by default (25 steps, then 2 and the answer), every result once', async () => {
  await withAgent({}, async ({ fake, start, workDir, client }) => {
    await writeFile(join(workDir, 'a.txt'), 'alpha\n');
    for (let i = 1; i <= STEPS; i++)
      fake.enqueue(
        toolUseResponse([{ id: `toolu_s${i}`, name: 'Read', input: { file_path: join(workDir, 'a.txt') } }]),
      );
    fake.enqueue(textResponse('Read it 27 times.'));
    const handle = await start({ prompt: 'read a file many times', tools: ['Read'] });
    const r = await handle.result();
    assert.equal(r.status, 'completed');
    assert.equal(r.turns, STEPS + 1);
    assert.equal(r.toolCalls, STEPS);
    const first = (await client.workflow.getHandle(`${handle.workflowId}/turn-1`).result()) as TurnWorkflowResult;
    assert.equal(first.steps, 25);
    assert.equal(first.returned, 'step_cap');
    const second = (await client.workflow.getHandle(`${handle.workflowId}/turn-26`).result()) as TurnWorkflowResult;
    assert.equal(second.steps, 3);
    assert.equal(second.returned, 'turn_ended');
    // The last request holds every step's tool result, once each, in order.
    const requests = fake.messageRequests();
    assert.equal(requests.length, STEPS + 1);
    const ids = requests[STEPS]!.messages.flatMap((m) =>
      Array.isArray(m.content)
        ? (m.content as Array<{ type: string; tool_use_id?: string }>)
            .filter((b) => b.type === 'tool_result')
            .map((b) => b.tool_use_id as string)
        : [],
    );
    assert.deepEqual(
      ids,
      Array.from({ length: STEPS }, (_, i) => `toolu_s${i + 1}`),
    );
  });
});
