"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.UnknownScheduleError = exports.ScheduleInputError = exports.SCHEDULE_CATCHUP_WINDOW = exports.SCHEDULE_OVERLAP = void 0;
exports.localTimeZone = localTimeZone;
exports.checkTimeZone = checkTimeZone;
exports.checkCron = checkCron;
exports.valueRuns = valueRuns;
exports.cronCalendars = cronCalendars;
exports.checkScheduleId = checkScheduleId;
exports.createSessionSchedule = createSessionSchedule;
exports.describeSessionSchedule = describeSessionSchedule;
exports.listSessionSchedules = listSessionSchedules;
exports.pauseSessionSchedule = pauseSessionSchedule;
exports.unpauseSessionSchedule = unpauseSessionSchedule;
exports.deleteSessionSchedule = deleteSessionSchedule;
// User schedules: a Temporal Schedule that starts a NEW session at each firing (the nightly-job
// use case; `durable-agent schedule add`). The session's input is built and validated when the
// schedule is created, exactly as `run` builds it (src/client.ts prepareSessionStart), and each
// firing starts it as session `<schedule id>-<firing time, RFC 3339 UTC>` (Temporal appends the
// firing's nominal time to the action's workflow id). Policies: docs/architecture.md "Schedules".
const client_1 = require("@temporalio/client");
const errors_1 = require("./engine/errors");
const cron_1 = require("./engine/cron");
const client_2 = require("./client");
const MONTH_NAMES = [
    'JANUARY',
    'FEBRUARY',
    'MARCH',
    'APRIL',
    'MAY',
    'JUNE',
    'JULY',
    'AUGUST',
    'SEPTEMBER',
    'OCTOBER',
    'NOVEMBER',
    'DECEMBER',
];
const DAY_NAMES = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];
/**
 * A firing while the schedule's previous session still runs waits for it (one at most): sessions of
 * one schedule work in the same directory one after another, and a firing is never lost to a long
 * run nor piled up behind one that waits days for an approval.
 */
exports.SCHEDULE_OVERLAP = 'BUFFER_ONE';
/** Firings missed while the server was down are taken when it is back if at most this late (then the overlap rule applies). */
exports.SCHEDULE_CATCHUP_WINDOW = '1 day';
/** A schedule refused before anything was created (bad cron, unknown time zone, id taken…). */
class ScheduleInputError extends errors_1.DurableAgentError {
    constructor(message) {
        super('USAGE', message);
    }
}
exports.ScheduleInputError = ScheduleInputError;
class UnknownScheduleError extends errors_1.DurableAgentError {
    scheduleId;
    constructor(scheduleId) {
        super('NOT_FOUND', `No schedule with id ${scheduleId}. List schedules with \`durable-agent schedule ls\`.`);
        this.scheduleId = scheduleId;
    }
}
exports.UnknownScheduleError = UnknownScheduleError;
/** The IANA name of this machine's time zone (TZ, else the system's). */
function localTimeZone() {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
/** The zone's canonical IANA name; throws ScheduleInputError for a name the runtime does not know. */
function checkTimeZone(tz) {
    try {
        return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
    }
    catch {
        throw new ScheduleInputError(`--tz ${tz} is not a known IANA time zone (e.g. Europe/Paris, America/New_York, UTC)`);
    }
}
/**
 * The cron expression parsed as the in-session CronCreate tool reads it (src/engine/cron.ts), or
 * ScheduleInputError naming the field ("cron: hour field '25' is out of range 0-23"). An expression
 * that never fires within a year (e.g. "0 0 30 2 *") is refused too.
 */
function checkCron(expression, timeZone = 'UTC') {
    const parsed = (0, cron_1.parseCron)(expression);
    if (!parsed.ok)
        throw new ScheduleInputError(`cron "${expression.trim()}": ${parsed.error}`);
    if ((0, cron_1.nextCronFire)(parsed.spec, Date.now(), (0, cron_1.localFieldsIn)(timeZone)) === null)
        throw new ScheduleInputError(`cron "${parsed.spec.expr}" never fires (no matching time within a year)`);
    return parsed.spec;
}
/** Consecutive runs of values as inclusive ranges: {0,1,2,5} → [[0,2],[5,5]]. */
function valueRuns(values) {
    const runs = [];
    for (const v of [...values].sort((a, b) => a - b)) {
        const last = runs[runs.length - 1];
        if (last && v === last[1] + 1)
            last[1] = v;
        else
            runs.push([v, v]);
    }
    return runs;
}
function ranges(values, name) {
    return valueRuns(values).map(([a, b]) => ({
        start: name ? name(a) : a,
        end: name ? name(b) : b,
    }));
}
/**
 * The cron expression as Temporal calendars. Temporal's own cron strings AND day-of-month with
 * day-of-week; cron ORs them when both are restricted, which is two calendars (their union).
 */
function cronCalendars(c) {
    const base = {
        second: 0,
        minute: ranges(c.minutes),
        hour: ranges(c.hours),
        month: ranges(c.months, (m) => MONTH_NAMES[m - 1]),
        comment: c.expr,
    };
    const dom = ranges(c.daysOfMonth);
    const dow = ranges(c.daysOfWeek, (d) => DAY_NAMES[d]);
    if (!(c.domRestricted && c.dowRestricted))
        return [{ ...base, dayOfMonth: dom, dayOfWeek: dow }];
    return [
        { ...base, dayOfMonth: dom, dayOfWeek: '*' },
        { ...base, dayOfMonth: '*', dayOfWeek: dow },
    ];
}
/** A schedule id: what a session id may hold, short enough for `<id>-<RFC 3339 time>`. */
function checkScheduleId(id) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(id))
        throw new ScheduleInputError(`schedule id "${id}": use 1-100 letters, digits, ".", "_" or "-", starting with a letter or digit`);
    return id;
}
/**
 * Creates the schedule. The session input is built and checked now (a bad input creates nothing);
 * the cron and the time zone too. Throws ScheduleInputError for a bad cron, zone or id, or an id taken.
 */
