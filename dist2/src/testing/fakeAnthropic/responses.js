"use strict";
// Building responses from specs: spec helpers, the final Message, its SSE event sequence, API errors.
Object.defineProperty(exports, "__esModule", { value: true });
exports.FAKE_ENCRYPTED_CONTENT = exports.FAKE_THINKING_SIGNATURE = void 0;
exports.fakeToolUseId = fakeToolUseId;
exports.fakeMessageId = fakeMessageId;
exports.fakeRequestId = fakeRequestId;
exports.textResponse = textResponse;
exports.toolUseResponse = toolUseResponse;
exports.errorResponse = errorResponse;
exports.overloadedError = overloadedError;
exports.rateLimitError = rateLimitError;
exports.apiError = apiError;
exports.disconnect = disconnect;
exports.rawSse = rawSse;
exports.statusForErrorType = statusForErrorType;
exports.defaultErrorFor = defaultErrorFor;
exports.errorBody = errorBody;
exports.buildMessage = buildMessage;
exports.splitPieces = splitPieces;
exports.defaultJsonChunkSize = defaultJsonChunkSize;
exports.buildStreamEvents = buildStreamEvents;
exports.encodeEvents = encodeEvents;
const sse_1 = require("./sse");
// ---------------------------------------------------------------------------------------------
// Deterministic ids: same shape and length as real ones, predictable from a per-server counter.
/** The n-th (1-based) generated tool_use id of a server, e.g. `toolu_01FakeTool00000000000001`. */
function fakeToolUseId(n) {
    return `toolu_01FakeTool${String(n).padStart(14, '0')}`;
}
function fakeMessageId(n) {
    return `msg_01FakeMsg${String(n).padStart(15, '0')}`;
}
function fakeRequestId(n) {
    return `req_01FakeReq${String(n).padStart(15, '0')}`;
}
exports.FAKE_THINKING_SIGNATURE = 'ZmFrZS1hbnRocm9waWMtdGhpbmtpbmctc2lnbmF0dXJl';
/** The opaque page content a fake web search hit carries (the real API's is encrypted). */
exports.FAKE_ENCRYPTED_CONTENT = 'ZmFrZS13ZWItc2VhcmNoLWNvbnRlbnQ=';
/** A turn that only says `text` (stop_reason end_turn). */
function textResponse(text, extra = {}) {
    return { ...extra, content: [{ type: 'text', text }] };
}
/** A turn that calls tools (stop_reason tool_use), optionally preceded by some text. */
function toolUseResponse(calls, extra = {}) {
    const { text, ...rest } = extra;
    const list = Array.isArray(calls) ? calls : [calls];
    const content = text === undefined ? [] : [{ type: 'text', text }];
    for (const call of list) {
        content.push(call.id === undefined
            ? { type: 'tool_use', name: call.name, input: call.input }
            : { type: 'tool_use', id: call.id, name: call.name, input: call.input });
    }
    return { ...rest, content };
}
function errorResponse(status, extra = {}) {
    return { ...extra, kind: 'error', status };
}
/** HTTP 529 overloaded_error. */
function overloadedError(extra = {}) {
    return errorResponse(529, extra);
}
/** HTTP 429 rate_limit_error. */
function rateLimitError(extra = {}) {
    return errorResponse(429, extra);
}
/** HTTP 500 api_error. */
function apiError(extra = {}) {
    return errorResponse(500, extra);
}
function disconnect(extra = {}) {
    return { ...extra, kind: 'disconnect' };
}
function rawSse(body, extra = {}) {
    return { ...extra, kind: 'raw_sse', body };
}
// ---------------------------------------------------------------------------------------------
// Errors
const ERROR_DEFAULTS = {
    400: { type: 'invalid_request_error', message: 'Invalid request' },
    401: { type: 'authentication_error', message: 'invalid x-api-key' },
    403: { type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' },
    404: { type: 'not_found_error', message: 'Not found' },
    413: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' },
    429: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' },
    500: { type: 'api_error', message: 'Internal server error' },
    529: { type: 'overloaded_error', message: 'Overloaded' },
};
const STATUS_OF_TYPE = {
    invalid_request_error: 400,
    authentication_error: 401,
    permission_error: 403,
    not_found_error: 404,
    request_too_large: 413,
    rate_limit_error: 429,
    api_error: 500,
    overloaded_error: 529,
};
function statusForErrorType(type) {
    return STATUS_OF_TYPE[type];
}
function defaultErrorFor(status) {
    return (ERROR_DEFAULTS[status] ?? { type: status >= 500 ? 'api_error' : 'invalid_request_error', message: `HTTP ${status}` });
}
function errorBody(type, message, requestId) {
    const body = { type: 'error', error: { type, message } };
    if (requestId !== undefined)
        body.request_id = requestId;
    return body;
}
function estimateTokens(chars) {
    return Math.max(1, Math.ceil(chars / 4));
}
/** The final Message a spec describes (what a non-streamed call returns and a stream adds up to). */
function buildMessage(spec, ctx) {
    let outputChars = 0;
    let lastServerToolUse;
    let searches = 0;
    const content = spec.content.map((block) => {
        switch (block.type) {
            case 'text':
                outputChars += block.text.length;
                return { type: 'text', text: block.text };
            case 'tool_use':
                outputChars += (block.rawJson ?? JSON.stringify(block.input) ?? '').length;
                return { type: 'tool_use', id: block.id ?? ctx.nextToolUseId(), name: block.name, input: block.input };
            case 'thinking':
                outputChars += block.thinking.length;
                return { type: 'thinking', thinking: block.thinking, signature: block.signature ?? exports.FAKE_THINKING_SIGNATURE };
            case 'server_tool_use': {
                outputChars += (JSON.stringify(block.input) ?? '').length;
                searches++;
                lastServerToolUse = block.id ?? ctx.nextToolUseId().replace(/^toolu_/, 'srvtoolu_');
                return { type: 'server_tool_use', id: lastServerToolUse, name: block.name ?? 'web_search', input: block.input };
            }
            case 'web_search_tool_result':
                return {
                    type: 'web_search_tool_result',
                    tool_use_id: block.tool_use_id ?? lastServerToolUse ?? 'srvtoolu_missing',
                    content: Array.isArray(block.results)
                        ? block.results.map((r) => ({
                            type: 'web_search_result',
                            url: r.url,
                            title: r.title,
                            encrypted_content: r.encrypted_content ?? exports.FAKE_ENCRYPTED_CONTENT,
                            page_age: r.page_age ?? null,
                        }))
                        : { type: 'web_search_tool_result_error', error_code: block.results.error_code },
                };
        }
    });
    const hasToolUse = content.some((b) => b.type === 'tool_use');
    const usage = {
        input_tokens: ctx.inputTokens,
        cache_creation_input_tokens: ctx.cache?.creation ?? 0,
        cache_read_input_tokens: ctx.cache?.read ?? 0,
        output_tokens: estimateTokens(outputChars),
        service_tier: 'standard',
        ...spec.usage,
        ...(searches > 0 ? { server_tool_use: { web_search_requests: searches } } : {}),
    };
    return {
        id: spec.id ?? ctx.nextMessageId(),
        type: 'message',
        role: 'assistant',
        model: spec.model ?? ctx.model,
        content,
        stop_reason: spec.stop_reason ?? (hasToolUse ? 'tool_use' : 'end_turn'),
        stop_sequence: spec.stop_sequence ?? null,
        usage,
    };
}
/** Split by code points (never inside a surrogate pair) into pieces of `size`. */
function splitPieces(text, size) {
    const chars = Array.from(text);
    const step = Math.max(1, Math.floor(size));
    const pieces = [];
    for (let i = 0; i < chars.length; i += step)
        pieces.push(chars.slice(i, i + step).join(''));
    return pieces;
}
/** Default JSON piece size: at most 20 characters, and small enough that the JSON takes ≥ 3 pieces. */
function defaultJsonChunkSize(json) {
    return Math.max(1, Math.min(20, Math.ceil(Array.from(json).length / 3)));
}
const DEFAULT_TEXT_CHUNK = 12;
// The API writes this one payload with a space after the colon.
const PING_DATA = '{"type": "ping"}';
/**
 * The SSE events of a streamed message, in the order the real API sends them: message_start
 * (empty content, input usage), per block start / deltas / stop, one ping after the first
 * content_block_start, message_delta (stop_reason, output_tokens), message_stop.
 */
function buildStreamEvents(message, spec, defaults = {}) {
    const events = [];
    const push = (event, data) => {
        events.push({ event, data: typeof data === 'string' ? data : JSON.stringify(data) });
    };
    const jsonChunkSize = (json) => spec.jsonChunkSize ?? defaults.jsonChunkSize ?? defaultJsonChunkSize(json);
    const textChunkSize = spec.textChunkSize ?? defaults.textChunkSize ?? DEFAULT_TEXT_CHUNK;
    push('message_start', {
        type: 'message_start',
        message: {
            ...message,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { ...message.usage, output_tokens: Math.min(1, message.usage.output_tokens) },
        },
    });
    message.content.forEach((block, index) => {
        const source = spec.content[index];
        let startBlock;
        const deltas = [];
        switch (block.type) {
            case 'text': {
                startBlock = { type: 'text', text: '' };
                const chunks = source?.type === 'text' && source.chunks ? source.chunks : splitPieces(block.text, textChunkSize);
                for (const text of chunks)
                    deltas.push({ type: 'text_delta', text });
                break;
            }
            case 'tool_use': {
                startBlock = { type: 'tool_use', id: block.id, name: block.name, input: {} };
                const json = (source?.type === 'tool_use' ? source.rawJson : undefined) ?? JSON.stringify(block.input) ?? '';
                // The real API opens every tool_use with an empty partial_json.
                deltas.push({ type: 'input_json_delta', partial_json: '' });
                for (const piece of splitPieces(json, jsonChunkSize(json)))
                    deltas.push({ type: 'input_json_delta', partial_json: piece });
                break;
            }
            case 'server_tool_use': {
                // As tool_use: the block opens with empty input, the JSON follows in pieces.
                startBlock = { type: 'server_tool_use', id: block.id, name: block.name, input: {} };
                const json = JSON.stringify(block.input) ?? '';
                for (const piece of splitPieces(json, jsonChunkSize(json)))
                    deltas.push({ type: 'input_json_delta', partial_json: piece });
                break;
            }
            case 'web_search_tool_result':
                // Sent whole in its content_block_start; no deltas.
                startBlock = block;
                break;
            case 'thinking': {
                startBlock = { type: 'thinking', thinking: '', signature: '' };
                for (const thinking of splitPieces(block.thinking, textChunkSize))
                    deltas.push({ type: 'thinking_delta', thinking });
                deltas.push({ type: 'signature_delta', signature: block.signature });
                break;
            }
        }
        push('content_block_start', { type: 'content_block_start', index, content_block: startBlock });
        if (index === 0)
            push('ping', PING_DATA);
        for (const delta of deltas)
            push('content_block_delta', { type: 'content_block_delta', index, delta });
        push('content_block_stop', { type: 'content_block_stop', index });
        if (source?.pauseAfterMs)
            events[events.length - 1].pauseAfterMs = source.pauseAfterMs;
    });
    if (message.content.length === 0)
        push('ping', PING_DATA);
    push('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence },
        usage: { output_tokens: message.usage.output_tokens },
    });
    push('message_stop', { type: 'message_stop' });
    return events;
}
function encodeEvents(events) {
    return events.map((e) => (0, sse_1.encodeSseEvent)(e.event, e.data));
}
//# sourceMappingURL=responses.js.map