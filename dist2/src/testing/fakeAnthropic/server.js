"use strict";
// A fake Anthropic Messages API on node:http: scripted responses, real-format SSE, injected faults.
// This file takes requests in (intake.ts records and checks them), picks the response (the queue,
// then the script) and hands it to answers.ts, which writes it — a message, raw SSE, an HTTP
// error or a dropped connection.
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.startFakeAnthropic = startFakeAnthropic;
const node_http_1 = __importDefault(require("node:http"));
const responses_1 = require("./responses");
const answers_1 = require("./answers");
const intake_1 = require("./intake");
const promptCache_1 = require("./promptCache");
async function startFakeAnthropic(opts = {}) {
    const fake = new FakeAnthropic(opts);
    const server = node_http_1.default.createServer((req, res) => fake.serve(req, res));
    const sockets = new Set();
    server.on('connection', (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
    });
    await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
            server.off('error', reject);
            resolve();
        });
    });
    let closed;
    return fake.api(server.address(), () => {
        closed ??= new Promise((resolve, reject) => {
            fake.closing.abort();
            server.close((err) => (err ? reject(err) : resolve()));
            for (const socket of sockets)
                socket.destroy();
        });
        return closed;
    });
}
/** The fake's state (queue, script, what it received) and how it handles one request. */
class FakeAnthropic {
    opts;
    requests = [];
    unexpected = [];
    /** Aborted on close: stops every request's pacing timers. */
    closing = new AbortController();
    queue;
    scriptFn;
    contextWindow;
    requestCounter = 0;
    writer;
    constructor(opts) {
        this.opts = opts;
        this.queue = [...(opts.responses ?? [])];
        this.scriptFn = opts.script;
        this.contextWindow = opts.contextWindow;
        const promptCache = opts.promptCache === false ? undefined : new promptCache_1.PromptCacheSim(opts.promptCache ?? {});
        this.writer = new answers_1.ResponseWriter(opts, promptCache);
    }
    /** The server's handle on this state (`close` stops the HTTP server). */
    api(address, close) {
        const { queue, requests, unexpected } = this;
        const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
        const api = {
            baseURL: `http://${hostForUrl}:${address.port}`,
            port: address.port,
            requests,
            unexpected,
            enqueue: (...specs) => {
                queue.push(...specs);
                return api;
            },
            script: (fn) => {
                this.scriptFn = fn;
                return api;
            },
            remaining: () => queue.length,
            messageRequests: () => requests.filter((r) => r.valid).map((r) => r.body),
            lastRequest: () => requests[requests.length - 1],
            toolUseId: (n) => (0, responses_1.fakeToolUseId)(n),
            assertDone() {
                const problems = unexpected.map((u) => `request #${u.request.index} ${u.kind}: ${u.message}`);
                if (queue.length > 0)
                    problems.push(`${queue.length} scripted response(s) were never requested`);
                if (problems.length > 0)
                    throw new Error(`fake Anthropic: ${problems.join('; ')}`);
            },
            setContextWindow: (tokens) => {
                this.contextWindow = tokens;
            },
            close,
        };
        return api;
    }
    /** One HTTP exchange: a signal for it, the handling, an internal failure's answer, the log line. */
    serve(req, res) {
        // One signal per request: the client going away or the server closing stops pacing timers.
        const aborter = new AbortController();
        const abort = () => aborter.abort();
        res.on('close', abort);
        this.closing.signal.addEventListener('abort', abort, { once: true });
        let record;
        this.handle(req, res, aborter.signal, (r) => (record = r))
            .catch((err) => {
            if (err instanceof answers_1.RequestAborted)
                return;
            if (!res.headersSent) {
                res.writeHead(500, { 'content-type': 'application/json' });
                res.end(JSON.stringify((0, responses_1.errorBody)('api_error', `fake Anthropic: internal failure: ${String(err)}`)));
            }
            else {
                this.writer.destroy(res);
            }
        })
            .finally(() => {
            this.closing.signal.removeEventListener('abort', abort);
            if (this.opts.log && record) {
                const r = record.response;
                this.opts.log(`${record.method} ${record.path} stream=${record.stream} → ${r ? `${r.status} ${r.source}` : 'no response'}`);
            }
        });
    }
    async handle(req, res, signal, onRecord) {
        const record = await (0, intake_1.recordRequest)(req, () => this.requests.length);
        this.requests.push(record);
        onRecord(record);
        const requestId = (0, responses_1.fakeRequestId)(++this.requestCounter);
        const checked = (0, intake_1.checkRequest)(record, this.opts);
        if ('refusal' in checked)
            return this.refuse(res, record, requestId, checked.refusal);
        record.valid = true;
        if (this.contextWindow !== undefined) {
            const tokens = (0, promptCache_1.promptTokens)((0, promptCache_1.promptSegments)(checked.request, this.opts.charsPerToken));
            if (tokens > this.contextWindow) {
                return this.writer.sendError(res, record, requestId, { status: 400, type: 'invalid_request_error', message: (0, promptCache_1.promptTooLongMessage)(tokens, this.contextWindow) }, 'error');
            }
        }
        const next = await this.nextSpec(checked.request, record);
        if ('failure' in next)
            return this.refuse(res, record, requestId, {
                kind: next.failure,
                status: 500,
                type: 'api_error',
                message: next.message,
            });
        return this.answer(res, record, checked.request, next.spec, requestId, signal);
    }
    /** The server's own error, noted as unexpected; it says "do not retry": an SDK retrying an exhausted script only adds noise. */
    refuse(res, record, requestId, refusal) {
        this.unexpected.push({ kind: refusal.kind, message: refusal.message, request: record });
        const { status, type, message } = refusal;
        this.writer.sendError(res, record, requestId, { status, type, message }, 'server_error', {
            'x-should-retry': 'false',
        });
    }
    /** The next response: the queue's first, else the script's answer. */
    async nextSpec(request, record) {
        const queued = this.queue.shift();
        if (queued)
            return { spec: queued };
        if (this.scriptFn) {
            try {
                const spec = await this.scriptFn(request, {
                    index: record.index,
                    headers: record.headers,
                    requests: this.requests,
                });
                if (spec)
                    return { spec };
            }
            catch (err) {
                const reason = err instanceof Error ? err.message : String(err);
                return { failure: 'script_threw', message: `fake Anthropic: script threw: ${reason}` };
            }
        }
        return {
            failure: 'script_exhausted',
            message: `fake Anthropic: script exhausted (request #${record.index} had no scripted response)`,
        };
    }
    /** Answers with the spec: a message (JSON or SSE), an HTTP error, raw SSE, or a dropped connection. */
    async answer(res, record, request, spec, requestId, signal) {
        switch (spec.kind) {
            case 'error':
                return this.writer.answerError(res, record, spec, requestId, signal);
            case 'disconnect':
                await (0, answers_1.sleep)(spec.latencyMs ?? 0, signal);
                record.response = { status: 0, source: 'disconnect', errorMessage: 'connection dropped' };
                return this.writer.destroy(res);
            case 'raw_sse':
                return this.writer.answerRawSse(res, record, spec, requestId, signal);
            case undefined:
            case 'message':
                await this.writer.answerMessage(res, record, request, spec, requestId, signal);
                record.finishedAt = Date.now();
                return;
        }
    }
}
//# sourceMappingURL=server.js.map