// Streaming tool execution (the reference's StreamingToolExecutor), written once for both
// schedulers: while the model's message still streams, each tool_use block that is complete is
// handed here, and a concurrency-safe call starts at once — if every block before it in its
// message is safe too (an unsafe block is a barrier, as in partitionToolCalls). The tool phase
// that follows the complete message reuses these executions by tool_use_id (never runs one
// again) and discards those whose id the final message does not hold (a fallback or a retry
// answered differently): cancelled when still running, reported, their results never sent.
// Pure and deterministic: the executor does the I/O (activities under Temporal, direct calls
// in-process); signals and completions drive it in history order.
import type { AgentContext } from './context';
import type { ToolUseBlock } from './apiMessages';
import type { ToolRunResult, ToolUseDescription } from './toolCall';
import { SIGNALS } from './ids';
import { descriptionForHistory, descriptionFromHistory } from './payloads';

/** The signal a model activity sends its own turn workflow for each completed tool_use block. */
export const STREAMED_TOOL_USE_SIGNAL = SIGNALS.streamedToolUse;

/** A tool_use block that was complete (content_block_stop) while its message still streamed. */
export interface StreamedToolUse {
  /** The streamed model call: `<model activity id>#<attempt>` (a retried attempt streams again). */
  stream: string;
  /** The block's index in the streamed message's content. */
  index: number;
  /** id and name whole; the input as history carries it (a preview when large, invariant 11). */
  block: ToolUseBlock;
  /** The stored transcript node holding the whole block (what a tool activity reads its input from). */
  messageRef: string | null;
  /** Described by the model call that streamed it (its `describeWith`): the turn does not ask again. */
  description?: ToolUseDescription;
}

/**
 * The streamedToolUse signal's payload: one block (as first recorded), or a run of blocks that
 * completed together (a model call with `describeWith` sends these).
 */
export type StreamedToolUseSignal =
  | StreamedToolUse
  | {
      stream: string;
      items: Array<Omit<StreamedToolUse, 'stream'>>;
      /** The read-file state the model call stored first (its `stepWrites`): the blocks' calls read it. */
      readFilesRef?: string | null;
      /** The key of the child's static step inputs the model call stored first (core/stepStatics.ts). */
      staticsRef?: string;
    };

/**
 * A run of blocks as the signal carries them (issue 33: the signal rides in history once per step):
 * a description leaves out its `toolUseId` when it is its block's id; `streamedItems` puts it back.
 */
export function signalItems(
  items: ReadonlyArray<Omit<StreamedToolUse, 'stream'>>,
): Array<Omit<StreamedToolUse, 'stream'>> {
  return items.map((i) => {
    if (!i.description) return i;
    const { toolUseId, ...rest } = i.description;
    // …and its flags when true (issue 33: core/payloads.ts descriptionForHistory).
    return { ...i, description: descriptionForHistory(toolUseId === i.block.id ? rest : i.description) };
  });
}

/** The blocks of a streamedToolUse signal, each with its stream (and its description's block id). */
export function streamedItems(signal: StreamedToolUseSignal): StreamedToolUse[] {
  if (!('items' in signal)) return [signal];
  return signal.items.map((i) => ({
    ...i,
    stream: signal.stream,
    ...(i.description
      ? { description: descriptionFromHistory({ ...i.description, toolUseId: i.description.toolUseId ?? i.block.id }) }
      : {}),
  }));
}

/** A call started early: its outcome, and how to stop it when it is discarded. */
export interface EarlyHandle {
  result: Promise<ToolRunResult>;
  cancel(): void;
}

export interface StreamingExecutor {
  /** Safety, summary and `mayAsk` for streamed blocks (tool code: the executor decides). */
  describeStreamed(items: readonly StreamedToolUse[], context: AgentContext): Promise<ToolUseDescription[]>;
  /** Starts one call through the single pipeline; undefined: this call waits for the whole message (e.g. a subagent). */
  startStreamed(item: StreamedToolUse, context: AgentContext, description: ToolUseDescription): EarlyHandle | undefined;
  isInterrupted(): boolean;
}