async function createSessionSchedule(client, session, opts) {
    const timeZone = checkTimeZone(opts.timeZone ?? localTimeZone());
    const cron = checkCron(opts.cron, timeZone);
    const scheduleId = checkScheduleId(opts.scheduleId ?? `schedule-${Math.random().toString(16).slice(2, 10)}`);
    const p = await (0, client_2.prepareSessionStart)(client, { ...session, id: scheduleId });
    try {
        await client.schedule.create({
            scheduleId,
            spec: { calendars: cronCalendars(cron), timezone: timeZone },
            action: {
                type: 'startWorkflow',
                workflowType: 'sessionWorkflow',
                // Temporal appends "-<nominal firing time>": each firing's session id.
                workflowId: scheduleId,
                taskQueue: p.taskQueue,
                args: [p.input],
                staticSummary: `${p.staticSummary.replace(/^Session: /, 'Scheduled session: ')}`.slice(0, 200),
                memo: { ...p.memo, schedule: scheduleId },
                ...(p.typedSearchAttributes ? { typedSearchAttributes: p.typedSearchAttributes } : {}),
            },
            policies: { overlap: exports.SCHEDULE_OVERLAP, catchupWindow: exports.SCHEDULE_CATCHUP_WINDOW, pauseOnFailure: false },
            memo: {
                durableAgent: 1,
                cron: cron.expr,
                timeZone,
                prompt: p.input.prompt.slice(0, 500),
                cwd: p.input.cwd,
            },
            state: { paused: opts.paused ?? false, ...(opts.paused ? { note: 'created paused' } : {}) },
        });
    }
    catch (err) {
        if (err instanceof client_1.ScheduleAlreadyRunning)
            throw new ScheduleInputError(`a schedule with id ${scheduleId} already exists: choose another --id, or remove it first (durable-agent schedule rm ${scheduleId})`);
        throw err;
    }
    return describeSessionSchedule(client, scheduleId);
}
const iso = (d) => (d ? d.toISOString() : '');
function memoOf(m) {
    return {
        cron: typeof m?.cron === 'string' ? m.cron : '?',
        timeZone: typeof m?.timeZone === 'string' ? m.timeZone : 'UTC',
        prompt: typeof m?.prompt === 'string' ? m.prompt : '',
        cwd: typeof m?.cwd === 'string' ? m.cwd : '',
    };
}
function infoOf(scheduleId, d) {
    const taskQueue = 'taskQueue' in (d.action ?? {}) ? d.action.taskQueue : undefined;
    const createdAt = 'createdAt' in d.info ? iso(d.info.createdAt) : undefined;
    return {
        scheduleId,
        ...memoOf(d.memo),
        paused: d.state.paused,
        ...(d.state.note ? { note: d.state.note } : {}),
        ...(taskQueue ? { taskQueue } : {}),
        next: d.state.paused ? [] : d.info.nextActionTimes.map((t) => t.toISOString()),
        recent: d.info.recentActions.map((a) => ({ session: a.action.workflow.workflowId, firedAt: iso(a.scheduledAt) })),
        ...(createdAt ? { createdAt } : {}),
    };
}
/** Our schedule by id; UnknownScheduleError when there is none (or it is not a session schedule). */
async function describeSessionSchedule(client, scheduleId) {
    let d;
    try {
        d = await client.schedule.getHandle(scheduleId).describe();
    }
    catch (err) {
        if (err instanceof client_1.ScheduleNotFoundError)
            throw new UnknownScheduleError(scheduleId);
        throw err;
    }
    if (d.action.workflowType !== 'sessionWorkflow')
        throw new UnknownScheduleError(scheduleId);
    return infoOf(scheduleId, d);
}
/** The session schedules of the namespace (schedules of other workflow types are left out). */
async function listSessionSchedules(client) {
    const out = [];
    for await (const s of client.schedule.list()) {
        if (s.action?.workflowType !== 'sessionWorkflow')
            continue;
        out.push(infoOf(s.scheduleId, s));
    }
    return out.sort((a, b) => a.scheduleId.localeCompare(b.scheduleId));
}
async function pauseSessionSchedule(client, scheduleId, note) {
    await describeSessionSchedule(client, scheduleId);
    await client.schedule.getHandle(scheduleId).pause(note ?? 'paused with durable-agent schedule pause');
}
async function unpauseSessionSchedule(client, scheduleId, note) {
    await describeSessionSchedule(client, scheduleId);
    await client.schedule.getHandle(scheduleId).unpause(note ?? 'resumed with durable-agent schedule resume');
}
/** Deletes the schedule; sessions it started are left alone (they are sessions like any). */
async function deleteSessionSchedule(client, scheduleId) {
    await describeSessionSchedule(client, scheduleId);
    try {
        await client.schedule.getHandle(scheduleId).delete();
    }
    catch (err) {
        if (err instanceof client_1.ScheduleNotFoundError)
            throw new UnknownScheduleError(scheduleId);
        throw err;
    }
}
//# sourceMappingURL=schedules.js.map