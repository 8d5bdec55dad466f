// Around one streamed request: tool_use blocks handed to the turn while the message still streams,
// the non-streamed fallback, and a paused turn continued (pause_turn).
import Anthropic from '@anthropic-ai/sdk';
import type { Message, ToolUseBlock } from '../core/apiMessages';
import type { ToolUseDescription } from '../core/toolCall';
import { inputForHistory } from '../core/payloads';
import type { CallRuntime, HandedToolUse } from './runtime';
import { ModelCallError, classifyModelError, promptTooLong } from './modelErrors';
import type { CompactionNeeded, ModelDeps, Tombstone } from './modelTypes';
import { abandoned } from './modelResponse';

/**
 * How many times one model call continues a turn the API paused (stop_reason pause_turn) before it
 * gives up with a permanent error: each continuation is a full request, and a turn that never
 * finishes would otherwise loop unwatched.
 */
export const MAX_PAUSE_CONTINUATIONS = 8;

/**
 * A streamed request heartbeats at most once per this many ms of its events, the first once it has
 * run this long (the details say how many events arrived). Every heartbeat() call is encoded and
 * handed to the worker's core, which sends at most one a second (HEARTBEAT_THROTTLE_MS), the first
 * at once: one call per event was ≈ 7 % of the worker's main thread in the cost bench, and a
 * request answered within 250 ms sent a heartbeat (a server write, a Temporal Cloud action) for
 * nothing (issue 33). A cancellation arrives with the next send: for a longer request these and
 * the activity's keepalive (KEEPALIVE_MS) keep sending.
 */
export const STREAM_HEARTBEAT_MS = 250;

/**
 * How long a tool_use block completed while its message streams waits before it is handed to the
 * turn (a streamedToolUse signal: an event, a workflow task, a Temporal Cloud action): a message
 * that ends within this time carries the block itself, and its call starts at most this much later
 * than it could have. Blocks completing meanwhile go in the same hand-off (issue 33). Measured
 * (`node dist/bench/run.js --only cost`, the fake API answering at once, load ≈ 12): 0.35
 * signals, 8.2 events and 2.4 KB per tool call with no hold (the next turn of the event loop),
 * 0.14, 6.8 and 2.1 KB with 20 ms, none, 6.3 and 1.9 KB with 100 ms; the hand-off median stayed
 * ≤ 24 ms in each (BENCHMARKS.md).
 */
export const STREAM_HANDOFF_HOLD_MS = 100;

/** The non-streamed fallback's own timeout (the model activity's start-to-close is the same). */
export const NON_STREAMED_TIMEOUT_MS = 60 * 60_000;

/** Each block stored as a transcript node of its own, in order, as history carries it (a large input a preview). */
async function storedBlocks(
  deps: ModelDeps,
  sentHead: string | null,
  batch: Array<{ index: number; whole: ToolUseBlock }>,
): Promise<HandedToolUse[]> {
  const items: HandedToolUse[] = [];
  for (const { index, whole } of batch) {
    const messageRef = await deps.transcripts.append(sentHead, [{ role: 'assistant', content: [whole] }]);
    items.push({ index, block: { ...whole, input: inputForHistory(whole.input) }, messageRef });
  }
  return items;
}

/** Runs `fn` after `ms` (≤ 0: once the events already received are read); returns its cancel. */
function later(fn: () => void, ms: number): () => void {
  if (ms <= 0) {
    const t = setImmediate(fn);
    return () => clearImmediate(t);
  }
  const t = setTimeout(fn, ms);
  t.unref?.();
  return () => clearTimeout(t);
}

/**
 * Follows a message stream's events and hands the tool_use blocks to `handOff` as they complete
 * (content_block_stop), in order, without holding up the stream: the input is the block's own
 * JSON (a block whose JSON does not parse is left to the complete message), stored as a
 * transcript node of its own (payloads by reference: the tool activity reads it from there).
 * Blocks that complete while a hand-off is under way go together in the next one (one signal per
 * run of blocks, not one per block), each described by `describe` when given. A block is handed
 * over once it has waited `holdMs` (STREAM_HANDOFF_HOLD_MS) with its message still streaming —
 * blocks completing meanwhile join it. Blocks still waiting when the message is complete are not
 * handed over (nor stored on their own): the answer carries them (`flushed`).
 */
