// One model call for any scheduler (the `callModel` activity's core, and the in-process runner's):
// one Messages API call, streamed, heartbeating per event, with a non-streamed fallback when a
// stream fails mid-way. No Temporal here: a failure is a ModelCallError that says whether waiting
// may help; the activity turns it into an ApplicationFailure (src/activities/errors.ts).
import type { McpServers } from '../mcp/config';
import Anthropic from '@anthropic-ai/sdk';
import type { AgentDefinition } from '../agents/definitions';
import type { AssistantContentBlock, AssistantMessage, Message, StopDetails, Usage } from '../engine/messages';
import { callModelUsage, type ModelUsage } from '../engine/modelUsage';
import { contentForHistory, inputForHistory, messageForHistory } from '../engine/payloads';
import type { TranscriptStore } from '../stores/messageStore';
import { failureKindOfStatus, type TransientFailure } from '../engine/retry';
import type { PayloadStore } from '../stores/payloadStore';
import { isPromptTooLong, promptTooLongTokens, usageTotal, type ContextSettings } from '../engine/contextWindow';
import type { ContextView } from '../engine/contextView';
import { prepareModelRequest } from './modelRequest';
import { recordOfferedTools } from './offeredTools';
import { withMemoryText, type MemoryRef } from '../engine/memory';
import { loadMemoryText } from '../memory/blobs';
import { DurableAgentError } from '../engine/errors';
import type { CallRuntime } from './runtime';
import type { ThinkingSetting } from '../engine/thinking';

export interface ModelSettings {
  model: string;
  maxTokens: number;
  system?: string;
  temperature?: number;
  /** Extended thinking (engine/thinking.ts); absent in sessions started before it: none. */
  thinking?: ThinkingSetting;
}

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  /** Deferred behind ToolSearch when tool search is on (MCP tools, some built-ins); never sent. */
  deferrable?: boolean;
}

export interface CallModelInput {
  sessionId: string;
  turn: number;
  /** Head of the transcript so far (null: empty). */
  head: string | null;
  /** New user-side messages to append before calling (prompt, follow-ups, tool results). */
  append: Message[];
  /** The session's memory by reference: its text goes before the first message's (payloads by reference). */
  memory?: MemoryRef;
  settings: ModelSettings;
  toolNames: string[];
  /** The session's deny rules: a tool denied outright is not offered to the model at all. */
  denyRules?: string[];
  /** The session's MCP servers: their tools are listed (tools/list, servers start on first use) and offered too. */
  mcp?: { servers: McpServers; cwd: string };
  /** The model's view of the transcript (compaction summary, cleared results); absent: the whole transcript. */
  view?: ContextView;
  contextSettings?: ContextSettings;
  /** false: send even above the auto-compact threshold (a PreCompact hook blocked compaction). */
  autoCompact?: boolean;
  /** The session's agent types: the Agent tool's description lists them. */
  agents?: AgentDefinition[];
  /** Hand each tool_use block to the turn as soon as it is complete (streaming tool execution). */
  streamToolUses?: boolean;
}

/** The partial output of an abandoned streaming attempt: kept for the audit trail only. */
export interface Tombstone {
  attempt: number;
  error: string;
  partialContent: AssistantContentBlock[];
  eventsReceived: number;
}

export interface CallModelResult {
  kind?: 'message';
  /**
   * The assistant message as history carries it (engine/payloads `messageForHistory`): tool_use
   * ids and names whole, large inputs, text and thinking as previews. The whole message is the
   * transcript node `head`.
   */
  message: AssistantMessage;
  usage: Usage;
  /** This call's usage and cost by model (engine/modelUsage.ts), priced when it answered; absent in results recorded before. */
  modelUsage?: ModelUsage;
  stopReason: string;
  /**
   * A refusal's `stop_details`. A refused answer is not the conversation's: `message` is empty,
   * `head` is `sentHead` (the API's guidance: reset the refused turn's context before going on),
   * and what the model had written is a tombstone (kept for the audit, never sent again).
   */
  stopDetails?: StopDetails;
  /** Head of the transcript including `append` and the assistant message. */
  head: string | null;
  /** Head including `append` only (what was sent). */
  sentHead: string | null;
  messageId: string;
  fallback: boolean;
  tombstones: Tombstone[];
  requestId?: string;
  /** How many times the API paused this turn (stop_reason pause_turn) and the call continued it; absent: none. */
  continuations?: number;
  /** The view after this call: its baseline is this answer's usage. */
  view: ContextView;
  /** Where the request's cache breakpoints went. */
  cacheBreakpoints?: string[];
}

