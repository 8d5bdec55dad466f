// unit: the fake Anthropic Messages API, driven by the real @anthropic-ai/sdk and by plain fetch.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { waitFor } from '../support/wait';
import {
  accumulateMessage,
  buildMessage,
  buildStreamEvents,
  disconnect,
  errorResponse,
  fakeClient,
  fakeToolUseId,
  lastToolResults,
  overloadedError,
  parseSse,
  rateLimitError,
  rawSse,
  readSseFixture,
  startFakeAnthropic,
  textResponse,
  toolUseResponse,
  withFakeAnthropic,
  type FakeAnthropicServer,
  type MessageSpec,
  type SseEvent,
} from '../support/fakeAnthropic';

const MODEL = 'claude-sonnet-5-5';
const userTurn = (text: string): Anthropic.MessageParam => ({ role: 'user', content: text });
const params = (messages: Anthropic.MessageParam[] = [userTurn('hello')]) => ({
  model: MODEL,
  max_tokens: 1024,
  messages,
});

const GREP_INPUT = { pattern: 'TODO', path: 'src', output_mode: 'content', glob: '*.ts' };

async function postRaw(server: FakeAnthropicServer, body: string, path = '/v1/messages'): Promise<Response> {
  return fetch(`${server.baseURL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'raw' },
    body,
  });
}

/** (event, data.type, delta.type) per event with repeats collapsed: the grammar of a stream. */
function streamShape(events: readonly SseEvent[]): string[] {
  const shape: string[] = [];
  for (const e of events) {
    if (e.event === 'ping') continue;
    const data = JSON.parse(e.data) as { type: string; delta?: { type?: string }; index?: number };
    const key = [e.event, data.type, data.index ?? '', data.delta?.type ?? ''].join(':');
    if (shape[shape.length - 1] !== key) shape.push(key);
  }
  return shape;
}

describe('fake Anthropic: streaming with the real SDK', () => {
  let server: FakeAnthropicServer;
  before(async () => {
    server = await startFakeAnthropic();
  });
  after(() => server.close());

  it('streams a tool_use whose JSON arrives in ≥ 3 input_json_delta chunks and parses to the input', async () => {
    server.enqueue(toolUseResponse({ name: 'Grep', input: GREP_INPUT }, { text: 'Searching.' }));
    const client = fakeClient(server);
    const stream = client.messages.stream(params());
    const jsonDeltas: string[] = [];
    stream.on('inputJson', (partial) => jsonDeltas.push(partial));
    const message = await stream.finalMessage();

    assert.equal(message.stop_reason, 'tool_use');
    assert.equal(message.content.length, 2);
    const [text, toolUse] = message.content;
    assert.deepEqual(text, { type: 'text', text: 'Searching.' });
    assert.equal(toolUse?.type, 'tool_use');
    if (toolUse?.type !== 'tool_use') return;
    assert.equal(toolUse.id, fakeToolUseId(1));
    assert.match(toolUse.id, /^toolu_01[A-Za-z0-9]{22}$/);
    assert.equal(toolUse.name, 'Grep');
    assert.deepEqual(toolUse.input, GREP_INPUT);
    assert.ok(jsonDeltas.filter((d) => d !== '').length >= 3, `got ${jsonDeltas.length} deltas`);
    assert.ok(message.usage.output_tokens > 0 && message.usage.input_tokens > 0);

    const recorded = server.lastRequest();
    assert.equal(recorded?.method, 'POST');
    assert.equal(recorded?.path, '/v1/messages');
    assert.equal(recorded?.apiKey, 'test-key');
    assert.equal(recorded?.stream, true);
    assert.deepEqual((recorded?.body as { messages: unknown }).messages, [userTurn('hello')]);
    server.assertDone();
  });

  it('emits the raw event sequence of the real API (≥ 3 input_json_delta, message_delta, message_stop)', async () => {
    server.enqueue(toolUseResponse({ name: 'Grep', input: GREP_INPUT }));
    const client = fakeClient(server);
    const events = await client.messages.create({ ...params(), stream: true });
    const types: string[] = [];
    let partials = 0;
    for await (const event of events) {
      types.push(event.type);
      if (
        event.type === 'content_block_delta' &&
        event.delta.type === 'input_json_delta' &&
        event.delta.partial_json !== ''
      )
        partials++;
      if (event.type === 'message_delta') assert.equal(event.delta.stop_reason, 'tool_use');
    }
    assert.ok(partials >= 3, `only ${partials} non-empty input_json_delta events`);
    assert.equal(types[0], 'message_start');
    assert.equal(types[1], 'content_block_start');
    assert.deepEqual(types.slice(-3), ['content_block_stop', 'message_delta', 'message_stop']);
  });

  it('sends SSE headers, a request-id, rate-limit headers and ping events on the wire', async () => {
    server.enqueue(textResponse('hi there'));
    const res = await postRaw(server, JSON.stringify({ ...params(), stream: true }));
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.match(res.headers.get('request-id') ?? '', /^req_/);
    assert.ok(res.headers.get('anthropic-ratelimit-requests-limit'));
    const events = parseSse(await res.text());
    assert.ok(events.some((e) => e.event === 'ping'));
    for (const e of events) {
      if (e.event !== 'ping') assert.equal((JSON.parse(e.data) as { type: string }).type, e.event);
    }
    const message = accumulateMessage(events);
    assert.deepEqual(message.content, [{ type: 'text', text: 'hi there' }]);
    assert.equal(message.stop_reason, 'end_turn');
  });

  it('streams thinking blocks with thinking_delta and signature_delta', async () => {
    server.enqueue({
      content: [
        { type: 'thinking', thinking: 'The user wants a greeting.', signature: 'sig-123' },
        { type: 'text', text: 'Hello!' },
      ],
    });
    const message = await fakeClient(server).messages.stream(params()).finalMessage();
    assert.deepEqual(message.content[0], {
      type: 'thinking',
      thinking: 'The user wants a greeting.',
      signature: 'sig-123',
    });
    assert.equal(message.stop_reason, 'end_turn');
  });
});

describe('fake Anthropic: server-side web search blocks', () => {
  let server: FakeAnthropicServer;
  before(async () => {
    server = await startFakeAnthropic();
  });
  after(() => server.close());

  const search: MessageSpec = {
    content: [
      { type: 'server_tool_use', input: { query: 'temporal durable' } },
      {
        type: 'web_search_tool_result',
        results: [{ url: 'https://temporal.io/', title: 'Temporal', page_age: 'May 1, 2026' }],
      },
      { type: 'text', text: 'Temporal is durable.' },
    ],
  };
  const searchParams = {
    ...params(),
    tools: [{ type: 'web_search_20250305' as const, name: 'web_search' as const, max_uses: 8 }],
  };

  it('streamed and non-streamed answers carry the same server_tool_use and web_search_tool_result blocks', async () => {
    server.enqueue(search, search);
    const client = fakeClient(server);
    const deltas: string[] = [];
    const stream = client.messages.stream(searchParams);
    stream.on('streamEvent', (e) => {
      if (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta') deltas.push(e.delta.partial_json);
    });
    const streamed = await stream.finalMessage();
    const plain = await client.messages.create(searchParams);
    for (const m of [streamed, plain]) {
      assert.equal(m.stop_reason, 'end_turn');
      const [use, result, text] = m.content;
      assert.equal(use?.type, 'server_tool_use');
      if (use?.type !== 'server_tool_use') return;
      assert.match(use.id, /^srvtoolu_/);
      assert.deepEqual(use.input, { query: 'temporal durable' });
      assert.equal(result?.type, 'web_search_tool_result');
      if (result?.type !== 'web_search_tool_result') return;
      assert.equal(result.tool_use_id, use.id);
      assert.deepEqual(result.content, [
        {
          type: 'web_search_result',
          url: 'https://temporal.io/',
          title: 'Temporal',
          encrypted_content: 'ZmFrZS13ZWItc2VhcmNoLWNvbnRlbnQ=',
          page_age: 'May 1, 2026',
        },
      ]);
      assert.deepEqual(text, { type: 'text', text: 'Temporal is durable.' });
      assert.deepEqual(m.usage.server_tool_use, { web_search_requests: 1 });
    }
    // The input arrived in pieces, as the API streams a tool's JSON.
    assert.ok(deltas.length >= 2, `${deltas.length} input_json_delta events`);
    assert.equal(deltas.join(''), JSON.stringify({ query: 'temporal durable' }));
  });

  it('a search error is the error block of the API', async () => {
    server.enqueue({
      content: [
        { type: 'server_tool_use', input: { query: 'x' } },
        { type: 'web_search_tool_result', results: { error_code: 'max_uses_exceeded' } },
      ],
    });
    const m = await fakeClient(server).messages.create(searchParams);
    const result = m.content[1];
    assert.equal(result?.type, 'web_search_tool_result');
    if (result?.type !== 'web_search_tool_result') return;
    assert.deepEqual(result.content, { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' });
  });
});

describe('fake Anthropic: non-streamed and scripting', () => {
  it('returns the same Message shape without streaming as the stream adds up to', async () => {
    const spec: MessageSpec = toolUseResponse(
      [{ name: 'Read', input: { file_path: '/tmp/a' }, id: 'toolu_01GivenByTheSpec00000001' }],
      {
        text: 'Reading.',
        id: 'msg_01SameIdBothWays000000001',
        usage: { input_tokens: 10, output_tokens: 20 },
      },
    );
    await withFakeAnthropic({ responses: [spec, spec] }, async (server) => {
      const client = fakeClient(server);
      const plain = await client.messages.create(params());
      const streamed = await client.messages.stream(params()).finalMessage();
      assert.equal(plain.type, 'message');
      assert.equal(plain.role, 'assistant');
      assert.equal(plain.model, MODEL);
      assert.equal(plain.stop_sequence, null);
      for (const key of ['id', 'type', 'role', 'model', 'content', 'stop_reason', 'stop_sequence'] as const) {
        assert.deepEqual(plain[key], streamed[key], key);
      }
      assert.equal(plain.usage.output_tokens, 20);
      assert.equal(streamed.usage.output_tokens, 20);
      assert.equal(server.requests[0]?.stream, false);
      assert.equal(server.requests[1]?.stream, true);
      server.assertDone();
    });
  });

  it('generates deterministic toolu_ ids per server, in order', async () => {
    await withFakeAnthropic({}, async (server) => {
      server.enqueue(
        toolUseResponse([
          { name: 'A', input: {} },
          { name: 'B', input: {}, id: 'toolu_01Explicit0000000000000' },
          { name: 'C', input: {} },
        ]),
      );
      const message = await fakeClient(server).messages.create(params());
      const ids = message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
      assert.deepEqual(ids, [server.toolUseId(1), 'toolu_01Explicit0000000000000', server.toolUseId(2)]);
    });
  });

  it('answers from script(fn) once the queue is empty, with the request body in hand', async () => {
    await withFakeAnthropic({}, async (server) => {
      server.enqueue(toolUseResponse({ name: 'Echo', input: { say: 'ping' } }));
      server.script((req) => {
        const results = lastToolResults(req);
        return textResponse(`got ${results.length} result(s) for ${String(results[0]?.tool_use_id)}`);
      });
      const client = fakeClient(server);
      const first = await client.messages.create(params());
      const toolUse = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
      assert.ok(toolUse);
      const second = await client.messages.create(
        params([
          userTurn('hello'),
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'pong' }] },
        ]),
      );
      assert.deepEqual(second.content, [{ type: 'text', text: `got 1 result(s) for ${toolUse.id}` }]);
      assert.equal(server.remaining(), 0);
      assert.equal(server.messageRequests().length, 2);
      server.assertDone();
    });
  });

  it('fails loudly when the script is exhausted: 500 with the message, recorded, assertDone throws, no SDK retry', async () => {
    await withFakeAnthropic({}, async (server) => {
      const client = fakeClient(server, { maxRetries: 2 });
      await assert.rejects(client.messages.create(params()), (err: unknown) => {
        assert.ok(err instanceof Anthropic.InternalServerError);
        assert.match(err.message, /fake Anthropic: script exhausted/);
        return true;
      });
      assert.equal(server.requests.length, 1, 'x-should-retry: false stops the SDK from retrying');
      assert.equal(server.unexpected.length, 1);
      assert.equal(server.unexpected[0]?.kind, 'script_exhausted');
      assert.throws(() => server.assertDone(), /script exhausted/);
    });
  });

  it('assertDone also reports scripted responses that were never requested', async () => {
    await withFakeAnthropic({ responses: [textResponse('unused')] }, async (server) => {
      assert.equal(server.remaining(), 1);
      assert.throws(() => server.assertDone(), /1 scripted response\(s\) were never requested/);
    });
  });
});

describe('fake Anthropic: injected faults', () => {
  it('a 529 followed by success is retried by the SDK', async () => {
    await withFakeAnthropic({}, async (server) => {
      server.enqueue(overloadedError({ retryAfterMs: 5 }), textResponse('after the storm'));
      const message = await fakeClient(server, { maxRetries: 2 }).messages.create(params());
      assert.deepEqual(message.content, [{ type: 'text', text: 'after the storm' }]);
      assert.equal(server.requests.length, 2);
      assert.equal(server.requests[0]?.response?.status, 529);
      assert.equal(server.requests[0]?.response?.errorType, 'overloaded_error');
      assert.equal(server.requests[1]?.response?.status, 200);
      server.assertDone();
    });
  });

  it('a 429 carries the error shape and the retry-after header, and is retried on a stream too', async () => {
    await withFakeAnthropic({}, async (server) => {
      server.enqueue(rateLimitError({ retryAfter: 7 }));
      const res = await postRaw(server, JSON.stringify(params()));
      assert.equal(res.status, 429);
      assert.equal(res.headers.get('retry-after'), '7');
      const body = (await res.json()) as { type: string; error: { type: string; message: string }; request_id: string };
      assert.equal(body.type, 'error');
      assert.equal(body.error.type, 'rate_limit_error');
      assert.match(body.request_id, /^req_/);

      server.enqueue(rateLimitError({ retryAfterMs: 5 }), textResponse('ok'));
      const message = await fakeClient(server, { maxRetries: 1 }).messages.stream(params()).finalMessage();
      assert.deepEqual(message.content, [{ type: 'text', text: 'ok' }]);
      assert.equal(server.requests.length, 3);
    });
  });

  it('a 400 is not retried', async () => {
    await withFakeAnthropic({}, async (server) => {
      server.enqueue(errorResponse(400, { message: 'prompt is too long' }), textResponse('never sent'));
      await assert.rejects(fakeClient(server, { maxRetries: 3 }).messages.create(params()), (err: unknown) => {
        assert.ok(err instanceof Anthropic.BadRequestError);
        assert.equal(err.status, 400);
        assert.equal(err.type, 'invalid_request_error');
        assert.equal(err.apiMessage, 'prompt is too long');
        return true;
      });
      assert.equal(server.requests.length, 1);
      assert.equal(server.remaining(), 1);
    });
  });

  it('a stream dropped after N events surfaces as an error from the SDK', async () => {
    await withFakeAnthropic({}, async (server) => {
      server.enqueue({ ...toolUseResponse({ name: 'Grep', input: GREP_INPUT }), dropAfterEvents: 4 });
      const stream = fakeClient(server).messages.stream(params());
      const seen: string[] = [];
      stream.on('streamEvent', (event) => seen.push(event.type));
      await assert.rejects(stream.finalMessage());
      assert.deepEqual(
        seen,
        ['message_start', 'content_block_start', 'content_block_delta'],
        'ping is the 3rd event on the wire',
      );
    });
  });

  it('a connection closed without a response is a connection error, retried by the SDK', async () => {
    await withFakeAnthropic({}, async (server) => {
      server.enqueue(disconnect());
      await assert.rejects(fakeClient(server).messages.create(params()), Anthropic.APIConnectionError);
      server.enqueue(disconnect(), textResponse('second try'));
      const message = await fakeClient(server, { maxRetries: 1 }).messages.create(params());
      assert.deepEqual(message.content, [{ type: 'text', text: 'second try' }]);
      assert.equal(server.requests.length, 3);
    });
  });

  it('an SSE error event mid-stream (overloaded) surfaces as an APIError of that type', async () => {
    await withFakeAnthropic({}, async (server) => {
      server.enqueue({ ...textResponse('partial answer that never ends'), streamError: { afterEvents: 4 } });
      await assert.rejects(fakeClient(server).messages.stream(params()).finalMessage(), (err: unknown) => {
        assert.ok(err instanceof Anthropic.APIError);
        assert.equal(err.type, 'overloaded_error');
        return true;
      });
      // Non-streamed, the same spec is an HTTP 529.
      server.enqueue({ ...textResponse('x'), streamError: { afterEvents: 0 } });
      await assert.rejects(fakeClient(server).messages.create(params()), (err: unknown) => {
        assert.ok(err instanceof Anthropic.APIError);
        assert.equal(err.status, 529);
        return true;
      });
    });
  });

  it('a slow stream delays every event', async () => {
    await withFakeAnthropic({}, async (server) => {
      const delayMs = 25;
      const spec: MessageSpec = { ...textResponse('slow and steady'), delayMs };
      const eventCount = buildStreamEvents(
        buildMessage(spec, { model: MODEL, inputTokens: 1, nextToolUseId: () => 'x', nextMessageId: () => 'y' }),
        spec,
      ).length;
      server.enqueue(spec);
      const started = performance.now();
      await fakeClient(server).messages.stream(params()).finalMessage();
      const elapsed = performance.now() - started;
      // Node timers may fire up to ~1 ms early, hence the 1 ms per event of slack.
      assert.ok(elapsed >= eventCount * (delayMs - 1), `${elapsed.toFixed(0)} ms for ${eventCount} events`);
    });
  });

  it('close() ends in-flight slow streams instead of hanging', async () => {
    const server = await startFakeAnthropic({ responses: [{ ...textResponse('zzz'), delayMs: 10_000 }] });
    const pending = fakeClient(server).messages.stream(params()).finalMessage();
    pending.catch(() => undefined);
    // Close while the stream is in flight: its response was taken from the queue.
    await waitFor('the slow stream to start', async () => server.remaining() === 0, 30_000, 10);
    await server.close();
    await assert.rejects(pending);
  });
});

describe('fake Anthropic: request validation', () => {
  let server: FakeAnthropicServer;
  before(async () => {
    server = await startFakeAnthropic();
  });
  after(() => server.close());

  it('rejects malformed JSON with a 400 invalid_request_error', async () => {
    const before = server.unexpected.length;
    const res = await postRaw(server, '{"model": "x", "max_tokens": ');
    assert.equal(res.status, 400);
    const body = (await res.json()) as { type: string; error: { type: string; message: string } };
    assert.equal(body.type, 'error');
    assert.equal(body.error.type, 'invalid_request_error');
    assert.match(body.error.message, /parsing the body/);
    assert.equal(server.unexpected.length, before + 1);
    assert.equal(server.unexpected.at(-1)?.kind, 'invalid_request');
  });

  it('rejects a body missing model, max_tokens or messages', async () => {
    for (const field of ['model', 'max_tokens', 'messages'] as const) {
      const body: Record<string, unknown> = { ...params() };
      delete body[field];
      const res = await postRaw(server, JSON.stringify(body));
      assert.equal(res.status, 400);
      const json = (await res.json()) as { error: { type: string; message: string } };
      assert.equal(json.error.type, 'invalid_request_error');
      assert.equal(json.error.message, `${field}: Field required`);
    }
  });

  it('answers an unknown path with 404 not_found_error', async () => {
    const res = await postRaw(server, '{}', '/v1/completions');
    assert.equal(res.status, 404);
    const json = (await res.json()) as { error: { type: string } };
    assert.equal(json.error.type, 'not_found_error');
  });

  it('rejects a dangling tool_use like the real API, without consuming the script', async () => {
    server.enqueue(textResponse('should not be used'));
    const dangling = params([
      userTurn('grep it'),
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_01Dangling000000000000000', name: 'Grep', input: {} }],
      },
      { role: 'user', content: 'where is my result?' },
    ]);
    await assert.rejects(fakeClient(server, { maxRetries: 2 }).messages.create(dangling), (err: unknown) => {
      assert.ok(err instanceof Anthropic.BadRequestError);
      assert.match(
        err.message,
        /messages\.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01Dangling000000000000000/,
      );
      return true;
    });
    assert.equal(server.remaining(), 1);

    const answered = params([
      userTurn('grep it'),
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_01Dangling000000000000000', name: 'Grep', input: {} }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_01Dangling000000000000000', content: 'ok' }],
      },
    ]);
    const message = await fakeClient(server).messages.create(answered);
    assert.deepEqual(message.content, [{ type: 'text', text: 'should not be used' }]);
  });

  it('rejects a tool_result that answers no tool_use of the previous message', async () => {
    const orphan = params([
      userTurn('hi'),
      { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01Orphan0000000000000000', content: 'x' }] },
    ]);
    await assert.rejects(
      fakeClient(server).messages.create(orphan),
      /unexpected `tool_use_id` found in `tool_result` blocks/,
    );
  });

  it('can require an API key', async () => {
    await withFakeAnthropic({ requireApiKey: 'sk-right' }, async (strict) => {
      strict.enqueue(textResponse('welcome'));
      await assert.rejects(
        fakeClient(strict, { apiKey: 'sk-wrong' }).messages.create(params()),
        Anthropic.AuthenticationError,
      );
      const ok = await fakeClient(strict, { apiKey: 'sk-right' }).messages.create(params());
      assert.deepEqual(ok.content, [{ type: 'text', text: 'welcome' }]);
      assert.deepEqual(
        strict.requests.map((r) => r.apiKey),
        ['sk-wrong', 'sk-right'],
      );
    });
  });
});

describe('fake Anthropic: recorded SSE fixtures', () => {
  it('the SDK parses a recorded tool_use stream replayed verbatim', async () => {
    await withFakeAnthropic({}, async (server) => {
      server.enqueue(rawSse(readSseFixture('tool_use_stream.sse')));
      const message = await fakeClient(server).messages.stream(params()).finalMessage();
      assert.equal(message.id, 'msg_01Wq3kUVdJ7cXw5JmD6u1Fkr');
      assert.deepEqual(message.content[0], { type: 'text', text: "I'll search the code for TODOs." });
      const toolUse = message.content[1];
      assert.ok(toolUse?.type === 'tool_use');
      assert.equal(toolUse.id, 'toolu_01HXvPn5cPqgn1SxBq2v7nBc');
      assert.deepEqual(toolUse.input, { pattern: 'TODO', path: 'src', output_mode: 'content' });
      assert.equal(message.stop_reason, 'tool_use');
      assert.equal(message.usage.output_tokens, 87);
    });
  });

  it('generated streams follow the same event grammar as the recorded one', async () => {
    const recorded = parseSse(readSseFixture('tool_use_stream.sse'));
    const fixtureMessage = accumulateMessage(recorded);
    await withFakeAnthropic({}, async (server) => {
      server.enqueue(
        toolUseResponse(
          { name: 'Grep', input: { pattern: 'TODO', path: 'src', output_mode: 'content' } },
          {
            text: "I'll search the code for TODOs.",
          },
        ),
      );
      const res = await postRaw(server, JSON.stringify({ ...params(), stream: true }));
      const generated = parseSse(await res.text());
      assert.deepEqual(streamShape(generated), streamShape(recorded));
      // The ping sits where the API puts it: right after the first content_block_start.
      assert.deepEqual(
        generated.slice(0, 3).map((e) => e.event),
        recorded.slice(0, 3).map((e) => e.event),
      );
      const ours = accumulateMessage(generated);
      assert.deepEqual(
        ours.content.map((b) => b.type),
        fixtureMessage.content.map((b) => b.type),
      );
    });
  });

  it('the recorded mid-stream overload surfaces as an overloaded_error', async () => {
    await withFakeAnthropic({}, async (server) => {
      server.enqueue(rawSse(readSseFixture('overloaded_mid_stream.sse')));
      await assert.rejects(fakeClient(server).messages.stream(params()).finalMessage(), (err: unknown) => {
        assert.ok(err instanceof Anthropic.APIError);
        assert.equal(err.type, 'overloaded_error');
        return true;
      });
    });
  });
});
