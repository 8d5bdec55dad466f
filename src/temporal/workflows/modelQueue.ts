// Where a turn's model calls run (issue 34): on the session's model task queue when it names one,
// with its root session as the fairness key, so that the workers of that queue share one limit
// (docs/deployment.md "One rate limit for many workers"). Only the activity's options change — the
// same activity type and id, the same commands: a turn recorded before replays as it was.
import { workflowInfo, type ActivityOptions } from '@temporalio/workflow';
import { fairnessKeyOf } from '../../core/modelLimit';
import type { TurnWorkflowInput } from './definitions';

/** The options a model call (callModel, compactContext) adds to its proxy's: none without a model queue. */
export function modelCallPlacement(input: Pick<TurnWorkflowInput, 'modelTaskQueue'>): ActivityOptions {
  if (!input.modelTaskQueue) return {};
  const info = workflowInfo();
  // The turn's root is the top session: a session and every agent it starts share one fair share.
  const root = info.root?.workflowId ?? info.parent?.workflowId ?? info.workflowId;
  return { taskQueue: input.modelTaskQueue, priority: { fairnessKey: fairnessKeyOf(root) } };
}