/** The call was not made (auto) or the API refused the prompt as too long (reactive): compact, then call again. */
export interface CompactionNeeded {
  kind: 'compact';
  trigger: 'auto' | 'reactive';
  tokens: number;
  view: ContextView;
  /** Head including `append` (what compaction summarises). */
  sentHead: string | null;
  error?: string;
}

export type ModelCallOutcome = CallModelResult | CompactionNeeded;

function promptTooLong(err: unknown): string | undefined {
  return err instanceof Anthropic.APIError && err.status === 400 && isPromptTooLong(err.message)
    ? err.message
    : undefined;
}

export interface ModelDeps {
  transcripts: TranscriptStore;
  /** Where tool activities stored their result blocks (resolves the turn's appends by reference). */
  payloads?: PayloadStore;
  /** Creates the SDK client: real by default; tests point `baseURL` at the fake server. */
  anthropic: () => Anthropic;
  /** Tool definitions for the named tools of the session's pool. */
  toolDefinitions: (
    toolNames: string[],
    denyRules?: string[],
    mcp?: CallModelInput['mcp'],
    warn?: (message: string) => void,
  ) => Promise<ToolDefinition[]>;
  /** Disable the non-streamed fallback (the reference's CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK). */
  disableFallback?: boolean;
  /** Where a session's stored tool results live; cleared old results are kept there for Read. */
  resultPath?: (sessionId: string, toolUseId: string) => string;
}

/**
 * A model call that failed, classified on purpose: `retryable` when waiting may help (overload,
 * rate limit, server errors, lost connections), with what the turn's outage handling reads
 * (`transient`: kind and the server's retry-after); permanent otherwise (401, 400 …). `failureType`
 * is the failure's type in history (`ModelHttp529`, `ModelConnectionError`, …).
 */
export class ModelCallError extends DurableAgentError {
  readonly retryable: boolean;
  readonly failureType: string;
  readonly transient?: TransientFailure;
  readonly retryAfterMs?: number;
  constructor(
    message: string,
    failure: { failureType: string; retryable: boolean; transient?: TransientFailure; retryAfterMs?: number },
    options?: { cause?: unknown },
  ) {
    super(failure.retryable ? 'MODEL_UNAVAILABLE' : 'MODEL_FAILED', message, options);
    this.retryable = failure.retryable;
    this.failureType = failure.failureType;
    if (failure.transient) this.transient = failure.transient;
    if (failure.retryAfterMs !== undefined) this.retryAfterMs = failure.retryAfterMs;
  }
}

/**
 * The API's error types (`{"type":"error","error":{"type":…}}`, in an HTTP error's body or in an
 * `event: error` of a 200 stream — the SDK raises the latter as an APIError with no status and the
 * body's type in `type`), classified by TYPE wherever they arrive (DESIGN invariant 16): these
 * are worth waiting out, with the outage kind the status line shows…
 */
const TRANSIENT_ERROR_TYPES: Readonly<Record<string, string>> = {
  overloaded_error: 'overloaded',
  rate_limit_error: 'rate_limited',
  api_error: 'server_error',
  timeout_error: 'timeout',
};

/** …and these end the call at once, with a word on what to do. */
const PERMANENT_ERROR_TYPES: Readonly<Record<string, string>> = {
  invalid_request_error: 'the API refused the request as invalid',
  authentication_error:
    'the API did not accept the credentials (ANTHROPIC_API_KEY, or ANTHROPIC_AUTH_TOKEN for a bearer token)',
  permission_error: 'the credentials lack permission for this model or feature',
  not_found_error: 'not found (check the model name and ANTHROPIC_BASE_URL)',
  request_too_large: 'the request is larger than the API accepts',
  billing_error: "the organization's billing does not allow the request",
};

