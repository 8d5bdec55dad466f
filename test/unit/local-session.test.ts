// unit: the in-process scheduler runs the same turn algorithm as the workflows (no Temporal),
// here with a custom tool defined with buildTool and the real SDK against the fake API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { startFakeAnthropic, textResponse, toolUseResponse, lastToolResults } from '../../src/testing/fakeAnthropic';
import { runLocalSession } from '../../src/inprocess/runSession';
import { BUILTIN_TOOL_NAMES } from '../../src/temporal/client';
import { WordCount } from '../../examples/custom-tool';

test('unit: runLocalSession — [WordCount, Read] [Edit] [Grep] with ordered results, a custom tool, and an approval callback', async () => {
  const fake = await startFakeAnthropic();
  const work = await mkdtemp(join(tmpdir(), 'da-local-'));
  const store = await mkdtemp(join(tmpdir(), 'da-local-store-'));
  try {
    await writeFile(join(work, 'a.txt'), 'timeout = 10\n');
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_wc', name: 'WordCount', input: { text: 'the quick brown fox' } },
        { id: 'toolu_rd', name: 'Read', input: { file_path: 'a.txt' } },
        { id: 'toolu_ed', name: 'Edit', input: { file_path: 'a.txt', old_string: '10', new_string: '30' } },
        { id: 'toolu_gr', name: 'Grep', input: { pattern: 'timeout = 30', output_mode: 'content' } },
      ]),
      textResponse('done'),
    );
    const asked: string[] = [];
    const result = await runLocalSession(
      {
        prompt: 'go',
        cwd: work,
        tools: [...BUILTIN_TOOL_NAMES, 'WordCount'],
        permissionMode: 'default',
        model: { model: 'claude-test', maxTokens: 256 },
        onAsk: async (a) => {
          asked.push(a.toolUseId);
          return { decision: 'approve', source: 'human', by: 'tester' };
        },
      },
      {
        tools: [WordCount],
        storeDir: store,
        anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }),
      },
    );
    assert.equal(result.status, 'completed');
    assert.deepEqual(asked, ['toolu_ed'], 'only the Edit asks in default mode');
    assert.deepEqual(
      result.turnsDetail[0]?.batches.map((b) => [b.concurrencySafe, b.toolUseIds]),
      [
        [true, ['toolu_wc', 'toolu_rd']],
        [false, ['toolu_ed']],
        [true, ['toolu_gr']],
      ],
    );
    const results = lastToolResults(fake.messageRequests()[1]!);
    assert.deepEqual(
      results.map((r) => r.tool_use_id),
      ['toolu_wc', 'toolu_rd', 'toolu_ed', 'toolu_gr'],
    );
    assert.equal(results[0]?.content, '4 words');
    assert.match(JSON.stringify(results[3]?.content), /timeout = 30/);
    assert.equal(await readFile(join(work, 'a.txt'), 'utf8'), 'timeout = 30\n');
    // The custom tool was offered to the model with its schema.
    const wc = (fake.messageRequests()[0]?.tools ?? []).find((t) => (t as { name: string }).name === 'WordCount') as
      { input_schema: unknown } | undefined;
    assert.deepEqual(wc?.input_schema, {
      type: 'object',
      properties: { text: { type: 'string', minLength: 1, description: 'The text to count words in' } },
      required: ['text'],
      additionalProperties: false,
    });
  } finally {
    await fake.close();
  }
});

test('unit: a large result that cannot be stored stays inline, and the failure is recorded on the call (never silent)', async () => {
  const fake = await startFakeAnthropic();
  const work = await mkdtemp(join(tmpdir(), 'da-local-'));
  const store = await mkdtemp(join(tmpdir(), 'da-local-store-'));
  try {
    // A file where the results directory should be: storing a large result fails (ENOTDIR), even as root.
    await writeFile(join(store, 'results'), 'not a directory\n');
    const lines = Array.from({ length: 1000 }, (_, i) => `match line ${String(i).padStart(4, '0')} ${'x'.repeat(40)}`);
    await writeFile(join(work, 'big.txt'), `${lines.join('\n')}\n`);
    fake.enqueue(
      toolUseResponse([
        { id: 'toolu_big', name: 'Grep', input: { pattern: 'match line', output_mode: 'content', head_limit: 0 } },
      ]),
      textResponse('done'),
    );
    const result = await runLocalSession(
      {
        prompt: 'go',
        cwd: work,
        tools: ['Grep'],
        permissionMode: 'bypassPermissions',
        model: { model: 'claude-test', maxTokens: 256 },
      },
      { storeDir: store, anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) },
    );
    assert.equal(result.status, 'completed', result.endReason);
    const [record] = result.records;
    assert.equal(record?.status, 'ok');
    assert.equal(record?.persistedTo, undefined);
    assert.ok(
      record?.notices?.some((n) =>
        /Could not store the large Grep result \(\d+ chars\); kept it inline: .*ENOTDIR|not a directory/.test(n),
      ),
      JSON.stringify(record?.notices),
    );
    // The model got the whole result inline.
    const [sent] = lastToolResults(fake.messageRequests()[1]!);
    assert.match(JSON.stringify(sent?.content), /match line 0999/);
  } finally {
    await fake.close();
  }
});
