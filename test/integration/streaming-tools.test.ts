// integration: streaming tool execution on the real dev server, the real SDK against the fake
// Messages API with per-block pacing. A safe block that completes seconds before its message
// starts its activity while the model activity still runs (history timestamps); an unsafe block
// after it waits for the message; a stream that fails after an early start falls back, reuses
// the early run for the id the retry repeats and discards (cancels, audits) the one it dropped.
import { after, test } from 'node:test';
import { turnResultFromHistory } from '../../src/core/payloads';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { textResponse, type MessageSpec } from '../../src/testing/fakeAnthropic';
import { buildAudit, formatAuditText } from '../../src/audit';
import { defaultPayloadConverter } from '@temporalio/common';
import type { SessionInput, TurnWorkflowResult } from '../../src/temporal/workflows/definitions';
import { cli } from '../support/cli';
import { interruptSession } from '../../src/temporal/client';
import { turnProgressQuery } from '../../src/temporal/workflows/definitions';
import { closeTestEnv } from '../support/temporal';
import { waitFor } from '../support/wait';
import { withAgent } from '../support/agent';
import { TEST_TOOLS } from '../support/testTools';

after(closeTestEnv);
const EventType = temporal.api.enums.v1.EventType;

interface ActivityTimes {
  scheduledEventId: number;
  scheduled: number;
  started?: number;
  ended?: number;
  endEventId?: number;
  outcome?: 'completed' | 'cancelled' | 'failed';
  cancelRequested?: boolean;
}

const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined): number =>
  Number(t?.seconds ?? 0) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);

/** The activities of a turn by activity id: scheduling, start and end times and event ids from its history. */
async function turnActivities(client: Client, turnId: string): Promise<Map<string, ActivityTimes>> {
  const history = await client.workflow.getHandle(turnId).fetchHistory();
  const byEvent = new Map<number, string>();
  const out = new Map<string, ActivityTimes>();
  for (const e of history.events ?? []) {
    const id = Number(e.eventId);
    const at = ms(e.eventTime);
    if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
      const activityId = e.activityTaskScheduledEventAttributes?.activityId ?? '?';
      byEvent.set(id, activityId);
      out.set(activityId, { scheduledEventId: id, scheduled: at });
      continue;
    }
    if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED) {
      const entry = out.get(byEvent.get(Number(e.activityTaskCancelRequestedEventAttributes?.scheduledEventId)) ?? '');
      if (entry) entry.cancelRequested = true;
      continue;
    }
    const a =
      e.activityTaskStartedEventAttributes ??
      e.activityTaskCompletedEventAttributes ??
      e.activityTaskCanceledEventAttributes ??
      e.activityTaskFailedEventAttributes;
    const activityId = a ? byEvent.get(Number(a.scheduledEventId)) : undefined;
    const entry = activityId ? out.get(activityId) : undefined;
    if (!entry) continue;
    if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED) entry.started = at;
    else {
      entry.ended = at;
      entry.endEventId = id;
      entry.outcome =
        e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED
          ? 'completed'
          : e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_CANCELED
            ? 'cancelled'
            : 'failed';
    }
  }
  return out;
}

/** A Read that completes 2.5 s before the message ends, an unsafe Write after it, and a Read after the Write. */
function readWriteRead(dir: string): MessageSpec {
  return {
    content: [
      { type: 'text', text: 'Reading first.' },
      {
        type: 'tool_use',
        id: 'toolu_read1',
        name: 'Read',
        input: { file_path: join(dir, 'a.txt') },
        pauseAfterMs: 5000,
      },
      {
        type: 'tool_use',
        id: 'toolu_write1',
        name: 'Write',
        input: { file_path: join(dir, 'b.txt'), content: 'written\n' },
        pauseAfterMs: 500,
      },
      { type: 'tool_use', id: 'toolu_read2', name: 'Read', input: { file_path: join(dir, 'a.txt') } },
    ],
  };
}

