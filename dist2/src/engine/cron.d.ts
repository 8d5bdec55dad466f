export interface CronSpec {
    /** The expression as given (normalised whitespace). */
    expr: string;
    minutes: ReadonlySet<number>;
    hours: ReadonlySet<number>;
    daysOfMonth: ReadonlySet<number>;
    months: ReadonlySet<number>;
    /** 0 = Sunday … 6 = Saturday (7 is read as 0). */
    daysOfWeek: ReadonlySet<number>;
    /** Vixie cron: when both day fields are restricted, a day matches if EITHER matches. */
    domRestricted: boolean;
    dowRestricted: boolean;
}
/** The local wall-clock fields of an instant. */
export interface LocalFields {
    year: number;
    /** 1–12 */
    month: number;
    day: number;
    hour: number;
    minute: number;
    /** 0 = Sunday */
    weekday: number;
}
/** Parses a 5-field cron expression; an error names the field that is wrong. */
export declare function parseCron(expr: string): {
    ok: true;
    spec: CronSpec;
} | {
    ok: false;
    error: string;
};
/** True when the instant's local minute matches the expression. */
export declare function cronMatches(spec: CronSpec, f: LocalFields): boolean;
/** How far ahead a next firing is looked for (the reference refuses an expression with none in a year). */
export declare const CRON_HORIZON_MS: number;
/**
 * The first whole minute strictly after `afterMs` whose local fields match, or null when none
 * within a year. Skips whole hours and days that cannot match, so a yearly expression costs a few
 * thousand steps, not half a million.
 */
export declare function nextCronFire(spec: CronSpec, afterMs: number, local: (ms: number) => LocalFields): number | null;
/** The wall clock of an IANA time zone (Intl). Throws a RangeError for an unknown zone. */
export declare function localFieldsIn(timeZone: string): (ms: number) => LocalFields;
