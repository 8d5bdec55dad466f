// The session's notifications (issue 35; what each says: core/notifications.ts). One observer of
// the session's transitions — its status (`SessionRun.setStatus`: the ends, the budget's wait), an
// approval that waits (the pending signal) and a long outage (the outage signal) — that sends each
// event once: a `deliverNotification` activity `notify-<kind>-<n>` for the webhook (retried; the
// idempotency key lets the receiver drop a retry's copy) and the reference's Notification hook.
// Replay schedules nothing again (the activity is in the history), and an event is keyed by what
// it is about (the call's id, the end, the outage's start), so a run sends it once.
//
// Cost: nothing is recorded, not even the patch marker, for a session with no webhook and no
// Notification hook, or for a subagent (its parent's session speaks for the job). Under
// SESSION_030_PATCH, asked at the first event a run would send (a run recorded before sends none).
import { patched, proxyActivities, workflowInfo } from '@temporalio/workflow';
import { activityIds } from '../../core/ids';
import type { OutageState } from '../../core/retry';
import type { SessionHookRunner } from '../../core/schedulerShared';
import {
  notificationHookFields,
  notifiesOf,
  outageIsLong,
  sessionNotification,
  statusNotificationKind,
  type NotificationEvent,
  type NotificationKind,
} from '../../core/notifications';
import type { NotifyActivities } from '../activities';
import { SESSION_030_PATCH, type PendingApproval, type SessionInput } from './definitions';

/** What the notifier reads of its session (SessionRun): its id, transcript head and turn, its hooks. */
export interface NotifierHost extends SessionHookRunner {
  readonly sessionId: string;
  readonly state: { readonly head: string | null; readonly turn: number };
}

/** A receiver that is down is tried for about five minutes, then the notification is given up (the session goes on). */
function notifyActivities(kind: NotificationKind, n: number): NotifyActivities {
  return proxyActivities<NotifyActivities>({
    activityId: activityIds.notify(kind, n),
    summary: `notify ${kind}`,
    startToCloseTimeout: '30 seconds',
    retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
  });
}

export class SessionNotifier {
  /** SESSION_030_PATCH, asked once per run at its first event to send. */
  private patchedRun: boolean | undefined;
  private readonly sent = new Set<string>();
  private readonly counts = new Map<NotificationKind, number>();
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    private readonly input: SessionInput,
    private readonly host: NotifierHost,
  ) {}

  /** A status transition: an end (completed, failed…) or the budget's wait. */
  onStatus(status: string, endReason: string | undefined): void {
    const kind = statusNotificationKind(status);
    if (kind === 'completed' || kind === 'failed') this.send(status, { kind, status, endReason: endReason ?? '' });
    else if (kind === 'budget_exceeded')
      this.send(status, { kind, key: `turn-${this.host.state.turn}-${(this.counts.get(kind) ?? 0) + 1}` });
  }

  /** A call waits for approve/deny: the message carries the commands that answer it. */
  onApprovalPending(p: PendingApproval): void {
    this.send('awaiting_approval', {
      kind: 'needs_approval',
      toolUseId: p.toolUseId,
      toolName: p.toolName,
      turn: p.turn,
    });
  }

  /** An outage signal: said once per outage, when its next attempt is past the threshold. */
  onOutage(o: OutageState | undefined): void {
    if (o && outageIsLong(o, this.input.notify))
      this.send('waiting_for_model', { kind: 'waiting_for_model', outage: o });
  }

  /** Every notification started so far delivered (or given up): before the run ends or continues-as-new. */
  async flush(): Promise<void> {
    while (this.inflight.size > 0) await Promise.all([...this.inflight]);
  }

  private send(status: string, e: NotificationEvent): void {
    const webhook = this.input.notify?.webhook;
    const hooks = e.kind !== 'needs_approval' && this.host.hasHooks?.('Notification') === true;
    if (this.input.parent || (!webhook && !hooks) || !notifiesOf(this.input.notify, e.kind)) return;
    if (!(this.patchedRun ??= patched(SESSION_030_PATCH))) return;
    const n = sessionNotification(
      {
        sessionId: this.host.sessionId,
        firstRunId: workflowInfo().firstExecutionRunId,
        status,
        now: Date.now(),
      },
      e,
    );
    if (this.sent.has(n.id)) return;
    this.sent.add(n.id);
    const count = (this.counts.get(e.kind) ?? 0) + 1;
    this.counts.set(e.kind, count);
    const fields = hooks ? notificationHookFields(n) : undefined;
    const jobs: Promise<unknown>[] = [];
    if (webhook) jobs.push(notifyActivities(e.kind, count).deliverNotification({ url: webhook, notification: n }));
    if (fields && this.host.runHooks) jobs.push(this.host.runHooks('Notification', fields, this.host.state.head));
    // A notification never fails the session: a delivery given up is in the history (the activity's failure).
    const done = Promise.allSettled(jobs).then(() => {
      this.inflight.delete(done);
    });
    this.inflight.add(done);
  }
}
