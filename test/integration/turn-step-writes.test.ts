// integration: a step of a turn child leaves its end-of-step writes to the next step's model call
// (TURN_STEP_WRITES_PATCH, issue 33). When that model call never answers (interrupted while it
// waits for the API), the interrupted step makes the carried writes itself: the tool results of the
// step before stay in the transcript (invariant 1), and the next request after a follow-up holds them.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { interruptSession, sendMessage, sessionStatus } from '../../src/temporal/client';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';

after(closeTestEnv);

/** The tool_result ids of a request's messages, in order. */
function toolResultIds(request: { messages: Array<{ role: string; content: unknown }> }): string[] {
  return request.messages.flatMap((m) =>
    Array.isArray(m.content)
      ? (m.content as Array<{ type: string; tool_use_id?: string }>)
          .filter((b) => b.type === 'tool_result')
          .map((b) => b.tool_use_id as string)
      : [],
  );
}

test("integration: interrupted while step 2's model call waits: step 1's results, carried to it, are written by the turn", async () => {
  await withAgent({}, async ({ fake, start, workDir, client }) => {
    await writeFile(join(workDir, 'a.txt'), 'alpha\n');
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_c1', name: 'Read', input: { file_path: join(workDir, 'a.txt') } }]),
      // Step 2's answer comes after 30 s: the interrupt comes first.
      textResponse('too late', { latencyMs: 30_000 }),
      textResponse('Noted.'),
    );
    const handle = await start({ prompt: 'read a file', tools: ['Read'], maxStepsPerTurn: 50 });
    await waitFor('step 2 asks the model', async () => fake.messageRequests().length >= 2);
    // Step 2's request was made after its callModel wrote the carry: it holds step 1's result.
    assert.deepEqual(toolResultIds(fake.messageRequests()[1]!), ['toolu_c1']);
    await interruptSession(client, handle.workflowId, 'test');
    await waitFor('the session to wait after the interrupt', async () => {
      const s = await sessionStatus(client, handle.workflowId);
      return s.status === 'interrupted' && s.phase === 'waiting_for_message';
    });
    await sendMessage(client, handle.workflowId, 'go on');
    await waitFor('the follow-up request', async () => fake.messageRequests().length >= 3);
    // The transcript the session kept: step 1's tool_use answered once, then the follow-up.
    assert.deepEqual(toolResultIds(fake.messageRequests()[2]!), ['toolu_c1']);
    // The session may already have ended after 'Noted.' (a one-prompt session): nothing to stop then.
    await interruptSession(client, handle.workflowId, 'done').catch((err: { code?: string }) => {
      if (err.code !== 'SESSION_ENDED') throw err;
    });
  });
});