/**
 * Spend limits: retrying does not help until a person raises the limit or the period resets, so
 * the session ends with the reason instead of waiting forever (issue 31 item 6). Where the shapes
 * come from: the SDK's error classes (@anthropic-ai/sdk 1.14 `resources/shared.d.ts`:
 * `EnforcedSpendLimitReachedError` "the organization has crossed the monthly API usage threshold
 * of its API tier" and `ContractSpendLimitReachedError`, both 429 `rate_limit_error` with
 * `error.details.error_code`; `LinkedOrganizationSpendLimitReachedError`, 402), and the API's
 * errors page as summarised at developersdigest.tech/errors/api/anthropic-api (checked 2026-10):
 * the 429 `enforced_spend_limit_reached` carries no `retry-after`; a spend limit the user set
 * answers 400 `invalid_request_error` "You have reached your specified API usage limits …". An
 * older body without `details` is known by its wording, and only without a `retry-after` (a
 * Claude Code workspace's limit answers 429 with one: that one is waited out).
 */
const SPEND_LIMIT_CODES: ReadonlySet<string> = new Set([
  'enforced_spend_limit_reached',
  'contract_spend_limit_reached',
  'linked_organization_spend_limit_reached',
]);
const SPEND_LIMIT_WORDS =
  /spend(ing)? limit|specified (workspace )?API usage limits|usage limits? (has been |was )?reached/i;

