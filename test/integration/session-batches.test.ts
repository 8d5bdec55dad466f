// integration: a session on the real dev server, the real SDK against the fake Messages API.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { textResponse, toolUseResponse, lastToolResults } from '../../src/testing/fakeAnthropic';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { temporal } from '@temporalio/proto';

after(closeTestEnv);

const EventType = temporal.api.enums.v1.EventType;

test('integration: [Grep, Read] [Edit] [Grep] runs as 3 batches; safe calls overlap; last Grep sees the edit', async () => {
  await withAgent({}, async ({ fake, start, workDir, client }) => {
    await mkdir(join(workDir, 'src'));
    await writeFile(join(workDir, 'src', 'auth.ts'), 'export const timeout = 10;\nexport function login() {}\n');
    await writeFile(join(workDir, 'src', 'other.ts'), 'const timeout = 5;\n');
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_g1', name: 'Grep', input: { pattern: 'timeout', path: 'src' } },
        { id: 'toolu_r1', name: 'Read', input: { file_path: join(workDir, 'src', 'auth.ts') } },
        {
          id: 'toolu_e1',
          name: 'Edit',
          input: { file_path: join(workDir, 'src', 'auth.ts'), old_string: 'timeout = 10', new_string: 'timeout = 30' },
        },
        { id: 'toolu_g2', name: 'Grep', input: { pattern: 'timeout = 30', path: 'src', output_mode: 'content' } },
      ]),
      textResponse('All done.'),
    );
    // The tool phase's batches as such: with streaming execution the safe calls would start one
    // by one as their blocks arrive (integration/streaming-tools covers that path).
    const handle = await start({ prompt: 'raise the login timeout', streamingToolExecution: false });
    const result = await handle.result();
    assert.equal(result.status, 'completed');
    assert.equal(result.turns, 2);
    fake.assertDone();

    // What the model was sent on the second call: one tool_result per tool_use, in block order.
    const second = fake.messageRequests()[1];
    assert.ok(second);
    const results = lastToolResults(second);
    assert.deepEqual(
      results.map((r) => r.tool_use_id),
      ['toolu_g1', 'toolu_r1', 'toolu_e1', 'toolu_g2'],
    );
    assert.ok(
      results.every((r) => r.is_error !== true),
      JSON.stringify(results),
    );
    const g2 = JSON.stringify(results[3]?.content);
    assert.match(g2, /timeout = 30/);
    assert.equal(
      await readFile(join(workDir, 'src', 'auth.ts'), 'utf8'),
      'export const timeout = 30;\nexport function login() {}\n',
    );
    // The default system prompt went along, naming the working directory.
    // (a list of text blocks: the last carries the prompt-cache breakpoint)
    assert.match(JSON.stringify(fake.messageRequests()[0]?.system), new RegExp(`working directory is ${workDir}`));
    // The tools were sent to the model with their schemas.
    const toolNames = (fake.messageRequests()[0]?.tools ?? []).map((t) => (t as { name: string }).name);
    assert.deepEqual(toolNames.sort(), [
      'Agent',
      'Bash',
      'CronCreate',
      'CronDelete',
      'CronList',
      'Edit',
      'EnterWorktree',
      'ExitWorktree',
      'Glob',
      'Grep',
      'Monitor',
      'NotebookEdit',
      'Read',
      'ScheduleWakeup',
      'Skill',
      'TaskStop',
      'WebFetch',
      'WebSearch',
      'Write',
    ]);

    // The turn's history: the two safe calls overlap, Edit starts after both end, the last Grep after Edit.
    const history = await client.workflow.getHandle(`${handle.workflowId}/turn-1`).fetchHistory();
    const byScheduled = new Map<number, string>();
    const timeline: Array<[string, string]> = [];
    for (const e of history.events ?? []) {
      if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
        byScheduled.set(Number(e.eventId), e.activityTaskScheduledEventAttributes?.activityId ?? '');
      if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED)
        timeline.push(['start', byScheduled.get(Number(e.activityTaskStartedEventAttributes?.scheduledEventId)) ?? '']);
      if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED)
        timeline.push(['end', byScheduled.get(Number(e.activityTaskCompletedEventAttributes?.scheduledEventId)) ?? '']);
    }
    const at = (kind: string, id: string) => timeline.findIndex(([k, a]) => k === kind && a === id);
    assert.ok(at('start', 'tool-toolu_g1') >= 0 && at('start', 'tool-toolu_r1') >= 0, JSON.stringify(timeline));
    // Scheduled together: both scheduled before either completed.
    const scheduledIds = [...byScheduled.values()];
    assert.ok(scheduledIds.indexOf('tool-toolu_r1') < scheduledIds.indexOf('tool-toolu_e1'));
    assert.ok(
      at('start', 'tool-toolu_e1') > Math.max(at('end', 'tool-toolu_g1'), at('end', 'tool-toolu_r1')),
      JSON.stringify(timeline),
    );
    assert.ok(at('start', 'tool-toolu_g2') > at('end', 'tool-toolu_e1'), JSON.stringify(timeline));
    const firstEnd = Math.min(at('end', 'tool-toolu_g1'), at('end', 'tool-toolu_r1'));
    assert.ok(
      byScheduledBefore(history.events ?? [], 'tool-toolu_g1', 'tool-toolu_r1'),
      'the two safe calls were scheduled in the same workflow task',
    );
    assert.ok(firstEnd > 0);
  });
});

