// The in-process runner's wait for a session's own work (issue 19), the same decisions as the
// session workflow's (src/temporal/workflows/sessionTimers.ts, core/autonomy.ts) on Node timers: sleeps
// until the earliest wake-up or cron firing, a follow-up, a poke (a background task ended) or stop;
// queues what is due once. The process is the limit here: a wait dies with it (the durable runner's does not).
//
// Background tasks (src/tasks/inprocess/tasks.ts) plug in as in the workflow: `sync` starts the tasks the last
// turn recorded (and stops those TaskStop asked for) before each look, and a task's end queues its
// notification and pokes the wait.
import { dueFirings, hasPendingWork, nextDeadline } from '../core/autonomy';
import type { SessionState } from '../core/session';
import type { SessionEvents } from '../core/sessionEvents';
import { nextCronFires } from '../runtime/cronFires';

/** The clock of the wait: real time by default; tests pass one that skips ahead. */
export interface LocalClock {
  now(): number;
  /** Calls `fire` after `ms`; returns a cancel. */
  timer(ms: number, fire: () => void): () => void;
}

export const realClock: LocalClock = {
  now: () => Date.now(),
  timer(ms, fire) {
    const t = setTimeout(fire, ms);
    return () => clearTimeout(t);
  },
};

export class LocalTimers {
  stopRequested = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly events: SessionEvents<SessionState>,
    private readonly clock: LocalClock = realClock,
    /** Before each look: the session's background tasks catch up with its context (LocalTasks). */
    private readonly sync: () => void = () => undefined,
  ) {}

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
      // A fixed point: what the handle's calls and the tasks appended during the wait is applied.
      this.events.settle();
      if (this.stopRequested) {
        this.events.apply({ type: 'stop' });
        return false;
      }
      this.sync();
      await this.fireDue();
      if (this.events.hasMessages()) return true;
      const a = this.events.state.context.autonomy;
      if (!hasPendingWork(a)) return false;
      const until = nextDeadline(a);
      await new Promise<void>((resolve) => {
        const cancel =
          until === undefined ? undefined : this.clock.timer(Math.max(1, until - this.clock.now()), resolve);
        this.wake = () => {
          cancel?.();
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  private async fireDue(): Promise<void> {
    const a = this.events.state.context.autonomy;
    if (!a) return;
    const due = dueFirings(a, this.clock.now());
    const next = due.recurring.length > 0 ? await nextCronFires({ jobs: due.recurring }) : {};
    const { autonomy, events } = due.apply(next);
    this.events.apply({ type: 'timerDue', autonomy, prompts: events.map((e) => e.text) });
  }
}