/** The `error` object of an API error's body, whatever the SDK version made of it. */
function errorObject(err: InstanceType<typeof Anthropic.APIError>): {
  type?: string;
  message?: string;
  code?: string;
} {
  const body = err.error as
    { error?: { type?: unknown; message?: unknown; details?: { error_code?: unknown } } } | undefined;
  const inner = body && typeof body === 'object' ? body.error : undefined;
  const type = (err as { type?: unknown }).type ?? inner?.type;
  const message = (err as { apiMessage?: unknown }).apiMessage ?? inner?.message;
  const code = (err as { errorCode?: unknown }).errorCode ?? inner?.details?.error_code;
  return {
    ...(typeof type === 'string' ? { type } : {}),
    ...(typeof message === 'string' ? { message } : {}),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

/** A spend limit, by its code, else by its wording without a retry-after (see SPEND_LIMIT_CODES). */
export function isSpendLimit(
  status: number | undefined,
  error: { type?: string; message?: string; code?: string },
  retryAfter: number | undefined,
): boolean {
  if (error.code !== undefined && SPEND_LIMIT_CODES.has(error.code)) return true;
  if (retryAfter !== undefined || !SPEND_LIMIT_WORDS.test(error.message ?? '')) return false;
  return status === 429 || status === 402 || status === 400 || error.type === 'rate_limit_error';
}

/**
 * Retry on purpose: overload, rate limit, server errors and lost connections retry; client errors,
 * spend limits and authentication do not. An API error is classified by its type first (an
 * `event: error` in a 200 stream has no status), then by its status.
 */
export function classifyModelError(err: unknown): Error {
  if (err instanceof DurableAgentError) return err;
  if (err instanceof Anthropic.APIUserAbortError) return err;
  // `transient` carries the failure as the turn's outage handling reads it.
  if (err instanceof Anthropic.APIConnectionError) {
    const message = `model connection failed: ${err.message}`;
    return new ModelCallError(
      message,
      { failureType: 'ModelConnectionError', retryable: true, transient: { kind: 'connection', message } },
      { cause: err },
    );
  }
  if (err instanceof Anthropic.APIError) {
    const status: number | undefined = err.status ?? undefined;
    const retryAfter = retryAfterMs(err.headers);
    const error = errorObject(err);
    // A status error keeps the words `model API error <status>:` (the -p output reads them).
    const message =
      status !== undefined
        ? `model API error ${status}: ${err.message}`
        : `model API error in the stream (${error.type ?? 'unknown type'}): ${error.message ?? err.message}`;
    const failureType = status !== undefined ? `ModelHttp${status}` : 'ModelStreamError';
    if (isSpendLimit(status, error, retryAfter)) {
      const why = `the organization's API spend limit was reached${error.code ? ` (${error.code})` : ''}: retrying will not help until the limit is raised or resets`;
      return new ModelCallError(
        `${message} — ${why}`,
        { failureType: 'ModelSpendLimit', retryable: false },
        { cause: err },
      );
    }
    const typed = error.type;
    const transientKind = typed !== undefined ? TRANSIENT_ERROR_TYPES[typed] : undefined;
    const permanent = typed !== undefined ? PERMANENT_ERROR_TYPES[typed] : undefined;
    const byStatus =
      status !== undefined && (status === 429 || status === 529 || status === 408 || status === 409 || status >= 500);
    // A known type decides; without one, the status; an unknown stream error (no status, no known
    // type) is waited out like any other failure we cannot name (invariant 10).
    const kind =
      transientKind ??
      (permanent !== undefined
        ? undefined
        : byStatus
          ? failureKindOfStatus(status)
          : status === undefined
            ? 'other'
            : undefined);
    if (kind !== undefined) {
      const transient: TransientFailure = {
        kind,
        message,
        ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
      };
      return new ModelCallError(
        message,
        {
          failureType,
          retryable: true,
          transient,
          ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
        },
        { cause: err },
      );
    }
    return new ModelCallError(
      permanent !== undefined ? `${message} — ${typed}: ${permanent}` : message,
      { failureType, retryable: false },
      { cause: err },
    );
  }
  const message = `model call failed: ${err instanceof Error ? err.message : String(err)}`;
  // The SDK found no credentials (or a named profile it cannot use) before sending anything:
  // waiting does not help, and the session says so instead of retrying silently (issue 31 item 7).
  if (isCredentialsError(err)) {
    return new ModelCallError(
      `${message} — the worker has no usable Anthropic API credentials: give it ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN, or an SDK profile)`,
      { failureType: 'ModelCredentials', retryable: false },
      { cause: err },
    );
  }
  return new ModelCallError(
    message,
    { failureType: 'ModelError', retryable: true, transient: { kind: 'other', message } },
    { cause: err },
  );
}

/** The SDK's own words when it has no credentials to send (@anthropic-ai/sdk 1.14 client.js, credential-chain.js). */
function isCredentialsError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  // Not a WorkloadIdentityError as such: a token endpoint that answers 503 is worth waiting out.
  return /^Could not resolve authentication method\b|^ANTHROPIC_PROFILE names the profile|^Profile ".*" could not be resolved/.test(
    err.message,
  );
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const s = headers.get('retry-after');
  if (s && Number.isFinite(Number(s))) return Math.max(0, Number(s) * 1000);
  if (s) {
    const at = Date.parse(s);
    if (Number.isFinite(at)) return Math.max(0, at - Date.now());
  }
  return undefined;
}

function toAssistant(content: readonly Anthropic.ContentBlock[]): AssistantMessage {
  const blocks: AssistantContentBlock[] = [];
  for (const b of content) {
    if (b.type === 'text') blocks.push({ type: 'text', text: b.text });
    else if (b.type === 'tool_use') blocks.push({ type: 'tool_use', id: b.id, name: b.name, input: b.input });
    else if (b.type === 'thinking') blocks.push({ type: 'thinking', thinking: b.thinking, signature: b.signature });
    else if (b.type === 'redacted_thinking') blocks.push({ type: 'redacted_thinking', data: b.data });
  }
  return { role: 'assistant', content: blocks };
}

/**
 * A refused answer is not the conversation's (issue 31): nothing of it runs or goes back to the API
 * — no tool_use in it is answered, and the next request starts from what was sent before it. What
 * the model had written is kept as a tombstone, for the audit only.
 */
function refusedOrAnswer(
  final: Anthropic.Message,
  attempt: number,
  events: number,
): { message: AssistantMessage; refusal?: StopDetails; tombstone?: Tombstone } {
  const answered = toAssistant(final.content);
  if (final.stop_reason !== 'refusal') return { message: answered };
  const refusal = stopDetailsOf(final);
  const tombstone: Tombstone = {
    attempt,
    error: `refused (stop_reason refusal${refusal.category ? `, category ${refusal.category}` : ''})${refusal.explanation ? `: ${refusal.explanation}` : ''}`,
    partialContent: contentForHistory(answered.content),
    eventsReceived: events,
  };
  return { message: { role: 'assistant', content: [] }, refusal, tombstone };
}

/** A refusal's `stop_details` (category and explanation may each be null, or the object absent in older answers). */
function stopDetailsOf(final: Anthropic.Message): StopDetails {
  const d = (final as { stop_details?: { category?: unknown; explanation?: unknown } | null }).stop_details;
  return {
    category: typeof d?.category === 'string' ? d.category : null,
    explanation: typeof d?.explanation === 'string' ? d.explanation : null,
  };
}

function addUsage(a: Usage, b: Usage): Usage {
  const sum = (x?: number, y?: number): number | undefined =>
    x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0);
  const creation = sum(a.cache_creation_input_tokens, b.cache_creation_input_tokens);
  const read = sum(a.cache_read_input_tokens, b.cache_read_input_tokens);
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    ...(creation !== undefined ? { cache_creation_input_tokens: creation } : {}),
    ...(read !== undefined ? { cache_read_input_tokens: read } : {}),
  };
}

