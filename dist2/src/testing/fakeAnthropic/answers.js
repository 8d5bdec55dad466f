"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ResponseWriter = exports.sleep = exports.RequestAborted = void 0;
const responses_1 = require("./responses");
const sse_1 = require("./sse");
const promptCache_1 = require("./promptCache");
/** The client went away or the server is closing: stop writing. */
class RequestAborted extends Error {
}
exports.RequestAborted = RequestAborted;
const sleep = (ms, signal) => new Promise((resolve, reject) => {
    if (signal.aborted)
        return reject(new RequestAborted());
    if (ms <= 0)
        return resolve();
    const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
    }, ms);
    const onAbort = () => {
        clearTimeout(timer);
        reject(new RequestAborted());
    };
    signal.addEventListener('abort', onAbort, { once: true });
});
exports.sleep = sleep;
function write(res, chunk, signal) {
    return new Promise((resolve, reject) => {
        if (signal.aborted)
            return reject(new RequestAborted());
        const onAbort = () => reject(new RequestAborted());
        signal.addEventListener('abort', onAbort, { once: true });
        res.write(chunk, (err) => {
            signal.removeEventListener('abort', onAbort);
            if (err)
                reject(new RequestAborted());
            else
                resolve();
        });
    });
}
class ResponseWriter {
    opts;
    promptCache;
    toolUseCounter = 0;
    messageCounter = 0;
    constructor(opts, promptCache) {
        this.opts = opts;
        this.promptCache = promptCache;
    }
    baseHeaders(requestId) {
        return { 'request-id': requestId };
    }
    rateLimitHeaders() {
        if (this.opts.rateLimitHeaders === false)
            return {};
        const reset = new Date(Date.now() + 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
        return {
            'anthropic-ratelimit-requests-limit': '4000',
            'anthropic-ratelimit-requests-remaining': '3999',
            'anthropic-ratelimit-requests-reset': reset,
            'anthropic-ratelimit-input-tokens-limit': '400000',
            'anthropic-ratelimit-input-tokens-remaining': '400000',
            'anthropic-ratelimit-input-tokens-reset': reset,
            'anthropic-ratelimit-output-tokens-limit': '80000',
            'anthropic-ratelimit-output-tokens-remaining': '80000',
            'anthropic-ratelimit-output-tokens-reset': reset,
        };
    }
    sendJson(res, status, body, headers) {
        const text = JSON.stringify(body);
        res.writeHead(status, {
            ...headers,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(text)),
        });
        res.end(text);
    }
    sendError(res, record, requestId, error, source, extraHeaders = {}) {
        record.response = { status: error.status, source, errorType: error.type, errorMessage: error.message };
        this.sendJson(res, error.status, (0, responses_1.errorBody)(error.type, error.message, requestId), {
            ...this.baseHeaders(requestId),
            ...extraHeaders,
        });
    }
    destroy(res) {
        res.socket?.destroy();
    }
    /** Write SSE frames with pacing and faults; resolves when done or the client went away. */
    async writeStream(res, frames, behaviour, errorFrame, signal) {
        res.flushHeaders();
        for (let i = 0; i <= frames.length; i++) {
            if (errorFrame && i === errorFrame.afterEvents) {
                await (0, exports.sleep)(behaviour.delayMs ?? 0, signal);
                res.end(errorFrame.frame);
                return;
            }
            if (behaviour.dropAfterEvents !== undefined && i === behaviour.dropAfterEvents) {
                this.destroy(res);
                return;
            }
            const frame = frames[i];
            if (frame === undefined)
                break;
            await (0, exports.sleep)(behaviour.delayMs ?? 0, signal);
            // Wait for the flush so that a drop after N events really delivers N events first.
            await write(res, frame, signal);
            if (behaviour.pausesAfter?.[i])
                await (0, exports.sleep)(behaviour.pausesAfter[i], signal);
        }
        res.end();
    }
    async answerMessage(res, record, request, spec, requestId, signal) {
        const segments = (0, promptCache_1.promptSegments)(request, this.opts.charsPerToken);
        const cache = this.promptCache
            ? this.promptCache.use(segments)
            : { input_tokens: (0, promptCache_1.promptTokens)(segments), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
        const message = (0, responses_1.buildMessage)(spec, {
            model: request.model,
            inputTokens: cache.input_tokens,
            cache: { creation: cache.cache_creation_input_tokens, read: cache.cache_read_input_tokens },
            nextToolUseId: () => (0, responses_1.fakeToolUseId)(++this.toolUseCounter),
            nextMessageId: () => (0, responses_1.fakeMessageId)(++this.messageCounter),
        });
        await (0, exports.sleep)(spec.latencyMs ?? 0, signal);
        const headers = { ...this.baseHeaders(requestId), ...this.rateLimitHeaders(), ...spec.headers };
        if (!record.stream) {
            if (spec.dropAfterEvents !== undefined || spec.dropAfterBlocks !== undefined) {
                record.response = { status: 0, source: 'message', errorMessage: 'connection dropped' };
                this.destroy(res);
                return;
            }
            if (spec.streamError) {
                const type = spec.streamError.type ?? 'overloaded_error';
                const status = (0, responses_1.statusForErrorType)(type);
                const message = spec.streamError.message ?? (0, responses_1.defaultErrorFor)(status).message;
                this.sendError(res, record, requestId, { status, type, message }, 'message');
                return;
            }
            record.response = { status: 200, source: 'message', message };
            this.sendJson(res, 200, message, headers);
            return;
        }
        const events = (0, responses_1.buildStreamEvents)(message, spec, this.opts);
        const frames = events.map((e) => (0, sse_1.encodeSseEvent)(e.event, e.data));
        const pausesAfter = events.map((e) => e.pauseAfterMs ?? 0);
        let dropAfterEvents = spec.dropAfterEvents;
        if (spec.dropAfterBlocks !== undefined) {
            let stops = 0;
            const at = events.findIndex((e) => e.event === 'content_block_stop' && ++stops === spec.dropAfterBlocks);
            if (at >= 0)
                dropAfterEvents = at + 1;
        }
        let errorFrame;
        if (spec.streamError) {
            const type = spec.streamError.type ?? 'overloaded_error';
            const text = spec.streamError.message ?? (0, responses_1.defaultErrorFor)((0, responses_1.statusForErrorType)(type)).message;
            errorFrame = {
                afterEvents: spec.streamError.afterEvents,
                frame: (0, sse_1.encodeSseEvent)('error', (0, responses_1.errorBody)(type, text, requestId)),
            };
        }
        record.response = { status: 200, source: 'message', message };
        res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
        await this.writeStream(res, frames, { delayMs: spec.delayMs, dropAfterEvents, pausesAfter }, errorFrame, signal);
    }
    async answerRawSse(res, record, spec, requestId, signal) {
        await (0, exports.sleep)(spec.latencyMs ?? 0, signal);
        const headers = { ...this.baseHeaders(requestId), ...this.rateLimitHeaders(), ...spec.headers };
        if (!record.stream) {
            let message;
            try {
                message = (0, sse_1.accumulateMessage)((0, sse_1.parseSse)(spec.body));
            }
            catch (err) {
                this.sendError(res, record, requestId, { status: 500, type: 'api_error', message: String(err) }, 'raw_sse');
                return;
            }
            record.response = { status: 200, source: 'raw_sse', message };
            this.sendJson(res, 200, message, headers);
            return;
        }
        record.response = { status: 200, source: 'raw_sse' };
        res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
        await this.writeStream(res, (0, sse_1.splitSseFrames)(spec.body), spec, undefined, signal);
    }
    async answerError(res, record, spec, requestId, signal) {
        await (0, exports.sleep)(spec.latencyMs ?? 0, signal);
        const fallback = (0, responses_1.defaultErrorFor)(spec.status);
        const headers = { ...spec.headers };
        if (spec.retryAfter !== undefined)
            headers['retry-after'] = String(spec.retryAfter);
        if (spec.retryAfterMs !== undefined)
            headers['retry-after-ms'] = String(spec.retryAfterMs);
        if (spec.shouldRetry !== undefined)
            headers['x-should-retry'] = String(spec.shouldRetry);
        const error = { status: spec.status, type: spec.type ?? fallback.type, message: spec.message ?? fallback.message };
        this.sendError(res, record, requestId, error, 'error', headers);
    }
}
exports.ResponseWriter = ResponseWriter;
//# sourceMappingURL=answers.js.map