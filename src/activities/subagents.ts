// The one activity a subagent needs besides the pipeline's two phases: waiting for a child session
// that already exists (a parent that re-ran an Agent call attaches to it instead of starting a
// second one, invariant 5). Uses the worker's client; heartbeats while it waits.
import { Context } from '@temporalio/activity';
import type { SessionResult } from '../workflows/definitions';

export function createSubagentActivities() {
  async function awaitSubagent(input: { workflowId: string }): Promise<SessionResult> {
    const ctx = Context.current();
    const beat = setInterval(() => ctx.heartbeat({ waitingFor: input.workflowId }), 1000);
    try {
      return (await ctx.client.workflow.getHandle(input.workflowId).result()) as SessionResult;
    } finally {
      clearInterval(beat);
    }
  }
  return { awaitSubagent };
}