test('integration: a Read streamed seconds before its message ends starts before the model activity ends; the Write after it and everything after that wait for the message', async () => {
  await withAgent({}, async ({ fake, start, workDir, client }) => {
    await writeFile(join(workDir, 'a.txt'), 'alpha\n');
    fake.enqueue(readWriteRead(workDir), textResponse('Done.'));
    const handle = await start({ prompt: 'read then write', tools: ['Read', 'Write'] });
    const result = await handle.result();
    assert.equal(result.status, 'completed', result.endReason);

    const acts = await turnActivities(client, `${handle.workflowId}/turn-1`);
    const model = acts.get('model-1');
    const read1 = acts.get('tool-toolu_read1');
    const write1 = acts.get('tool-toolu_write1');
    const read2 = acts.get('tool-toolu_read2');
    assert.ok(model?.ended && read1?.started && write1 && read2, JSON.stringify([...acts]));
    assert.ok(
      read1.started < model.ended,
      `the Read's activity started (${read1.started}) before the model activity ended (${model.ended})`,
    );
    assert.ok((read1.endEventId ?? 0) < (model.endEventId ?? 0), 'the Read even completed before the model activity');
    assert.ok(
      write1.scheduledEventId > (model.endEventId ?? Infinity),
      'the unsafe Write was scheduled only after the message was complete',
    );
    assert.ok(
      read2.scheduledEventId > (write1.endEventId ?? Infinity),
      'the Read after the Write waited for it (the Write is a barrier)',
    );

    const turn = turnResultFromHistory(
      (await client.workflow.getHandle(`${handle.workflowId}/turn-1`).result()) as TurnWorkflowResult,
    );
    assert.deepEqual(
      turn.records.map((r) => [r.toolUseId, r.status, r.early ?? false]),
      [
        ['toolu_read1', 'ok', true],
        ['toolu_write1', 'ok', false],
        ['toolu_read2', 'ok', false],
      ],
    );
    assert.equal(await readFile(join(workDir, 'b.txt'), 'utf8'), 'written\n');
    // Results reach the model in block order.
    const second = fake.messageRequests()[1];
    const results = (second?.messages.at(-1)?.content as Array<{ type: string; tool_use_id?: string }>).filter(
      (b) => b.type === 'tool_result',
    );
    assert.deepEqual(
      results.map((b) => b.tool_use_id),
      ['toolu_read1', 'toolu_write1', 'toolu_read2'],
    );
    // The audit says which call started while streaming.
    const text = formatAuditText(await buildAudit(client, handle.workflowId));
    assert.match(text, /started while the model streamed/);
  });
});

test('integration: streamingToolExecution: false — the same message runs its tools only after the model activity ended', async () => {
  await withAgent({}, async ({ fake, start, workDir, client }) => {
    await writeFile(join(workDir, 'a.txt'), 'alpha\n');
    fake.enqueue(readWriteRead(workDir), textResponse('Done.'));
    const handle = await start({ prompt: 'read then write', tools: ['Read', 'Write'], streamingToolExecution: false });
    assert.equal((await handle.result()).status, 'completed');
    const acts = await turnActivities(client, `${handle.workflowId}/turn-1`);
    const model = acts.get('model-1');
    const read1 = acts.get('tool-toolu_read1');
    assert.ok(model?.endEventId && read1, JSON.stringify([...acts]));
    assert.ok(read1.scheduledEventId > model.endEventId, 'without streaming execution the Read waits for the message');
    const history = await client.workflow.getHandle(`${handle.workflowId}/turn-1`).fetchHistory();
    assert.ok(
      !(history.events ?? []).some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED),
      'no block was handed over',
    );
  });
});

test('integration: a stream that fails after early starts falls back; the repeated id reuses its early run (side effect once); the dropped id is cancelled, audited and never sent', async () => {
  await withAgent({ worker: { tools: TEST_TOOLS } }, async ({ fake, start, workDir, client }) => {
    const counter = join(workDir, 'count.log');
    const kept = {
      type: 'tool_use' as const,
      id: 'toolu_kept',
      name: 'CountSafe',
      input: { file: counter, text: 'kept' },
    };
    fake.enqueue(
      {
        content: [
          { type: 'text', text: 'Counting.' },
          kept,
          // Slow: still running when the retry's answer arrives without it.
          {
            type: 'tool_use',
            id: 'toolu_dropped',
            name: 'CountSafe',
            input: { file: counter, text: 'dropped', delayMs: 120_000 },
            pauseAfterMs: 5000,
          },
        ],
        // The stream dies right after the second tool_use block (and its pause).
        dropAfterBlocks: 3,
      },
      // The non-streamed fallback answers with the first block's id only.
      { content: [{ type: 'text', text: 'Counting.' }, kept] },
      textResponse('Counted.'),
    );
    const handle = await start({ prompt: 'count', tools: ['CountSafe'] });
    const result = await handle.result();
    assert.equal(result.status, 'completed', result.endReason);

    // Each call's side effect happened once: the kept one was not run again after the fallback.
    const lines = (await readFile(counter, 'utf8')).trim().split('\n').sort();
    assert.deepEqual(lines, ['dropped', 'kept']);

    const reqs = fake.messageRequests();
    assert.equal(reqs.length, 3);
    assert.equal(reqs[0]?.stream, true);
    assert.notEqual(reqs[1]?.stream, true, 'the fallback is a non-streamed request');
    const third = JSON.stringify(reqs[2]);
    assert.match(third, /toolu_kept/);
    assert.doesNotMatch(third, /toolu_dropped/, 'the discarded call never reaches the model');

    const turnId = `${handle.workflowId}/turn-1`;
    const turn = (await client.workflow.getHandle(turnId).result()) as TurnWorkflowResult;
    assert.equal(turn.fallback, true);
    assert.deepEqual(
      turn.records.map((r) => [r.toolUseId, r.status, r.early ?? false]),
      [['toolu_kept', 'ok', true]],
    );
    assert.deepEqual(
      turn.discarded?.map((d) => [d.toolUseId, d.state]),
      [['toolu_dropped', 'cancelled']],
    );

    const acts = await turnActivities(client, turnId);
    assert.equal(
      [...acts.keys()].filter((k) => k.startsWith('tool-toolu_kept')).length,
      1,
      'one activity for the kept id',
    );
    // Cancelled while it waited (the tool activity answers a cancellation with an interrupted record).
    assert.equal(acts.get('tool-toolu_dropped')?.cancelRequested, true, JSON.stringify(acts.get('tool-toolu_dropped')));

    // The audit says what was discarded, and why.
    const report = await buildAudit(client, handle.workflowId);
    const text = formatAuditText(report);
    assert.match(text, /discarded.*toolu_dropped|toolu_dropped.*discarded/i, text);
    assert.match(text, /not in the final message/);
  });
});

