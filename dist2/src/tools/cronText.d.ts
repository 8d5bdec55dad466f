import type { AgentContext } from '../engine/context';
/** The session's IANA zone (fixed at its start); a session started before it existed: the worker's. */
export declare function sessionTimeZone(ctx: Pick<AgentContext, 'timeZone'>): string;
/** True when `zone` is an IANA time zone this runtime knows. */
export declare function isTimeZone(zone: string): boolean;
/** The common shapes in words; anything else is the expression itself. */
export declare function humanCron(expr: string): string;
/** HH:MM:SS in a zone. */
export declare function formatClock(ms: number, timeZone: string): string;
/** "Dec 3 9:00am (Europe/Berlin)": a firing time in the zone it is read in. */
export declare function formatNextRun(ms: number, timeZone: string): string;
