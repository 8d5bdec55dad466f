// The activities a subagent needs besides the pipeline's two phases: waiting for a child session
// that already exists (a parent that re-ran an Agent call attaches to it instead of starting a
// second one, invariant 5), a background agent's wait in its parent session (awaitAgentTask), and
// an isolated agent's worktree (`isolation: "worktree"`: made before the child starts, removed
// after it when the child changed nothing, as the reference does). Uses the worker's client;
// heartbeats while it waits.
import { Context } from '@temporalio/activity';
import type { SessionResult } from '../workflows/definitions';
import { prepareAgentWorktree, settleAgentWorktree } from '../../runtime/agentWorktree';
import { withActivityRuntime } from './runtime';
import type { AgentWorktreeReady } from '../../core/subagents';
export type { AgentWorktreeReady } from '../../core/subagents';

/** What a background agent's wait returns to its parent session. */
export interface AgentTaskResult {
  result: SessionResult;
  /** The worktree, when it was kept (the child changed something); absent when removed or none. */
  worktree?: { path: string; branch: string };
}

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

  /** A background agent, from its parent session: waits for the child session's end, then settles its worktree. */
  async function awaitAgentTask(input: {
    workflowId: string;
    worktree?: AgentWorktreeReady;
  }): Promise<AgentTaskResult> {
    const ctx = Context.current();
    const beat = setInterval(() => ctx.heartbeat({ waitingFor: input.workflowId }), 1000);
    let result: SessionResult;
    try {
      // TaskStop cancels this wait (the parent then cancels the child session itself).
      result = (await Promise.race([
        ctx.client.workflow.getHandle(input.workflowId).result(),
        ctx.cancelled,
      ])) as SessionResult;
    } finally {
      clearInterval(beat);
    }
    if (!input.worktree) return { result };
    const kept = await settleAgentWorktree({ worktree: input.worktree });
    return { result, ...(kept ? { worktree: kept } : {}) };
  }

  // The worktree steps run git and copy files: kept alive under the tool activities' short heartbeat timeout.
  return {
    awaitSubagent,
    prepareAgentWorktree: (input: Parameters<typeof prepareAgentWorktree>[0]) =>
      withActivityRuntime(() => prepareAgentWorktree(input)),
    settleAgentWorktree: (input: Parameters<typeof settleAgentWorktree>[0]) =>
      withActivityRuntime(() => settleAgentWorktree(input)),
    awaitAgentTask,
  };
}
