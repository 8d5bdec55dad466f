// An in-process session's side of an `ask` (the peer of the session workflow's sessionApprovals.ts):
// the turn asks the caller's approver (`onAsk`) and waits for the first of its answer, the approval
// timeout and the turn's interrupt; what is pending shows in the status while it waits. Without an
// approver an ask is denied at once, saying so. Held by `LocalSessionRun` (sessionRun.ts).
import type { ToolUseBlock } from '../core/apiMessages';
import { approvalTimeoutDenial, notifyApprovalPending, type SessionHookRunner } from '../core/schedulerShared';
import type { PendingApproval, SessionStatusName } from '../core/session';
import type { Approval, ToolUseDescription } from '../core/turn';
import type { LocalSessionOptions } from './types';

/** What the approvals read of their session and tell it. */
export interface LocalApprovalHost {
  readonly onAsk: LocalSessionOptions['onAsk'];
  readonly timeoutMs: number;
  /** The running turn's number and the session's head. */
  turn(): number;
  head(): string | null;
  status(): SessionStatusName;
  setStatus(next: SessionStatusName): void;
  /** Notification hooks (a call waits for a human). */
  readonly hooks: SessionHookRunner;
}

export class LocalApprovals {
  readonly pending = new Map<string, PendingApproval>();
  /** Notification hook firings still running: the session ends after them. */
  private readonly notifications = new Set<Promise<unknown>>();

  constructor(private readonly host: LocalApprovalHost) {}

  async ask(
    block: ToolUseBlock,
    message: string,
    description: ToolUseDescription,
    signal: AbortSignal,
  ): Promise<Approval | 'interrupted'> {
    if (signal.aborted) return 'interrupted';
    const { onAsk, timeoutMs } = this.host;
    if (!onAsk)
      return {
        decision: 'deny',
        source: 'unattended',
        reason: 'No approver is attached to this in-process session (pass onAsk); denied by default.',
      };
    this.pending.set(block.id, {
      turn: this.host.turn(),
      toolUseId: block.id,
      toolName: block.name,
      summary: description.summary,
      message,
      since: Date.now(),
    });
    this.host.setStatus('awaiting_approval');
    // A call waits for a human: Notification hooks may page one. As in the session workflow (an
    // async signal handler) the wait does not wait for them, and the session ends only after them.
    const notified = notifyApprovalPending(this.host.hooks, block.name, this.host.head());
    if (notified) {
      this.notifications.add(notified);
      void notified.finally(() => this.notifications.delete(notified));
    }
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      return await Promise.race([
        onAsk({ toolUseId: block.id, toolName: block.name, summary: description.summary, message }),
        new Promise<Approval>((resolve) => {
          timer = setTimeout(() => resolve(approvalTimeoutDenial(timeoutMs)), timeoutMs);
        }),
        new Promise<'interrupted'>((resolve) => {
          onAbort = () => resolve('interrupted');
          signal.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
      this.pending.delete(block.id);
      if (this.pending.size === 0 && this.host.status() === 'awaiting_approval') this.host.setStatus('running');
    }
  }

  /** Notification hooks still running (an approval was answered before they finished) end first. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.notifications]);
  }
}
