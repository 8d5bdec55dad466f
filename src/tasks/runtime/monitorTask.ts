// A Monitor task's own run (issue 19): the watch command a Monitor call recorded, run the way a
// background Bash task runs (tools/bash/background.ts `runBackgroundCommand`: the session's sandbox
// plan, its own process group, the reaper's marker, the timeout, the output cap), its stdout and
// stderr in the task's output file, the whole output stored at the end. Its stdout is also split
// into lines with the reference's limits (tasks/core/monitorLines.ts: 500-character lines, 200 ms
// batches, a bucket of 10 events refilled one every 2 s) and each batch handed to `deliver` with a
// sequence number (1, 2, … in order; a batch is delivered only after the one before it), which the
// session keeps once (tasks/core/monitorTasks.ts). The lines that come with the exit are not a batch:
// they are the end notification's `<event>` (the reference's way). When the rate limit gives up
// (30 s of suppressed output) its notice is the last batch and the command is killed.
// No Temporal here: src/tasks/activities/monitorTask.ts is the adapter (batches become signals to the
// session), and the in-process runner can call `watchMonitorCommand` / `runMonitorTask` directly.
import { StringDecoder } from 'node:string_decoder';
import { MonitorLines, MONITOR_LIMITS, type MonitorEmission } from '../core/monitorLines';
import { violationTotal } from '../../core/toolRecords';
import type { MonitorEventBatch, MonitorRunEnd } from '../core/monitorTasks';
import { backgroundTrailer, runBackgroundCommand, type BackgroundCommandResult } from '../../tools/bash';
import type { ToolUseContext } from '../../toolProtocol/Tool';
import { BACKGROUND_HEARTBEAT_MS, createBackgroundTaskCalls, type RunBackgroundTaskInput } from './backgroundTask';
import type { CallRuntime } from '../../runtime/runtime';
import type { ToolDeps } from '../../toolCall/tools';

/** Hands one batch to the session; resolves once it is there (the next waits for it). */
export type DeliverMonitorBatch = (batch: MonitorEventBatch) => Promise<void>;

/** A failed delivery is tried again this many times (the session keeps each seq once, so a doubled one is harmless). */
const DELIVERY_ATTEMPTS = 5;
const DELIVERY_BACKOFF_MS = 200;

export interface WatchOptions {
  taskId: string;
  deliver: DeliverMonitorBatch;
  /** The clock the rate limit reads (tests pass their own). */
  now?: () => number;
  warn?: (message: string) => void;
  onProgress?: (outputBytes: number) => void;
  /** Other limits than the reference's (tests). */
  limits?: Partial<Record<keyof typeof MONITOR_LIMITS, number>>;
}

/** What the watch did: how it ended (for the notification), the last seq delivered, the output's size. */
export interface MonitorWatchResult extends MonitorRunEnd {
  signal: string | null;
  outputBytes: number;
  /** The seq of the last batch handed to `deliver` (0: none). */
  lastSeq: number;
  sandboxed?: boolean;
  violations?: number;
  /** The whole output file as the run wrote it (read through its descriptor); runMonitorTask stores it, never returns it. */
  output: string;
}

export type RunMonitorTaskInput = RunBackgroundTaskInput;
export interface RunMonitorTaskResult extends Omit<MonitorWatchResult, 'output'> {
  /** `taskoutput-<sha256>` in the store; absent when it could not be stored or nothing ran. */
  outputRef?: string;
}

function endState(r: BackgroundCommandResult, rateStopped: boolean): MonitorRunEnd['state'] {
  if (rateStopped || r.interrupted) return 'killed';
  if (r.timedOut) return 'timed_out';
  if (r.outputCapped || r.stoppedByGuard !== undefined) return 'failed';
  return r.exitCode === 0 ? 'completed' : 'failed';
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Delivers batches one after another, each tried a few times; a batch that cannot be delivered is reported and skipped. */
class Delivery {
  private chain: Promise<void> = Promise.resolve();
  seq = 0;

  constructor(
    private readonly opts: WatchOptions,
    private readonly stop: () => void,
  ) {}

  send(emissions: MonitorEmission[]): void {
    for (const e of emissions) {
      if (e.kind === 'stop') this.stop();
      const batch: MonitorEventBatch = { taskId: this.opts.taskId, seq: ++this.seq, kind: e.kind, text: e.text };
      this.chain = this.chain.then(() => this.deliver(batch));
    }
  }

  private async deliver(batch: MonitorEventBatch): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.opts.deliver(batch);
      } catch (err) {
        if (attempt >= DELIVERY_ATTEMPTS) {
          this.opts.warn?.(`monitor ${batch.taskId}: event ${batch.seq} was not delivered: ${(err as Error).message}`);
          return;
        }
        await pause(DELIVERY_BACKOFF_MS * 2 ** (attempt - 1));
      }
    }
  }

  /** Resolves once every batch sent so far was delivered (or given up). */
  settled(): Promise<void> {
    return this.chain;
  }
}