export function toolUseHandOff(
  deps: ModelDeps,
  sentHead: string | null,
  ctx: CallRuntime,
  handOff: (items: HandedToolUse[]) => Promise<void>,
  describe?: (blocks: ToolUseBlock[]) => Promise<ToolUseDescription[]>,
  holdMs = STREAM_HANDOFF_HOLD_MS,
) {
  const json = new Map<number, { id: string; name: string; buf: string }>();
  const warn = (what: string, err: unknown): void =>
    ctx.warn(`could not ${what} while streaming: ${err instanceof Error ? err.message : String(err)}`);
  // Blocks complete, not handed over yet (stored as nodes of their own when they are): when, and held long enough.
  const ready: Array<{ index: number; whole: ToolUseBlock; at: number; held: boolean }> = [];
  let sending: Promise<void> | undefined;
  let timer: (() => void) | undefined;
  let closed = false;
  /** Descriptions the turn has (handed over with their blocks), by tool_use id. */
  const described = new Map<string, ToolUseDescription>();
  // After a pause_turn the continuation's blocks count from 0 again: they follow the paused ones.
  let offset = 0;
  const send = async (batch: Array<{ index: number; whole: ToolUseBlock }>): Promise<void> => {
    const [items, ds] = await Promise.all([
      storedBlocks(deps, sentHead, batch),
      describe
        ? describe(batch.map((b) => b.whole)).catch((err: unknown): ToolUseDescription[] => {
            warn('describe the tool_use blocks', err);
            return [];
          })
        : [],
    ]);
    await handOff(items.map((item, i) => (ds[i] ? { ...item, description: ds[i] } : item)));
    ds.forEach((d, i) => described.set((batch[i] as { whole: ToolUseBlock }).whole.id, d));
  };
  const pump = (): void => {
    if (sending || closed || ready.length === 0 || timer) return;
    // Held until the oldest has waited `holdMs`: a message that ends meanwhile carries its blocks.
    const oldest = ready[0] as { at: number; held: boolean };
    if (!oldest.held) {
      const over = (): void => {
        timer = undefined;
        oldest.held = true;
        pump();
      };
      timer = later(over, oldest.at + holdMs - Date.now());
      return;
    }
    const batch = ready.splice(0);
    sending = send(batch)
      // Blocks that could not be handed over start when the message is complete, as without streaming.
      .catch((err: unknown) => warn(`hand tool_use ${batch.map((b) => b.whole.id).join(', ')} to the turn`, err))
      .finally(() => {
        sending = undefined;
        pump();
      });
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
        ready.push({
          index: offset + event.index,
          whole: { type: 'tool_use', id: b.id, name: b.name, input },
          at: Date.now(),
          held: false,
        });
        pump();
      }
    },
    /** The next stream continues a paused turn whose blocks so far numbered `blocks` more. */
    shift(blocks: number): void {
      offset += blocks;
      json.clear();
    },
    /** The descriptions handed over with their blocks, by tool_use id. */
    described: (): ReadonlyMap<string, ToolUseDescription> => described,
    /**
     * The message is complete: no more hand-offs; the one under way ends before the activity
     * answers (so that the turn sees it first). Blocks not handed over yet are the answer's.
     */
    flushed: async (): Promise<void> => {
      closed = true;
      timer?.();
      timer = undefined;
      await sending;
    },
  };
}

/**
 * The non-streamed request that replaces a failed stream. An explicit timeout: without one the SDK
 * refuses a non-streamed request whose max_tokens it expects to take over ten minutes (any
 * max_tokens above ~21k); heartbeats keep the activity alive meanwhile, its own timeout bounds the
 * whole call. A prompt the API finds too long asks for compaction.
 */
export async function nonStreamed(
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
export async function wholeTurn<P extends { messages: Anthropic.MessageParam[] }>(
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

/**
 * The requests of one model call, each streamed, with the non-streamed fallback when a stream fails
 * mid-way; what they received (events), what they abandoned (tombstones), whether one fell back and
 * the last request id.
 */
export class StreamedRequests {
  readonly tombstones: Tombstone[] = [];
  fallback = false;
  requestId: string | undefined;
  events = 0;

  constructor(
    private readonly client: Anthropic,
    private readonly ctx: CallRuntime,
    private readonly options: (signal: AbortSignal) => Anthropic.RequestOptions & { signal: AbortSignal },
    private readonly reactive: (message: string) => CompactionNeeded,
    private readonly handOff: { onEvent(event: Anthropic.MessageStreamEvent): void } | undefined,
    private readonly disableFallback: boolean | undefined,
  ) {}

  /** One request, streamed, with the non-streamed fallback when the stream fails mid-way. */
  async request(request: Anthropic.MessageCreateParamsNonStreaming): Promise<Anthropic.Message | CompactionNeeded> {
    const { ctx } = this;
    const signal = ctx.signal;
    let stopped = false;
    const before = this.events;
    const stream = this.client.messages.stream(request, this.options(signal));
    let beatAt = performance.now();
    try {
      for await (const event of stream) {
        this.events++;
        if (event.type === 'message_stop') stopped = true;
        const now = performance.now();
        if (now - beatAt >= STREAM_HEARTBEAT_MS) {
          beatAt = now;
          ctx.heartbeat({ phase: 'streaming', events: this.events, type: event.type });
        }
        this.handOff?.onEvent(event);
      }
      // A clean EOF before message_stop (a proxy or the connection closed politely): the SDK hands
      // back what it accumulated, a block maybe cut open with its partial input and no stop reason.
      // That is a failed stream, not an answer (issue 31): a truncated tool_use must never run.
      if (!stopped) throw new Error(`the stream ended after ${this.events - before} events without message_stop`);
      this.requestId = stream.request_id ?? undefined;
      return await stream.finalMessage();
    } catch (err) {
      if (signal.aborted) throw err;
      const tooLong = promptTooLong(err);
      if (tooLong !== undefined) return this.reactive(tooLong);
      // Nothing arrived: an ordinary failed request (status error, refused connection) —
      // Temporal's retry policy handles it. A stream that failed mid-way falls back instead.
      if (this.events === before || this.disableFallback) throw classifyModelError(err);
      this.tombstones.push(abandoned(err, stream.currentMessage, ctx.attempt, this.events - before));
      ctx.warn('streaming model call failed mid-way; falling back to a non-streamed request', { events: this.events });
      ctx.heartbeat({ phase: 'fallback' });
      this.fallback = true;
      const got = await nonStreamed(this.client, request, {
        ...this.options(signal),
        timeout: NON_STREAMED_TIMEOUT_MS,
      });
      if ('kind' in got) return this.reactive(got.tooLong);
      this.requestId = got.requestId;
      return got.message;
    }
  }
}
