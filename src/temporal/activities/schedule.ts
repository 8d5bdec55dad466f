// `nextCronFires`: a local activity over the core of src/runtime/cronFires.ts (recorded in history, so
// a replay never reads the wall clock or this worker's time-zone data).
import { nextCronFires, type NextCronFiresInput, type NextCronFiresResult } from '../../runtime/cronFires';
export type { NextCronFiresInput, NextCronFiresResult } from '../../runtime/cronFires';

export function createScheduleActivities() {
  return {
    async nextCronFires(input: NextCronFiresInput): Promise<NextCronFiresResult> {
      return nextCronFires(input);
    },
  };
}
