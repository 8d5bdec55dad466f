// integration: model-call failures: a stream dropped mid-way falls back to a non-streamed
// request (tombstoned partial output, tools run once); overloads are retried by Temporal.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { defaultPayloadConverter } from '@temporalio/common';
import { lastToolResults, overloadedError, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import type { CallModelResult } from '../../src/runtime/model';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';

after(closeTestEnv);
const EventType = temporal.api.enums.v1.EventType;

test('integration: a stream dropped after a tool_use block falls back; the tool runs once; the partial output is a tombstone', async () => {
  await withAgent({}, async ({ fake, start, workDir, client }) => {
    const counter = join(workDir, 'count.log');
    const call = { id: 'toolu_fb1', name: 'Bash', input: { command: `echo ran >> ${counter}` } };
    // message_start, ping?, content_block_start/deltas/stop for the text and the tool_use, then the drop.
    fake.enqueue(
      { ...toolUseResponse([call], { text: 'Counting.' }), dropAfterEvents: 12 },
      toolUseResponse([call], { text: 'Counting.' }),
      textResponse('Counted.'),
    );
    const handle = await start({ prompt: 'count once' });
    const result = await handle.result();
    assert.equal(result.status, 'completed');
    assert.equal(await readFile(counter, 'utf8'), 'ran\n');
    const reqs = fake.messageRequests();
    assert.equal(reqs.length, 3);
    assert.equal(reqs[0]?.stream, true);
    assert.notEqual(reqs[1]?.stream, true, 'the fallback is a non-streamed request');
    // The conversation holds one assistant message for turn 1: the abandoned attempt is not in it.
    const third = reqs[2];
    assert.ok(third);
    assert.deepEqual(
      third.messages.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.deepEqual(
      lastToolResults(third).map((r) => r.tool_use_id),
      ['toolu_fb1'],
    );
    // The audit trail (the turn's history) keeps the tombstone.
    const history = await client.workflow.getHandle(`${handle.workflowId}/turn-1`).fetchHistory();
    const completed = (history.events ?? []).filter(
      (e) => e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
    );
    const modelResult = defaultPayloadConverter.fromPayload<CallModelResult>(
      completed[0]!.activityTaskCompletedEventAttributes!.result!.payloads![0]!,
    );
    assert.equal(modelResult.fallback, true);
    assert.equal(modelResult.tombstones.length, 1);
    assert.ok(modelResult.tombstones[0]!.eventsReceived >= 1);
    assert.ok(modelResult.tombstones[0]!.partialContent.length >= 1, JSON.stringify(modelResult.tombstones));
  });
});

test('integration: a 529 with retry-after is retried by the activity; a 400 fails the session without retries', async () => {
  await withAgent({}, async ({ fake, start }) => {
    fake.enqueue({ ...overloadedError(), retryAfterMs: 100 } as never, textResponse('hello'));
    const r = await (await start({ prompt: 'hi' })).result();
    assert.equal(r.status, 'completed');
    assert.equal(fake.messageRequests().length, 2);

    fake.enqueue({ kind: 'error', status: 400, type: 'invalid_request_error', message: 'bad request for test' });
    const h = await start({ prompt: 'bad' });
    await assert.rejects(h.result(), (err: Error) =>
      /bad request for test|model call failed|session failed/.test(
        String((err as { cause?: Error }).cause?.message ?? err.message),
      ),
    );
    assert.equal(fake.messageRequests().length, 3, 'the 400 was sent once and not retried');
  });
});
