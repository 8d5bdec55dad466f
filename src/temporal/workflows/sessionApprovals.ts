// The session's side of an `ask` (see docs/architecture.md "Approvals"): the running turn signals a
// pending approval (`approvalPendingSignal`), a person answers with the approve/deny update, which
// this class forwards to the turn, and the turn says what counted (`approvalResolvedSignal`: the
// person, the timeout, an interrupt); the update answers with that (patch approval-outcome). What
// is pending shows in the status; approvals end with their turn. Held by `SessionRun` (session.ts).
import { ApplicationFailure, condition, patched, type ChildWorkflowHandle } from '@temporalio/workflow';
import type { ErrorCode } from '../../core/errors';
import { notifyApprovalPending, type SessionHookRunner } from '../../core/schedulerShared';
import {
  APPROVAL_OUTCOME_PATCH,
  approvalAnswer,
  turnApprovalSignal,
  type ApprovalDecisionInput,
  type ApprovalOutcomeSource,
  type PendingApproval,
  type SessionStatusName,
} from './definitions';
import type { turnWorkflow } from './turn';

/** What the approvals read of their session and tell it. */
export interface ApprovalHost {
  /** The running turn (undefined between turns) and its number. */
  turn(): { child: ChildWorkflowHandle<typeof turnWorkflow> | undefined; number: number | undefined };
  status(): SessionStatusName | undefined;
  setStatus(next: SessionStatusName): void;
  head(): string | null;
  /** Notification hooks (a call waits for a human). */
  readonly hooks: SessionHookRunner;
}

export class SessionApprovals {
  readonly pending = new Map<string, PendingApproval>();
  private readonly outcomes = new Map<string, { decision: 'approve' | 'deny'; source?: ApprovalOutcomeSource }>();

  constructor(private readonly host: ApprovalHost) {}

  /** The turn waits for a decision (a webhook may say so: sessionNotify.ts). */
  async onPending(p: PendingApproval, notifier?: { onApprovalPending(p: PendingApproval): void }): Promise<void> {
    this.pending.set(p.toolUseId, p);
    this.host.setStatus('awaiting_approval');
    notifier?.onApprovalPending(p);
    // A call waits for a human: Notification hooks may page one (the handler, not the turn, waits for them).
    const notified = notifyApprovalPending(this.host.hooks, p.toolName, this.host.head());
    if (notified) await notified;
  }

  /** The turn decided (a person, the timeout, an interrupt): what counted, for a racing update. */
  onResolved(
    toolUseId: string,
    decision: 'approve' | 'deny' | undefined,
    source: ApprovalOutcomeSource | undefined,
  ): void {
    if (decision) {
      this.outcomes.set(toolUseId, { decision, ...(source ? { source } : {}) });
      // Bounded: an outcome is read by a racing approve/deny at once, or never.
      if (this.outcomes.size > 100) this.outcomes.delete(this.outcomes.keys().next().value as string);
    }
    this.pending.delete(toolUseId);
    this.runningAgain();
  }

  /** The turn ended: nothing of it waits any more. */
  turnEnded(): void {
    this.pending.clear();
  }

  /** The status after an approval left: running again when none is pending. */
  private runningAgain(): void {
    if (this.pending.size === 0 && this.host.status() === 'awaiting_approval') this.host.setStatus('running');
  }

  /** The update's validator: a decision names a pending call (or there is exactly one). */
  validate(req: ApprovalDecisionInput): void {
    const pending = this.pending;
    if (req.toolUseId !== undefined && !pending.has(req.toolUseId)) {
      // Decided a moment ago (the approval timed out, the turn was interrupted): say what counted.
      const decided = this.outcomes.get(req.toolUseId);
      if (decided)
        throw new Error(
          `tool call ${req.toolUseId} is no longer waiting for approval: ${approvalAnswer(req.toolUseId, 'approve', decided).outcome ?? 'it was decided'}`,
        );
      const open = [...pending.keys()];
      throw new Error(
        `tool call ${req.toolUseId} is not waiting for approval${open.length ? ` (pending: ${open.join(', ')})` : ' (nothing is pending)'}`,
      );
    }
    if (req.toolUseId === undefined && pending.size !== 1) {
      throw new Error(
        pending.size === 0
          ? 'nothing is waiting for approval'
          : `several calls are pending; name one of: ${[...pending.keys()].join(', ')}`,
      );
    }
  }

  /** The approve/deny update: forwarded to the turn; answers what counted. */
  async resolve(decision: 'approve' | 'deny', req: ApprovalDecisionInput) {
    const toolUseId = req.toolUseId ?? [...this.pending.keys()][0];
    const { child, number: turn } = this.host.turn();
    if (!toolUseId || !this.pending.has(toolUseId) || !child)
      throw ApplicationFailure.nonRetryable(
        `no pending approval ${req.toolUseId ?? ''}`.trim(),
        'NOT_PENDING' satisfies ErrorCode,
      );
    this.pending.delete(toolUseId);
    await child.signal(turnApprovalSignal, {
      toolUseId,
      decision,
      ...(req.by ? { by: req.by } : {}),
      ...(req.reason ? { reason: req.reason } : {}),
    });
    this.runningAgain();
    if (!patched(APPROVAL_OUTCOME_PATCH)) return { toolUseId, decision };
    // The turn may have decided otherwise meanwhile (the approval timed out): answer what counted.
    await condition(() => this.outcomes.has(toolUseId) || this.host.turn().number !== turn);
    const actual = this.outcomes.get(toolUseId);
    this.outcomes.delete(toolUseId);
    return approvalAnswer(toolUseId, decision, actual);
  }
}
