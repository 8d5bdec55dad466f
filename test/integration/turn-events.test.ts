// integration: what one turn of 3 parallel Reads records in its own history (issue 33, "fewer events
// per tool call"). The model call describes the blocks it streams and returns (no describeToolUses
// local activity), hands a run of blocks that completed together in one streamedToolUse signal, and
// the end-of-turn writes are one local activity (recordTurnEnd). Workflow tasks depend on when
// completions arrive, so they are counted apart; every other event is fixed by the turn's shape.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { lastToolResults, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { streamedItems, type StreamedToolUseSignal } from '../../src/core/streaming';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';

after(closeTestEnv);

const ET = temporal.api.enums.v1.EventType;
const WORKFLOW_TASK = new Set([
  ET.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
  ET.EVENT_TYPE_WORKFLOW_TASK_STARTED,
  ET.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
]);

test("integration: a turn of 3 streamed Reads: no describe marker, no store marker (the next step's model call writes), at most 2 signals, the next model step in the same child", async () => {
  await withAgent({}, async ({ fake, start, workDir, client }) => {
    for (const k of [0, 1, 2]) await writeFile(join(workDir, `f${k}.txt`), `file ${k}\n`);
    fake.enqueue(
      toolUseResponse(
        [0, 1, 2].map((k) => ({ id: `toolu_r${k}`, name: 'Read', input: { file_path: join(workDir, `f${k}.txt`) } })),
      ),
      textResponse('Read them.'),
    );
    const handle = await start({ prompt: 'read the three files', tools: ['Read'] });
    const result = await handle.result();
    assert.equal(result.status, 'completed', result.endReason);
    fake.assertDone();
    // The transcript holds the turn's results once, in order: the next request ends with them.
    const sent = lastToolResults(fake.messageRequests()[1]!);
    assert.deepEqual(
      sent.map((r) => r.tool_use_id),
      ['toolu_r0', 'toolu_r1', 'toolu_r2'],
    );

    const history = await client.workflow.getHandle(`${handle.workflowId}/turn-1`).fetchHistory();
    const events = history.events ?? [];
    const markers: string[] = [];
    const signals: StreamedToolUseSignal[] = [];
    for (const e of events) {
      if (e.eventType === ET.EVENT_TYPE_MARKER_RECORDED) {
        const m = e.markerRecordedEventAttributes;
        const data = m?.details?.data?.payloads?.[0];
        const la = data ? defaultPayloadConverter.fromPayload<{ activity_type?: string }>(data) : undefined;
        markers.push(la?.activity_type ?? m?.markerName ?? '?');
      }
      if (e.eventType === ET.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED) {
        const s = e.workflowExecutionSignaledEventAttributes;
        assert.equal(s?.signalName, 'streamedToolUse');
        signals.push(defaultPayloadConverter.fromPayload<StreamedToolUseSignal>(s!.input!.payloads![0]!));
      }
    }
    const tasks = events.filter((e) => WORKFLOW_TASK.has(e.eventType!)).length;
    const others = events.length - tasks;
    console.log(
      `[turn-events] ${events.length} events: ${tasks} of ${tasks / 3} workflow tasks, ${others} others; ` +
        `markers ${markers.join(', ')}; ${signals.length} signal(s) of ${signals.map((s) => streamedItems(s).length).join('+')} block(s)`,
    );
    // Before: a describeToolUses marker per streamed batch and two store markers (appendTranscript,
    // storeReadFiles); then one (recordTurnEnd). Now none: the step's writes ride in the next step's
    // model call (TURN_STEP_WRITES_PATCH), which made them before its request (the results above).
    assert.deepEqual(
      markers.filter((m) => m !== 'core_patch'),
      [],
    );
    const model2 = events.find((e) => e.activityTaskScheduledEventAttributes?.activityId === 'model-2');
    const input2 = defaultPayloadConverter.fromPayload<{
      stepWrites?: { append?: { messages: Array<{ content: Array<{ ref?: string; tool_use_id?: string }> }> } };
    }>(model2!.activityTaskScheduledEventAttributes!.input!.payloads![0]!);
    // The three stored results by reference alone (issue 33: each stored block names its tool_use).
    const refs = input2.stepWrites?.append?.messages[0]?.content ?? [];
    assert.equal(refs.length, 3);
    for (const b of refs) assert.ok(b.ref?.startsWith('toolresult-') && b.tool_use_id === undefined, JSON.stringify(b));
    // Before: one signal per block. Every block handed over carries its description.
    assert.ok(signals.length <= 2, `${signals.length} signals`);
    for (const item of signals.flatMap(streamedItems)) {
      assert.equal(item.description?.toolUseId, item.block.id);
      assert.equal(item.description?.concurrencySafe, true);
    }
    // Issue 33: one child runs both model steps (the Reads, then the text): no turn-2 child.
    assert.equal(result.turns, 2);
    await assert.rejects(client.workflow.getHandle(`${handle.workflowId}/turn-2`).describe());
    // started, callModel ×3, runToolUse 3×3, signals ≤ 2, patch marker + search attributes,
    // the second step's callModel ×3, completed (18 for the first step alone; before: 19, and 24 before that).
    assert.ok(others <= 21, `${others} events besides workflow tasks (before: 22)`);
  });
});