test('cli: run --no-streaming-tools and DURABLE_AGENT_STREAMING_TOOL_EXECUTION=0 start a session with streaming execution off; by default it is on', async () => {
  await withAgent({ noWorker: true }, async ({ taskQueue, workDir, client }) => {
    const env = { TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS, DURABLE_AGENT_TASK_QUEUE: taskQueue };
    const runs = [
      [
        await cli(
          ['run', '--detach', '--json', '--cwd', workDir, '--model', 'claude-test', '--no-streaming-tools', 'do it'],
          env,
        ),
        false,
      ],
      [
        await cli(['run', '--detach', '--json', '--cwd', workDir, '--model', 'claude-test', 'do it'], {
          ...env,
          DURABLE_AGENT_STREAMING_TOOL_EXECUTION: '0',
        }),
        false,
      ],
      [await cli(['run', '--detach', '--json', '--cwd', workDir, '--model', 'claude-test', 'do it'], env), undefined],
    ] as const;
    for (const [r, expected] of runs) {
      assert.equal(r.code, 0, r.stderr);
      const id = (JSON.parse(r.stdout) as { session: string }).session;
      const history = await client.workflow.getHandle(id).fetchHistory();
      const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
      const input = defaultPayloadConverter.fromPayload<SessionInput>(payload as never);
      assert.equal(input.streamingToolExecution, expected);
      await client.workflow.getHandle(id).terminate('test done');
    }
  });
});

test('integration: an interrupt while the model streams cancels the model call and the call started early; nothing is sent, the session waits', async () => {
  await withAgent({ worker: { tools: TEST_TOOLS } }, async ({ fake, start, workDir, client }) => {
    const counter = join(workDir, 'count.log');
    fake.enqueue(
      {
        content: [
          { type: 'text', text: 'Counting slowly.' },
          {
            type: 'tool_use',
            id: 'toolu_slow',
            name: 'CountSafe',
            input: { file: counter, text: 'slow', delayMs: 120_000 },
            pauseAfterMs: 60_000,
          },
          { type: 'text', text: 'never reached' },
        ],
      },
      textResponse('Stopped as asked.'),
    );
    const handle = await start({ prompt: 'count slowly', tools: ['CountSafe'], onInterrupt: 'end' });
    const turn = client.workflow.getHandle(`${handle.workflowId}/turn-1`);
    await waitFor('the early call to run', async () =>
      (await turn.query(turnProgressQuery)).running.some((r) => r.toolUseId === 'toolu_slow'),
    );
    await interruptSession(client, handle.workflowId, 'test');
    const result = await handle.result();
    assert.equal(result.status, 'interrupted', result.endReason);
    const turnResult = (await turn.result()) as TurnWorkflowResult;
    assert.equal(turnResult.reason, 'interrupted');
    assert.deepEqual(turnResult.records, [], 'no assistant message was recorded, so no tool_result either');
    assert.deepEqual(
      turnResult.discarded?.map((d) => [d.toolUseId, d.state]),
      [['toolu_slow', 'cancelled']],
    );
    assert.match(turnResult.discarded?.[0]?.reason ?? '', /interrupted/);
    const acts = await turnActivities(client, `${handle.workflowId}/turn-1`);
    assert.equal(acts.get('tool-toolu_slow')?.cancelRequested, true);
    assert.equal(acts.get('model-1')?.cancelRequested, true);
    assert.equal(fake.messageRequests().length, 1, 'the model was not called again');
  });
});
