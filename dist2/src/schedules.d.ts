import { type CalendarSpec, type Client } from '@temporalio/client';
import { DurableAgentError } from './engine/errors';
import { type CronSpec } from './engine/cron';
import { type SessionOptions } from './client';
/**
 * A firing while the schedule's previous session still runs waits for it (one at most): sessions of
 * one schedule work in the same directory one after another, and a firing is never lost to a long
 * run nor piled up behind one that waits days for an approval.
 */
export declare const SCHEDULE_OVERLAP = "BUFFER_ONE";
/** Firings missed while the server was down are taken when it is back if at most this late (then the overlap rule applies). */
export declare const SCHEDULE_CATCHUP_WINDOW = "1 day";
/** A schedule refused before anything was created (bad cron, unknown time zone, id taken…). */
export declare class ScheduleInputError extends DurableAgentError {
    constructor(message: string);
}
export declare class UnknownScheduleError extends DurableAgentError {
    readonly scheduleId: string;
    constructor(scheduleId: string);
}
/** The IANA name of this machine's time zone (TZ, else the system's). */
export declare function localTimeZone(): string;
/** The zone's canonical IANA name; throws ScheduleInputError for a name the runtime does not know. */
export declare function checkTimeZone(tz: string): string;
/**
 * The cron expression parsed as the in-session CronCreate tool reads it (src/engine/cron.ts), or
 * ScheduleInputError naming the field ("cron: hour field '25' is out of range 0-23"). An expression
 * that never fires within a year (e.g. "0 0 30 2 *") is refused too.
 */
export declare function checkCron(expression: string, timeZone?: string): CronSpec;
/** Consecutive runs of values as inclusive ranges: {0,1,2,5} → [[0,2],[5,5]]. */
export declare function valueRuns(values: ReadonlySet<number>): Array<[number, number]>;
/**
 * The cron expression as Temporal calendars. Temporal's own cron strings AND day-of-month with
 * day-of-week; cron ORs them when both are restricted, which is two calendars (their union).
 */
export declare function cronCalendars(c: CronSpec): CalendarSpec[];
/** A schedule id: what a session id may hold, short enough for `<id>-<RFC 3339 time>`. */
export declare function checkScheduleId(id: string): string;
export interface SessionScheduleOptions {
    /** Default `schedule-<8 hex>`. */
    scheduleId?: string;
    /** 5 fields, in `timeZone`. */
    cron: string;
    /** IANA name; default this machine's zone. */
    timeZone?: string;
    /** Start paused. */
    paused?: boolean;
}
export interface SessionScheduleInfo {
    scheduleId: string;
    cron: string;
    timeZone: string;
    paused: boolean;
    note?: string;
    prompt: string;
    cwd: string;
    taskQueue?: string;
    /** The next firings (ISO), none when paused. */
    next: string[];
    /** Sessions started so far (most recent last, up to Temporal's recent list). */
    recent: Array<{
        session: string;
        firedAt: string;
    }>;
    createdAt?: string;
}
/**
 * Creates the schedule. The session input is built and checked now (a bad input creates nothing);
 * the cron and the time zone too. Throws ScheduleInputError for a bad cron, zone or id, or an id taken.
 */
export declare function createSessionSchedule(client: Client, session: SessionOptions & {
    taskQueue?: string;
}, opts: SessionScheduleOptions): Promise<SessionScheduleInfo>;
/** Our schedule by id; UnknownScheduleError when there is none (or it is not a session schedule). */
export declare function describeSessionSchedule(client: Client, scheduleId: string): Promise<SessionScheduleInfo>;
/** The session schedules of the namespace (schedules of other workflow types are left out). */
export declare function listSessionSchedules(client: Client): Promise<SessionScheduleInfo[]>;
export declare function pauseSessionSchedule(client: Client, scheduleId: string, note?: string): Promise<void>;
export declare function unpauseSessionSchedule(client: Client, scheduleId: string, note?: string): Promise<void>;
/** Deletes the schedule; sessions it started are left alone (they are sessions like any). */
export declare function deleteSessionSchedule(client: Client, scheduleId: string): Promise<void>;