/** True when both activities were scheduled with no completion event between them. */
function byScheduledBefore(events: temporal.api.history.v1.IHistoryEvent[], a: string, b: string): boolean {
  let seen = 0;
  for (const e of events) {
    if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED) {
      const id = e.activityTaskScheduledEventAttributes?.activityId;
      if (id === a || id === b) seen++;
      if (seen === 2) return true;
    }
    if (seen === 1 && e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) return false;
  }
  return false;
}

test('integration: a tool denied outright is not offered to the model, and a call to it is an unknown tool', async () => {
  await withAgent({}, async ({ fake, start }) => {
    fake.enqueue(
      toolUseResponse([{ id: 'toolu_nobash', name: 'Bash', input: { command: 'echo hi' } }]),
      textResponse('ok'),
    );
    const result = await (await start({ prompt: 'try bash', rules: { allow: [], ask: [], deny: ['Bash'] } })).result();
    assert.equal(result.status, 'completed');
    const offered = (fake.messageRequests()[0]?.tools ?? []).map((t) => (t as { name: string }).name).sort();
    // A blanket Bash deny takes Monitor (whose rules are Bash's) out too.
    assert.deepEqual(offered, [
      'Agent',
      'CronCreate',
      'CronDelete',
      'CronList',
      'Edit',
      'EnterWorktree',
      'ExitWorktree',
      'Glob',
      'Grep',
      'NotebookEdit',
      'Read',
      'ScheduleWakeup',
      'Skill',
      'TaskStop',
      'WebFetch',
      'WebSearch',
      'Write',
    ]);
    const [r] = lastToolResults(fake.messageRequests()[1]!);
    assert.equal(r?.is_error, true);
    assert.match(JSON.stringify(r?.content), /No such tool available: Bash/);
  });
});

test('integration: a large result is stored whole; reading it back needs no approval, even in default mode', async () => {
  await withAgent({}, async ({ fake, start, workDir }) => {
    await writeFile(
      join(workDir, 'big.txt'),
      Array.from({ length: 3000 }, (_, i) => `match line ${i}`).join('\n') + '\n',
    );
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_big', name: 'Grep', input: { pattern: 'match', output_mode: 'content', head_limit: 0 } },
      ]),
    );
    let savedTo = '';
    fake.script((req) => {
      const assistants = req.messages.filter((m) => m.role === 'assistant').length;
      if (assistants === 1) {
        const [r] = lastToolResults(req);
        savedTo = /Full output saved to: (\S+)/.exec(JSON.stringify(r?.content).replace(/\\n/g, '\n'))?.[1] ?? '';
        return toolUseResponse([
          { id: 'toolu_readback', name: 'Read', input: { file_path: savedTo, offset: 2990, limit: 20 } },
        ]);
      }
      return textResponse('done');
    });
    const result = await (
      await start({ prompt: 'find all matches', permissionMode: 'default', approvalTimeoutMs: 10_000 })
    ).result();
    assert.equal(result.status, 'completed');
    assert.ok(savedTo.length > 0, 'the result was persisted with its path');
    const first = lastToolResults(fake.messageRequests()[1]!)[0];
    assert.match(JSON.stringify(first?.content), /<persisted-output>/);
    assert.ok(JSON.stringify(first?.content).length < 5_000, 'the model got a preview, not 40 KB');
    const full = await readFile(savedTo, 'utf8');
    assert.match(full, /match line 2999/);
    const [readBack] = lastToolResults(fake.messageRequests()[2]!);
    assert.notEqual(readBack?.is_error, true, JSON.stringify(readBack));
    assert.match(JSON.stringify(readBack?.content), /match line 29\d\d/);
  });
});
