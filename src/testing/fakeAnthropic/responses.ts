// Building responses from specs: spec helpers, the final Message, its SSE event sequence, API errors.

import { createHash } from 'node:crypto';
import { encodeSseEvent, type SseEvent } from './sse';
import type {
  ApiErrorType,
  ContentSpec,
  DisconnectSpec,
  ErrorSpec,
  MessageSpec,
  RawSseSpec,
  WireContentBlock,
  WireErrorBody,
  WireMessage,
  WireRefusalStopDetails,
  WireUsage,
} from './types';

// ---------------------------------------------------------------------------------------------
// Deterministic ids: same shape and length as real ones, predictable from a per-server counter.

/** The n-th (1-based) generated tool_use id of a server, e.g. `toolu_01FakeTool00000000000001`. */
export function fakeToolUseId(n: number): string {
  return `toolu_01FakeTool${String(n).padStart(14, '0')}`;
}

export function fakeMessageId(n: number): string {
  return `msg_01FakeMsg${String(n).padStart(15, '0')}`;
}

export function fakeRequestId(n: number): string {
  return `req_01FakeReq${String(n).padStart(15, '0')}`;
}

export const FAKE_THINKING_SIGNATURE = 'ZmFrZS1hbnRocm9waWMtdGhpbmtpbmctc2lnbmF0dXJl';

/** A thinking block's default signature: a digest of its text, base64 with `+`, `/` and `=` (bytes a careless copy would change). */
export function fakeSignature(thinking: string): string {
  return `${createHash('sha256').update(`fake-signature\0${thinking}`).digest('base64')}EqQB/+==`;
}

let redactedCounter = 0;

/** A redacted_thinking block's default `data`. */
export function fakeRedactedData(seed: string): string {
  return `${createHash('sha256').update(`fake-redacted\0${seed}`).digest('base64')}RGF0YQ==`;
}
/** The opaque page content a fake web search hit carries (the real API's is encrypted). */
export const FAKE_ENCRYPTED_CONTENT = 'ZmFrZS13ZWItc2VhcmNoLWNvbnRlbnQ=';

// ---------------------------------------------------------------------------------------------
// Spec helpers

export interface ToolCallSpec {
  name: string;
  input: unknown;
  id?: string;
}

/** A turn that only says `text` (stop_reason end_turn). */
export function textResponse(text: string, extra: Omit<MessageSpec, 'content'> = {}): MessageSpec {
  return { ...extra, content: [{ type: 'text', text }] };
}

/** A turn that calls tools (stop_reason tool_use), optionally preceded by some text. */
export function toolUseResponse(
  calls: ToolCallSpec | readonly ToolCallSpec[],
  extra: Omit<MessageSpec, 'content'> & { text?: string } = {},
): MessageSpec {
  const { text, ...rest } = extra;
  const list: readonly ToolCallSpec[] = Array.isArray(calls) ? calls : [calls as ToolCallSpec];
  const content: ContentSpec[] = text === undefined ? [] : [{ type: 'text', text }];
  for (const call of list) {
    content.push(
      call.id === undefined
        ? { type: 'tool_use', name: call.name, input: call.input }
        : { type: 'tool_use', id: call.id, name: call.name, input: call.input },
    );
  }
  return { ...rest, content };
}

export function errorResponse(status: number, extra: Omit<ErrorSpec, 'kind' | 'status'> = {}): ErrorSpec {
  return { ...extra, kind: 'error', status };
}

/** HTTP 529 overloaded_error. */
export function overloadedError(extra: Omit<ErrorSpec, 'kind' | 'status'> = {}): ErrorSpec {
  return errorResponse(529, extra);
}

/** HTTP 429 rate_limit_error. */
export function rateLimitError(extra: Omit<ErrorSpec, 'kind' | 'status'> = {}): ErrorSpec {
  return errorResponse(429, extra);
}

/** HTTP 500 api_error. */
export function apiError(extra: Omit<ErrorSpec, 'kind' | 'status'> = {}): ErrorSpec {
  return errorResponse(500, extra);
}

/**
 * A refusal as the API streams it (the shape of the SDK's recorded refusal streams): the content
 * the model had written (none, text, a tool_use …), then message_delta with `stop_reason:
 * "refusal"` and `stop_details` {type: "refusal", category, explanation}.
 */