/** An early execution the final message did not claim: it never reaches the model. */
export interface DiscardedExecution {
  toolUseId: string;
  toolName: string;
  summary: string;
  /** The streamed model call whose block started it. */
  stream: string;
  /** `completed`: it finished (its effect stays, its result is dropped); `cancelled`: it was stopped before it finished. */
  state: 'completed' | 'cancelled';
  reason: string;
}

/** What the tool phase takes over once the message is final. */
export interface EarlyStarts {
  /** Early executions of ids in the final message, by tool_use_id: reused, never run again. */
  reuse: ReadonlyMap<string, EarlyHandle & { description: ToolUseDescription }>;
  /** Descriptions made while streaming, by tool_use_id (not asked for again). */
  descriptions: ReadonlyMap<string, ToolUseDescription>;
}

/** Whether a described block lets an early start happen at all (and lets later blocks start). */
export function startsEarly(d: ToolUseDescription): boolean {
  return d.known && d.concurrencySafe && d.mayAsk !== true;
}

export interface StreamedEntry {
  id: string;
  description?: ToolUseDescription;
  /** Started (here or from an earlier stream), or answered by the ledger: nothing to start. */
  started: boolean;
  /** The executor said this call waits for the whole message (safe: not a barrier). */
  deferred?: boolean;
}

/**
 * Which blocks of one streamed message may start now, in block order: a block starts only when
 * it and every block before it are described and safe (known, concurrency-safe for their input,
 * not asking for approval) — an unsafe or undecided block stops the scan, so nothing after it
 * starts before the message is complete — and while fewer than `max` early calls run.
 */
export function earlyStartable(entries: readonly StreamedEntry[], running: number, max: number): number[] {
  const out: number[] = [];
  let inFlight = running;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i] as StreamedEntry;
    if (!e.description || !startsEarly(e.description)) break;
    if (e.started || e.deferred) continue;
    if (inFlight >= max) break;
    out.push(i);
    inFlight++;
  }
  return out;
}

interface Running extends EarlyHandle {
  item: StreamedToolUse;
  description: ToolUseDescription;
  done: boolean;
}

const UNKNOWN = (name: string): ToolUseDescription => ({
  known: false,
  concurrencySafe: false,
  readOnly: false,
  idempotent: false,
  summary: name,
});

/**
 * One turn's early starts. `add` takes streamed blocks (a signal handler, a stream callback);
 * `finish` closes the intake when the model call ended and hands over what the final message
 * claims. Blocks are described in arrival order, in one call per burst.
 */
export class StreamingToolExecution {
  private readonly streams = new Map<string, Array<StreamedEntry & { item: StreamedToolUse }>>();
  private readonly executions = new Map<string, Running>();
  private readonly descriptions = new Map<string, ToolUseDescription>();
  private running = 0;
  private pumping = false;
  private again = false;
  private closed = false;
  /** Blocks that arrived after the intake closed (a late signal): never started. */
  readonly late: StreamedToolUse[] = [];

  constructor(
    private readonly input: {
      context: AgentContext;
      maxConcurrency: number;
      priorRecords?: ReadonlyMap<string, unknown>;
    },
    private readonly exec: StreamingExecutor,
    private readonly onStart?: (item: StreamedToolUse, description: ToolUseDescription) => void,
  ) {}

  /** Ids started early so far (for progress views). */
  startedIds(): string[] {
    return [...this.executions.keys()];
  }

