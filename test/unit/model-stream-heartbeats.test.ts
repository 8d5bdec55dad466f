// unit: a streamed model request heartbeats at its first event and then at most once per
// STREAM_HEARTBEAT_MS, not at every event (runtime/modelStream.ts; issue 33: one heartbeat per event
// was ≈ 7 % of the worker's main thread, each encoded and handed to the worker's core).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type Anthropic from '@anthropic-ai/sdk';
import { STREAM_HEARTBEAT_MS, StreamedRequests } from '../../src/runtime/modelStream';
import type { CallRuntime } from '../../src/runtime/runtime';

const message = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'm',
  content: [{ type: 'text', text: 'x'.repeat(200) }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: { input_tokens: 1, output_tokens: 1 },
} as unknown as Anthropic.Message;

/** A client whose stream yields `deltas` text deltas between message_start and message_stop. */
function client(deltas: number): Anthropic {
  const events: Anthropic.MessageStreamEvent[] = [
    { type: 'message_start', message: { ...message, content: [] } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '', citations: null } },
    ...Array.from({ length: deltas }, () => ({
      type: 'content_block_delta' as const,
      index: 0,
      delta: { type: 'text_delta' as const, text: 'x' },
    })),
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 1 } },
    { type: 'message_stop' },
  ] as Anthropic.MessageStreamEvent[];
  return {
    messages: {
      stream: () => ({
        async *[Symbol.asyncIterator]() {
          for (const e of events) yield e;
        },
        request_id: 'req_1',
        finalMessage: async () => message,
      }),
    },
  } as unknown as Anthropic;
}

test('unit: a streamed request of 200 events heartbeats at its first event and then at most every STREAM_HEARTBEAT_MS', async () => {
  const beats: Array<{ phase?: string; events?: number }> = [];
  const ctx = {
    signal: new AbortController().signal,
    heartbeat: (d: { phase?: string; events?: number }) => beats.push(d),
    warn: () => undefined,
  } as unknown as CallRuntime;
  const requests = new StreamedRequests(
    client(200),
    ctx,
    (signal) => ({ signal }),
    () => {
      throw new Error('not a prompt-too-long case');
    },
    undefined,
    true,
  );
  const t0 = performance.now();
  const got = await requests.request({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
  const elapsed = performance.now() - t0;
  assert.equal((got as Anthropic.Message).id, 'msg_1');
  assert.equal(requests.events, 205);
  assert.deepEqual(beats[0], { phase: 'streaming', events: 1, type: 'message_start' }, 'the first event heartbeats');
  // One per event before (205); now the first and one per STREAM_HEARTBEAT_MS that passed.
  assert.ok(
    beats.length <= 1 + Math.floor(elapsed / STREAM_HEARTBEAT_MS),
    `${beats.length} heartbeats for 205 events in ${elapsed.toFixed(0)} ms`,
  );
});