function toUsage(u: Anthropic.Usage): Usage {
  return {
    input_tokens: u.input_tokens,
    output_tokens: u.output_tokens,
    ...(u.cache_creation_input_tokens != null ? { cache_creation_input_tokens: u.cache_creation_input_tokens } : {}),
    ...(u.cache_read_input_tokens != null ? { cache_read_input_tokens: u.cache_read_input_tokens } : {}),
  };
}

/**
 * How many times one model call continues a turn the API paused (stop_reason pause_turn) before it
 * gives up with a permanent error: each continuation is a full request, and a turn that never
 * finishes would otherwise loop unwatched.
 */
export const MAX_PAUSE_CONTINUATIONS = 8;

/** The non-streamed fallback's own timeout (the model activity's start-to-close is the same). */
export const NON_STREAMED_TIMEOUT_MS = 60 * 60_000;

/**
 * Follows a message stream's events and hands each tool_use block to `handOff` at its
 * content_block_stop, in order, without holding up the stream: the input is the block's own
 * JSON (a block whose JSON does not parse is left to the complete message), stored as a
 * transcript node of its own (payloads by reference: the tool activity reads it from there).
 */
function toolUseHandOff(
  deps: ModelDeps,
  sentHead: string | null,
  ctx: CallRuntime,
  handOff: NonNullable<CallRuntime['onStreamedToolUse']>,
) {
  const json = new Map<number, { id: string; name: string; buf: string }>();
  let chain: Promise<void> = Promise.resolve();
  // After a pause_turn the continuation's blocks count from 0 again: they follow the paused ones.
  let offset = 0;
  const send = async (index: number, id: string, name: string, input: unknown): Promise<void> => {
    const block = { type: 'tool_use' as const, id, name, input };
    const messageRef = await deps.transcripts.append(sentHead, [{ role: 'assistant', content: [block] }]);
    await handOff({ index, block: { ...block, input: inputForHistory(input) }, messageRef });
  };
  return {
    onEvent(event: Anthropic.MessageStreamEvent): void {
      if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
        json.set(event.index, { id: event.content_block.id, name: event.content_block.name, buf: '' });
      } else if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
        const b = json.get(event.index);
        if (b) b.buf += event.delta.partial_json;
      } else if (event.type === 'content_block_stop') {
        const b = json.get(event.index);
        if (!b) return;
        json.delete(event.index);
        let input: unknown;
        try {
          input = b.buf.trim() === '' ? {} : JSON.parse(b.buf);
        } catch {
          return;
        }
        const index = offset + event.index;
        chain = chain
          .then(() => send(index, b.id, b.name, input))
          // A block that could not be handed over starts when the message is complete, as without streaming.
          .catch((err) =>
            ctx.warn(
              `could not hand tool_use ${b.id} to the turn while streaming: ${err instanceof Error ? err.message : String(err)}`,
            ),
          );
      }
    },
    /** The next stream continues a paused turn whose blocks so far numbered `blocks` more. */
    shift(blocks: number): void {
      offset += blocks;
      json.clear();
    },
    /** Every block handed over (before the activity answers, so that the turn sees them first). */
    flushed: (): Promise<void> => chain,
  };
}

/** What an abandoned stream had sent: kept for the audit trail only. */
function abandoned(err: unknown, partial: Anthropic.Message | undefined, attempt: number, events: number): Tombstone {
  return {
    attempt,
    error: err instanceof Error ? err.message : String(err),
    partialContent: partial ? contentForHistory(toAssistant(partial.content).content) : [],
    eventsReceived: events,
  };
}

/**
 * The non-streamed request that replaces a failed stream. An explicit timeout: without one the SDK
 * refuses a non-streamed request whose max_tokens it expects to take over ten minutes (any
 * max_tokens above ~21k); heartbeats keep the activity alive meanwhile, its own timeout bounds the
 * whole call. A prompt the API finds too long asks for compaction.
 */
