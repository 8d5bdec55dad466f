// A fake Anthropic Messages API on node:http: scripted responses, real-format SSE, injected faults.
// This file takes requests in (intake.ts records and checks them), picks the response (the queue,
// then the script) and hands it to answers.ts, which writes it — a message, raw SSE, an HTTP
// error or a dropped connection.

import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { errorBody, fakeRequestId, fakeToolUseId } from './responses';
import { RequestAborted, ResponseWriter, sleep } from './answers';
import { checkRequest, recordRequest, type Refusal } from './intake';
import { ThinkingLedger } from './thinking';
import { PromptCacheSim, promptSegments, promptTokens, promptTooLongMessage } from './promptCache';
import type { MessagesRequest, RecordedRequest, ResponseSpec, ScriptFn, UnexpectedEvent } from './types';
import type { FakeAnthropicOptions } from './options';
import { RequestWindow } from './rateLimit';

export type { FakeAnthropicOptions } from './options';

export interface FakeAnthropicServer {
  /** `http://127.0.0.1:<port>` — pass as the SDK's `baseURL`. */
  readonly baseURL: string;
  readonly port: number;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Script exhaustion, script errors, invalid requests, unknown paths, auth failures. */
  readonly unexpected: UnexpectedEvent[];
  /** Append responses to the queue (consumed before the script function). */
  enqueue(...specs: ResponseSpec[]): FakeAnthropicServer;
  /** Answer from `fn(request)` whenever the queue is empty (`undefined` removes it). */
  script(fn: ScriptFn | undefined): FakeAnthropicServer;
  /** Queued responses not yet consumed. */
  remaining(): number;
  /** Parsed bodies of the `POST /v1/messages` requests that passed validation. */
  messageRequests(): MessagesRequest[];
  lastRequest(): RecordedRequest | undefined;
  /** The n-th (1-based) tool_use id this server generates when a spec gives none. */
  toolUseId(n: number): string;
  /** Throws unless nothing unexpected happened and the queue is empty. */
  assertDone(): void;
  /** How many requests the request limit (`requestLimit`) answered with a 429. */
  rateLimited(): number;
  /** Change (or remove) the enforced context window from now on. */
  setContextWindow(tokens: number | undefined): void;
  /** Stop listening and cut open connections (in-flight streams included). */
  close(): Promise<void>;
}

export async function startFakeAnthropic(opts: FakeAnthropicOptions = {}): Promise<FakeAnthropicServer> {
  const fake = new FakeAnthropic(opts);
  const server = http.createServer((req, res) => fake.serve(req, res));
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  let closed: Promise<void> | undefined;
  return fake.api(server.address() as AddressInfo, () => {
    closed ??= new Promise<void>((resolve, reject) => {
      fake.closing.abort();
      server.close((err) => (err ? reject(err) : resolve()));
      for (const socket of sockets) socket.destroy();
    });
    return closed;
  });
}

/** The fake's state (queue, script, what it received) and how it handles one request. */
class FakeAnthropic {
  readonly requests: RecordedRequest[] = [];
  readonly unexpected: UnexpectedEvent[] = [];
  /** Aborted on close: stops every request's pacing timers. */
  readonly closing = new AbortController();
  private readonly queue: ResponseSpec[];
  private scriptFn: ScriptFn | undefined;
  private contextWindow: number | undefined;
  private requestCounter = 0;
  private readonly writer: ResponseWriter;
  private readonly thinking: ThinkingLedger | undefined;
  private readonly window: RequestWindow | undefined;

  constructor(private readonly opts: FakeAnthropicOptions) {
    this.queue = [...(opts.responses ?? [])];
    this.scriptFn = opts.script;
    this.contextWindow = opts.contextWindow;
    const promptCache = opts.promptCache === false ? undefined : new PromptCacheSim(opts.promptCache ?? {});
    this.thinking = opts.validateThinking === false ? undefined : new ThinkingLedger();
    this.writer = new ResponseWriter(opts, promptCache, this.thinking);
    this.window = opts.requestLimit ? new RequestWindow(opts.requestLimit) : undefined;
  }

