"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.NON_STREAMED_TIMEOUT_MS = exports.ModelCallError = void 0;
exports.classifyModelError = classifyModelError;
exports.callModelWith = callModelWith;
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const payloads_1 = require("../engine/payloads");
const retry_1 = require("../engine/retry");
const contextWindow_1 = require("../engine/contextWindow");
const modelRequest_1 = require("./modelRequest");
const memory_1 = require("../engine/memory");
const blobs_1 = require("../memory/blobs");
const errors_1 = require("../engine/errors");
function promptTooLong(err) {
    return err instanceof sdk_1.default.APIError && err.status === 400 && (0, contextWindow_1.isPromptTooLong)(err.message)
        ? err.message
        : undefined;
}
/**
 * A model call that failed, classified on purpose: `retryable` when waiting may help (overload,
 * rate limit, server errors, lost connections), with what the turn's outage handling reads
 * (`transient`: kind and the server's retry-after); permanent otherwise (401, 400 …). `failureType`
 * is the failure's type in history (`ModelHttp529`, `ModelConnectionError`, …).
 */
class ModelCallError extends errors_1.DurableAgentError {
    retryable;
    failureType;
    transient;
    retryAfterMs;
    constructor(message, failure, options) {
        super(failure.retryable ? 'MODEL_UNAVAILABLE' : 'MODEL_FAILED', message, options);
        this.retryable = failure.retryable;
        this.failureType = failure.failureType;
        if (failure.transient)
            this.transient = failure.transient;
        if (failure.retryAfterMs !== undefined)
            this.retryAfterMs = failure.retryAfterMs;
    }
}
exports.ModelCallError = ModelCallError;
/** Retry on purpose: overload, rate limit, server errors and lost connections retry; client errors do not. */
function classifyModelError(err) {
    if (err instanceof errors_1.DurableAgentError)
        return err;
    if (err instanceof sdk_1.default.APIUserAbortError)
        return err;
    // `transient` carries the failure as the turn's outage handling reads it.
    if (err instanceof sdk_1.default.APIConnectionError) {
        const message = `model connection failed: ${err.message}`;
        return new ModelCallError(message, { failureType: 'ModelConnectionError', retryable: true, transient: { kind: 'connection', message } }, { cause: err });
    }
    if (err instanceof sdk_1.default.APIError) {
        const status = err.status ?? 0;
        const retryAfter = retryAfterMs(err.headers);
        const message = `model API error ${status}: ${err.message}`;
        if (status === 429 || status === 529 || status === 408 || status === 409 || status >= 500) {
            const transient = {
                kind: (0, retry_1.failureKindOfStatus)(status),
                message,
                ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
            };
            return new ModelCallError(message, {
                failureType: `ModelHttp${status}`,
                retryable: true,
                transient,
                ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
            }, { cause: err });
        }
        return new ModelCallError(message, { failureType: `ModelHttp${status}`, retryable: false }, { cause: err });
    }
    const message = `model call failed: ${err instanceof Error ? err.message : String(err)}`;
    return new ModelCallError(message, { failureType: 'ModelError', retryable: true, transient: { kind: 'other', message } }, { cause: err });
}
function retryAfterMs(headers) {
    if (!headers)
        return undefined;
    const ms = headers.get('retry-after-ms');
    if (ms && Number.isFinite(Number(ms)))
        return Math.max(0, Number(ms));
    const s = headers.get('retry-after');
    if (s && Number.isFinite(Number(s)))
        return Math.max(0, Number(s) * 1000);
    if (s) {
        const at = Date.parse(s);
        if (Number.isFinite(at))
            return Math.max(0, at - Date.now());
    }
    return undefined;
}
function toAssistant(content) {
    const blocks = [];
    for (const b of content) {
        if (b.type === 'text')
            blocks.push({ type: 'text', text: b.text });
        else if (b.type === 'tool_use')
            blocks.push({ type: 'tool_use', id: b.id, name: b.name, input: b.input });
        else if (b.type === 'thinking')
            blocks.push({ type: 'thinking', thinking: b.thinking, signature: b.signature });
        else if (b.type === 'redacted_thinking')
            blocks.push({ type: 'redacted_thinking', data: b.data });
    }
    return { role: 'assistant', content: blocks };
}
function toUsage(u) {
    return {
        input_tokens: u.input_tokens,
        output_tokens: u.output_tokens,
        ...(u.cache_creation_input_tokens != null ? { cache_creation_input_tokens: u.cache_creation_input_tokens } : {}),
        ...(u.cache_read_input_tokens != null ? { cache_read_input_tokens: u.cache_read_input_tokens } : {}),
    };
}
/** The non-streamed fallback's own timeout (the model activity's start-to-close is the same). */
exports.NON_STREAMED_TIMEOUT_MS = 60 * 60_000;
/**
 * Follows a message stream's events and hands each tool_use block to `handOff` at its
 * content_block_stop, in order, without holding up the stream: the input is the block's own
 * JSON (a block whose JSON does not parse is left to the complete message), stored as a
 * transcript node of its own (payloads by reference: the tool activity reads it from there).
 */
