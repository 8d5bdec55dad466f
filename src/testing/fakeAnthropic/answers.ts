// How the fake Messages API answers one request: a scripted message (JSON, or SSE with pacing,
// drops and error frames), raw SSE, or an HTTP error — with the headers the real API sends.
// server.ts takes requests in, validates them and picks the spec; this writes the response.
import type { ThinkingLedger } from './thinking';
import type http from 'node:http';
import {
  buildMessage,
  buildStreamEvents,
  defaultErrorFor,
  errorBody,
  fakeMessageId,
  fakeToolUseId,
  statusForErrorType,
} from './responses';
import { accumulateMessage, encodeSseEvent, parseSse, splitSseFrames } from './sse';
import { promptSegments, promptTokens, type PromptCacheSim } from './promptCache';
import type {
  ErrorSpec,
  MessageSpec,
  MessagesRequest,
  RawSseSpec,
  RecordedRequest,
  RecordedResponse,
  WireMessage,
} from './types';
import type { FakeAnthropicOptions } from './options';

export type HttpError = { status: number; type: string; message: string; errorCode?: string };

/** The client went away or the server is closing: stop writing. */
export class RequestAborted extends Error {}

export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
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

export class ResponseWriter {
  private toolUseCounter = 0;
  private messageCounter = 0;

  constructor(
    private readonly opts: FakeAnthropicOptions,
    private readonly promptCache: PromptCacheSim | undefined,
    /** What thinking this server sent, so that a request carrying it back is checked (thinking.ts). */
    private readonly thinking?: ThinkingLedger,
  ) {}

  private baseHeaders(requestId: string): Record<string, string> {
    return { 'request-id': requestId };
  }

