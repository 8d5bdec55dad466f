// A fake Anthropic Messages API on node:http: scripted responses, real-format SSE, injected faults.

import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  buildMessage,
  buildStreamEvents,
  defaultErrorFor,
  errorBody,
  fakeMessageId,
  fakeRequestId,
  fakeToolUseId,
  statusForErrorType,
} from './responses';
import { accumulateMessage, encodeSseEvent, parseSse, splitSseFrames, type SseEvent } from './sse';
import { validateMessagesRequest } from './validate';
import { PromptCacheSim, promptSegments, promptTokens, promptTooLongMessage, type PromptCacheOptions } from './promptCache';
import type {
  ErrorSpec,
  MessageSpec,
  MessagesRequest,
  RawSseSpec,
  RecordedRequest,
  RecordedResponse,
  ResponseSpec,
  ScriptFn,
  UnexpectedEvent,
  UnexpectedKind,
  WireMessage,
} from './types';

export interface FakeAnthropicOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Responses queued from the start. */
  responses?: ResponseSpec[];
  /** Called when the queue is empty. */
  script?: ScriptFn;
  /** `true`: any non-empty `x-api-key` (or Bearer token); a string: exactly that key. Default: anything. */
  requireApiKey?: boolean | string;
  /** Check tool_use/tool_result pairing in requests like the real API. Default true. */
  validateToolPairing?: boolean;
  /** Accept `role: "system"` messages inside `messages` (current Claude Code sends them). Default false. */
  allowSystemMessages?: boolean;
  /** Default JSON piece size for tool_use input (default: ≤ 20 chars and ≥ 3 pieces). */
  jsonChunkSize?: number;
  /** Default text piece size (default 12). */
  textChunkSize?: number;
  /** Send `anthropic-ratelimit-*` headers on successful responses. Default true. */
  rateLimitHeaders?: boolean;
  /** Receives one line per request handled (for the demo's verbose mode). */
  log?: (line: string) => void;
  /**
   * The model's context window: a prompt above it is refused with HTTP 400 `prompt is too long:
   * N tokens > W maximum`, as the API does (before any scripted response is used). Default: none.
   */
  contextWindow?: number;
  /** Prompt-cache simulation for `cache_control` breakpoints (on by default; `false` turns it off). */
  promptCache?: PromptCacheOptions | false;
  /** Characters per token of the fake's token counting. Default 4. */
  charsPerToken?: number;
}

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
  /** Change (or remove) the enforced context window from now on. */
  setContextWindow(tokens: number | undefined): void;
  /** Stop listening and cut open connections (in-flight streams included). */
  close(): Promise<void>;
}

type HttpError = { status: number; type: string; message: string };

class RequestAborted extends Error {}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new RequestAborted());
    if (ms <= 0) return resolve();
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new RequestAborted());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

function write(res: http.ServerResponse, chunk: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new RequestAborted());
    const onAbort = (): void => reject(new RequestAborted());
    signal.addEventListener('abort', onAbort, { once: true });
    res.write(chunk, (err) => {
      signal.removeEventListener('abort', onAbort);
      if (err) reject(new RequestAborted());
      else resolve();
    });
  });
}

