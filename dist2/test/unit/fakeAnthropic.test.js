"use strict";
// unit: the fake Anthropic Messages API, driven by the real @anthropic-ai/sdk and by plain fetch.
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const fakeAnthropic_1 = require("../support/fakeAnthropic");
const MODEL = 'claude-sonnet-5-5';
const userTurn = (text) => ({ role: 'user', content: text });
const params = (messages = [userTurn('hello')]) => ({
    model: MODEL,
    max_tokens: 1024,
    messages,
});
const GREP_INPUT = { pattern: 'TODO', path: 'src', output_mode: 'content', glob: '*.ts' };
async function postRaw(server, body, path = '/v1/messages') {
    return fetch(`${server.baseURL}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'raw' },
        body,
    });
}
/** (event, data.type, delta.type) per event with repeats collapsed: the grammar of a stream. */
function streamShape(events) {
    const shape = [];
    for (const e of events) {
        if (e.event === 'ping')
            continue;
        const data = JSON.parse(e.data);
        const key = [e.event, data.type, data.index ?? '', data.delta?.type ?? ''].join(':');
        if (shape[shape.length - 1] !== key)
            shape.push(key);
    }
    return shape;
}
(0, node_test_1.describe)('fake Anthropic: streaming with the real SDK', () => {
    let server;
    (0, node_test_1.before)(async () => {
        server = await (0, fakeAnthropic_1.startFakeAnthropic)();
    });
    (0, node_test_1.after)(() => server.close());
    (0, node_test_1.it)('streams a tool_use whose JSON arrives in ≥ 3 input_json_delta chunks and parses to the input', async () => {
        server.enqueue((0, fakeAnthropic_1.toolUseResponse)({ name: 'Grep', input: GREP_INPUT }, { text: 'Searching.' }));
        const client = (0, fakeAnthropic_1.fakeClient)(server);
        const stream = client.messages.stream(params());
        const jsonDeltas = [];
        stream.on('inputJson', (partial) => jsonDeltas.push(partial));
        const message = await stream.finalMessage();
        strict_1.default.equal(message.stop_reason, 'tool_use');
        strict_1.default.equal(message.content.length, 2);
        const [text, toolUse] = message.content;
        strict_1.default.deepEqual(text, { type: 'text', text: 'Searching.' });
        strict_1.default.equal(toolUse?.type, 'tool_use');
        if (toolUse?.type !== 'tool_use')
            return;
        strict_1.default.equal(toolUse.id, (0, fakeAnthropic_1.fakeToolUseId)(1));
        strict_1.default.match(toolUse.id, /^toolu_01[A-Za-z0-9]{22}$/);
        strict_1.default.equal(toolUse.name, 'Grep');
        strict_1.default.deepEqual(toolUse.input, GREP_INPUT);
        strict_1.default.ok(jsonDeltas.filter((d) => d !== '').length >= 3, `got ${jsonDeltas.length} deltas`);
        strict_1.default.ok(message.usage.output_tokens > 0 && message.usage.input_tokens > 0);
        const recorded = server.lastRequest();
        strict_1.default.equal(recorded?.method, 'POST');
        strict_1.default.equal(recorded?.path, '/v1/messages');
        strict_1.default.equal(recorded?.apiKey, 'test-key');
        strict_1.default.equal(recorded?.stream, true);
        strict_1.default.deepEqual((recorded?.body).messages, [userTurn('hello')]);
        server.assertDone();
    });
    (0, node_test_1.it)('emits the raw event sequence of the real API (≥ 3 input_json_delta, message_delta, message_stop)', async () => {
        server.enqueue((0, fakeAnthropic_1.toolUseResponse)({ name: 'Grep', input: GREP_INPUT }));
        const client = (0, fakeAnthropic_1.fakeClient)(server);
        const events = await client.messages.create({ ...params(), stream: true });
        const types = [];
        let partials = 0;
        for await (const event of events) {
            types.push(event.type);
            if (event.type === 'content_block_delta' &&
                event.delta.type === 'input_json_delta' &&
                event.delta.partial_json !== '')
                partials++;
            if (event.type === 'message_delta')
                strict_1.default.equal(event.delta.stop_reason, 'tool_use');
        }
        strict_1.default.ok(partials >= 3, `only ${partials} non-empty input_json_delta events`);
        strict_1.default.equal(types[0], 'message_start');
        strict_1.default.equal(types[1], 'content_block_start');
        strict_1.default.deepEqual(types.slice(-3), ['content_block_stop', 'message_delta', 'message_stop']);
    });
    (0, node_test_1.it)('sends SSE headers, a request-id, rate-limit headers and ping events on the wire', async () => {
        server.enqueue((0, fakeAnthropic_1.textResponse)('hi there'));
        const res = await postRaw(server, JSON.stringify({ ...params(), stream: true }));
        strict_1.default.equal(res.status, 200);
        strict_1.default.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
        strict_1.default.match(res.headers.get('request-id') ?? '', /^req_/);
        strict_1.default.ok(res.headers.get('anthropic-ratelimit-requests-limit'));
        const events = (0, fakeAnthropic_1.parseSse)(await res.text());
        strict_1.default.ok(events.some((e) => e.event === 'ping'));
        for (const e of events) {
            if (e.event !== 'ping')
                strict_1.default.equal(JSON.parse(e.data).type, e.event);
        }
        const message = (0, fakeAnthropic_1.accumulateMessage)(events);
        strict_1.default.deepEqual(message.content, [{ type: 'text', text: 'hi there' }]);
        strict_1.default.equal(message.stop_reason, 'end_turn');
    });
    (0, node_test_1.it)('streams thinking blocks with thinking_delta and signature_delta', async () => {
        server.enqueue({
            content: [
                { type: 'thinking', thinking: 'The user wants a greeting.', signature: 'sig-123' },
                { type: 'text', text: 'Hello!' },
            ],
        });
        const message = await (0, fakeAnthropic_1.fakeClient)(server).messages.stream(params()).finalMessage();
        strict_1.default.deepEqual(message.content[0], {
            type: 'thinking',
            thinking: 'The user wants a greeting.',
            signature: 'sig-123',
        });
        strict_1.default.equal(message.stop_reason, 'end_turn');
    });
});
(0, node_test_1.describe)('fake Anthropic: server-side web search blocks', () => {
    let server;
    (0, node_test_1.before)(async () => {
        server = await (0, fakeAnthropic_1.startFakeAnthropic)();
    });
    (0, node_test_1.after)(() => server.close());
    const search = {
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
        tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 8 }],
    };
    (0, node_test_1.it)('streamed and non-streamed answers carry the same server_tool_use and web_search_tool_result blocks', async () => {
        server.enqueue(search, search);
        const client = (0, fakeAnthropic_1.fakeClient)(server);
        const deltas = [];
        const stream = client.messages.stream(searchParams);
        stream.on('streamEvent', (e) => {
            if (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta')
                deltas.push(e.delta.partial_json);
        });
        const streamed = await stream.finalMessage();
        const plain = await client.messages.create(searchParams);
        for (const m of [streamed, plain]) {
            strict_1.default.equal(m.stop_reason, 'end_turn');
            const [use, result, text] = m.content;
            strict_1.default.equal(use?.type, 'server_tool_use');
            if (use?.type !== 'server_tool_use')
                return;
            strict_1.default.match(use.id, /^srvtoolu_/);
            strict_1.default.deepEqual(use.input, { query: 'temporal durable' });
            strict_1.default.equal(result?.type, 'web_search_tool_result');
            if (result?.type !== 'web_search_tool_result')
                return;
            strict_1.default.equal(result.tool_use_id, use.id);
            strict_1.default.deepEqual(result.content, [
                {
                    type: 'web_search_result',
                    url: 'https://temporal.io/',
                    title: 'Temporal',
                    encrypted_content: 'ZmFrZS13ZWItc2VhcmNoLWNvbnRlbnQ=',
                    page_age: 'May 1, 2026',
                },
            ]);
            strict_1.default.deepEqual(text, { type: 'text', text: 'Temporal is durable.' });
            strict_1.default.deepEqual(m.usage.server_tool_use, { web_search_requests: 1 });
        }
        // The input arrived in pieces, as the API streams a tool's JSON.
        strict_1.default.ok(deltas.length >= 2, `${deltas.length} input_json_delta events`);
        strict_1.default.equal(deltas.join(''), JSON.stringify({ query: 'temporal durable' }));
    });
    (0, node_test_1.it)('a search error is the error block of the API', async () => {
        server.enqueue({
            content: [
                { type: 'server_tool_use', input: { query: 'x' } },
                { type: 'web_search_tool_result', results: { error_code: 'max_uses_exceeded' } },
            ],
        });
        const m = await (0, fakeAnthropic_1.fakeClient)(server).messages.create(searchParams);
        const result = m.content[1];
        strict_1.default.equal(result?.type, 'web_search_tool_result');
        if (result?.type !== 'web_search_tool_result')
            return;
        strict_1.default.deepEqual(result.content, { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' });
    });
});
(0, node_test_1.describe)('fake Anthropic: non-streamed and scripting', () => {
    (0, node_test_1.it)('returns the same Message shape without streaming as the stream adds up to', async () => {
        const spec = (0, fakeAnthropic_1.toolUseResponse)([{ name: 'Read', input: { file_path: '/tmp/a' }, id: 'toolu_01GivenByTheSpec00000001' }], {
            text: 'Reading.',
            id: 'msg_01SameIdBothWays000000001',
            usage: { input_tokens: 10, output_tokens: 20 },
        });
        await (0, fakeAnthropic_1.withFakeAnthropic)({ responses: [spec, spec] }, async (server) => {
            const client = (0, fakeAnthropic_1.fakeClient)(server);
            const plain = await client.messages.create(params());
            const streamed = await client.messages.stream(params()).finalMessage();
            strict_1.default.equal(plain.type, 'message');
            strict_1.default.equal(plain.role, 'assistant');
            strict_1.default.equal(plain.model, MODEL);
            strict_1.default.equal(plain.stop_sequence, null);
            for (const key of ['id', 'type', 'role', 'model', 'content', 'stop_reason', 'stop_sequence']) {
                strict_1.default.deepEqual(plain[key], streamed[key], key);
            }
            strict_1.default.equal(plain.usage.output_tokens, 20);
            strict_1.default.equal(streamed.usage.output_tokens, 20);
            strict_1.default.equal(server.requests[0]?.stream, false);
            strict_1.default.equal(server.requests[1]?.stream, true);
            server.assertDone();
        });
    });
    (0, node_test_1.it)('generates deterministic toolu_ ids per server, in order', async () => {
        await (0, fakeAnthropic_1.withFakeAnthropic)({}, async (server) => {
            server.enqueue((0, fakeAnthropic_1.toolUseResponse)([
                { name: 'A', input: {} },
                { name: 'B', input: {}, id: 'toolu_01Explicit0000000000000' },
                { name: 'C', input: {} },
            ]));
            const message = await (0, fakeAnthropic_1.fakeClient)(server).messages.create(params());
            const ids = message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
            strict_1.default.deepEqual(ids, [server.toolUseId(1), 'toolu_01Explicit0000000000000', server.toolUseId(2)]);
        });
    });
    (0, node_test_1.it)('answers from script(fn) once the queue is empty, with the request body in hand', async () => {
        await (0, fakeAnthropic_1.withFakeAnthropic)({}, async (server) => {
            server.enqueue((0, fakeAnthropic_1.toolUseResponse)({ name: 'Echo', input: { say: 'ping' } }));
            server.script((req) => {
                const results = (0, fakeAnthropic_1.lastToolResults)(req);
                return (0, fakeAnthropic_1.textResponse)(`got ${results.length} result(s) for ${String(results[0]?.tool_use_id)}`);
            });
            const client = (0, fakeAnthropic_1.fakeClient)(server);
            const first = await client.messages.create(params());
            const toolUse = first.content.find((b) => b.type === 'tool_use');
            strict_1.default.ok(toolUse);
            const second = await client.messages.create(params([
                userTurn('hello'),
                { role: 'assistant', content: first.content },
                { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'pong' }] },
            ]));
            strict_1.default.deepEqual(second.content, [{ type: 'text', text: `got 1 result(s) for ${toolUse.id}` }]);
            strict_1.default.equal(server.remaining(), 0);
            strict_1.default.equal(server.messageRequests().length, 2);
            server.assertDone();
        });
    });
    (0, node_test_1.it)('fails loudly when the script is exhausted: 500 with the message, recorded, assertDone throws, no SDK retry', async () => {
        await (0, fakeAnthropic_1.withFakeAnthropic)({}, async (server) => {
            const client = (0, fakeAnthropic_1.fakeClient)(server, { maxRetries: 2 });
            await strict_1.default.rejects(client.messages.create(params()), (err) => {
                strict_1.default.ok(err instanceof sdk_1.default.InternalServerError);
                strict_1.default.match(err.message, /fake Anthropic: script exhausted/);
                return true;
            });
            strict_1.default.equal(server.requests.length, 1, 'x-should-retry: false stops the SDK from retrying');
            strict_1.default.equal(server.unexpected.length, 1);
            strict_1.default.equal(server.unexpected[0]?.kind, 'script_exhausted');
            strict_1.default.throws(() => server.assertDone(), /script exhausted/);
        });
    });
    (0, node_test_1.it)('assertDone also reports scripted responses that were never requested', async () => {
        await (0, fakeAnthropic_1.withFakeAnthropic)({ responses: [(0, fakeAnthropic_1.textResponse)('unused')] }, async (server) => {
            strict_1.default.equal(server.remaining(), 1);
            strict_1.default.throws(() => server.assertDone(), /1 scripted response\(s\) were never requested/);
        });
    });
});
(0, node_test_1.describe)('fake Anthropic: injected faults', () => {
    (0, node_test_1.it)('a 529 followed by success is retried by the SDK', async () => {
        await (0, fakeAnthropic_1.withFakeAnthropic)({}, async (server) => {
            server.enqueue((0, fakeAnthropic_1.overloadedError)({ retryAfterMs: 5 }), (0, fakeAnthropic_1.textResponse)('after the storm'));
            const message = await (0, fakeAnthropic_1.fakeClient)(server, { maxRetries: 2 }).messages.create(params());
            strict_1.default.deepEqual(message.content, [{ type: 'text', text: 'after the storm' }]);
            strict_1.default.equal(server.requests.length, 2);
            strict_1.default.equal(server.requests[0]?.response?.status, 529);
            strict_1.default.equal(server.requests[0]?.response?.errorType, 'overloaded_error');
            strict_1.default.equal(server.requests[1]?.response?.status, 200);
            server.assertDone();
        });
    });
    (0, node_test_1.it)('a 429 carries the error shape and the retry-after header, and is retried on a stream too', async () => {
        await (0, fakeAnthropic_1.withFakeAnthropic)({}, async (server) => {
            server.enqueue((0, fakeAnthropic_1.rateLimitError)({ retryAfter: 7 }));
            const res = await postRaw(server, JSON.stringify(params()));
            strict_1.default.equal(res.status, 429);
            strict_1.default.equal(res.headers.get('retry-after'), '7');
            const body = (await res.json());
            strict_1.default.equal(body.type, 'error');
            strict_1.default.equal(body.error.type, 'rate_limit_error');
            strict_1.default.match(body.request_id, /^req_/);
            server.enqueue((0, fakeAnthropic_1.rateLimitError)({ retryAfterMs: 5 }), (0, fakeAnthropic_1.textResponse)('ok'));
            const message = await (0, fakeAnthropic_1.fakeClient)(server, { maxRetries: 1 }).messages.stream(params()).finalMessage();
            strict_1.default.deepEqual(message.content, [{ type: 'text', text: 'ok' }]);
            strict_1.default.equal(server.requests.length, 3);
        });
    });
    (0, node_test_1.it)('a 400 is not retried', async () => {
        await (0, fakeAnthropic_1.withFakeAnthropic)({}, async (server) => {
            server.enqueue((0, fakeAnthropic_1.errorResponse)(400, { message: 'prompt is too long' }), (0, fakeAnthropic_1.textResponse)('never sent'));
            await strict_1.default.rejects((0, fakeAnthropic_1.fakeClient)(server, { maxRetries: 3 }).messages.create(params()), (err) => {
                strict_1.default.ok(err instanceof sdk_1.default.BadRequestError);
                strict_1.default.equal(err.status, 400);
                strict_1.default.equal(err.type, 'invalid_request_error');
                strict_1.default.equal(err.apiMessage, 'prompt is too long');
                return true;
            });
            strict_1.default.equal(server.requests.length, 1);
            strict_1.default.equal(server.remaining(), 1);
        });
    });
    (0, node_test_1.it)('a stream dropped after N events surfaces as an error from the SDK', async () => {
        await (0, fakeAnthropic_1.withFakeAnthropic)({}, async (server) => {
            server.enqueue({ ...(0, fakeAnthropic_1.toolUseResponse)({ name: 'Grep', input: GREP_INPUT }), dropAfterEvents: 4 });
            const stream = (0, fakeAnthropic_1.fakeClient)(server).messages.stream(params());
            const seen = [];
            stream.on('streamEvent', (event) => seen.push(event.type));
            await strict_1.default.rejects(stream.finalMessage());
            strict_1.default.deepEqual(seen, ['message_start', 'content_block_start', 'content_block_delta'], 'ping is the 3rd event on the wire');
        });
    });
    (0, node_test_1.it)('a connection closed without a response is a connection error, retried by the SDK', async () => {
        await (0, fakeAnthropic_1.withFakeAnthropic)({}, async (server) => {
            server.enqueue((0, fakeAnthropic_1.disconnect)());
            await strict_1.default.rejects((0, fakeAnthropic_1.fakeClient)(server).messages.create(params()), sdk_1.default.APIConnectionError);
            server.enqueue((0, fakeAnthropic_1.disconnect)(), (0, fakeAnthropic_1.textResponse)('second try'));
            const message = await (0, fakeAnthropic_1.fakeClient)(server, { maxRetries: 1 }).messages.create(params());
            strict_1.default.deepEqual(message.content, [{ type: 'text', text: 'second try' }]);
            strict_1.default.equal(server.requests.length, 3);
        });
    });
    (0, node_test_1.it)('an SSE error event mid-stream (overloaded) surfaces as an APIError of that type', async () => {
        await (0, fakeAnthropic_1.withFakeAnthropic)({}, async (server) => {
            server.enqueue({ ...(0, fakeAnthropic_1.textResponse)('partial answer that never ends'), streamError: { afterEvents: 4 } });
            await strict_1.default.rejects((0, fakeAnthropic_1.fakeClient)(server).messages.stream(params()).finalMessage(), (err) => {
                strict_1.default.ok(err instanceof sdk_1.default.APIError);
                strict_1.default.equal(err.type, 'overloaded_error');
                return true;
            });
            // Non-streamed, the same spec is an HTTP 529.
            server.enqueue({ ...(0, fakeAnthropic_1.textResponse)('x'), streamError: { afterEvents: 0 } });
            await strict_1.default.rejects((0, fakeAnthropic_1.fakeClient)(server).messages.create(params()), (err) => {
                strict_1.default.ok(err instanceof sdk_1.default.APIError);
                strict_1.default.equal(err.status, 529);
                return true;
            });
        });
    });
    (0, node_test_1.it)('a slow stream delays every event', async () => {
        await (0, fakeAnthropic_1.withFakeAnthropic)({}, async (server) => {
            const delayMs = 25;
            const spec = { ...(0, fakeAnthropic_1.textResponse)('slow and steady'), delayMs };
            const eventCount = (0, fakeAnthropic_1.buildStreamEvents)((0, fakeAnthropic_1.buildMessage)(spec, { model: MODEL, inputTokens: 1, nextToolUseId: () => 'x', nextMessageId: () => 'y' }), spec).length;
            server.enqueue(spec);
            const started = performance.now();
            await (0, fakeAnthropic_1.fakeClient)(server).messages.stream(params()).finalMessage();
            const elapsed = performance.now() - started;
            // Node timers may fire up to ~1 ms early, hence the 1 ms per event of slack.
            strict_1.default.ok(elapsed >= eventCount * (delayMs - 1), `${elapsed.toFixed(0)} ms for ${eventCount} events`);
        });
    });
    (0, node_test_1.it)('close() ends in-flight slow streams instead of hanging', async () => {
        const server = await (0, fakeAnthropic_1.startFakeAnthropic)({ responses: [{ ...(0, fakeAnthropic_1.textResponse)('zzz'), delayMs: 10_000 }] });
        const pending = (0, fakeAnthropic_1.fakeClient)(server).messages.stream(params()).finalMessage();
        pending.catch(() => undefined);
        await new Promise((r) => setTimeout(r, 50));
        await server.close();
        await strict_1.default.rejects(pending);
    });
});
(0, node_test_1.describe)('fake Anthropic: request validation', () => {
    let server;
    (0, node_test_1.before)(async () => {
        server = await (0, fakeAnthropic_1.startFakeAnthropic)();
    });
    (0, node_test_1.after)(() => server.close());
    (0, node_test_1.it)('rejects malformed JSON with a 400 invalid_request_error', async () => {
        const before = server.unexpected.length;
        const res = await postRaw(server, '{"model": "x", "max_tokens": ');
        strict_1.default.equal(res.status, 400);
        const body = (await res.json());
        strict_1.default.equal(body.type, 'error');
        strict_1.default.equal(body.error.type, 'invalid_request_error');
        strict_1.default.match(body.error.message, /parsing the body/);
        strict_1.default.equal(server.unexpected.length, before + 1);
        strict_1.default.equal(server.unexpected.at(-1)?.kind, 'invalid_request');
    });
    (0, node_test_1.it)('rejects a body missing model, max_tokens or messages', async () => {
        for (const field of ['model', 'max_tokens', 'messages']) {
            const body = { ...params() };
            delete body[field];
            const res = await postRaw(server, JSON.stringify(body));
            strict_1.default.equal(res.status, 400);
            const json = (await res.json());
            strict_1.default.equal(json.error.type, 'invalid_request_error');
            strict_1.default.equal(json.error.message, `${field}: Field required`);
        }
    });
    (0, node_test_1.it)('answers an unknown path with 404 not_found_error', async () => {
        const res = await postRaw(server, '{}', '/v1/completions');
        strict_1.default.equal(res.status, 404);
        const json = (await res.json());
        strict_1.default.equal(json.error.type, 'not_found_error');
    });
    (0, node_test_1.it)('rejects a dangling tool_use like the real API, without consuming the script', async () => {
        server.enqueue((0, fakeAnthropic_1.textResponse)('should not be used'));
        const dangling = params([
            userTurn('grep it'),
            {
                role: 'assistant',
                content: [{ type: 'tool_use', id: 'toolu_01Dangling000000000000000', name: 'Grep', input: {} }],
            },
            { role: 'user', content: 'where is my result?' },
        ]);
        await strict_1.default.rejects((0, fakeAnthropic_1.fakeClient)(server, { maxRetries: 2 }).messages.create(dangling), (err) => {
            strict_1.default.ok(err instanceof sdk_1.default.BadRequestError);
            strict_1.default.match(err.message, /messages\.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01Dangling000000000000000/);
            return true;
        });
        strict_1.default.equal(server.remaining(), 1);
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
        const message = await (0, fakeAnthropic_1.fakeClient)(server).messages.create(answered);
        strict_1.default.deepEqual(message.content, [{ type: 'text', text: 'should not be used' }]);
    });
    (0, node_test_1.it)('rejects a tool_result that answers no tool_use of the previous message', async () => {
        const orphan = params([
            userTurn('hi'),
            { role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01Orphan0000000000000000', content: 'x' }] },
        ]);
        await strict_1.default.rejects((0, fakeAnthropic_1.fakeClient)(server).messages.create(orphan), /unexpected `tool_use_id` found in `tool_result` blocks/);
    });
    (0, node_test_1.it)('can require an API key', async () => {
        await (0, fakeAnthropic_1.withFakeAnthropic)({ requireApiKey: 'sk-right' }, async (strict) => {
            strict.enqueue((0, fakeAnthropic_1.textResponse)('welcome'));
            await strict_1.default.rejects((0, fakeAnthropic_1.fakeClient)(strict, { apiKey: 'sk-wrong' }).messages.create(params()), sdk_1.default.AuthenticationError);
            const ok = await (0, fakeAnthropic_1.fakeClient)(strict, { apiKey: 'sk-right' }).messages.create(params());
            strict_1.default.deepEqual(ok.content, [{ type: 'text', text: 'welcome' }]);
            strict_1.default.deepEqual(strict.requests.map((r) => r.apiKey), ['sk-wrong', 'sk-right']);
        });
    });
});
(0, node_test_1.describe)('fake Anthropic: recorded SSE fixtures', () => {
    (0, node_test_1.it)('the SDK parses a recorded tool_use stream replayed verbatim', async () => {
        await (0, fakeAnthropic_1.withFakeAnthropic)({}, async (server) => {
            server.enqueue((0, fakeAnthropic_1.rawSse)((0, fakeAnthropic_1.readSseFixture)('tool_use_stream.sse')));
            const message = await (0, fakeAnthropic_1.fakeClient)(server).messages.stream(params()).finalMessage();
            strict_1.default.equal(message.id, 'msg_01Wq3kUVdJ7cXw5JmD6u1Fkr');
            strict_1.default.deepEqual(message.content[0], { type: 'text', text: "I'll search the code for TODOs." });
            const toolUse = message.content[1];
            strict_1.default.ok(toolUse?.type === 'tool_use');
            strict_1.default.equal(toolUse.id, 'toolu_01HXvPn5cPqgn1SxBq2v7nBc');
            strict_1.default.deepEqual(toolUse.input, { pattern: 'TODO', path: 'src', output_mode: 'content' });
            strict_1.default.equal(message.stop_reason, 'tool_use');
            strict_1.default.equal(message.usage.output_tokens, 87);
        });
    });
    (0, node_test_1.it)('generated streams follow the same event grammar as the recorded one', async () => {
        const recorded = (0, fakeAnthropic_1.parseSse)((0, fakeAnthropic_1.readSseFixture)('tool_use_stream.sse'));
        const fixtureMessage = (0, fakeAnthropic_1.accumulateMessage)(recorded);
        await (0, fakeAnthropic_1.withFakeAnthropic)({}, async (server) => {
            server.enqueue((0, fakeAnthropic_1.toolUseResponse)({ name: 'Grep', input: { pattern: 'TODO', path: 'src', output_mode: 'content' } }, {
                text: "I'll search the code for TODOs.",
            }));
            const res = await postRaw(server, JSON.stringify({ ...params(), stream: true }));
            const generated = (0, fakeAnthropic_1.parseSse)(await res.text());
            strict_1.default.deepEqual(streamShape(generated), streamShape(recorded));
            // The ping sits where the API puts it: right after the first content_block_start.
            strict_1.default.deepEqual(generated.slice(0, 3).map((e) => e.event), recorded.slice(0, 3).map((e) => e.event));
            const ours = (0, fakeAnthropic_1.accumulateMessage)(generated);
            strict_1.default.deepEqual(ours.content.map((b) => b.type), fixtureMessage.content.map((b) => b.type));
        });
    });
    (0, node_test_1.it)('the recorded mid-stream overload surfaces as an overloaded_error', async () => {
        await (0, fakeAnthropic_1.withFakeAnthropic)({}, async (server) => {
            server.enqueue((0, fakeAnthropic_1.rawSse)((0, fakeAnthropic_1.readSseFixture)('overloaded_mid_stream.sse')));
            await strict_1.default.rejects((0, fakeAnthropic_1.fakeClient)(server).messages.stream(params()).finalMessage(), (err) => {
                strict_1.default.ok(err instanceof sdk_1.default.APIError);
                strict_1.default.equal(err.type, 'overloaded_error');
                return true;
            });
        });
    });
});
//# sourceMappingURL=fakeAnthropic.test.js.map