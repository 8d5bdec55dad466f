// The session's wait for its own work (issue 19): after the model ended its turn, a session that
// still holds a wake-up, cron jobs or running background tasks (core/autonomy.ts) sleeps on a
// durable timer — no worker slot held, a worker or server restart changes nothing — until the
// earliest deadline, a task's end, a follow-up or `stop`. What comes due is folded into the state
// and queued as messages for the next turn (each firing once: the timer moves in the same step).
// A firing due while a turn runs waits for the turn to end (the reference queues it the same way).
import { condition, proxyLocalActivities, setCurrentDetails } from '@temporalio/workflow';
import { dueFirings, hasPendingWork, nextDeadline, type Autonomy } from '../../core/autonomy';
import type { ScheduleActivities } from '../activities';
import { waitDetails } from '../../core/waitDetails';
import type { SessionEvents } from '../../core/sessionEvents';
import type { SessionCarry } from './definitions';

// Deterministic from its input; recorded, so a replay never reads a clock zone.
const cron = proxyLocalActivities<ScheduleActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 5 },
});

export class SessionTimers {
  /** `stop` was asked: the loop ends at the next idle point. */
  stopRequested = false;
  /** Bumped when something outside the state's messages changed what the wait waits for (a task ended). */
  private changes = 0;
  private waitingFor: { until?: number; reason: string } | undefined;

  constructor(
    private readonly events: SessionEvents<SessionCarry>,
    private readonly hasWork: () => boolean,
    /** Before each look at the state: background tasks bring their ends in and start (sessionTasks.ts). */
    private readonly sync: () => void = () => undefined,
  ) {}

  /** What the session is waiting for now (status, `ls`, the UI), or undefined. */
  waiting(): { until?: number; reason: string } | undefined {
    return this.waitingFor;
  }

  /** A wake source outside the timers changed (a task ended, was stopped): the wait looks again. */
  poke(): void {
    this.changes++;
  }

  requestStop(): void {
    this.stopRequested = true;
    this.poke();
  }

  /**
   * The engine's `waitForWork`: true once a message is queued for the next turn; false when nothing
   * is left to wait for, or after `stop` (its wake-up and cron jobs dropped).
   */
  async waitForWork(): Promise<boolean> {
    try {
      for (;;) {
        // A fixed point: what handlers, tasks and monitors appended during the wait is applied.
        this.events.settle();
        if (this.stopRequested) {
          this.events.apply({ type: 'stop' });
          return false;
        }
        this.sync();
        await this.fireDue();
        if (this.hasWork()) return true;
        const a = this.events.state.context.autonomy;
        if (!hasPendingWork(a)) return false;
        const until = nextDeadline(a);
        this.describe(a, until);
        const seen = this.changes;
        const wake = (): boolean => this.hasWork() || this.stopRequested || this.changes !== seen;
        if (until === undefined) await condition(wake);
        else await condition(wake, Math.max(1, until - Date.now()));
      }
    } finally {
      this.waitingFor = undefined;
      setCurrentDetails('');
    }
  }

  /** Queues what is due now: the wake-up's prompt, each due job's prompt (recurring jobs move on). */
  private async fireDue(): Promise<void> {
    const a = this.events.state.context.autonomy;
    if (!a) return;
    const due = dueFirings(a, Date.now());
    const next = due.recurring.length > 0 ? await cron.nextCronFires({ jobs: due.recurring }) : {};
    // The autonomy as computed before the lookup (a task end meanwhile is applied again by `sync`).
    const { autonomy, events } = due.apply(next);
    this.events.apply({ type: 'timerDue', autonomy, prompts: events.map((e) => e.text) });
  }

  private describe(a: Autonomy | undefined, until: number | undefined): void {
    const running = a?.tasks.filter((t) => t.state === 'running').length ?? 0;
    const parts: string[] = [];
    if (a?.wakeup && a.wakeup.at === until) parts.push(`wake-up: ${a.wakeup.reason}`);
    const firing = a?.crons.filter((j) => j.nextFireAt === until) ?? [];
    if (firing.length > 0) parts.push(`cron ${firing.map((j) => j.id).join(', ')}`);
    if (running > 0) parts.push(`${running} background task${running === 1 ? '' : 's'} running`);
    const reason = parts.join('; ') || 'background work';
    this.waitingFor = { ...(until !== undefined ? { until } : {}), reason };
    // The UI's current details: the wait, and each running task (a query answer, not history).
    setCurrentDetails(waitDetails(a, until, reason));
  }
}
