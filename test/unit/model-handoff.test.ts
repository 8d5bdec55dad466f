// unit: how a streamed model call hands its tool_use blocks to the turn (runtime/modelStream.ts
// toolUseHandOff): blocks that complete while a hand-off is under way go together in the next one
// (one signal per run of blocks, issue 33), each with its description; a block still waiting when
// the message is complete is not handed over (the answer carries it); a block is held a moment
// first, so that a message ending meanwhile carries it without a signal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type Anthropic from '@anthropic-ai/sdk';
import { toolUseHandOff } from '../../src/runtime/modelStream';
import type { ModelDeps } from '../../src/runtime/model';
import type { CallRuntime, HandedToolUse } from '../../src/runtime/runtime';
import type { ToolUseBlock } from '../../src/core/apiMessages';

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

function blockEvents(index: number, id: string): Anthropic.MessageStreamEvent[] {
  return [
    { type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: 'Read', input: {} } },
    {
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: `{"file_path":"/f${index}"}` },
    },
    { type: 'content_block_stop', index },
  ] as Anthropic.MessageStreamEvent[];
}

test('unit: toolUseHandOff: a run of blocks completed during a hand-off goes in one, described', async () => {
  let nodes = 0;
  const deps = { transcripts: { append: async () => `node-${++nodes}` } } as unknown as ModelDeps;
  const warnings: string[] = [];
  const ctx = { warn: (m: string) => warnings.push(m) } as unknown as CallRuntime;
  const batches: HandedToolUse[][] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  const described: string[][] = [];
  const handOff = toolUseHandOff(
    deps,
    'head-0',
    ctx,
    async (items) => {
      batches.push(items);
      if (batches.length === 1) await gate;
    },
    async (blocks: ToolUseBlock[]) => {
      described.push(blocks.map((b) => b.id));
      return blocks.map((b) => ({
        toolUseId: b.id,
        known: true,
        concurrencySafe: true,
        readOnly: true,
        idempotent: true,
        summary: `Read ${(b.input as { file_path: string }).file_path}`,
      }));
    },
    0,
  );
  for (const e of blockEvents(0, 'toolu_a')) handOff.onEvent(e);
  for (let i = 0; i < 5 && batches.length === 0; i++) await tick();
  assert.equal(batches.length, 1, 'the first block is handed over at once');
  // Two blocks complete while the first hand-off is under way: they wait, then go together.
  for (const e of [...blockEvents(1, 'toolu_b'), ...blockEvents(2, 'toolu_c')]) handOff.onEvent(e);
  for (let i = 0; i < 5; i++) await tick();
  assert.equal(batches.length, 1, 'nothing more while a hand-off is under way');
  release();
  for (let i = 0; i < 10 && batches.length < 2; i++) await tick();
  assert.deepEqual(
    batches.map((b) => b.map((i) => i.block.id)),
    [['toolu_a'], ['toolu_b', 'toolu_c']],
  );
  assert.deepEqual(described, [['toolu_a'], ['toolu_b', 'toolu_c']]);
  for (const item of batches.flat()) {
    assert.equal(item.description?.toolUseId, item.block.id);
    assert.match(item.messageRef ?? '', /^node-/);
  }
  assert.deepEqual(
    batches.flat().map((i) => i.index),
    [0, 1, 2],
  );
  // (A block still held when the message is complete is not handed over: the next test.)
  await handOff.flushed();
  for (let i = 0; i < 10; i++) await tick();
  assert.equal(batches.length, 2);
  assert.deepEqual([...handOff.described().keys()], ['toolu_a', 'toolu_b', 'toolu_c']);
  assert.deepEqual(warnings, []);
});

test('unit: toolUseHandOff: a hand-off that fails is not counted as described (the answer describes those blocks)', async () => {
  const deps = { transcripts: { append: async () => 'node' } } as unknown as ModelDeps;
  const warnings: string[] = [];
  const ctx = { warn: (m: string) => warnings.push(m) } as unknown as CallRuntime;
  const handOff = toolUseHandOff(
    deps,
    null,
    ctx,
    async () => {
      throw new Error('signal refused');
    },
    async (blocks) =>
      blocks.map((b) => ({
        toolUseId: b.id,
        known: true,
        concurrencySafe: true,
        readOnly: true,
        idempotent: true,
        summary: 'x',
      })),
    0,
  );
  for (const e of blockEvents(0, 'toolu_a')) handOff.onEvent(e);
  for (let i = 0; i < 10 && warnings.length === 0; i++) await tick();
  await handOff.flushed();
  assert.equal(handOff.described().size, 0);
  assert.match(warnings.join('\n'), /could not hand tool_use toolu_a to the turn while streaming: signal refused/);
});

test('unit: toolUseHandOff: a block is held before its hand-off; a message that ends meanwhile hands over (and stores on its own) nothing', async () => {
  let nodes = 0;
  const deps = { transcripts: { append: async () => `node-${++nodes}` } } as unknown as ModelDeps;
  const ctx = { warn: (m: string) => assert.fail(m) } as unknown as CallRuntime;
  const batches: HandedToolUse[][] = [];
  const quick = toolUseHandOff(deps, 'head-0', ctx, async (items) => void batches.push(items), undefined, 60_000);
  for (const e of [...blockEvents(0, 'toolu_a'), ...blockEvents(1, 'toolu_b')]) quick.onEvent(e);
  for (let i = 0; i < 10; i++) await tick();
  await quick.flushed();
  assert.equal(batches.length, 0, 'the message ended within the hold: its answer carries the blocks');
  assert.equal(nodes, 0, 'no node stored for blocks never handed over');

  const slow = toolUseHandOff(deps, 'head-0', ctx, async (items) => void batches.push(items), undefined, 200);
  for (const e of blockEvents(0, 'toolu_c')) slow.onEvent(e);
  await tick();
  for (const e of blockEvents(1, 'toolu_d')) slow.onEvent(e);
  for (let i = 0; i < 200 && batches.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  await slow.flushed();
  assert.deepEqual(
    batches.map((b) => b.map((i) => i.block.id)),
    [['toolu_c', 'toolu_d']],
    'the message still streamed after the hold: one hand-off, with the block completed during it',
  );
  assert.equal(nodes, 2);
});