function toolUseHandOff(deps, sentHead, ctx, handOff) {
    const json = new Map();
    let chain = Promise.resolve();
    const send = async (index, id, name, input) => {
        const block = { type: 'tool_use', id, name, input };
        const messageRef = await deps.transcripts.append(sentHead, [{ role: 'assistant', content: [block] }]);
        await handOff({ index, block: { ...block, input: (0, payloads_1.inputForHistory)(input) }, messageRef });
    };
    return {
        onEvent(event) {
            if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
                json.set(event.index, { id: event.content_block.id, name: event.content_block.name, buf: '' });
            }
            else if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
                const b = json.get(event.index);
                if (b)
                    b.buf += event.delta.partial_json;
            }
            else if (event.type === 'content_block_stop') {
                const b = json.get(event.index);
                if (!b)
                    return;
                json.delete(event.index);
                let input;
                try {
                    input = b.buf.trim() === '' ? {} : JSON.parse(b.buf);
                }
                catch {
                    return;
                }
                const index = event.index;
                chain = chain
                    .then(() => send(index, b.id, b.name, input))
                    // A block that could not be handed over starts when the message is complete, as without streaming.
                    .catch((err) => ctx.warn(`could not hand tool_use ${b.id} to the turn while streaming: ${err instanceof Error ? err.message : String(err)}`));
            }
        },
        /** Every block handed over (before the activity answers, so that the turn sees them first). */
        flushed: () => chain,
    };
}
/** One model call: streamed, with a non-streamed fallback when the stream fails mid-way. */
async function callModelWith(deps, input, ctx) {
    const append = input.memory
        ? (0, memory_1.withMemoryText)(input.append, await (0, blobs_1.loadMemoryText)(deps.transcripts.blobs, input.memory))
        : input.append;
    const sentHead = await deps.transcripts.append(input.head, append);
    // Listing MCP tools may start servers (up to MCP_TIMEOUT): keep heartbeating meanwhile.
    const listing = input.mcp ? setInterval(() => ctx.heartbeat({ phase: 'listing MCP tools' }), 5_000) : undefined;
    let prepared;
    try {
        prepared = await (0, modelRequest_1.prepareModelRequest)(deps, {
            ...input,
            head: sentHead,
            warn: (m) => ctx.warn(m, { sessionId: input.sessionId }),
        });
    }
    finally {
        if (listing)
            clearInterval(listing);
    }
    if (prepared.kind === 'compact')
        return { ...prepared, sentHead };
    const { params } = prepared;
    const client = deps.anthropic();
    const reactive = (message) => ({
        kind: 'compact',
        trigger: 'reactive',
        tokens: (0, contextWindow_1.promptTooLongTokens)(message)?.actual ?? prepared.tokens,
        view: prepared.view,
        sentHead,
        error: message,
    });
    const requestOptions = (signal) => ({
        signal,
        maxRetries: 0,
        ...(prepared.betas.length > 0 ? { headers: { 'anthropic-beta': prepared.betas.join(',') } } : {}),
    });
    const signal = ctx.signal;
    // The non-streamed fallback may take minutes without events: keep heartbeating meanwhile.
    const ticker = setInterval(() => ctx.heartbeat({ phase: 'waiting' }), 5000);
    const handOff = input.streamToolUses && ctx.onStreamedToolUse
        ? toolUseHandOff(deps, sentHead, ctx, ctx.onStreamedToolUse)
        : undefined;
    try {
        const tombstones = [];
        let final;
        let fallback = false;
        let requestId;
        let events = 0;
        const stream = client.messages.stream(params, requestOptions(signal));
        try {
            for await (const event of stream) {
                events++;
                ctx.heartbeat({ phase: 'streaming', events, type: event.type });
                handOff?.onEvent(event);
            }
            final = await stream.finalMessage();
            requestId = stream.request_id ?? undefined;
        }
        catch (err) {
            if (signal.aborted)
                throw err;
            const tooLong = promptTooLong(err);
            if (tooLong !== undefined)
                return reactive(tooLong);
            const partial = stream.currentMessage;
            // Nothing arrived: an ordinary failed request (status error, refused connection) —
            // Temporal's retry policy handles it. A stream that failed mid-way falls back instead.
            if (events === 0 || deps.disableFallback)
                throw classifyModelError(err);
            tombstones.push({
                attempt: ctx.attempt,
                error: err instanceof Error ? err.message : String(err),
                partialContent: partial ? (0, payloads_1.contentForHistory)(toAssistant(partial.content).content) : [],
                eventsReceived: events,
            });
            ctx.warn('streaming model call failed mid-way; falling back to a non-streamed request', { events });
            ctx.heartbeat({ phase: 'fallback' });
            fallback = true;
            try {
                // An explicit timeout: without one the SDK refuses a non-streamed request whose max_tokens
                // it expects to take over ten minutes (any max_tokens above ~21k). Heartbeats keep the
                // activity alive meanwhile; its own timeout bounds the whole call.
                final = await client.messages.create(params, { ...requestOptions(signal), timeout: exports.NON_STREAMED_TIMEOUT_MS });
                requestId = final._request_id ?? undefined;
            }
            catch (err2) {
                if (signal.aborted)
                    throw err2;
                const tooLong = promptTooLong(err2);
                if (tooLong !== undefined)
                    return reactive(tooLong);
                throw classifyModelError(err2);
            }
        }
        const message = toAssistant(final.content);
        const head = await deps.transcripts.append(sentHead, [message]);
        clearInterval(ticker);
        const usage = toUsage(final.usage);
        return {
            kind: 'message',
            message: (0, payloads_1.messageForHistory)(message),
            usage,
            view: { ...prepared.view, baseline: { tokens: (0, contextWindow_1.usageTotal)(usage), messages: prepared.transcriptLength + 1 } },
            cacheBreakpoints: prepared.breakpoints,
            stopReason: final.stop_reason ?? 'end_turn',
            head,
            sentHead,
            messageId: final.id,
            fallback,
            tombstones,
            ...(requestId ? { requestId } : {}),
        };
    }
    finally {
        clearInterval(ticker);
        await handOff?.flushed();
    }
}
//# sourceMappingURL=model.js.map