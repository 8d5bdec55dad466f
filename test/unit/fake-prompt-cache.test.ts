// unit: the fake API's context window and prompt-cache simulation, through the real SDK.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import {
  PromptCacheSim,
  promptSegments,
  promptTokens,
  startFakeAnthropic,
  textResponse,
  type MessagesRequest,
} from '../../src/testing/fakeAnthropic';

const big = (tag: string) => `${tag} `.repeat(1500);
const EPH = { type: 'ephemeral' as const };

function request(turns: number, marks = true): MessagesRequest {
  const messages: MessagesRequest['messages'] = [];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'user', content: [{ type: 'text', text: `question ${i} ${big('q')}` }] });
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `answer ${i}` }] });
  }
  messages.push({ role: 'user', content: [{ type: 'text', text: 'next', ...(marks ? { cache_control: EPH } : {}) }] });
  return {
    model: 'm',
    max_tokens: 10,
    system: [{ type: 'text', text: big('system'), ...(marks ? { cache_control: EPH } : {}) }],
    messages,
  };
}

test('unit: fake prompt cache — first request writes, a longer one reads the old prefix and writes the rest; no marks, no cache', () => {
  const sim = new PromptCacheSim();
  const first = sim.use(promptSegments(request(1)));
  assert.equal(first.cache_read_input_tokens, 0);
  assert.ok(first.cache_creation_input_tokens > 1024);
  const again = sim.use(promptSegments(request(1)));
  assert.equal(again.cache_creation_input_tokens, 0);
  assert.equal(again.cache_read_input_tokens, first.cache_creation_input_tokens);
  const longer = sim.use(promptSegments(request(2)));
  assert.ok(longer.cache_read_input_tokens > 0 && longer.cache_creation_input_tokens > 0);
  assert.equal(
    longer.cache_read_input_tokens + longer.cache_creation_input_tokens + longer.input_tokens,
    promptTokens(promptSegments(request(2))),
  );
  const unmarked = sim.use(promptSegments(request(2, false)));
  assert.deepEqual([unmarked.cache_read_input_tokens, unmarked.cache_creation_input_tokens], [0, 0]);
  // Entries expire after the TTL; a prefix below the minimum is never cached.
  let now = 0;
  const timed = new PromptCacheSim({ now: () => now, ttlMs: 1000, minTokens: 1_000_000 });
  timed.use(promptSegments(request(1)));
  assert.equal(timed.use(promptSegments(request(1))).cache_read_input_tokens, 0);
  const ttl = new PromptCacheSim({ now: () => now, ttlMs: 1000 });
  ttl.use(promptSegments(request(1)));
  now = 2000;
  assert.equal(ttl.use(promptSegments(request(1))).cache_read_input_tokens, 0);
});

test('unit: fake API enforces its context window with the API\'s 400 "prompt is too long"; usage reports cache reads', async () => {
  const fake = await startFakeAnthropic({ contextWindow: 3000 });
  try {
    const client = new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });
    fake.enqueue(textResponse('ok'), textResponse('ok again'));
    const body = request(0) as Anthropic.MessageCreateParamsNonStreaming;
    const r1 = await client.messages.create(body);
    assert.ok((r1.usage.cache_creation_input_tokens ?? 0) > 0);
    const r2 = await client.messages.create(body);
    assert.equal(r2.usage.cache_read_input_tokens, r1.usage.cache_creation_input_tokens);
    const tooLong = request(1) as Anthropic.MessageCreateParamsNonStreaming;
    await assert.rejects(client.messages.create(tooLong), (err: unknown) => {
      assert.ok(err instanceof Anthropic.BadRequestError);
      assert.match(err.message, /prompt is too long: \d+ tokens > 3000 maximum/);
      assert.equal((err.error as { error?: { type?: string } })?.error?.type, 'invalid_request_error');
      return true;
    });
    assert.equal(fake.remaining(), 0, 'the refused request used no scripted response');
    fake.setContextWindow(undefined);
    fake.enqueue(textResponse('fits now'));
    await client.messages.create(tooLong);
    fake.assertDone();
  } finally {
    await fake.close();
  }
});