async function nonStreamed(
  client: Anthropic,
  request: Anthropic.MessageCreateParamsNonStreaming,
  options: Anthropic.RequestOptions & { signal: AbortSignal },
): Promise<{ message: Anthropic.Message; requestId?: string } | { kind: 'too_long'; tooLong: string }> {
  try {
    const message = await client.messages.create(request, options);
    const requestId = (message as { _request_id?: string | null })._request_id ?? undefined;
    return { message, ...(requestId ? { requestId } : {}) };
  } catch (err) {
    if (options.signal.aborted) throw err;
    const tooLong = promptTooLong(err);
    if (tooLong !== undefined) return { kind: 'too_long', tooLong };
    throw classifyModelError(err);
  }
}

/**
 * pause_turn: the API paused a long turn (a server tool's loop); the turn goes on when the paused
 * content is sent back as is — the same request and the assistant message so far, no user message
 * added — until another stop reason (issue 31 item 4), at most MAX_PAUSE_CONTINUATIONS times. All
 * inside one model call: the workflow sees one answer, so no history changes. Returns every
 * answer of the turn in order (or the compaction a request asked for).
 */
async function wholeTurn<P extends { messages: Anthropic.MessageParam[] }>(
  params: P,
  requestOnce: (request: P) => Promise<Anthropic.Message | CompactionNeeded>,
  onPause: (paused: Anthropic.Message, continuation: number) => void,
): Promise<Anthropic.Message[] | CompactionNeeded> {
  const segments: Anthropic.Message[] = [];
  let request = params;
  for (;;) {
    const got = await requestOnce(request);
    if ('kind' in got && got.kind === 'compact') return got;
    const message = got as Anthropic.Message;
    segments.push(message);
    if (message.stop_reason !== 'pause_turn') return segments;
    if (segments.length > MAX_PAUSE_CONTINUATIONS)
      throw new ModelCallError(
        `the API paused the turn ${segments.length} times (stop_reason pause_turn) without finishing it; gave up after ${MAX_PAUSE_CONTINUATIONS} continuations`,
        { failureType: 'ModelPauseTurnLimit', retryable: false },
      );
    onPause(message, segments.length);
    const content = segments.flatMap((m) => m.content) as unknown as Anthropic.ContentBlockParam[];
    request = { ...params, messages: [...params.messages, { role: 'assistant', content }] };
  }
}