  add(item: StreamedToolUse): void {
    if (this.closed) {
      this.late.push(item);
      return;
    }
    const entries = this.streams.get(item.stream) ?? [];
    // A repeated signal (the same block delivered twice) changes nothing.
    if (entries.some((e) => e.item.index === item.index || e.id === item.block.id)) return;
    entries.push({ id: item.block.id, item, started: false });
    entries.sort((a, b) => a.item.index - b.item.index);
    this.streams.set(item.stream, entries);
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.again = false;
        if (this.closed || this.exec.isInterrupted()) return;
        const undescribed: Array<StreamedEntry & { item: StreamedToolUse }> = [];
        for (const entries of this.streams.values()) {
          for (const e of entries) {
            if (e.description) continue;
            const known = this.descriptions.get(e.id) ?? e.item.description;
            if (known) {
              e.description = known;
              if (!this.descriptions.has(e.id)) this.descriptions.set(e.id, known);
            } else undescribed.push(e);
          }
        }
        if (undescribed.length > 0) {
          let ds: ToolUseDescription[];
          try {
            ds = await this.exec.describeStreamed(
              undescribed.map((e) => e.item),
              this.input.context,
            );
          } catch {
            ds = [];
          }
          undescribed.forEach((e, i) => {
            // Safety unknown: it does not start early, and nothing after it does (invariant 3).
            const d = ds[i] ?? UNKNOWN(e.item.block.name);
            e.description = d;
            if (!this.descriptions.has(e.id)) this.descriptions.set(e.id, d);
          });
          if (this.closed || this.exec.isInterrupted()) return;
        }
        this.startEligible();
      } while (this.again);
    } finally {
      this.pumping = false;
    }
  }

  private startEligible(): void {
    for (const entries of this.streams.values()) {
      for (const e of entries) {
        // Started from another stream (the same id streamed again) or recorded in an earlier turn: never again.
        if (!e.started && (this.executions.has(e.id) || this.input.priorRecords?.has(e.id))) e.started = true;
      }
      for (const i of earlyStartable(entries, this.running, this.input.maxConcurrency)) {
        const e = entries[i] as StreamedEntry & { item: StreamedToolUse };
        const description = e.description as ToolUseDescription;
        const handle = this.exec.startStreamed(e.item, this.input.context, description);
        if (!handle) {
          e.deferred = true;
          continue;
        }
        e.started = true;
        const run: Running = { ...handle, item: e.item, description, done: false };
        this.executions.set(e.id, run);
        this.running++;
        this.onStart?.(e.item, description);
        const settle = (): void => {
          run.done = true;
          this.running--;
          void this.pump();
        };
        handle.result.then(settle, settle);
      }
    }
  }

  /**
   * The model call is over: no more early starts. `finalIds` are the tool_use ids of the final
   * message (none when the turn was interrupted or failed). Executions of those ids are handed
   * over; the others are discarded — cancelled when still running — and reported once they have
   * stopped (`discarded` resolves then; the tool phase awaits it, so that nothing discarded still
   * runs alongside a call that must run alone).
   */
  finish(finalIds: readonly string[], reason: string): EarlyStarts & { discarded: Promise<DiscardedExecution[]> } {
    this.closed = true;
    const wanted = new Set(finalIds);
    const reuse = new Map<string, EarlyHandle & { description: ToolUseDescription }>();
    const dropped: Running[] = [];
    for (const [id, run] of this.executions) {
      if (wanted.has(id)) reuse.set(id, { result: run.result, cancel: run.cancel, description: run.description });
      else dropped.push(run);
    }
    const discarded = Promise.all(
      dropped.map(async (run): Promise<DiscardedExecution> => {
        if (!run.done) run.cancel();
        // What it came to: a real completion (its effect stays), or stopped (by this, or by an interrupt).
        const outcome = await run.result.catch(() => undefined);
        const completed =
          outcome?.kind === 'ask' || (outcome?.kind === 'done' && outcome.record.status !== 'interrupted');
        return {
          toolUseId: run.item.block.id,
          toolName: run.item.block.name,
          summary: run.description.summary,
          stream: run.item.stream,
          state: completed ? 'completed' : 'cancelled',
          reason,
        };
      }),
    );
    return { reuse, descriptions: new Map(this.descriptions), discarded };
  }
}
