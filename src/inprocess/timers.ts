// The in-process runner's side of the wait for a session's own work (issue 19; the loop is
// core/sessionWait.ts, shared with the session workflow): Node timers, woken by a poke (a message
// came, a background task ended — src/tasks/inprocess/tasks.ts — or stop). The process is the limit
// here: a wait dies with it (the durable runner's does not).
import type { SessionState } from '../core/session';
import type { SessionEvents } from '../core/sessionEvents';
import { SessionWait } from '../core/sessionWait';
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

export class LocalTimers extends SessionWait {
  constructor(
    events: SessionEvents<SessionState>,
    clock: LocalClock = realClock,
    /** Before each look: the session's background tasks catch up with its context (LocalTasks). */
    sync?: () => void,
  ) {
    let wake: (() => void) | undefined;
    super(
      events,
      {
        now: () => clock.now(),
        nextCronFires,
        sleep: (woken, until) =>
          new Promise<void>((resolve) => {
            let cancel: (() => void) | undefined;
            const done = (): void => {
              cancel?.();
              wake = undefined;
              resolve();
            };
            wake = () => {
              if (woken()) done();
            };
            if (until !== undefined) cancel = clock.timer(Math.max(1, until - clock.now()), done);
          }),
        poked: () => wake?.(),
      },
      sync,
    );
  }
}
