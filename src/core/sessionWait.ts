// The session's wait for its own work (issue 19), once for both schedulers (issue 32): after the
// model ended its turn, a session that still holds a wake-up, cron jobs or running background tasks
// (core/autonomy.ts) sleeps until the earliest deadline, a task's end, a follow-up or `stop`. What
// comes due is folded into the state and queued as messages for the next turn (each firing once: the
// timer moves in the same step). A firing due while a turn runs waits for the turn to end (the
// reference queues it the same way). The scheduler gives the primitives (`WaitPrimitives`): the
// session workflow a durable `condition` timer and the `nextCronFires` local activity
// (temporal/workflows/sessionTimers.ts), the in-process runner Node timers (inprocess/timers.ts).
// Pure and deterministic: the clock and the sleep are the adapter's.
import { dueFirings, hasPendingWork, nextDeadline, type Autonomy } from './autonomy';
import type { SessionEventState, SessionEvents } from './sessionEvents';

/** What the session is waiting for (status, `ls`, the UI). */
export interface WaitingFor {
  until?: number;
  reason: string;
}

/** The scheduler's side of the wait: its clock, its sleep, its cron lookup. */
export interface WaitPrimitives {
  /** Now (workflow time under Temporal). */
  now(): number;
  /** The next firing of each recurring job (runtime/cronFires.ts; recorded under Temporal). */
  nextCronFires(input: {
    jobs: Array<{ id: string; cron: string; timeZone: string; after: number }>;
  }): Promise<Record<string, number | null>>;
  /** Resolves once `woken()` holds (checked again after each `poked`) or at `until` (none: no deadline). */
  sleep(woken: () => boolean, until: number | undefined): Promise<unknown>;
  /** The wait was poked (a task ended, a message came, stop): a sleep looks at `woken` again. */
  poked?(): void;
  /** What the session waits for now, or undefined when the wait ended (the UI's current details). */
  describe?(waiting: WaitingFor | undefined, autonomy: Autonomy | undefined): void;
}

export class SessionWait {
  /** `stop` was asked: the loop ends at the next idle point. */
  stopRequested = false;
  /** Bumped when something outside the state's messages changed what the wait waits for (a task ended). */
  private changes = 0;
  private waitingFor: WaitingFor | undefined;

  constructor(
    private readonly events: SessionEvents<SessionEventState>,
    private readonly primitives: WaitPrimitives,
    /** Before each look at the state: background tasks bring their ends in and start (tasks/core/taskScheduling.ts). */
    private readonly sync: () => void = () => undefined,
  ) {}

  /** What the session is waiting for now (status, `ls`, the UI), or undefined. */
  waiting(): WaitingFor | undefined {
    return this.waitingFor;
  }

  /** A wake source outside the timers changed (a task ended, was stopped, a message came): the wait looks again. */
  poke(): void {
    this.changes++;
    this.primitives.poked?.();
  }

  requestStop(): void {
    this.stopRequested = true;
    this.poke();
  }

  /**
   * The engine's `waitForWork` (SessionExecutor): true once a message is queued for the next turn;
   * false when nothing is left to wait for, or after `stop` (its wake-up and cron jobs dropped).
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
        if (this.events.hasMessages()) return true;
        const a = this.events.state.context.autonomy;
        if (!hasPendingWork(a)) return false;
        const until = nextDeadline(a);
        this.waitingFor = { ...(until !== undefined ? { until } : {}), reason: waitReason(a, until) };
        this.primitives.describe?.(this.waitingFor, a);
        const seen = this.changes;
        await this.primitives.sleep(
          () => this.events.hasMessages() || this.stopRequested || this.changes !== seen,
          until,
        );
      }
    } finally {
      this.waitingFor = undefined;
      this.primitives.describe?.(undefined, undefined);
    }
  }

  /** Queues what is due now: the wake-up's prompt, each due job's prompt (recurring jobs move on). */
  private async fireDue(): Promise<void> {
    const a = this.events.state.context.autonomy;
    if (!a) return;
    const due = dueFirings(a, this.primitives.now());
    const next = due.recurring.length > 0 ? await this.primitives.nextCronFires({ jobs: due.recurring }) : {};
    // The autonomy as computed before the lookup (a task end meanwhile is applied again by `sync`).
    const { autonomy, events } = due.apply(next);
    this.events.apply({ type: 'timerDue', autonomy, prompts: events.map((e) => e.text) });
  }
}

/** The wait's line: the wake-up or cron jobs due at `until`, and the running background tasks. */
export function waitReason(a: Autonomy | undefined, until: number | undefined): string {
  const running = a?.tasks.filter((t) => t.state === 'running').length ?? 0;
  const parts: string[] = [];
  if (a?.wakeup && a.wakeup.at === until) parts.push(`wake-up: ${a.wakeup.reason}`);
  const firing = a?.crons.filter((j) => j.nextFireAt === until) ?? [];
  if (firing.length > 0) parts.push(`cron ${firing.map((j) => j.id).join(', ')}`);
  if (running > 0) parts.push(`${running} background task${running === 1 ? '' : 's'} running`);
  return parts.join('; ') || 'background work';
}