  /** The server's handle on this state (`close` stops the HTTP server). */
  api(address: AddressInfo, close: () => Promise<void>): FakeAnthropicServer {
    const { queue, requests, unexpected } = this;
    const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const api: FakeAnthropicServer = {
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
      messageRequests: () => requests.filter((r) => r.valid).map((r) => r.body as MessagesRequest),
      lastRequest: () => requests[requests.length - 1],
      toolUseId: (n) => fakeToolUseId(n),
      rateLimited: () => requests.filter((r) => r.response?.source === 'rate_limit').length,
      assertDone() {
        const problems = unexpected.map((u) => `request #${u.request.index} ${u.kind}: ${u.message}`);
        if (queue.length > 0) problems.push(`${queue.length} scripted response(s) were never requested`);
        if (problems.length > 0) throw new Error(`fake Anthropic: ${problems.join('; ')}`);
      },
      setContextWindow: (tokens) => {
        this.contextWindow = tokens;
      },
      close,
    };
    return api;
  }

  /** One HTTP exchange: a signal for it, the handling, an internal failure's answer, the log line. */
  serve(req: http.IncomingMessage, res: http.ServerResponse): void {
    // One signal per request: the client going away or the server closing stops pacing timers.
    const aborter = new AbortController();
    const abort = (): void => aborter.abort();
    res.on('close', abort);
    this.closing.signal.addEventListener('abort', abort, { once: true });
    let record: RecordedRequest | undefined;
    this.handle(req, res, aborter.signal, (r) => (record = r))
      .catch((err: unknown) => {
        if (err instanceof RequestAborted) return;
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify(errorBody('api_error', `fake Anthropic: internal failure: ${String(err)}`)));
        } else {
          this.writer.destroy(res);
        }
      })
      .finally(() => {
        this.closing.signal.removeEventListener('abort', abort);
        if (this.opts.log && record) {
          const r = record.response;
          this.opts.log(
            `${record.method} ${record.path} stream=${record.stream} → ${r ? `${r.status} ${r.source}` : 'no response'}`,
          );
        }
      });
  }

  private async handle(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    signal: AbortSignal,
    onRecord: (record: RecordedRequest) => void,
  ): Promise<void> {
    const record = await recordRequest(req, () => this.requests.length);
    this.requests.push(record);
    onRecord(record);
    const requestId = fakeRequestId(++this.requestCounter);
    const checked = checkRequest(record, this.opts);
    if ('refusal' in checked) return this.refuse(res, record, requestId, checked.refusal);
    const thinkingProblem = this.thinking?.check(checked.request);
    if (thinkingProblem !== undefined)
      return this.refuse(res, record, requestId, {
        kind: 'invalid_request',
        status: 400,
        type: 'invalid_request_error',
        message: thinkingProblem,
      });
    record.valid = true;
    if (this.contextWindow !== undefined) {
      const tokens = promptTokens(promptSegments(checked.request, this.opts.charsPerToken));
      if (tokens > this.contextWindow) {
        return this.writer.sendError(
          res,
          record,
          requestId,
          { status: 400, type: 'invalid_request_error', message: promptTooLongMessage(tokens, this.contextWindow) },
          'error',
        );
      }
    }
    const admission = this.window?.admit(Date.now());
    if (admission && !admission.ok) {
      const message = `Number of requests has exceeded your per-minute rate limit (${this.window?.limit} requests per minute)`;
      return this.writer.sendError(
        res,
        record,
        requestId,
        { status: 429, type: 'rate_limit_error', message },
        'rate_limit',
        RequestWindow.headers(admission, this.window?.limit ?? 0),
      );
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
  private refuse(res: http.ServerResponse, record: RecordedRequest, requestId: string, refusal: Refusal): void {
    this.unexpected.push({ kind: refusal.kind, message: refusal.message, request: record });
    const { status, type, message } = refusal;
    this.writer.sendError(res, record, requestId, { status, type, message }, 'server_error', {
      'x-should-retry': 'false',
    });
  }

  /** The next response: the queue's first, else the script's answer. */
  private async nextSpec(
    request: MessagesRequest,
    record: RecordedRequest,
  ): Promise<{ spec: ResponseSpec } | { failure: 'script_exhausted' | 'script_threw'; message: string }> {
    const queued = this.queue.shift();
    if (queued) return { spec: queued };
    if (this.scriptFn) {
      try {
        const spec = await this.scriptFn(request, {
          index: record.index,
          headers: record.headers,
          requests: this.requests,
        });
        if (spec) return { spec };
      } catch (err) {
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
  private async answer(
    res: http.ServerResponse,
    record: RecordedRequest,
    request: MessagesRequest,
    spec: ResponseSpec,
    requestId: string,
    signal: AbortSignal,
  ): Promise<void> {
    switch (spec.kind) {
      case 'error':
        return this.writer.answerError(res, record, spec, requestId, signal);
      case 'disconnect':
        await sleep(spec.latencyMs ?? 0, signal);
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
