// integration: correctness fixes found in review (issue 9, part 5), each a case that went wrong:
// a session reusing an earlier session's id, an approve racing the approval timeout, and the
// non-streamed fallback with a large max_tokens. (An interrupt that arrives while the session
// drains handlers before continue-as-new: unit/engine-session, "checkpoint … carried".)
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { startFakeAnthropic, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { approveToolUse, sessionStatus } from '../../src/temporal/client';
import { runLocalSession } from '../../src/inprocess/runSession';
import { closeTestEnv, uniqueWorkflowId } from '../support/temporal';
import { fakeAnthropicFactory, withAgent } from '../support/agent';
import { TEST_TOOLS } from '../support/testTools';
import { waitFor } from '../support/wait';

after(closeTestEnv);

test('integration: a new session that reuses an id (a nightly job) runs its tool calls again', async () => {
  await withAgent({ worker: { tools: TEST_TOOLS } }, async ({ fake, start, workDir }) => {
    const log = join(workDir, 'nightly.log');
    const id = uniqueWorkflowId('nightly');
    for (const night of [1, 2]) {
      // The model happens to give the call the same id both nights.
      fake.enqueue(
        toolUseResponse([{ id: 'toolu_nightly', name: 'AppendSlow', input: { file: log, text: `night ${night}` } }]),
        textResponse('done'),
      );
      const r = await (await start({ id, prompt: 'nightly job', tools: ['AppendSlow'] })).result();
      assert.equal(r.status, 'completed');
    }
    assert.equal(await readFile(log, 'utf8'), 'night 1\nnight 2\n', 'the second night ran its call');
  });
});

test('integration: an approve that races the approval timeout is answered with what happened', async () => {
  await withAgent({ noWorker: true }, async ({ fake, start, workDir, client, startWorker }) => {
    const target = join(workDir, 'raced.txt');
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_race', name: 'Write', input: { file_path: target, content: 'x\n' } }]),
      textResponse('ok'),
    );
    let worker = await startWorker();
    const handle = await start({ prompt: 'write', permissionMode: 'default', approvalTimeoutMs: 3_000 });
    await waitFor(
      'the approval request',
      async () => (await sessionStatus(client, handle.workflowId)).pendingApprovals.length === 1,
    );
    // No worker while the timeout passes: when one comes back, the turn's timer has fired and the
    // approve arrives at the same time — the session still lists the call as pending.
    await worker.stop();
    // The turn's 3 s approval timer fires on the server (no worker needed): wait for that event in the
    // turn's history rather than for a fixed 3.5 s.
    await waitFor(
      'the approval timer to fire',
      async () => {
        const events = (await client.workflow.getHandle(`${handle.workflowId}/turn-1`).fetchHistory()).events ?? [];
        return events.some((e) => e.eventType === temporal.api.enums.v1.EventType.EVENT_TYPE_TIMER_FIRED);
      },
      60_000,
      250,
    );
    // The approve waits for the worker started below to take it (an event), not for the client's
    // default 10 s: a loaded machine's worker start outlasted that, and the answer was 'pending'.
    const updateWait = process.env.DURABLE_AGENT_UPDATE_WAIT_MS;
    process.env.DURABLE_AGENT_UPDATE_WAIT_MS = '120000';
    const answer = approveToolUse(client, handle.workflowId, 'toolu_race', 'late@example').finally(() => {
      if (updateWait === undefined) delete process.env.DURABLE_AGENT_UPDATE_WAIT_MS;
      else process.env.DURABLE_AGENT_UPDATE_WAIT_MS = updateWait;
    });
    // Deliberately a race (any of the three outcomes below passes): a short head start for the
    // update, whatever the machine's load makes of it.
    await new Promise((r) => setTimeout(r, 300));
    worker = await startWorker();
    try {
      // Three honest answers: applied; not applied (the update ran after the timeout's denial);
      // or refused by the validator when the timeout's denial was already recorded — that refusal
      // must say what counted.
      const a = await answer.catch((err: Error) => {
        assert.match(
          err.message,
          /is no longer waiting for approval: too late: no approval arrived within the approval timeout/,
        );
        return { status: 'refused' as const, message: err.message };
      });
      const result = await handle.result();
      assert.equal(result.status, 'completed');
      const written = await readFile(target, 'utf8').then(
        () => true,
        () => false,
      );
      if (a.status === 'refused') {
        assert.equal(written, false, 'approve was refused as too late: nothing was written');
      } else if (a.status === 'applied') {
        assert.ok(written, 'approve said applied: the file must exist');
      } else {
        assert.equal(a.status, 'not_applied', JSON.stringify(a));
        assert.equal(written, false, 'approve said not applied: nothing was written');
        if (a.status === 'not_applied') {
          assert.equal(a.decision, 'deny');
          assert.match(a.outcome, /too late: no approval arrived within the approval timeout/);
        }
      }
      console.log(`[approval-race] answer ${a.status}; file written: ${written}`);
    } finally {
      await worker.stop();
    }
  });
});

test('integration: the non-streamed fallback works with max_tokens 64000 (the SDK wants a timeout for it)', async () => {
  const fake = await startFakeAnthropic();
  const work = await mkdtemp(join(tmpdir(), 'da-fallback-'));
  const storeDir = await mkdtemp(join(tmpdir(), 'da-fallback-store-'));
  try {
    fake.enqueue({ ...textResponse('a long answer, cut'), dropAfterEvents: 3 }, textResponse('the whole answer'));
    const r = await runLocalSession(
      { prompt: 'write a lot', cwd: work, model: { model: 'claude-test', maxTokens: 64_000 } },
      { storeDir, anthropic: fakeAnthropicFactory(fake) },
    );
    assert.equal(r.status, 'completed', r.endReason);
    assert.equal(r.lastText, 'the whole answer');
    assert.deepEqual(
      fake.requests.map((q) => q.stream),
      [true, false],
      'the second request is the non-streamed fallback',
    );
    assert.equal((fake.requests[1]?.body as { max_tokens?: number }).max_tokens, 64_000);
    fake.assertDone();
  } finally {
    await fake.close();
  }
});
