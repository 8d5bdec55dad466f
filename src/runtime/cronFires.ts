// The next firing of recurring cron jobs, read in each job's own time zone. Under Temporal a local
// activity (`nextCronFires`), so that the time (and the zone data it depends on) is recorded in
// history and workflow code never reads a wall clock: a deploy with other tz data cannot change a
// replay. The in-process runner calls it directly (src/inprocess/timers.ts).
import { localFieldsIn, nextCronFire, parseCron } from '../core/cron';

export interface NextCronFiresInput {
  jobs: Array<{ id: string; cron: string; timeZone: string; after: number }>;
}

/** Job id → the first firing strictly after `after` (null: none within a year, or unreadable). */
export type NextCronFiresResult = Record<string, number | null>;

export async function nextCronFires(input: NextCronFiresInput): Promise<NextCronFiresResult> {
  const out: NextCronFiresResult = {};
  for (const job of input.jobs) {
    const spec = parseCron(job.cron);
    let next: number | null = null;
    if (spec.ok) {
      try {
        next = nextCronFire(spec.spec, job.after, localFieldsIn(job.timeZone));
      } catch {
        next = null; // a zone this runtime does not know: the job ends rather than firing at a wrong time
      }
    }
    out[job.id] = next;
  }
  return out;
}
