// A fake Anthropic Messages API on node:http: scripted responses, real-format SSE, injected faults.
// This file takes requests in (recording, validation, the script); answers.ts writes the responses.

import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { errorBody, fakeRequestId, fakeToolUseId } from './responses';
import { validateMessagesRequest } from './validate';
import { RequestAborted, ResponseWriter, sleep } from './answers';
import {
  PromptCacheSim,
  promptSegments,
  promptTokens,
  promptTooLongMessage,
  type PromptCacheOptions,
} from './promptCache';
import type {
  MessagesRequest,
  RecordedRequest,
  ResponseSpec,
  ScriptFn,
  UnexpectedEvent,
  UnexpectedKind,
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
  let requestCounter = 0;
  let contextWindow = opts.contextWindow;
  const promptCache = opts.promptCache === false ? undefined : new PromptCacheSim(opts.promptCache ?? {});

  const writer = new ResponseWriter(opts, promptCache);
  const noteUnexpected = (kind: UnexpectedKind, message: string, record: RecordedRequest): void => {
    unexpected.push({ kind, message, request: record });
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
      writer.sendError(res, record, requestId, { status, type, message }, 'server_error', {
        'x-should-retry': 'false',
      });
    };

    if (record.method !== 'POST' || record.path !== '/v1/messages') {
      return fail('not_found', 404, 'not_found_error', `Not Found: ${record.method} ${record.path}`);
    }
    if (opts.requireApiKey !== undefined && opts.requireApiKey !== false) {
      const key = record.apiKey;
      if (key === undefined || key === '')
        return fail('authentication', 401, 'authentication_error', 'x-api-key header is required');
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
      return fail(
        'invalid_request',
        400,
        'invalid_request_error',
        `There was an error parsing the body of your request: ${reason}`,
      );
    }
    const validation = validateMessagesRequest(body, {
      toolPairing: opts.validateToolPairing !== false,
      systemMessages: opts.allowSystemMessages === true,
    });
    if (!validation.ok) return fail('invalid_request', 400, 'invalid_request_error', validation.message);
    record.valid = true;
    if (contextWindow !== undefined) {
      const tokens = promptTokens(promptSegments(validation.request, opts.charsPerToken));
      if (tokens > contextWindow) {
        return writer.sendError(
          res,
          record,
          requestId,
          { status: 400, type: 'invalid_request_error', message: promptTooLongMessage(tokens, contextWindow) },
          'error',
        );
      }
    }

    const next = await nextSpec(validation.request, record);
    if ('failure' in next) return fail(next.failure, 500, 'api_error', next.message);
    const spec = next.spec;
    switch (spec.kind) {
      case 'error':
        return writer.answerError(res, record, spec, requestId, signal);
      case 'disconnect':
        await sleep(spec.latencyMs ?? 0, signal);
        record.response = { status: 0, source: 'disconnect', errorMessage: 'connection dropped' };
        return writer.destroy(res);
      case 'raw_sse':
        return writer.answerRawSse(res, record, spec, requestId, signal);
      case undefined:
      case 'message':
        await writer.answerMessage(res, record, validation.request, spec, requestId, signal);
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
          writer.destroy(res);
        }
      })
      .finally(() => {
        closing.signal.removeEventListener('abort', abort);
        if (opts.log && record) {
          const r = record.response;
          opts.log(
            `${record.method} ${record.path} stream=${record.stream} → ${r ? `${r.status} ${r.source}` : 'no response'}`,
          );
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
