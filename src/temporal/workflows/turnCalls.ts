// What a turn step calls besides its executor's methods (turn.ts): the model, compaction, describe
// and subagent-wait activities with their options, the tool activities' options, the model call's
// descriptions of the blocks it streamed, and the wait for a human's approval.
import {
  CancellationScope,
  condition,
  patched,
  proxyActivities,
  proxyLocalActivities,
  type ActivityOptions,
  type ExternalWorkflowHandle,
} from '@temporalio/workflow';
import type { AgentContext } from '../../core/context';
import type { ToolUseBlock } from '../../core/apiMessages';
import { approvalTimeoutDenial } from '../../core/schedulerShared';
import type { Approval, ToolUseDescription } from '../../core/turn';
import type { CallModelInput, CallModelResult } from '../../runtime/model';
import type { CompactionActivities, DescribeActivities, ModelActivities, SubagentWaitActivities } from '../activities';
import type { ToolSessionInput } from '../../toolCall/toolTypes';
import { MODEL_HEARTBEAT_TIMEOUT_MS, TOOL_HEARTBEAT_TIMEOUT_MS } from '../../core/heartbeats';
import {
  APPROVAL_OUTCOME_PATCH,
  approvalPendingSignal,
  approvalResolvedSignal,
  type PendingApproval,
  type TurnWorkflowInput,
} from './definitions';

// One attempt per model activity: the turn itself waits out outages (core/retry.ts), so that the
// waiting is visible (status, ls, UI details) and bounded only by the session's own limits.
export const model = proxyActivities<ModelActivities>({
  // A long answer (a large max_tokens) may stream for many minutes; heartbeats detect a lost worker.
  startToCloseTimeout: '60 minutes',
  // Heartbeats come with every streamed event and a keepalive every second: 10 s without one
  // means the worker is gone, and the call is tried again (elsewhere) after a backoff.
  heartbeatTimeout: MODEL_HEARTBEAT_TIMEOUT_MS,
  retry: { maximumAttempts: 1 },
  cancellationType: 'WAIT_CANCELLATION_COMPLETED',
});

// A compaction is a model call too: one attempt, heartbeats, waited out by the model step.
export const compaction = proxyActivities<CompactionActivities>({
  startToCloseTimeout: '60 minutes',
  heartbeatTimeout: MODEL_HEARTBEAT_TIMEOUT_MS,
  retry: { maximumAttempts: 1 },
  cancellationType: 'WAIT_CANCELLATION_COMPLETED',
});

// Concurrency safety and summaries need tool code: a local activity, no history of its own.
export const descriptions = proxyLocalActivities<DescribeActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 3 },
});

/** Tool calls and the Agent tool's pipeline phases: retried on the server, heartbeats, the session's tool task queue. */
export function toolActivityOptions(input: TurnWorkflowInput): ActivityOptions {
  return {
    startToCloseTimeout: '15 minutes',
    heartbeatTimeout: input.toolHeartbeatTimeoutMs ?? TOOL_HEARTBEAT_TIMEOUT_MS,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 5 },
    cancellationType: 'WAIT_CANCELLATION_COMPLETED',
    ...(input.toolTaskQueue ? { taskQueue: input.toolTaskQueue } : {}),
  };
}

export const subagentWait = proxyActivities<SubagentWaitActivities>({
  // A subagent may run for hours: heartbeats, not the start-to-close timeout, detect a lost worker.
  startToCloseTimeout: '7 days',
  heartbeatTimeout: '30 seconds',
  cancellationType: 'WAIT_CANCELLATION_COMPLETED',
});

/**
 * The model call describes the blocks it streams and returns (no describe step in the turn) when
 * the tool settings travel by reference: inline ones would copy the whole configuration into its input.
 */
export function describeWith(session: ToolSessionInput, context: AgentContext): Pick<CallModelInput, 'describeWith'> {
  return 'settingsRef' in session ? { describeWith: { session, context } } : {};
}

/** The blocks' descriptions made by the model call (with the turn's context, which the tool phase starts from). */
export function describedByModel(
  result: CallModelResult | undefined,
  blocks: readonly ToolUseBlock[],
): ToolUseDescription[] | undefined {
  const byId = new Map((result?.descriptions ?? []).map((d) => [d.toolUseId, d] as const));
  return blocks.every((b) => byId.has(b.id)) ? blocks.map((b) => byId.get(b.id) as ToolUseDescription) : undefined;
}

/** What the approval wait reads and sets of the step's run. */
export interface ApprovalRun {
  interrupted: boolean;
  phase: string;
  readonly decisions: Map<string, Approval>;
  readonly pending: Map<string, PendingApproval>;
}

/** Asks the session for a human's decision on `block` and waits for it, the timeout or an interrupt. */
export async function awaitApprovalIn(
  run: ApprovalRun,
  input: TurnWorkflowInput,
  parent: ExternalWorkflowHandle | undefined,
  block: ToolUseBlock,
  ask: { message: string },
  description: ToolUseDescription,
): Promise<Approval | 'interrupted'> {
  const entry: PendingApproval = {
    turn: input.turn,
    toolUseId: block.id,
    toolName: block.name,
    summary: description.summary,
    message: ask.message,
    since: Date.now(),
  };
  run.pending.set(block.id, entry);
  run.phase = 'awaiting_approval';
  if (parent) await parent.signal(approvalPendingSignal, entry);
  const decided = await condition(() => run.decisions.has(block.id) || run.interrupted, input.approvalTimeoutMs);
  run.pending.delete(block.id);
  run.phase = 'tools';
  const result: Approval | 'interrupted' =
    run.interrupted && !run.decisions.has(block.id)
      ? 'interrupted'
      : (run.decisions.get(block.id) ?? approvalTimeoutDenial(input.approvalTimeoutMs));
  // Tell the session what counted, so that an approve racing the timeout is answered truly.
  if (parent && (patched(APPROVAL_OUTCOME_PATCH) || !decided || run.interrupted)) {
    const outcome =
      result === 'interrupted'
        ? { decision: 'deny' as const, source: 'interrupted' as const }
        : { decision: result.decision, source: result.source };
    await CancellationScope.nonCancellable(() =>
      parent.signal(approvalResolvedSignal, { toolUseId: block.id, ...outcome }),
    );
  }
  return result;
}
