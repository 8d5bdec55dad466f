// unit: streaming tool execution in the in-process scheduler (no Temporal): the same scenarios as
// integration/streaming-tools, through the same engine algorithm, with the real SDK against the
// fake Messages API pacing its SSE events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import {
  startFakeAnthropic,
  textResponse,
  type FakeAnthropicServer,
  type MessageSpec,
} from '../../src/testing/fakeAnthropic';
import { runLocalSession, type LocalSessionOptions } from '../../src/inprocess/runSession';
import { TEST_TOOLS } from '../support/testTools';

async function setup(): Promise<{ fake: FakeAnthropicServer; work: string; store: string }> {
  return {
    fake: await startFakeAnthropic(),
    work: await mkdtemp(join(tmpdir(), 'da-lstream-')),
    store: await mkdtemp(join(tmpdir(), 'da-lstream-store-')),
  };
}

function run(
  s: { fake: FakeAnthropicServer; work: string; store: string },
  opts: Partial<LocalSessionOptions> & { prompt: string },
) {
  return runLocalSession(
    { cwd: s.work, permissionMode: 'bypassPermissions', model: { model: 'claude-test', maxTokens: 256 }, ...opts },
    {
      tools: TEST_TOOLS,
      storeDir: s.store,
      anthropic: () => new Anthropic({ apiKey: 'k', baseURL: s.fake.baseURL, maxRetries: 0 }),
    },
  );
}

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
        pauseAfterMs: 300,
      },
      { type: 'tool_use', id: 'toolu_read2', name: 'Read', input: { file_path: join(dir, 'a.txt') } },
    ],
  };
}

test('unit: in-process — a Read streamed before its message ends starts before the message is complete; the Write and what follows wait', async () => {
  const s = await setup();
  try {
    await writeFile(join(s.work, 'a.txt'), 'alpha\n');
    s.fake.enqueue(readWriteRead(s.work), textResponse('Done.'));
    const result = await run(s, { prompt: 'read then write', tools: ['Read', 'Write'] });
    assert.equal(result.status, 'completed', result.endReason);
    const streamedUntil = s.fake.requests.filter((r) => r.valid)[0]?.finishedAt;
    const [read1, write1, read2] = result.records;
    assert.ok(streamedUntil && read1?.startedAt, JSON.stringify({ streamedUntil, read1 }));
    assert.ok(
      read1.startedAt < streamedUntil,
      `the Read started (${read1.startedAt}) before the message was complete (${streamedUntil})`,
    );
    assert.deepEqual(
      result.records.map((r) => [r.toolUseId, r.status, r.early ?? false]),
      [
        ['toolu_read1', 'ok', true],
        ['toolu_write1', 'ok', false],
        ['toolu_read2', 'ok', false],
      ],
    );
    assert.ok(
      (write1?.startedAt ?? 0) >= (read1.endedAt ?? Infinity) &&
        (read2?.startedAt ?? 0) >= (write1?.endedAt ?? Infinity),
      'the Write ran alone, the Read after it waited',
    );
    assert.equal(await readFile(join(s.work, 'b.txt'), 'utf8'), 'written\n');
  } finally {
    await s.fake.close();
  }
});

test('unit: in-process — streamingToolExecution: false starts the tools only when the message is complete', async () => {
  const s = await setup();
  try {
    await writeFile(join(s.work, 'a.txt'), 'alpha\n');
    s.fake.enqueue(readWriteRead(s.work), textResponse('Done.'));
    const result = await run(s, { prompt: 'read then write', tools: ['Read', 'Write'], streamingToolExecution: false });
    assert.equal(result.status, 'completed', result.endReason);
    const streamedUntil = s.fake.requests.filter((r) => r.valid)[0]?.finishedAt ?? Infinity;
    assert.ok((result.records[0]?.startedAt ?? 0) >= streamedUntil, 'the Read waited for the message');
    assert.ok(result.records.every((r) => !r.early));
  } finally {
    await s.fake.close();
  }
});

test('unit: in-process — a stream that fails after early starts falls back; the repeated id is reused (ran once), the dropped one is cancelled and never sent', async () => {
  const s = await setup();
  try {
    const counter = join(s.work, 'count.log');
    const kept = {
      type: 'tool_use' as const,
      id: 'toolu_kept',
      name: 'CountSafe',
      input: { file: counter, text: 'kept' },
    };
    s.fake.enqueue(
      {
        content: [
          { type: 'text', text: 'Counting.' },
          kept,
          {
            type: 'tool_use',
            id: 'toolu_dropped',
            name: 'CountSafe',
            input: { file: counter, text: 'dropped', delayMs: 120_000 },
            pauseAfterMs: 4000,
          },
        ],
        dropAfterBlocks: 3,
      },
      { content: [{ type: 'text', text: 'Counting.' }, kept] },
      textResponse('Counted.'),
    );
    const result = await run(s, { prompt: 'count', tools: ['CountSafe'] });
    assert.equal(result.status, 'completed', result.endReason);
    assert.deepEqual((await readFile(counter, 'utf8')).trim().split('\n').sort(), ['dropped', 'kept']);
    const reqs = s.fake.messageRequests();
    assert.equal(reqs.length, 3);
    assert.notEqual(reqs[1]?.stream, true, 'the fallback is non-streamed');
    assert.doesNotMatch(JSON.stringify(reqs[2]), /toolu_dropped/);
    assert.deepEqual(
      result.records.map((r) => [r.toolUseId, r.early ?? false]),
      [['toolu_kept', true]],
    );
    assert.deepEqual(
      result.turnsDetail[0]?.discarded?.map((d) => [d.toolUseId, d.state]),
      [['toolu_dropped', 'cancelled']],
    );
  } finally {
    await s.fake.close();
  }
});
