// The session workflow's side of the wait for its own work (core/sessionWait.ts holds the loop,
// shared with the in-process runner): a durable `condition` timer — no worker slot held, a worker or
// server restart changes nothing — the next cron firings as a local activity (recorded, so a replay
// never reads a clock zone), and the wait in the UI's current details.
import { condition, proxyLocalActivities, setCurrentDetails } from '@temporalio/workflow';
import { SessionWait } from '../../core/sessionWait';
import type { ScheduleActivities } from '../activities';
import { waitDetails } from '../../core/waitDetails';
import type { SessionEvents } from '../../core/sessionEvents';
import type { SessionCarry } from './definitions';

// Deterministic from its input; recorded, so a replay never reads a clock zone.
const cron = proxyLocalActivities<ScheduleActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 5 },
});

export class SessionTimers extends SessionWait {
  /** @param sync before each look at the state: background tasks bring their ends in and start (sessionTasks.ts). */
  constructor(events: SessionEvents<SessionCarry>, sync?: () => void) {
    super(
      events,
      {
        now: () => Date.now(),
        nextCronFires: (input) => cron.nextCronFires(input),
        sleep: (woken, until) =>
          until === undefined ? condition(woken) : condition(woken, Math.max(1, until - Date.now())),
        // The UI's current details: the wait, and each running task (a query answer, not history).
        describe: (w, a) => setCurrentDetails(w ? waitDetails(a, w.until, w.reason) : ''),
      },
      sync,
    );
  }
}
