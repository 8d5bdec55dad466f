// The in-process runner's wait for a session's own work (issue 19), the same decisions as the
// session workflow's (src/workflows/sessionTimers.ts, engine/autonomy.ts) on Node timers: sleeps
// until the earliest wake-up or cron firing, a follow-up, a poke (a task ended) or stop; queues
// what is due once. The process is the limit here: a wait dies with it (the durable runner's does not).
import { dueFirings, hasPendingWork, nextDeadline } from '../engine/autonomy';
import type { SessionState } from '../engine/session';
import { createScheduleActivities } from '../activities/schedule';

const schedule = createScheduleActivities();

export class LocalTimers {
  stopRequested = false;
  private wake: (() => void) | undefined;

  constructor(private readonly state: SessionState) {}

  /** Something the wait waits for changed (a message came, a task ended): look again. */
  poke(): void {
    this.wake?.();
  }

  requestStop(): void {
    this.stopRequested = true;
    this.poke();
  }

  /** The engine's `waitForWork` (see SessionExecutor). */
  async waitForWork(): Promise<boolean> {
    for (;;) {
      if (this.stopRequested) {
        const a = this.state.context.autonomy;
        if (a) this.state.context = { ...this.state.context, autonomy: { tasks: a.tasks, crons: [] } };
        return false;
      }
      await this.fireDue();
      if (this.state.pendingMessages.length > 0) return true;
      const a = this.state.context.autonomy;
      if (!hasPendingWork(a)) return false;
      const until = nextDeadline(a);
      await new Promise<void>((resolve) => {
        const timer = until === undefined ? undefined : setTimeout(resolve, Math.max(1, until - Date.now()));
        this.wake = () => {
          if (timer) clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  private async fireDue(): Promise<void> {
    const a = this.state.context.autonomy;
    if (!a) return;
    const due = dueFirings(a, Date.now());
    const next = due.recurring.length > 0 ? await schedule.nextCronFires({ jobs: due.recurring }) : {};
    const { autonomy, events } = due.apply(next);
    this.state.pendingMessages.push(...events.map((e) => e.text));
    this.state.context = { ...this.state.context, autonomy };
  }
}
