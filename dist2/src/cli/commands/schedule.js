"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.addScheduleCommands = addScheduleCommands;
const schedules_1 = require("../../schedules");
const options_1 = require("../options");
const run_1 = require("./run");
/** One schedule in one or two lines. */
function scheduleText(s) {
    const when = s.paused ? `paused${s.note ? ` (${s.note})` : ''}` : `next ${s.next[0] ?? '—'}`;
    const last = s.recent[s.recent.length - 1];
    return (`${s.scheduleId}  "${s.cron}" (${s.timeZone})  ${when}  ${s.prompt.replace(/\s+/g, ' ').slice(0, 60)}` +
        (last ? `\n    last session: ${last.session}` : ''));
}
function addScheduleCommands(program) {
    const schedule = program
        .command('schedule')
        .description('Schedules that start a new unattended session at each firing (Temporal Schedules)');
    (0, run_1.addSessionFlags)((0, options_1.addConnectionOptions)(schedule
        .command('add')
        .description('Create a schedule: at each firing of CRON (5 fields, local time) a new session runs PROMPT with these options')
        .argument('<cron>', 'minute hour day-of-month month day-of-week, e.g. "0 2 * * *" (02:00 every day)')
        .argument('<prompt...>', 'what the agent should do at each firing')))
        .option('--id <id>', 'schedule id; each session is <id>-<firing time> (default: generated)')
        .option('--tz <zone>', "IANA time zone of the cron (default: this machine's)")
        .option('--paused', 'create it paused')
        .option('--json', 'JSON')
        .action(async (cron, promptWords, o) => {
        const { id, tz, paused, ...run } = o;
        // The schedule's own input first: one line, before the session is built or the server asked.
        (0, schedules_1.checkCron)(cron, (0, schedules_1.checkTimeZone)(tz ?? (0, schedules_1.localTimeZone)()));
        if (id)
            (0, schedules_1.checkScheduleId)(id);
        // The schedule id is not the session id: every firing has its own.
        const { opts } = await (0, run_1.buildRunSession)(promptWords, run);
        await (0, options_1.withClient)(o, async (client) => {
            const s = await (0, schedules_1.createSessionSchedule)(client, opts, {
                cron,
                ...(id ? { scheduleId: id } : {}),
                ...(tz ? { timeZone: tz } : {}),
                ...(paused ? { paused } : {}),
            });
            (0, options_1.print)(o, s, `schedule ${s.scheduleId} created: "${s.cron}" (${s.timeZone}), ${s.paused ? 'paused' : `next firing ${s.next[0] ?? '—'}`}; each firing starts session ${s.scheduleId}-<firing time>`);
        });
    });
    (0, options_1.addConnectionOptions)(schedule.command('ls').description('List the session schedules').option('--json', 'JSON lines')).action(async (o) => (0, options_1.withClient)(o, async (client) => {
        const all = await (0, schedules_1.listSessionSchedules)(client);
        for (const s of all)
            (0, options_1.print)(o, s, scheduleText(s));
        if (all.length === 0 && !o.json)
            console.log('no schedules');
    }));
    const act = (name, aliases, description, fn, done) => {
        const cmd = schedule
            .command(name)
            .description(description)
            .argument('<id>', 'schedule id')
            .option('--json', 'JSON');
        for (const a of aliases)
            cmd.alias(a);
        (0, options_1.addConnectionOptions)(cmd).action(async (id, o) => (0, options_1.withClient)(o, async (client) => {
            if (!id.trim())
                throw new options_1.UsageError('the schedule id is empty');
            await fn(client, id);
            (0, options_1.print)(o, { scheduleId: id, [done]: true }, `schedule ${id} ${done}`);
        }));
    };
    act('rm', ['delete'], 'Delete a schedule (the sessions it started stay)', schedules_1.deleteSessionSchedule, 'deleted');
    act('pause', [], 'Pause a schedule: no firing until it is resumed', (c, id) => (0, schedules_1.pauseSessionSchedule)(c, id), 'paused');
    act('resume', ['unpause'], 'Resume a paused schedule', (c, id) => (0, schedules_1.unpauseSessionSchedule)(c, id), 'resumed');
}
//# sourceMappingURL=schedule.js.map