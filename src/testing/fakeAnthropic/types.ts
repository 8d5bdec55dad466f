// Types for the fake Anthropic Messages API: the wire shapes it sends and the scripting specs it takes.

/** Error types the real API puts in `{"type":"error","error":{"type":...}}`. */
export type ApiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'api_error'
  | 'overloaded_error';

export type StopReason =
  'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal' | 'model_context_window_exceeded';

/**
 * What the API says of a refusal (`stop_details` beside `stop_reason: "refusal"`, in the message
 * and in message_delta; @anthropic-ai/sdk 1.14 `RefusalStopDetails`; its recorded streams also carry
 * fields the types do not name, e.g. `fallback_credit_token`, which pass through here).
 */
export interface WireRefusalStopDetails {
  type: 'refusal';
  category: 'cyber' | 'bio' | 'frontier_llm' | 'reasoning_extraction' | 'general_harms' | null;
  explanation: string | null;
  [key: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Wire shapes (what the server sends)

export interface WireUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number | null;
  cache_read_input_tokens: number | null;
  service_tier?: 'standard' | 'priority' | 'batch' | null;
  /** What the API ran itself for this call (default: one web search per `server_tool_use` block; a script may say otherwise). */
  server_tool_use?: { web_search_requests: number };
  /** `cache_creation_input_tokens` split by TTL. */
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

export interface WireTextBlock {
  type: 'text';
  text: string;
}

export interface WireToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

export interface WireThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

/** Thinking the safety systems encrypted: `data` goes back unchanged with the rest of the turn. */
export interface WireRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

/** A server tool's call (`web_search`): run by the API itself, answered in the same message. */
export interface WireServerToolUseBlock {
  type: 'server_tool_use';
  id: string;
  name: string;
  input: unknown;
}

/** One web search hit as the API sends it. */
export interface WireWebSearchResult {
  type: 'web_search_result';
  url: string;
  title: string;
  encrypted_content: string;
  page_age: string | null;
}

/** The result of a `server_tool_use` web search: the hits, or an error. */
export interface WireWebSearchToolResultBlock {
  type: 'web_search_tool_result';
  tool_use_id: string;
  content: WireWebSearchResult[] | { type: 'web_search_tool_result_error'; error_code: string };
}

export type WireContentBlock =
  | WireTextBlock
  | WireToolUseBlock
  | WireThinkingBlock
  | WireRedactedThinkingBlock
  | WireServerToolUseBlock
  | WireWebSearchToolResultBlock;

export interface WireMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: WireContentBlock[];
  stop_reason: StopReason | null;
  stop_sequence: string | null;
  /** Set with a refusal; null otherwise (absent in messages recorded before the API had it). */
  stop_details?: WireRefusalStopDetails | null;
  usage: WireUsage;
}

export interface WireErrorBody {
  type: 'error';
  /** `details.error_code` names the cause where the API has one (e.g. `enforced_spend_limit_reached`). */
  error: { type: ApiErrorType | string; message: string; details?: { error_code: string } };
  request_id?: string;
}

// ---------------------------------------------------------------------------------------------
// Request shapes (what the server receives; only the parts it looks at are typed)

export interface RequestContentBlock {
  type: string;
  id?: string;
  tool_use_id?: string;
  name?: string;
  input?: unknown;
  text?: string;
  content?: unknown;
  is_error?: boolean;
  [key: string]: unknown;
}

export interface RequestMessage {
  role: 'user' | 'assistant';
  content: string | RequestContentBlock[];
}

/** A validated `POST /v1/messages` body. */
export interface MessagesRequest {
  model: string;
  max_tokens: number;
  messages: RequestMessage[];
  stream?: boolean;
  system?: unknown;
  tools?: unknown[];
  [key: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Scripting specs (what tests and the demo's scripted model enqueue)

export interface TextSpec {
  type: 'text';
  text: string;
  /** Exact text_delta pieces to stream (must join to `text`); default: split by `textChunkSize`. */
  chunks?: string[];
  /** Pause this long after the block's content_block_stop before the next event (a model that thinks on). */
  pauseAfterMs?: number;
}

export interface ToolUseSpec {
  type: 'tool_use';
  /** Default: a deterministic `toolu_01…` id from the server's counter (see `fakeToolUseId`). */
  id?: string;
  name: string;
  input: unknown;
  /**
   * The exact JSON text to stream as `partial_json` (lets a test send JSON that is not what
   * `JSON.stringify(input)` produces, or even invalid JSON). Default: `JSON.stringify(input)`.
   */
  rawJson?: string;
  /** Pause this long after the block's content_block_stop before the next event (a model that thinks on). */
  pauseAfterMs?: number;
}

export interface ThinkingSpec {
  type: 'thinking';
  thinking: string;
  /** Default: a signature of the text (base64, as the API's look). The fake accepts back only what it sent. */
  signature?: string;
  /** Pause this long after the block's content_block_stop before the next event (a model that thinks on). */
  pauseAfterMs?: number;
}

/** Encrypted thinking: sent whole in its content_block_start, no deltas (as the API does). */
export interface RedactedThinkingSpec {
  type: 'redacted_thinking';
  /** Default: an opaque base64 token. */
  data?: string;
  pauseAfterMs?: number;
}

/** A server-side web search call (`server_tool_use`, name `web_search`), streamed with its input JSON. */
export interface ServerToolUseSpec {
  type: 'server_tool_use';
  /** Default: a deterministic `srvtoolu_01…` id. */
  id?: string;
  /** Default `web_search`. */
  name?: string;
  input: unknown;
  pauseAfterMs?: number;
}

/** The search's result block: hits (`encrypted_content` defaults to a fake token) or an error code. */
export interface WebSearchResultSpec {
  type: 'web_search_tool_result';
  /** Default: the id of the last server_tool_use before it. */
  tool_use_id?: string;
  results:
    | Array<{ url: string; title: string; page_age?: string | null; encrypted_content?: string }>
    | { error_code: string };
  pauseAfterMs?: number;
}

export type ContentSpec =
  TextSpec | ToolUseSpec | ThinkingSpec | RedactedThinkingSpec | ServerToolUseSpec | WebSearchResultSpec;

/** Faults and pacing for a streamed response (ignored or mapped as documented for non-streamed ones). */
export interface StreamBehaviour {
  /** Wait this long before sending the response headers. Applies to both paths. */
  latencyMs?: number;
  /** Wait this long before each SSE event. Non-streamed: ignored. */
  delayMs?: number;
  /**
   * Destroy the socket after this many SSE events (pings included; 0 = right after the headers).
   * Non-streamed: the socket is destroyed before any response is written.
   */
  dropAfterEvents?: number;
  /**
   * Destroy the socket right after the content_block_stop of the Nth content block (1-based),
   * after that block's `pauseAfterMs`. Counted like `dropAfterEvents`; non-streamed: the same.
   */
  dropAfterBlocks?: number;
  /**
   * End the stream cleanly (no error, no message_stop: a clean EOF) after this many SSE events.
   * Non-streamed: ignored (the whole message is sent).
   */
  endAfterEvents?: number;
  /**
   * End the stream cleanly inside the Nth content block (1-based): after its last delta, before
   * its content_block_stop — the block stays open, no message_delta, no message_stop. Non-streamed: ignored.
   */
  endInsideBlock?: number;
  /**
   * Send `event: error` after `afterEvents` events and end the stream, as the API does when it
   * overloads mid-stream. Non-streamed: an HTTP error with the matching status instead.
   */
  streamError?: { afterEvents: number; type?: ApiErrorType; message?: string };
  /** Split tool_use JSON into pieces of this many characters. Default: server option, else ≥ 3 pieces. */
  jsonChunkSize?: number;
  /** Split text into pieces of this many characters. Default: server option, else 12. */
  textChunkSize?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/** A successful model turn. `kind` may be omitted. */
export interface MessageSpec extends StreamBehaviour {
  kind?: 'message';
  content: ContentSpec[];
  /** Default: `tool_use` when a tool_use block is present, else `end_turn`. */
  stop_reason?: StopReason;
  stop_sequence?: string | null;
  /** Sent in message_delta and the message (a refusal's: see `refusalResponse`). Default: null. */
  stop_details?: WireRefusalStopDetails | null;
  usage?: Partial<WireUsage>;
  /** Default: the request's model. */
  model?: string;
  /** Default: a deterministic `msg_01…` id. */
  id?: string;
}

/** An HTTP error response (429, 500, 529, …) in the API's error shape. */
export interface ErrorSpec {
  kind: 'error';
  status: number;
  /** Default: derived from the status (429 → rate_limit_error, 529 → overloaded_error, …). */
  type?: ApiErrorType;
  message?: string;
  /** `retry-after` header, in seconds. Note: the SDK treats 0 as "use default backoff" (~0.5 s). */
  retryAfter?: number;
  /** `retry-after-ms` header (the SDK prefers it over `retry-after`). */
  retryAfterMs?: number;
  /** `x-should-retry` header, which the SDK obeys over its status rules. */
  shouldRetry?: boolean;
  /** `error.details.error_code` (the API's stable cause, e.g. `enforced_spend_limit_reached`: see `spendLimitError`). */
  errorCode?: string;
  latencyMs?: number;
  headers?: Record<string, string>;
}

/** The connection is closed without any response (the SDK sees a connection error). */
export interface DisconnectSpec {
  kind: 'disconnect';
  latencyMs?: number;
}

/** Replay a recorded SSE body verbatim (e.g. a fixture); non-streamed requests get the accumulated Message. */
export interface RawSseSpec {
  kind: 'raw_sse';
  body: string;
  delayMs?: number;
  dropAfterEvents?: number;
  latencyMs?: number;
  headers?: Record<string, string>;
}

export type ResponseSpec = MessageSpec | ErrorSpec | DisconnectSpec | RawSseSpec;

// ---------------------------------------------------------------------------------------------
// Recording

export interface RecordedRequest {
  /** 0-based arrival order. */
  index: number;
  method: string;
  /** Path without the query string. */
  path: string;
  url: string;
  /** Lower-cased header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  apiKey: string | undefined;
  rawBody: string;
  /** Parsed JSON body, or undefined when it was not JSON. */
  body: unknown;
  stream: boolean;
  receivedAt: number;
  /** When a scripted message was written to the end (stream or JSON body); absent when it was not. */
  finishedAt?: number;
  /** True when it was a well-formed `POST /v1/messages` (passed auth and validation). */
  valid: boolean;
  /** Filled in once the server decided how to answer. */
  response: RecordedResponse | undefined;
}

export interface RecordedResponse {
  status: number;
  /** What answered: a scripted spec's kind, or the server's own validation/exhaustion error. */
  source: ResponseSpec['kind'] | 'message' | 'server_error' | 'rate_limit';
  errorType?: string;
  errorMessage?: string;
  /** Set for successful messages. */
  message?: WireMessage;
}

export type UnexpectedKind = 'script_exhausted' | 'script_threw' | 'invalid_request' | 'not_found' | 'authentication';

/** Something that means the test's script or the code under test is wrong. */
export interface UnexpectedEvent {
  kind: UnexpectedKind;
  message: string;
  request: RecordedRequest;
}

export interface ScriptContext {
  /** 0-based index of this request among all requests received. */
  index: number;
  headers: Record<string, string>;
  requests: readonly RecordedRequest[];
}

/** Return `undefined` to signal "no response scripted" (reported as script exhaustion). */
export type ScriptFn = (
  request: MessagesRequest,
  ctx: ScriptContext,
) => ResponseSpec | undefined | Promise<ResponseSpec | undefined>;
