// unit: a streamed model request heartbeats at most once per STREAM_HEARTBEAT_MS of its events, the
// first once it has run that long, not at every event (runtime/modelStream.ts; issue 33: one
// heartbeat per event was ≈ 7 % of the worker's main thread, each encoded and handed to the
// worker's core, and a request answered at once sent one to the server for nothing).
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

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A client whose stream yields `deltas` text deltas between message_start and message_stop, each `pauseMs` after the one before. */
function client(deltas: number, pauseMs = 0): Anthropic {
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
          for (const e of events) {
            if (pauseMs > 0 && e.type === 'content_block_delta') await sleep(pauseMs);
            yield e;
          }
        },
        request_id: 'req_1',
        finalMessage: async () => message,
      }),
    },
  } as unknown as Anthropic;
}

function requests(deltas: number, pauseMs: number, beats: unknown[]): StreamedRequests {
  const ctx = {
    signal: new AbortController().signal,
    heartbeat: (d: unknown) => beats.push(d),
    warn: () => undefined,
  } as unknown as CallRuntime;
  return new StreamedRequests(
    client(deltas, pauseMs),
    ctx,
    (signal) => ({ signal }),
    () => {
      throw new Error('not a prompt-too-long case');
    },
    undefined,
    true,
  );
}

const params = { model: 'm', max_tokens: 10, messages: [{ role: 'user' as const, content: 'hi' }] };

test('unit: a streamed request of 205 events heartbeats at most once per STREAM_HEARTBEAT_MS, none in its first', async () => {
  const beats: unknown[] = [];
  const r = requests(200, 0, beats);
  const t0 = performance.now();
  const got = await r.request(params);
  const elapsed = performance.now() - t0;
  assert.equal((got as Anthropic.Message).id, 'msg_1');
  assert.equal(r.events, 205);
  // One per event before (205); now one per STREAM_HEARTBEAT_MS that passed (none when the answer came at once).
  assert.ok(
    beats.length <= Math.floor(elapsed / STREAM_HEARTBEAT_MS),
    `${beats.length} heartbeats for 205 events in ${elapsed.toFixed(0)} ms`,
  );
});

test('unit: a slow stream heartbeats at each event that comes STREAM_HEARTBEAT_MS after the last heartbeat', async () => {
  const beats: Array<{ phase?: string; events?: number; type?: string }> = [];
  const r = requests(3, STREAM_HEARTBEAT_MS + 50, beats);
  const t0 = performance.now();
  await r.request(params);
  const elapsed = performance.now() - t0;
  const deltas = beats.filter((b) => b.type === 'content_block_delta');
  assert.deepEqual(
    deltas.map((b) => b.events),
    [3, 4, 5],
    'each delta came after a pause longer than STREAM_HEARTBEAT_MS',
  );
  assert.ok(beats.every((b) => b.phase === 'streaming'));
  assert.ok(beats.length <= Math.floor(elapsed / STREAM_HEARTBEAT_MS), `${beats.length} in ${elapsed.toFixed(0)} ms`);
});