function headerRecord(req: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function apiKeyOf(headers: Record<string, string>): string | undefined {
  if (headers['x-api-key'] !== undefined) return headers['x-api-key'];
  const auth = headers['authorization'];
  return auth?.toLowerCase().startsWith('bearer ') ? auth.slice(7) : undefined;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}


export async function startFakeAnthropic(opts: FakeAnthropicOptions = {}): Promise<FakeAnthropicServer> {
  const queue: ResponseSpec[] = [...(opts.responses ?? [])];
  let scriptFn: ScriptFn | undefined = opts.script;
  const requests: RecordedRequest[] = [];
  const unexpected: UnexpectedEvent[] = [];
  const sockets = new Set<Socket>();
  const closing = new AbortController();
  let toolUseCounter = 0;
  let messageCounter = 0;
  let requestCounter = 0;
  let contextWindow = opts.contextWindow;
  const promptCache = opts.promptCache === false ? undefined : new PromptCacheSim(opts.promptCache ?? {});

  const baseHeaders = (requestId: string): Record<string, string> => ({ 'request-id': requestId });
  const rateLimitHeaders = (): Record<string, string> => {
    if (opts.rateLimitHeaders === false) return {};
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
  };

  const noteUnexpected = (kind: UnexpectedKind, message: string, record: RecordedRequest): void => {
    unexpected.push({ kind, message, request: record });
  };

  const sendJson = (
    res: http.ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string>,
  ): void => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      ...headers,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    });
    res.end(text);
  };

  const sendError = (
    res: http.ServerResponse,
    record: RecordedRequest,
    requestId: string,
    error: HttpError,
    source: RecordedResponse['source'],
    extraHeaders: Record<string, string> = {},
  ): void => {
    record.response = { status: error.status, source, errorType: error.type, errorMessage: error.message };
    sendJson(res, error.status, errorBody(error.type, error.message, requestId), {
      ...baseHeaders(requestId),
      ...extraHeaders,
    });
  };

  const destroy = (res: http.ServerResponse): void => {
    res.socket?.destroy();
  };

  /** Write SSE frames with pacing and faults; resolves when done or the client went away. */
  const writeStream = async (
    res: http.ServerResponse,
    frames: readonly string[],
    behaviour: { delayMs?: number | undefined; dropAfterEvents?: number | undefined; pausesAfter?: readonly number[] },
    errorFrame: { afterEvents: number; frame: string } | undefined,
    signal: AbortSignal,
  ): Promise<void> => {
    res.flushHeaders();
    for (let i = 0; i <= frames.length; i++) {
      if (errorFrame && i === errorFrame.afterEvents) {
        await sleep(behaviour.delayMs ?? 0, signal);
        res.end(errorFrame.frame);
        return;
      }
      if (behaviour.dropAfterEvents !== undefined && i === behaviour.dropAfterEvents) {
        destroy(res);
        return;
      }
      const frame = frames[i];
      if (frame === undefined) break;
      await sleep(behaviour.delayMs ?? 0, signal);
      // Wait for the flush so that a drop after N events really delivers N events first.
      await write(res, frame, signal);
      if (behaviour.pausesAfter?.[i]) await sleep(behaviour.pausesAfter[i] as number, signal);
    }
    res.end();
  };

  const answerMessage = async (
    res: http.ServerResponse,
    record: RecordedRequest,
    request: MessagesRequest,
    spec: MessageSpec,
    requestId: string,
    signal: AbortSignal,
  ): Promise<void> => {
    const segments = promptSegments(request, opts.charsPerToken);
    const cache = promptCache ? promptCache.use(segments) : { input_tokens: promptTokens(segments), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const message = buildMessage(spec, {
      model: request.model,
      inputTokens: cache.input_tokens,
      cache: { creation: cache.cache_creation_input_tokens, read: cache.cache_read_input_tokens },
      nextToolUseId: () => fakeToolUseId(++toolUseCounter),
      nextMessageId: () => fakeMessageId(++messageCounter),
    });
    await sleep(spec.latencyMs ?? 0, signal);
    const headers = { ...baseHeaders(requestId), ...rateLimitHeaders(), ...spec.headers };

    if (!record.stream) {
      if (spec.dropAfterEvents !== undefined || spec.dropAfterBlocks !== undefined) {
        record.response = { status: 0, source: 'message', errorMessage: 'connection dropped' };
        destroy(res);
        return;
      }
      if (spec.streamError) {
        const type = spec.streamError.type ?? 'overloaded_error';
        const status = statusForErrorType(type);
        const message = spec.streamError.message ?? defaultErrorFor(status).message;
        sendError(res, record, requestId, { status, type, message }, 'message');
        return;
      }
      record.response = { status: 200, source: 'message', message };
      sendJson(res, 200, message, headers);
      return;
    }

    const events = buildStreamEvents(message, spec, opts);
    const frames = events.map((e) => encodeSseEvent(e.event, e.data));
    const pausesAfter = events.map((e) => e.pauseAfterMs ?? 0);
    let dropAfterEvents = spec.dropAfterEvents;
    if (spec.dropAfterBlocks !== undefined) {
      let stops = 0;
      const at = events.findIndex((e) => e.event === 'content_block_stop' && ++stops === spec.dropAfterBlocks);
      if (at >= 0) dropAfterEvents = at + 1;
    }
    let errorFrame: { afterEvents: number; frame: string } | undefined;
    if (spec.streamError) {
      const type = spec.streamError.type ?? 'overloaded_error';
      const text = spec.streamError.message ?? defaultErrorFor(statusForErrorType(type)).message;
      errorFrame = { afterEvents: spec.streamError.afterEvents, frame: encodeSseEvent('error', errorBody(type, text, requestId)) };
    }
    record.response = { status: 200, source: 'message', message };
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    await writeStream(res, frames, { delayMs: spec.delayMs, dropAfterEvents, pausesAfter }, errorFrame, signal);
  };

  const answerRawSse = async (
    res: http.ServerResponse,
    record: RecordedRequest,
    spec: RawSseSpec,
    requestId: string,
    signal: AbortSignal,
  ): Promise<void> => {
    await sleep(spec.latencyMs ?? 0, signal);
    const headers = { ...baseHeaders(requestId), ...rateLimitHeaders(), ...spec.headers };
    if (!record.stream) {
      let message: WireMessage;
      try {
        message = accumulateMessage(parseSse(spec.body));
      } catch (err) {
        sendError(res, record, requestId, { status: 500, type: 'api_error', message: String(err) }, 'raw_sse');
        return;
      }
      record.response = { status: 200, source: 'raw_sse', message };
      sendJson(res, 200, message, headers);
      return;
    }
    record.response = { status: 200, source: 'raw_sse' };
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    await writeStream(res, splitSseFrames(spec.body), spec, undefined, signal);
  };

  const answerError = async (
    res: http.ServerResponse,
    record: RecordedRequest,
    spec: ErrorSpec,
    requestId: string,
    signal: AbortSignal,
  ): Promise<void> => {
    await sleep(spec.latencyMs ?? 0, signal);
    const fallback = defaultErrorFor(spec.status);
    const headers: Record<string, string> = { ...spec.headers };
    if (spec.retryAfter !== undefined) headers['retry-after'] = String(spec.retryAfter);
    if (spec.retryAfterMs !== undefined) headers['retry-after-ms'] = String(spec.retryAfterMs);
    if (spec.shouldRetry !== undefined) headers['x-should-retry'] = String(spec.shouldRetry);
    const error = { status: spec.status, type: spec.type ?? fallback.type, message: spec.message ?? fallback.message };
    sendError(res, record, requestId, error, 'error', headers);
  };

  const nextSpec = async (
    request: MessagesRequest,
    record: RecordedRequest,
  ): Promise<{ spec: ResponseSpec } | { failure: 'script_exhausted' | 'script_threw'; message: string }> => {
    const queued = queue.shift();
    if (queued) return { spec: queued };
    if (scriptFn) {
      try {
        const spec = await scriptFn(request, { index: record.index, headers: record.headers, requests });
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
  };

  const handle = async (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    signal: AbortSignal,
    onRecord: (record: RecordedRequest) => void,
  ): Promise<void> => {
    const rawBody = await readBody(req);
    const headers = headerRecord(req);
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    let body: unknown;
    try {
      body = rawBody === '' ? undefined : JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
    const record: RecordedRequest = {
      index: requests.length,
      method: req.method ?? 'GET',
      path: url.pathname,
      url: req.url ?? '/',
      headers,
      apiKey: apiKeyOf(headers),
      rawBody,
      body,
      stream: typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true,
      receivedAt: Date.now(),
      valid: false,
      response: undefined,
    };
    requests.push(record);
    onRecord(record);
    const requestId = fakeRequestId(++requestCounter);
    // The server's own errors say "do not retry": an SDK retrying an exhausted script only adds noise.
    const fail = (kind: UnexpectedKind, status: number, type: string, message: string): void => {
      noteUnexpected(kind, message, record);
      sendError(res, record, requestId, { status, type, message }, 'server_error', { 'x-should-retry': 'false' });
    };

    if (record.method !== 'POST' || record.path !== '/v1/messages') {
      return fail('not_found', 404, 'not_found_error', `Not Found: ${record.method} ${record.path}`);
    }
    if (opts.requireApiKey !== undefined && opts.requireApiKey !== false) {
      const key = record.apiKey;
      if (key === undefined || key === '') return fail('authentication', 401, 'authentication_error', 'x-api-key header is required');
      if (typeof opts.requireApiKey === 'string' && key !== opts.requireApiKey)
        return fail('authentication', 401, 'authentication_error', 'invalid x-api-key');
    }
    if (rawBody !== '' && body === undefined) {
      let reason = 'invalid JSON';
      try {
        JSON.parse(rawBody);
      } catch (err) {
        reason = err instanceof Error ? err.message : String(err);
      }
      return fail('invalid_request', 400, 'invalid_request_error', `There was an error parsing the body of your request: ${reason}`);
    }
    const validation = validateMessagesRequest(body, { toolPairing: opts.validateToolPairing !== false, systemMessages: opts.allowSystemMessages === true });
    if (!validation.ok) return fail('invalid_request', 400, 'invalid_request_error', validation.message);
    record.valid = true;
    if (contextWindow !== undefined) {
      const tokens = promptTokens(promptSegments(validation.request, opts.charsPerToken));
      if (tokens > contextWindow) {
        return sendError(res, record, requestId, { status: 400, type: 'invalid_request_error', message: promptTooLongMessage(tokens, contextWindow) }, 'error');
      }
    }

    const next = await nextSpec(validation.request, record);
    if ('failure' in next) return fail(next.failure, 500, 'api_error', next.message);
    const spec = next.spec;
    switch (spec.kind) {
      case 'error':
        return answerError(res, record, spec, requestId, signal);
      case 'disconnect':
        await sleep(spec.latencyMs ?? 0, signal);
        record.response = { status: 0, source: 'disconnect', errorMessage: 'connection dropped' };
        return destroy(res);
      case 'raw_sse':
        return answerRawSse(res, record, spec, requestId, signal);
      case undefined:
      case 'message':
        await answerMessage(res, record, validation.request, spec, requestId, signal);
        record.finishedAt = Date.now();
        return;
    }
  };

  const server = http.createServer((req, res) => {
    // One signal per request: the client going away or the server closing stops pacing timers.
    const aborter = new AbortController();
    const abort = (): void => aborter.abort();
    res.on('close', abort);
    closing.signal.addEventListener('abort', abort, { once: true });
    let record: RecordedRequest | undefined;
    handle(req, res, aborter.signal, (r) => (record = r))
      .catch((err: unknown) => {
        if (err instanceof RequestAborted) return;
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify(errorBody('api_error', `fake Anthropic: internal failure: ${String(err)}`)));
        } else {
          destroy(res);
        }
      })
      .finally(() => {
        closing.signal.removeEventListener('abort', abort);
        if (opts.log && record) {
          const r = record.response;
          opts.log(`${record.method} ${record.path} stream=${record.stream} → ${r ? `${r.status} ${r.source}` : 'no response'}`);
        }
      });
  });
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
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closed: Promise<void> | undefined;
  const api: FakeAnthropicServer = {
    baseURL: `http://${hostForUrl}:${address.port}`,
    port: address.port,
    requests,
    unexpected,
    enqueue(...specs) {
      queue.push(...specs);
      return api;
    },
    script(fn) {
      scriptFn = fn;
      return api;
    },
    remaining: () => queue.length,
    messageRequests: () => requests.filter((r) => r.valid).map((r) => r.body as MessagesRequest),
    lastRequest: () => requests[requests.length - 1],
    toolUseId: (n) => fakeToolUseId(n),
    assertDone() {
      const problems = unexpected.map((u) => `request #${u.request.index} ${u.kind}: ${u.message}`);
      if (queue.length > 0) problems.push(`${queue.length} scripted response(s) were never requested`);
      if (problems.length > 0) throw new Error(`fake Anthropic: ${problems.join('; ')}`);
    },
    setContextWindow(tokens) {
      contextWindow = tokens;
    },
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        closing.abort();
        server.close((err) => (err ? reject(err) : resolve()));
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
  return api;
}

