// The CallRuntime of a call run as a Temporal activity: its cancellation signal, heartbeats,
// attempt, logger and the channel of streaming tool execution, from the activity's Context. And
// what every such activity does around its core (`withActivityRuntime`, issue 35):
// - a keepalive from its first second to its end, whatever the core is doing (starting an MCP
//   server, reading the store, making a worktree): the heartbeat timeouts are a few seconds
//   (core/heartbeats.ts), and a quiet stretch longer than that would retry a living call;
// - a worker that shuts down (SIGTERM: Worker.shutdown, then its grace time) cancels its running
//   activities with reason WORKER_SHUTDOWN. Such an attempt is handed back: it fails with the
//   retryable WORKER_SHUTDOWN failure and is retried at once on another worker — never completed
//   as "interrupted" (nobody interrupted it) nor failed as a cancellation (the turn would take it
//   for one). A tool call stopped mid-way keeps 'started' in the execution ledger, so its retry
//   re-runs it only if the tool is idempotent, and otherwise answers `unknown_outcome`.
import { Context } from '@temporalio/activity';
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import type { CallRuntime } from '../../runtime/runtime';
import { ACTIVITY_KEEPALIVE, startHeartbeats } from '../../runtime/heartbeat';
import type { ErrorCode } from '../../core/errors';
import { signalItems, STREAMED_TOOL_USE_SIGNAL, type StreamedToolUseSignal } from '../../core/streaming';
import { terminalLine } from '../../core/terminalText';

export function activityRuntime(
  heartbeat?: (details?: unknown) => void,
  signalFields: { readFilesRef?: string | null; staticsRef?: string } = {},
): CallRuntime {
  const ctx = Context.current();
  const wf = ctx.info.workflowExecution;
  return {
    signal: ctx.cancellationSignal,
    heartbeat: heartbeat ?? ((d) => ctx.heartbeat(d)),
    attempt: ctx.info.attempt,
    callKey: `${wf?.workflowId ?? '?'}/${ctx.info.activityId}`,
    // The worker's log reaches the operator's terminal: notices carry hook output, file names and
    // sandbox reports the agent chose (issue 30, L6), so their controls are shown, not obeyed.
    warn: (m, meta) => ctx.log.warn(terminalLine(m), meta),
    // The channel of streaming tool execution: a signal to this activity's own turn workflow
    // through the worker's client (durable and ordered; see docs/architecture.md).
    // A turn that asked for described blocks (callModel's `describeWith`) takes a run of blocks in
    // one signal; a turn recorded before takes one block per signal.
    onStreamedToolUses: async (items, batched) => {
      if (!wf) throw new Error('no workflow to hand the block to');
      const stream = `${ctx.info.activityId}#${ctx.info.attempt}`;
      const handle = ctx.client.workflow.getHandle(wf.workflowId, wf.runId);
      if (batched)
        await handle.signal(STREAMED_TOOL_USE_SIGNAL, {
          stream,
          items: signalItems(items),
          ...signalFields,
        } satisfies StreamedToolUseSignal);
      else for (const item of items) await handle.signal(STREAMED_TOOL_USE_SIGNAL, { ...item, stream });
    },
  };
}

/** This attempt was cancelled because its worker is shutting down (not by its workflow). */
export function workerShuttingDown(ctx: Context = Context.current()): boolean {
  if (!ctx.cancellationSignal.aborted) return false;
  if (ctx.cancellationDetails?.workerShutdown) return true;
  const reason: unknown = ctx.cancellationSignal.reason;
  return reason instanceof Error && reason.message === 'WORKER_SHUTDOWN';
}

/** The failure that hands an attempt back: retryable, retried without the policy's backoff; benign (an expected end, logged at debug). */
export function handedBack(ctx: Context = Context.current()): ApplicationFailure {
  return ApplicationFailure.create({
    type: 'WORKER_SHUTDOWN' satisfies ErrorCode,
    message: `the worker running this ${ctx.info.activityType} shut down (attempt ${ctx.info.attempt}); handed back to run on another worker`,
    nextRetryDelay: 100,
    category: ApplicationFailureCategory.BENIGN,
  });
}

/**
 * Runs a call's core as this activity: with the activity's runtime, a keepalive that resends the
 * core's last heartbeat details whenever nothing was sent for a second, and handing the attempt
 * back when the worker shuts down. `stopped` says whether a result is what a cancelled core
 * returns instead of throwing (a tool call's interrupted record): under a shutdown that too is
 * handed back.
 */
export async function withActivityRuntime<T>(
  core: (rt: CallRuntime) => Promise<T>,
  stopped: (result: T) => boolean = () => false,
  signalFields: { readFilesRef?: string | null; staticsRef?: string } = {},
): Promise<T> {
  const ctx = Context.current();
  let details: unknown;
  const keepalive = startHeartbeats(() => ctx.heartbeat(details), ACTIVITY_KEEPALIVE);
  const rt = activityRuntime((d) => {
    details = d;
    ctx.heartbeat(d);
    keepalive.sent();
  }, signalFields);
  let result: T;
  try {
    result = await core(rt);
  } catch (err) {
    throw workerShuttingDown(ctx) ? handedBack(ctx) : err;
  } finally {
    keepalive.stop();
  }
  if (stopped(result) && workerShuttingDown(ctx)) throw handedBack(ctx);
  return result;
}