/**
 * Runs a monitor's watch command (`ctx.agent.cwd` is where it runs; `ctx.abortSignal` stops it) and
 * hands its stdout to `opts.deliver` as numbered batches; resolves when the command has ended and
 * every batch was delivered.
 */
export async function watchMonitorCommand(
  spec: { command: string; timeoutMs: number; outputPath: string },
  ctx: ToolUseContext,
  opts: WatchOptions,
): Promise<MonitorWatchResult> {
  const now = opts.now ?? Date.now;
  const limits = { ...MONITOR_LIMITS, ...opts.limits } as typeof MONITOR_LIMITS;
  const lines = new MonitorLines(now(), limits);
  const decoder = new StringDecoder('utf8');
  // TaskStop (the caller's signal) or the rate limit's stop: either kills the process group.
  const stopper = new AbortController();
  const onAbort = (): void => stopper.abort();
  if (ctx.abortSignal.aborted) stopper.abort();
  else ctx.abortSignal.addEventListener('abort', onAbort, { once: true });
  let rateStopped = false;
  const delivery = new Delivery(opts, () => {
    rateStopped = true;
    stopper.abort();
  });
  let batchTimer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    batchTimer = undefined;
    delivery.send(lines.flush(now()));
  };
  const onStdout = (chunk: Buffer): void => {
    if (lines.push(decoder.write(chunk)) && !batchTimer) batchTimer = setTimeout(flush, limits.batchWindowMs);
  };
  try {
    // The reference's last line of the output file, as a background command's ('[killed]' after a stop).
    const r = await runBackgroundCommand(
      spec,
      { ...ctx, abortSignal: stopper.signal },
      (bytes) => opts.onProgress?.(bytes),
      onStdout,
      (end) => (endState(end, rateStopped) === 'killed' ? '\n[killed]\n' : backgroundTrailer(end)),
    );
    clearTimeout(batchTimer);
    batchTimer = undefined;
    const state = endState(r, rateStopped);
    // The lines that came with the exit: the end notification's event (none after a stop or the expiry).
    let lastEvent: string | undefined;
    if (state === 'completed' || state === 'failed') {
      lines.push(decoder.end());
      for (const e of lines.flush(now(), true))
        if (e.kind === 'event') lastEvent = e.text;
        else delivery.send([e]);
    }
    await delivery.settled();
    return {
      state,
      exitCode: r.exitCode,
      signal: r.signal,
      outputBytes: r.outputBytes,
      events: lines.events(),
      lastSeq: delivery.seq,
      output: r.output,
      ...(lastEvent !== undefined ? { lastEvent } : {}),
      ...(rateStopped ? { rateStopped: true } : {}),
      ...(r.sandbox ? { sandboxed: r.sandbox.sandboxed, violations: violationTotal(r.sandbox) } : {}),
      ...(r.outputCapped
        ? { error: `its output passed the ${r.outputCapped.capBytes}-byte limit; its process group was killed` }
        : {}),
      ...(r.stoppedByGuard !== undefined ? { error: `stopped: ${r.stoppedByGuard}` } : {}),
    };
  } finally {
    clearTimeout(batchTimer);
    ctx.abortSignal.removeEventListener('abort', onAbort);
  }
}

export function createMonitorTaskCalls(deps: ToolDeps) {
  const background = createBackgroundTaskCalls(deps);

  /** A monitor task's whole run for any scheduler: heartbeats, the watch, the output stored. */
  async function runMonitorTask(
    input: RunMonitorTaskInput,
    rt: CallRuntime,
    deliver: DeliverMonitorBatch,
  ): Promise<RunMonitorTaskResult> {
    let outputBytes = 0;
    let lastSeq = 0;
    const beat = (): void => rt.heartbeat({ taskId: input.task.id, outputBytes, lastSeq });
    beat();
    const timer = setInterval(beat, BACKGROUND_HEARTBEAT_MS);
    const counted: DeliverMonitorBatch = async (b) => {
      await deliver(b);
      lastSeq = b.seq;
    };
    try {
      let r: MonitorWatchResult;
      try {
        const ctx = await background.contextFor(input, rt.signal);
        const command = await background.wholeCommand(input);
        r = await watchMonitorCommand({ ...input.task, command }, ctx, {
          taskId: input.task.id,
          deliver: counted,
          warn: (m) => rt.warn(m),
          onProgress: (bytes) => {
            outputBytes = bytes;
          },
        });
      } catch (err) {
        const none = { exitCode: null, signal: null, outputBytes, events: 0, lastSeq };
        if (rt.signal.aborted) return { state: 'killed', ...none, error: 'stopped before it started' };
        return { state: 'failed', ...none, error: (err as Error).message };
      }
      const { output, ...end } = r;
      const outputRef = await background.storeOutput(output, rt.warn);
      return { ...end, ...(outputRef ? { outputRef } : {}) };
    } finally {
      clearInterval(timer);
    }
  }

  return { runMonitorTask };
}