export function refusalResponse(
  content: ContentSpec[] = [],
  details: { category?: WireRefusalStopDetails['category']; explanation?: string | null } = {},
  extra: Omit<MessageSpec, 'content' | 'stop_reason' | 'stop_details'> = {},
): MessageSpec {
  return {
    ...extra,
    content,
    stop_reason: 'refusal',
    stop_details: { type: 'refusal', category: details.category ?? null, explanation: details.explanation ?? null },
  };
}

/**
 * A long turn the API pauses (its server tools' loop, e.g. web_search, hit its limit): the first
 * answer ends with `stop_reason: "pause_turn"` after the content so far (typically text and
 * server_tool_use / web_search_tool_result blocks, never a client tool_use); a client that sends
 * it back as is (the same request plus that assistant message, see `pausedContent`) gets `rest`,
 * the rest of the turn, with its own stop reason. Each answer has its own usage (`usage` of the
 * paused part; `rest` says its own). Enqueue both, in order.
 */
export function pausedTurn(
  paused: ContentSpec[],
  rest: MessageSpec,
  extra: Omit<MessageSpec, 'content' | 'stop_reason'> = {},
): [MessageSpec, MessageSpec] {
  return [{ ...extra, content: paused, stop_reason: 'pause_turn' }, rest];
}

/**
 * HTTP 429 `rate_limit_error` for an organization over its API tier's monthly spend threshold: the
 * SDK's `EnforcedSpendLimitReachedError` shape (`error.details.error_code`), and no `retry-after`
 * (the API's errors page: retrying does not help until the limit resets).
 */
export function spendLimitError(extra: Omit<ErrorSpec, 'kind' | 'status'> = {}): ErrorSpec {
  return errorResponse(429, {
    type: 'rate_limit_error',
    message:
      'Your organization has reached its monthly API usage limit for its usage tier. Access resumes at the start of next month.',
    errorCode: 'enforced_spend_limit_reached',
    ...extra,
  });
}

export function disconnect(extra: Omit<DisconnectSpec, 'kind'> = {}): DisconnectSpec {
  return { ...extra, kind: 'disconnect' };
}

export function rawSse(body: string, extra: Omit<RawSseSpec, 'kind' | 'body'> = {}): RawSseSpec {
  return { ...extra, kind: 'raw_sse', body };
}

// ---------------------------------------------------------------------------------------------
// Errors

const ERROR_DEFAULTS: Record<number, { type: ApiErrorType; message: string }> = {
  400: { type: 'invalid_request_error', message: 'Invalid request' },
  401: { type: 'authentication_error', message: 'invalid x-api-key' },
  403: { type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' },
  404: { type: 'not_found_error', message: 'Not found' },
  413: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' },
  429: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' },
  500: { type: 'api_error', message: 'Internal server error' },
  529: { type: 'overloaded_error', message: 'Overloaded' },
};

const STATUS_OF_TYPE: Record<ApiErrorType, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

export function statusForErrorType(type: ApiErrorType): number {
  return STATUS_OF_TYPE[type];
}

export function defaultErrorFor(status: number): { type: ApiErrorType; message: string } {
  return (
    ERROR_DEFAULTS[status] ?? { type: status >= 500 ? 'api_error' : 'invalid_request_error', message: `HTTP ${status}` }
  );
}

export function errorBody(type: string, message: string, requestId?: string, errorCode?: string): WireErrorBody {
  const body: WireErrorBody = {
    type: 'error',
    error: { type, message, ...(errorCode !== undefined ? { details: { error_code: errorCode } } : {}) },
  };
  if (requestId !== undefined) body.request_id = requestId;
  return body;
}

// ---------------------------------------------------------------------------------------------
// Messages

export interface BuildContext {
  model: string;
  inputTokens: number;
  /** Prompt-cache usage of the request (the fake's cache simulation). */
  cache?: { creation: number; read: number };
  nextToolUseId: () => string;
  nextMessageId: () => string;
}

function estimateTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}

