// The CallRuntime of a call run as a Temporal activity: its cancellation signal, heartbeats,
// attempt, logger and the channel of streaming tool execution, from the activity's Context.
import { Context } from '@temporalio/activity';
import type { CallRuntime } from '../calls/runtime';
import { STREAMED_TOOL_USE_SIGNAL, type StreamedToolUseSignal } from '../engine/streaming';

export function activityRuntime(): CallRuntime {
  const ctx = Context.current();
  const wf = ctx.info.workflowExecution;
  return {
    signal: ctx.cancellationSignal,
    heartbeat: (d) => ctx.heartbeat(d),
    attempt: ctx.info.attempt,
    callKey: `${wf?.workflowId ?? '?'}/${ctx.info.activityId}`,
    warn: (m, meta) => ctx.log.warn(m, meta),
    // The channel of streaming tool execution: a signal to this activity's own turn workflow
    // through the worker's client (durable and ordered; see docs/architecture.md).
    // A turn that asked for described blocks (callModel's `describeWith`) takes a run of blocks in
    // one signal; a turn recorded before takes one block per signal.
    onStreamedToolUses: async (items, batched) => {
      if (!wf) throw new Error('no workflow to hand the block to');
      const stream = `${ctx.info.activityId}#${ctx.info.attempt}`;
      const handle = ctx.client.workflow.getHandle(wf.workflowId, wf.runId);
      if (batched) await handle.signal(STREAMED_TOOL_USE_SIGNAL, { stream, items } satisfies StreamedToolUseSignal);
      else for (const item of items) await handle.signal(STREAMED_TOOL_USE_SIGNAL, { ...item, stream });
    },
  };
}
