// One model call for any scheduler (the `callModel` activity's core, and the in-process runner's):
// one Messages API call, streamed, heartbeating per event, with a non-streamed fallback when a
// stream fails mid-way. No Temporal here: a failure is a ModelCallError that says whether waiting
// may help; the activity turns it into an ApplicationFailure (src/temporal/activities/errors.ts).
// Its parts: the shapes (modelTypes.ts), the errors (modelErrors.ts), the request (modelRequest.ts),
// the stream and its fallback (modelStream.ts), the answer (modelResponse.ts).
import type Anthropic from '@anthropic-ai/sdk';
import { callModelUsage } from '../core/modelUsage';
import { messageForHistory } from '../core/payloads';
import { promptTooLongTokens, usageTotal } from '../core/contextWindow';
import { withMemoryText } from '../core/memoryReminder';
import { loadMemoryText } from '../claudeMd/blobs';
import { prepareModelRequest } from './modelRequest';
import { addUsage, refusedOrAnswer, toUsage } from './modelResponse';
import { StreamedRequests, toolUseHandOff, wholeTurn } from './modelStream';
import { recordOfferedTools } from '../toolCall/offeredTools';
import { withStoredSettings } from './storedSettings';
import type { CallRuntime } from './runtime';
import type { CallModelInput, CompactionNeeded, ModelCallOutcome, ModelDeps } from './modelTypes';
import type { AssistantMessage, ToolUseBlock } from '../core/apiMessages';
import type { ToolUseDescription } from '../core/toolCall';

export type {
  CallModelInput,
  CallModelResult,
  CompactionNeeded,
  ModelCallOutcome,
  ModelDeps,
  ModelSettings,
  Tombstone,
  ToolDefinition,
} from './modelTypes';
export { classifyModelError, isSpendLimit, ModelCallError } from './modelErrors';
export { MAX_PAUSE_CONTINUATIONS, NON_STREAMED_TIMEOUT_MS } from './modelStream';

/**
 * The request of a call: the turn's messages appended to the transcript (with the memory text),
 * then the request shaped (modelRequest.ts) — or the compaction it needs first. With deferred
 * tools, what the request carried is recorded for the schema errors of its tool calls.
 */
async function prepareCall(deps: ModelDeps, input: CallModelInput & { toolNames: string[] }, ctx: CallRuntime) {
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
  if (prepared.kind === 'request')
    // Advice only: a store that refuses it costs the hint, not the call.
    await recordOfferedTools(deps.transcripts, sentHead, prepared.params.tools as Array<{ name: string }>).catch(
      (err: unknown) =>
        ctx.warn(`could not record the request's tools: ${err instanceof Error ? err.message : String(err)}`),
    );
  return { sentHead, prepared };
}

/** One model call: streamed, with a non-streamed fallback when the stream fails mid-way. */
export async function callModelWith(
  deps: ModelDeps,
  wire: CallModelInput,
  ctx: CallRuntime,
): Promise<ModelCallOutcome> {
  const input = await withStoredSettings(wire, deps.toolSettings);
  const { sentHead, prepared } = await prepareCall(deps, input, ctx);
  if (prepared.kind === 'compact') return { ...prepared, sentHead };
  const { params } = prepared;
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
  // The non-streamed fallback may take minutes without events: keep heartbeating meanwhile.
  const ticker = setInterval(() => ctx.heartbeat({ phase: 'waiting' }), 5000);
  const describe = describer(deps, input);
  const onStreamed = ctx.onStreamedToolUses?.bind(ctx);
  const handOff =
    input.streamToolUses && onStreamed
      ? toolUseHandOff(deps, sentHead, ctx, (items) => onStreamed(items, describe !== undefined), describe)
      : undefined;
  try {
    const requests = new StreamedRequests(client, ctx, requestOptions, reactive, handOff, deps.disableFallback);
    const segments = await wholeTurn(
      params,
      (request) => requests.request(request),
      (paused, n) => {
        handOff?.shift(paused.content.length);
        ctx.heartbeat({ phase: 'pause_turn', continuation: n });
      },
    );
    if (!Array.isArray(segments)) return segments;
    const last = segments[segments.length - 1] as Anthropic.Message;
    const final: Anthropic.Message = { ...last, content: segments.flatMap((m) => m.content) };
    const { message, refusal, tombstone } = refusedOrAnswer(final, ctx.attempt, requests.events);
    if (tombstone) requests.tombstones.push(tombstone);
    const head = refusal ? sentHead : await deps.transcripts.append(sentHead, [message]);
    await handOff?.flushed();
    const descriptions = describe ? await describeAnswer(message, describe, handOff?.described(), ctx) : undefined;
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
      fallback: requests.fallback,
      tombstones: requests.tombstones,
      ...(requests.requestId ? { requestId: requests.requestId } : {}),
      ...(descriptions ? { descriptions } : {}),
    };
  } finally {
    clearInterval(ticker);
    await handOff?.flushed();
  }
}

/** With `describeWith` (and tool code on this worker): the describeToolUses core for whole blocks. */
function describer(
  deps: ModelDeps,
  input: CallModelInput,
): ((blocks: ToolUseBlock[]) => Promise<ToolUseDescription[]>) | undefined {
  const describeWith = input.describeWith;
  const core = deps.describeToolUses;
  if (!describeWith || !core) return undefined;
  return (blocks) => core({ session: describeWith.session, blocks, messageRef: null, context: describeWith.context });
}

/**
 * The descriptions of the answer's tool_use blocks that the turn does not have yet (not handed
 * over described while streaming), in block order. Undefined when describing fails: the turn then
 * describes them itself.
 */
async function describeAnswer(
  message: AssistantMessage,
  describe: (blocks: ToolUseBlock[]) => Promise<ToolUseDescription[]>,
  handed: ReadonlyMap<string, ToolUseDescription> | undefined,
  ctx: CallRuntime,
): Promise<ToolUseDescription[] | undefined> {
  const missing = message.content.filter((b): b is ToolUseBlock => b.type === 'tool_use' && !handed?.has(b.id));
  try {
    const fresh = missing.length > 0 ? await describe(missing) : [];
    return fresh.length === missing.length ? fresh : undefined;
  } catch (err) {
    ctx.warn(`could not describe the answer's tool_use blocks: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}
