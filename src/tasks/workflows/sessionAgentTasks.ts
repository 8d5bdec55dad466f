// A background agent's task in its parent session (issue 19, BACKGROUND_AGENTS_PATCH): the Agent
// call started the child session (parent close policy ABANDON, so it outlives its turn) and
// recorded a `local_agent` task; the session waits for the child as the task's activity
// `task-<id>` (awaitAgentTask: heartbeating, retried after a lost worker — waiting again is
// harmless — and, for `isolation: "worktree"`, it removes the child's worktree when the child
// changed nothing). The end becomes the reference's agent `<task-notification>` (result, usage,
// worktree). TaskStop or the session's end cancels the wait and the child session (killed; after
// TaskStop the scheduler queues the "was stopped" notification, patch agent-stop-notice). The task
// runs (tasks/core/taskRuns.ts, over sessionTasks.ts's primitives) own the scope and the
// no-continue-as-new rule.
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  getExternalWorkflowHandle,
  isCancellation,
  proxyActivities,
} from '@temporalio/workflow';
import type { BackgroundTask } from '../../core/autonomy';
import { activityIds } from '../../core/ids';
import { oneLinePreview } from '../../core/apiMessages';
import {
  agentCompletedTaskEnd,
  agentFailedTaskEnd,
  agentStoppedTaskEnd,
  type AgentTaskEnd,
} from '../../core/subagents';
import type { AgentTaskActivities } from '../../temporal/activities';
import type { SessionInput } from '../../temporal/workflows/definitions';

const DEFAULT_HEARTBEAT_TIMEOUT_MS = 30_000;

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
  try {
    const r = await scope.run(() =>
      act.awaitAgentTask({ workflowId: child, ...(task.agent?.worktree ? { worktree: task.agent.worktree } : {}) }),
    );
    return agentCompletedTaskEnd(task, r.result, Date.now(), r.worktree);
  } catch (err) {
    const endedAt = Date.now();
    if (isCancellation(err)) {
      // Stopped: the child session is cancelled too (its running tools with it).
      await CancellationScope.nonCancellable(() => getExternalWorkflowHandle(child).cancel()).catch(() => undefined);
      return agentStoppedTaskEnd(endedAt);
    }
    const cause = err instanceof ActivityFailure ? err.cause : err;
    const message = cause instanceof ApplicationFailure || cause instanceof Error ? cause.message : String(cause);
    return agentFailedTaskEnd(task, message, endedAt);
  }
}
