"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createScheduleActivities = createScheduleActivities;
// `nextCronFires`: the next firing of recurring cron jobs, read in each job's own time zone. A
// local activity, so that the time (and the zone data it depends on) is recorded in history and
// workflow code never reads a wall clock: a deploy with other tz data cannot change a replay.
const cron_1 = require("../engine/cron");
function createScheduleActivities() {
    return {
        async nextCronFires(input) {
            const out = {};
            for (const job of input.jobs) {
                const spec = (0, cron_1.parseCron)(job.cron);
                let next = null;
                if (spec.ok) {
                    try {
                        next = (0, cron_1.nextCronFire)(spec.spec, job.after, (0, cron_1.localFieldsIn)(job.timeZone));
                    }
                    catch {
                        next = null; // a zone this runtime does not know: the job ends rather than firing at a wrong time
                    }
                }
                out[job.id] = next;
            }
            return out;
        },
    };
}
//# sourceMappingURL=schedule.js.map