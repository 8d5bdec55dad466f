// unit: what a worker just stored, it reads back from memory (issue 33: each blob read is a file
// read of four thread-pool trips, ≈ 7 a model step before). The tool calls read the model call's
// transcript node, the next model call loads the conversation up to it and reads the tool results
// back: none of these reach the store once this worker wrote them. Writes and their existence
// checks still do (a store pruned by hand gets the blob again). A store opened afresh still reads
// and verifies (test/unit/stores.test.ts: a changed blob is refused).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TranscriptStore, type BlobStore } from '../../src/stores/messageStore';
import { PayloadStore } from '../../src/stores/payloadStore';
import type { Message } from '../../src/core/apiMessages';
import { SANDBOX_PRELOAD, workflowPreloads } from '../../src/temporal/worker';

/** An in-memory store that counts reads and writes. */
function countingStore(): BlobStore & { gets: string[]; puts: string[]; data: Map<string, string> } {
  const data = new Map<string, string>();
  const gets: string[] = [];
  const puts: string[] = [];
  return {
    data,
    gets,
    puts,
    get: (key) => {
      gets.push(key);
      return Promise.resolve(data.get(key));
    },
    put: (key, value) => {
      puts.push(key);
      data.set(key, value);
      return Promise.resolve();
    },
  };
}

const user = (text: string): Message => ({ role: 'user', content: text });
const assistant = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });

test('a node this store appended is read from memory: its messages and the conversation up to it', async () => {
  const blobs = countingStore();
  const store = new TranscriptStore(blobs);
  const h1 = await store.append(null, [user('hi')]);
  assert.ok(h1);
  assert.deepEqual(blobs.puts, [h1], 'written once');
  blobs.gets.length = 0;
  assert.deepEqual(await store.nodeMessages(h1), [user('hi')]);
  assert.deepEqual(await store.load(h1), [user('hi')]);
  const h2 = await store.append(h1, [assistant('hello')]);
  assert.equal(blobs.gets.length, 1, 'only the existence check of the new node reads the store');
  assert.deepEqual(await store.load(h2), [user('hi'), assistant('hello')]);
  assert.deepEqual(await store.nodeMessages(h2!), [assistant('hello')]);
  assert.equal(blobs.gets.length, 1, 'no read for what this store wrote');
  // The memory holds copies: a caller changing its messages afterwards changes nothing stored.
  const mine = [user('again')];
  const h3 = await store.append(h2, mine);
  (mine[0] as { content: string }).content = 'changed';
  assert.deepEqual(await store.load(h3), [user('hi'), assistant('hello'), user('again')]);
  // Another store over the same blobs reads them (and verifies them) as before.
  const fresh = countingStore();
  for (const [k, v] of blobs.data) fresh.data.set(k, v);
  assert.deepEqual(await new TranscriptStore(fresh).load(h3), [user('hi'), assistant('hello'), user('again')]);
  assert.equal(fresh.gets.length, 3, 'a fresh store reads each node');
});

test('a tool result this store wrote is read back from memory, a new object each time', async () => {
  const blobs = countingStore();
  const store = new PayloadStore(blobs);
  const block = { type: 'tool_result' as const, tool_use_id: 'toolu_1', content: 'x'.repeat(2000) };
  const ref = await store.putToolResult(block);
  assert.equal(blobs.gets.length, 1, 'the existence check');
  const a = await store.getToolResult(ref);
  const b = await store.getToolResult(ref);
  assert.deepEqual(a, block);
  assert.notEqual(a, b, 'each caller gets its own block');
  assert.equal(blobs.gets.length, 1, 'no read for what this store wrote');
  // Bounded: past its limit the oldest is read from the store again.
  const small = new PayloadStore(blobs, 2);
  const refs = [];
  for (const i of [1, 2, 3]) refs.push(await small.putToolResult({ ...block, tool_use_id: `toolu_${i}` }));
  const before = blobs.gets.length;
  await small.getToolResult(refs[0]!);
  assert.equal(blobs.gets.length, before + 1, 'the oldest was let go');
  await small.getToolResult(refs[2]!);
  assert.equal(blobs.gets.length, before + 1, 'the newest is kept');
});

test('workflow bundles preload the module that stops the promise hook capturing stacks, unless asked not to', () => {
  assert.deepEqual(workflowPreloads({}), [SANDBOX_PRELOAD]);
  assert.match(SANDBOX_PRELOAD, /sandboxPreload\.js$/);
  assert.deepEqual(workflowPreloads({ DURABLE_AGENT_WORKFLOW_STACK_TRACES: '1' }), []);
});