/** The final Message a spec describes (what a non-streamed call returns and a stream adds up to). */
export function buildMessage(spec: MessageSpec, ctx: BuildContext): WireMessage {
  let outputChars = 0;
  let lastServerToolUse: string | undefined;
  let searches = 0;
  const content: WireContentBlock[] = spec.content.map((block): WireContentBlock => {
    switch (block.type) {
      case 'text':
        outputChars += block.text.length;
        return { type: 'text', text: block.text };
      case 'tool_use':
        outputChars += (block.rawJson ?? JSON.stringify(block.input) ?? '').length;
        return { type: 'tool_use', id: block.id ?? ctx.nextToolUseId(), name: block.name, input: block.input };
      case 'thinking':
        outputChars += block.thinking.length;
        return {
          type: 'thinking',
          thinking: block.thinking,
          signature: block.signature ?? fakeSignature(block.thinking),
        };
      case 'redacted_thinking':
        return { type: 'redacted_thinking', data: block.data ?? fakeRedactedData(String(++redactedCounter)) };
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
                type: 'web_search_result' as const,
                url: r.url,
                title: r.title,
                encrypted_content: r.encrypted_content ?? FAKE_ENCRYPTED_CONTENT,
                page_age: r.page_age ?? null,
              }))
            : { type: 'web_search_tool_result_error' as const, error_code: block.results.error_code },
        };
    }
  });
  const hasToolUse = content.some((b) => b.type === 'tool_use');
  const usage: WireUsage = {
    input_tokens: ctx.inputTokens,
    cache_creation_input_tokens: ctx.cache?.creation ?? 0,
    cache_read_input_tokens: ctx.cache?.read ?? 0,
    output_tokens: estimateTokens(outputChars),
    service_tier: 'standard',
    ...(searches > 0 ? { server_tool_use: { web_search_requests: searches } } : {}),
    // A scripted usage wins (e.g. the API counted more searches than the blocks it sent back).
    ...spec.usage,
  };
  return {
    id: spec.id ?? ctx.nextMessageId(),
    type: 'message',
    role: 'assistant',
    model: spec.model ?? ctx.model,
    content,
    stop_reason: spec.stop_reason ?? (hasToolUse ? 'tool_use' : 'end_turn'),
    stop_sequence: spec.stop_sequence ?? null,
    stop_details: spec.stop_details ?? null,
    usage,
  };
}

/** Split by code points (never inside a surrogate pair) into pieces of `size`. */
export function splitPieces(text: string, size: number): string[] {
  const chars = Array.from(text);
  const step = Math.max(1, Math.floor(size));
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += step) pieces.push(chars.slice(i, i + step).join(''));
  return pieces;
}

/** Default JSON piece size: at most 20 characters, and small enough that the JSON takes ≥ 3 pieces. */
export function defaultJsonChunkSize(json: string): number {
  return Math.max(1, Math.min(20, Math.ceil(Array.from(json).length / 3)));
}

export interface ChunkOptions {
  jsonChunkSize?: number | undefined;
  textChunkSize?: number | undefined;
}

const DEFAULT_TEXT_CHUNK = 12;
// The API writes this one payload with a space after the colon.
const PING_DATA = '{"type": "ping"}';

/**
 * The SSE events of a streamed message, in the order the real API sends them: message_start
 * (empty content, input usage), per block start / deltas / stop, one ping after the first
 * content_block_start, message_delta (stop_reason, output_tokens), message_stop.
 */
export function buildStreamEvents(message: WireMessage, spec: MessageSpec, defaults: ChunkOptions = {}): SseEvent[] {
  const events: SseEvent[] = [];
  const push = (event: string, data: unknown): void => {
    events.push({ event, data: typeof data === 'string' ? data : JSON.stringify(data) });
  };
  const jsonChunkSize = (json: string): number =>
    spec.jsonChunkSize ?? defaults.jsonChunkSize ?? defaultJsonChunkSize(json);
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
    let startBlock: WireContentBlock;
    const deltas: Record<string, unknown>[] = [];
    switch (block.type) {
      case 'text': {
        startBlock = { type: 'text', text: '' };
        const chunks =
          source?.type === 'text' && source.chunks ? source.chunks : splitPieces(block.text, textChunkSize);
        for (const text of chunks) deltas.push({ type: 'text_delta', text });
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
      case 'redacted_thinking':
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
    if (index === 0) push('ping', PING_DATA);
    for (const delta of deltas) push('content_block_delta', { type: 'content_block_delta', index, delta });
    push('content_block_stop', { type: 'content_block_stop', index });
    if (source?.pauseAfterMs) (events[events.length - 1] as SseEvent).pauseAfterMs = source.pauseAfterMs;
  });
  if (message.content.length === 0) push('ping', PING_DATA);

  push('message_delta', {
    type: 'message_delta',
    delta: {
      stop_reason: message.stop_reason,
      stop_sequence: message.stop_sequence,
      stop_details: message.stop_details ?? null,
    },
    usage: { output_tokens: message.usage.output_tokens },
  });
  push('message_stop', { type: 'message_stop' });
  return events;
}

export function encodeEvents(events: readonly SseEvent[]): string[] {
  return events.map((e) => encodeSseEvent(e.event, e.data));
}