  private rateLimitHeaders(): Record<string, string> {
    if (this.opts.rateLimitHeaders === false) return {};
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

  sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      ...headers,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    });
    res.end(text);
  }

  sendError(
    res: http.ServerResponse,
    record: RecordedRequest,
    requestId: string,
    error: HttpError,
    source: RecordedResponse['source'],
    extraHeaders: Record<string, string> = {},
  ): void {
    record.response = { status: error.status, source, errorType: error.type, errorMessage: error.message };
    this.sendJson(res, error.status, errorBody(error.type, error.message, requestId, error.errorCode), {
      ...this.baseHeaders(requestId),
      ...extraHeaders,
    });
  }

  destroy(res: http.ServerResponse): void {
    res.socket?.destroy();
  }

  /** Write SSE frames with pacing and faults; resolves when done or the client went away. */
  async writeStream(
    res: http.ServerResponse,
    frames: readonly string[],
    behaviour: { delayMs?: number | undefined; dropAfterEvents?: number | undefined; pausesAfter?: readonly number[] },
    errorFrame: { afterEvents: number; frame: string } | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    res.flushHeaders();
    for (let i = 0; i <= frames.length; i++) {
      if (errorFrame && i === errorFrame.afterEvents) {
        await sleep(behaviour.delayMs ?? 0, signal);
        res.end(errorFrame.frame);
        return;
      }
      if (behaviour.dropAfterEvents !== undefined && i === behaviour.dropAfterEvents) {
        this.destroy(res);
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
  }

  async answerMessage(
    res: http.ServerResponse,
    record: RecordedRequest,
    request: MessagesRequest,
    spec: MessageSpec,
    requestId: string,
    signal: AbortSignal,
  ): Promise<void> {
    const segments = promptSegments(request, this.opts.charsPerToken);
    const cache = this.promptCache
      ? this.promptCache.use(segments)
      : { input_tokens: promptTokens(segments), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const message = buildMessage(spec, {
      model: request.model,
      inputTokens: cache.input_tokens,
      cache: { creation: cache.cache_creation_input_tokens, read: cache.cache_read_input_tokens },
      nextToolUseId: () => fakeToolUseId(++this.toolUseCounter),
      nextMessageId: () => fakeMessageId(++this.messageCounter),
    });
    this.thinking?.record(message);
    await sleep(spec.latencyMs ?? 0, signal);
    const headers = { ...this.baseHeaders(requestId), ...this.rateLimitHeaders(), ...spec.headers };

    if (!record.stream) {
      if (spec.dropAfterEvents !== undefined || spec.dropAfterBlocks !== undefined) {
        record.response = { status: 0, source: 'message', errorMessage: 'connection dropped' };
        this.destroy(res);
        return;
      }
      if (spec.streamError) {
        const type = spec.streamError.type ?? 'overloaded_error';
        const status = statusForErrorType(type);
        const message = spec.streamError.message ?? defaultErrorFor(status).message;
        this.sendError(res, record, requestId, { status, type, message }, 'message');
        return;
      }
      record.response = { status: 200, source: 'message', message };
      this.sendJson(res, 200, message, headers);
      return;
    }

    const events = buildStreamEvents(message, spec, this.opts);
    const frames = events.map((e) => encodeSseEvent(e.event, e.data));
    const pausesAfter = events.map((e) => e.pauseAfterMs ?? 0);
    let dropAfterEvents = spec.dropAfterEvents;
    if (spec.dropAfterBlocks !== undefined) {
      let stops = 0;
      const at = events.findIndex((e) => e.event === 'content_block_stop' && ++stops === spec.dropAfterBlocks);
      if (at >= 0) dropAfterEvents = at + 1;
    }
    // A clean EOF: the stream ends as if the connection closed politely (no message_stop).
    let endAfterEvents = spec.endAfterEvents;
    if (spec.endInsideBlock !== undefined) {
      let stops = 0;
      const at = events.findIndex((e) => e.event === 'content_block_stop' && ++stops === spec.endInsideBlock);
      if (at >= 0) endAfterEvents = at;
    }
    let errorFrame: { afterEvents: number; frame: string } | undefined;
    if (spec.streamError) {
      const type = spec.streamError.type ?? 'overloaded_error';
      const text = spec.streamError.message ?? defaultErrorFor(statusForErrorType(type)).message;
      errorFrame = {
        afterEvents: spec.streamError.afterEvents,
        frame: encodeSseEvent('error', errorBody(type, text, requestId)),
      };
    }
    record.response = { status: 200, source: 'message', message };
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    const sent = endAfterEvents !== undefined ? frames.slice(0, endAfterEvents) : frames;
    await this.writeStream(res, sent, { delayMs: spec.delayMs, dropAfterEvents, pausesAfter }, errorFrame, signal);
  }

  async answerRawSse(
    res: http.ServerResponse,
    record: RecordedRequest,
    spec: RawSseSpec,
    requestId: string,
    signal: AbortSignal,
  ): Promise<void> {
    await sleep(spec.latencyMs ?? 0, signal);
    const headers = { ...this.baseHeaders(requestId), ...this.rateLimitHeaders(), ...spec.headers };
    if (!record.stream) {
      let message: WireMessage;
      try {
        message = accumulateMessage(parseSse(spec.body));
      } catch (err) {
        this.sendError(res, record, requestId, { status: 500, type: 'api_error', message: String(err) }, 'raw_sse');
        return;
      }
      record.response = { status: 200, source: 'raw_sse', message };
      this.sendJson(res, 200, message, headers);
      return;
    }
    record.response = { status: 200, source: 'raw_sse' };
    res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    await this.writeStream(res, splitSseFrames(spec.body), spec, undefined, signal);
  }

  async answerError(
    res: http.ServerResponse,
    record: RecordedRequest,
    spec: ErrorSpec,
    requestId: string,
    signal: AbortSignal,
  ): Promise<void> {
    await sleep(spec.latencyMs ?? 0, signal);
    const fallback = defaultErrorFor(spec.status);
    const headers: Record<string, string> = { ...spec.headers };
    if (spec.retryAfter !== undefined) headers['retry-after'] = String(spec.retryAfter);
    if (spec.retryAfterMs !== undefined) headers['retry-after-ms'] = String(spec.retryAfterMs);
    if (spec.shouldRetry !== undefined) headers['x-should-retry'] = String(spec.shouldRetry);
    const error = {
      status: spec.status,
      type: spec.type ?? fallback.type,
      message: spec.message ?? fallback.message,
      ...(spec.errorCode !== undefined ? { errorCode: spec.errorCode } : {}),
    };
    this.sendError(res, record, requestId, error, 'error', headers);
  }
}
