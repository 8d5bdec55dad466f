// A background agent's task in its parent session (issue 19, BACKGROUND_AGENTS_PATCH): the Agent
// call started the child session (parent close policy ABANDON, so it outlives its turn) and
// recorded a `local_agent` task; the session waits for the child as the task's activity
// `task-<id>` (awaitAgentTask: heartbeating, retried after a lost worker — waiting again is
// harmless — and, for `isolation: "worktree"`, it removes the child's worktree when the child
// changed nothing). The end becomes the reference's agent `<task-notification>` (result, usage,
// worktree). TaskStop or the session's end cancels the wait and the child session (killed, no
// notification). SessionTasks (sessionTasks.ts) owns the scopes and the no-continue-as-new rule.
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  getExternalWorkflowHandle,
  isCancellation,
  proxyActivities,
} from '@temporalio/workflow';
import type { BackgroundTask, TaskOutcome } from '../engine/autonomy';
import { activityIds } from '../engine/ids';
import { oneLinePreview } from '../engine/messages';
import { subagentCounters } from '../engine/subagents';
import { agentNotification, type AgentEnd } from '../engine/taskNotifications';
import type { AgentTaskActivities } from '../activities';
import type { AgentTaskResult } from '../activities/subagents';
import type { SessionInput } from './definitions';

const DEFAULT_HEARTBEAT_TIMEOUT_MS = 30_000;

export interface AgentTaskEnd {
  outcome: TaskOutcome;
  /** The notification to queue (absent when it was stopped: no notification, as Bash). */
  notification?: string;
}

/** The notification's view of a finished child session. */
export function agentEndOf(r: AgentTaskResult, durationMs: number): AgentEnd {
  const counters = subagentCounters(r.result);
  const completed = r.result.status === 'completed';
  return {
    state: completed ? 'completed' : 'failed',
    result: r.result.lastText,
    ...(completed ? {} : { error: `its session ended ${r.result.status}: ${r.result.endReason}` }),
    totalTokens: counters.totalTokens ?? 0,
    toolUses: counters.toolUses ?? 0,
    durationMs,
    ...(r.worktree ? { worktree: r.worktree } : {}),
  };
}

/** Waits for the agent's child session in `scope` (cancelled by TaskStop or the session's end). */
export async function runAgentTask(
  task: BackgroundTask,
  input: SessionInput,
  scope: CancellationScope,
): Promise<AgentTaskEnd> {
  const child = task.agent?.sessionId ?? '';
  const act = proxyActivities<AgentTaskActivities>({
    activityId: activityIds.task(task.id),
    summary: `Background agent ${task.id}: ${oneLinePreview(task.description, 80)}`,
    // An agent may run for days: heartbeats, not this, detect a lost worker (then the wait is retried elsewhere).
    startToCloseTimeout: '30 days',
    heartbeatTimeout: input.toolHeartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS,
    cancellationType: 'TRY_CANCEL',
    // The worktree lives where the tools run.
    ...(input.toolTaskQueue ? { taskQueue: input.toolTaskQueue } : {}),
  });
  const view = { id: task.id, description: task.description, toolUseId: task.toolUseId };
  try {
    const r = await scope.run(() =>
      act.awaitAgentTask({ workflowId: child, ...(task.agent?.worktree ? { worktree: task.agent.worktree } : {}) }),
    );
    const endedAt = Date.now();
    const end = agentEndOf(r, endedAt - task.startedAt);
    const outcome: TaskOutcome = {
      state: end.state === 'completed' ? 'completed' : 'failed',
      endedAt,
      exitCode: null,
      ...(end.error ? { error: end.error } : {}),
    };
    return { outcome, notification: agentNotification(view, end) };
  } catch (err) {
    const endedAt = Date.now();
    if (isCancellation(err)) {
      // Stopped: the child session is cancelled too (its running tools with it).
      await CancellationScope.nonCancellable(() => getExternalWorkflowHandle(child).cancel()).catch(() => undefined);
      return { outcome: { state: 'killed', endedAt, exitCode: null } };
    }
    const cause = err instanceof ActivityFailure ? err.cause : err;
    const message = cause instanceof ApplicationFailure || cause instanceof Error ? cause.message : String(cause);
    const end: AgentEnd = {
      state: 'failed',
      error: message,
      totalTokens: 0,
      toolUses: 0,
      durationMs: endedAt - task.startedAt,
    };
    return {
      outcome: { state: 'failed', endedAt, exitCode: null, error: message },
      notification: agentNotification(view, end),
    };
  }
}
