// Five-field cron ("M H DoM Mon DoW", local time) parsed and matched without I/O: the CronCreate
// tool, the session's schedule of firings and `durable-agent schedule add` read cron the same way.
// The wall clock of a time zone comes from a function the caller passes (`localFieldsIn` uses Intl);
// workflow code never calls it directly: a firing time is computed in an activity and recorded.

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

const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 7 },
] as const;

const NAMES: Record<number, readonly string[]> = {
  3: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  4: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'],
};

function parseValue(text: string, field: number): number | undefined {
  const names = NAMES[field];
  const byName = names?.indexOf(text.toLowerCase());
  if (byName !== undefined && byName >= 0) return field === 3 ? byName + 1 : byName;
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

function parseField(text: string, field: number): Set<number> | string {
  const { name, min, max } = FIELDS[field]!;
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^(\*|([^-/]+)(?:-([^-/]+))?)(?:\/(\d+))?$/.exec(part);
    if (!m) return `${name} field '${text}' is not a number, range, list or step`;
    const step = m[4] !== undefined ? Number(m[4]) : 1;
    if (step < 1) return `${name} field '${text}' has a step of 0`;
    let lo: number = min;
    let hi: number = field === 4 ? 6 : max;
    if (m[1] !== '*') {
      const a = parseValue(m[2]!, field);
      const b = m[3] !== undefined ? parseValue(m[3], field) : m[4] !== undefined ? hi : a;
      if (a === undefined || b === undefined) return `${name} field '${text}' has a value that is not a number`;
      lo = a;
      hi = b;
    }
    if (lo < min || hi > max || lo > hi) return `${name} field '${text}' is out of range ${min}-${max}`;
    for (let v = lo; v <= hi; v += step) out.add(field === 4 && v === 7 ? 0 : v);
  }
  return out;
}

/** Parses a 5-field cron expression; an error names the field that is wrong. */
export function parseCron(expr: string): { ok: true; spec: CronSpec } | { ok: false; error: string } {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5 || parts[0] === '')
    return { ok: false, error: `expected 5 fields (M H DoM Mon DoW), got ${parts[0] === '' ? 0 : parts.length}` };
  const sets: Set<number>[] = [];
  for (let i = 0; i < 5; i++) {
    const s = parseField(parts[i]!, i);
    if (typeof s === 'string') return { ok: false, error: s };
    sets.push(s);
  }
  const [minutes, hours, daysOfMonth, months, daysOfWeek] = sets as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  return {
    ok: true,
    spec: {
      expr: parts.join(' '),
      minutes,
      hours,
      daysOfMonth,
      months,
      daysOfWeek,
      domRestricted: parts[2] !== '*',
      dowRestricted: parts[4] !== '*',
    },
  };
}

function dayMatches(spec: CronSpec, f: LocalFields): boolean {
  const dom = spec.daysOfMonth.has(f.day);
  const dow = spec.daysOfWeek.has(f.weekday);
  if (spec.domRestricted && spec.dowRestricted) return dom || dow;
  return dom && dow;
}

/** True when the instant's local minute matches the expression. */
export function cronMatches(spec: CronSpec, f: LocalFields): boolean {
  return spec.minutes.has(f.minute) && spec.hours.has(f.hour) && spec.months.has(f.month) && dayMatches(spec, f);
}

const MINUTE = 60_000;
/** How far ahead a next firing is looked for (the reference refuses an expression with none in a year). */
export const CRON_HORIZON_MS = 366 * 24 * 60 * MINUTE;

/**
 * The first whole minute strictly after `afterMs` whose local fields match, or null when none
 * within a year. Skips whole hours and days that cannot match, so a yearly expression costs a few
 * thousand steps, not half a million.
 */
export function nextCronFire(spec: CronSpec, afterMs: number, local: (ms: number) => LocalFields): number | null {
  let t = Math.floor(afterMs / MINUTE) * MINUTE + MINUTE;
  const end = afterMs + CRON_HORIZON_MS;
  while (t <= end) {
    const f = local(t);
    if (!spec.months.has(f.month) || !dayMatches(spec, f)) {
      t += (24 * 60 - (f.hour * 60 + f.minute)) * MINUTE; // to the next local midnight (DST: re-read there)
      continue;
    }
    if (!spec.hours.has(f.hour)) {
      t += (60 - f.minute) * MINUTE;
      continue;
    }
    if (spec.minutes.has(f.minute)) return t;
    t += MINUTE;
  }
  return null;
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** The wall clock of an IANA time zone (Intl). Throws a RangeError for an unknown zone. */
export function localFieldsIn(timeZone: string): (ms: number) => LocalFields {
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    weekday: 'short',
  });
  return (ms) => {
    const p: Record<string, string> = {};
    for (const { type, value } of fmt.formatToParts(ms)) p[type] = value;
    return {
      year: Number(p.year),
      month: Number(p.month),
      day: Number(p.day),
      hour: Number(p.hour) % 24,
      minute: Number(p.minute),
      weekday: WEEKDAYS[p.weekday ?? ''] ?? 0,
    };
  };
}