/** One model call: streamed, with a non-streamed fallback when the stream fails mid-way. */
export async function callModelWith(
  deps: ModelDeps,
  input: CallModelInput,
  ctx: CallRuntime,
): Promise<ModelCallOutcome> {
  const append = input.memory
    ? withMemoryText(input.append, await loadMemoryText(deps.transcripts.blobs, input.memory))
    : input.append;
  const sentHead = await deps.transcripts.append(input.head, append);
  // Listing MCP tools may start servers (up to MCP_TIMEOUT): keep heartbeating meanwhile.
  const listing = input.mcp ? setInterval(() => ctx.heartbeat({ phase: 'listing MCP tools' }), 5_000) : undefined;
  let prepared: Awaited<ReturnType<typeof prepareModelRequest>>;
  try {
    prepared = await prepareModelRequest(deps, {
      ...input,
      head: sentHead,
      warn: (m) => ctx.warn(m, { sessionId: input.sessionId }),
    });
  } finally {
    if (listing) clearInterval(listing);
  }
  if (prepared.kind === 'compact') return { ...prepared, sentHead };
  const { params } = prepared;
  // With deferred tools: what this request carried, for the schema errors of its tool calls.
  // Advice only: a store that refuses it costs the hint, not the call.
  await recordOfferedTools(deps.transcripts, sentHead, params.tools as Array<{ name: string }>).catch((err: unknown) =>
    ctx.warn(`could not record the request's tools: ${err instanceof Error ? err.message : String(err)}`),
  );
  const client = deps.anthropic();
  const reactive = (message: string): CompactionNeeded => ({
    kind: 'compact',
    trigger: 'reactive',
    tokens: promptTooLongTokens(message)?.actual ?? prepared.tokens,
    view: prepared.view,
    sentHead,
    error: message,
  });
  const requestOptions = (signal: AbortSignal) => ({
    signal,
    maxRetries: 0,
    ...(prepared.betas.length > 0 ? { headers: { 'anthropic-beta': prepared.betas.join(',') } } : {}),
  });
  const signal = ctx.signal;
  // The non-streamed fallback may take minutes without events: keep heartbeating meanwhile.
  const ticker = setInterval(() => ctx.heartbeat({ phase: 'waiting' }), 5000);
  const handOff =
    input.streamToolUses && ctx.onStreamedToolUse
      ? toolUseHandOff(deps, sentHead, ctx, ctx.onStreamedToolUse)
      : undefined;
  try {
    const tombstones: Tombstone[] = [];
    let fallback = false;
    let requestId: string | undefined;
    let events = 0;
    // One request, streamed, with the non-streamed fallback when the stream fails mid-way.
    const requestOnce = async (request: typeof params): Promise<Anthropic.Message | CompactionNeeded> => {
      let stopped = false;
      const before = events;
      const stream = client.messages.stream(request, requestOptions(signal));
      try {
        for await (const event of stream) {
          events++;
          if (event.type === 'message_stop') stopped = true;
          ctx.heartbeat({ phase: 'streaming', events, type: event.type });
          handOff?.onEvent(event);
        }
        // A clean EOF before message_stop (a proxy or the connection closed politely): the SDK hands
        // back what it accumulated, a block maybe cut open with its partial input and no stop reason.
        // That is a failed stream, not an answer (issue 31): a truncated tool_use must never run.
        if (!stopped) throw new Error(`the stream ended after ${events - before} events without message_stop`);
        requestId = stream.request_id ?? undefined;
        return await stream.finalMessage();
      } catch (err) {
        if (signal.aborted) throw err;
        const tooLong = promptTooLong(err);
        if (tooLong !== undefined) return reactive(tooLong);
        // Nothing arrived: an ordinary failed request (status error, refused connection) —
        // Temporal's retry policy handles it. A stream that failed mid-way falls back instead.
        if (events === before || deps.disableFallback) throw classifyModelError(err);
        tombstones.push(abandoned(err, stream.currentMessage, ctx.attempt, events - before));
        ctx.warn('streaming model call failed mid-way; falling back to a non-streamed request', { events });
        ctx.heartbeat({ phase: 'fallback' });
        fallback = true;
        const got = await nonStreamed(client, request, { ...requestOptions(signal), timeout: NON_STREAMED_TIMEOUT_MS });
        if ('kind' in got) return reactive(got.tooLong);
        requestId = got.requestId;
        return got.message;
      }
    };
    const segments = await wholeTurn(params, requestOnce, (paused, n) => {
      handOff?.shift(paused.content.length);
      ctx.heartbeat({ phase: 'pause_turn', continuation: n });
    });
    if (!Array.isArray(segments)) return segments;
    const last = segments[segments.length - 1] as Anthropic.Message;
    const final: Anthropic.Message = { ...last, content: segments.flatMap((m) => m.content) };
    const { message, refusal, tombstone } = refusedOrAnswer(final, ctx.attempt, events);
    if (tombstone) tombstones.push(tombstone);
    const head = refusal ? sentHead : await deps.transcripts.append(sentHead, [message]);
    clearInterval(ticker);
    // Every request of the turn is paid for; the window is what the last one held.
    const usage = segments.map((m) => toUsage(m.usage)).reduce(addUsage);
    return {
      kind: 'message',
      message: messageForHistory(message),
      usage,
      modelUsage: callModelUsage(input.settings.model, final.usage),
      view: {
        ...prepared.view,
        baseline: { tokens: usageTotal(toUsage(last.usage)), messages: prepared.transcriptLength + (refusal ? 0 : 1) },
      },
      cacheBreakpoints: prepared.breakpoints,
      stopReason: final.stop_reason ?? 'end_turn',
      ...(refusal ? { stopDetails: refusal } : {}),
      ...(segments.length > 1 ? { continuations: segments.length - 1 } : {}),
      head,
      sentHead,
      messageId: final.id,
      fallback,
      tombstones,
      ...(requestId ? { requestId } : {}),
    };
  } finally {
    clearInterval(ticker);
    await handOff?.flushed();
  }
}
