// A schedule's budget per day (issue 34): `schedule add --max-budget-usd-per-day X` (and
// `--max-total-tokens-per-day N`) caps what all of one schedule's firings of one day spend together.
// Each firing, before anything of it runs, sums what the schedule's earlier firings of the same day
// spent (their whole trees: the `budget` view of each), and runs with min(its own budget, what is left
// of the day); a firing that finds the day spent is skipped (it ends at once, status budget_exceeded).
// The day is the calendar day of the firing's nominal time in the schedule's time zone. Pure: the
// arithmetic here; the listing and the sums run in an activity (temporal/activities/scheduleDay.ts)
// and in `schedule ls`, over the primitives `daySpendWith` takes.
import { budgetSpend, type BudgetSpend, type BudgetView } from './budget';
import type { ModelUsage } from './modelUsage';

/** A schedule id: what a session id may hold, short enough for `<id>-<RFC 3339 time>` (and safe in a visibility query). */
export const SCHEDULE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** The daily cap a schedule's firings carry in their input (`SessionInput.dailyBudget`). */
export interface DailyBudget {
  scheduleId: string;
  /** IANA name: the schedule's zone, whose calendar day is "the day". */
  timeZone: string;
  maxBudgetUsdPerDay?: number;
  maxTotalTokensPerDay?: number;
}

/** One calendar day of a zone, as the instants [startMs, endMs). */
export interface DayWindow {
  /** YYYY-MM-DD in the zone. */
  day: string;
  timeZone: string;
  startMs: number;
  endMs: number;
}

/** What the earlier firings of a day spent, and which they were. */
export interface DaySpend extends DayWindow {
  spentUsd: number;
  spentTokens: number;
  /** The sessions counted (each once), oldest first. */
  sessions: string[];
}

/** Why a daily budget is refused; undefined: it is sound. The CLI, `createSessionSchedule` and the activity check it. */
export function dailyBudgetProblem(d: unknown): string | undefined {
  if (!d || typeof d !== 'object') return 'dailyBudget must be an object';
  const b = d as Partial<Record<keyof DailyBudget, unknown>>;
  if (typeof b.scheduleId !== 'string' || !SCHEDULE_ID_PATTERN.test(b.scheduleId))
    return `dailyBudget.scheduleId ${JSON.stringify(b.scheduleId)} is not a schedule id`;
  if (typeof b.timeZone !== 'string' || b.timeZone === '') return 'dailyBudget.timeZone must be an IANA time zone';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: b.timeZone });
  } catch {
    return `dailyBudget.timeZone ${b.timeZone} is not a known IANA time zone`;
  }
  const usd = b.maxBudgetUsdPerDay;
  const tokens = b.maxTotalTokensPerDay;
  if (usd === undefined && tokens === undefined)
    return 'a daily budget needs --max-budget-usd-per-day or --max-total-tokens-per-day';
  if (usd !== undefined && (typeof usd !== 'number' || !Number.isFinite(usd) || usd <= 0 || usd > 1_000_000))
    return `--max-budget-usd-per-day must be an amount of US dollars above 0 and at most 1000000, got ${String(usd)}`;
  if (tokens !== undefined && (typeof tokens !== 'number' || !Number.isInteger(tokens) || tokens < 1))
    return `--max-total-tokens-per-day must be a positive whole number, got ${String(tokens)}`;
  return undefined;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar date (YYYY-MM-DD) of an instant in a zone. */
export function localDate(ms: number, timeZone: string): string {
  let fmt = dateFormats.get(timeZone);
  if (!fmt) {
    // en-CA writes dates as YYYY-MM-DD.
    fmt = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormats.set(timeZone, fmt);
  }
  const p: Record<string, string> = {};
  for (const { type, value } of fmt.formatToParts(ms)) p[type] = value;
  return `${p.year}-${p.month}-${p.day}`;
}

/** Longer than any day plus any offset change: the day's bounds lie within this of any instant of it. */
const SEARCH_MS = 36 * 3600_000;

/** The first instant in (lo, hi] whose date sorts at or after `day` (the date of `lo` sorts before it, of `hi` not). */
function firstInstantOf(day: string, lo: number, hi: number, timeZone: string): number {
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (localDate(mid, timeZone) >= day) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * The calendar day of `atMs` in `timeZone`: from the first instant of that date to the first of the
 * next (a day of a DST change is 23 or 25 hours; a zone whose midnight is skipped starts at 01:00).
 */
export function dayWindow(atMs: number, timeZone: string): DayWindow {
  const day = localDate(atMs, timeZone);
  const startMs = firstInstantOf(day, atMs - SEARCH_MS, atMs, timeZone);
  // The next date's first instant: the first in (atMs, atMs + SEARCH_MS] whose date is past `day`.
  const endMs = firstInstantOf(`${day}~`, atMs, atMs + SEARCH_MS, timeZone);
  return { day, timeZone, startMs, endMs };
}

/** A firing's nominal time from its session id, `<schedule id>-<RFC 3339 time>` (Temporal appends it); undefined otherwise. */
export function firingTimeOf(sessionId: string, scheduleId: string): number | undefined {
  if (!sessionId.startsWith(`${scheduleId}-`)) return undefined;
  const t = sessionId.slice(scheduleId.length + 1);
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(t)) return undefined;
  const ms = Date.parse(t);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The visibility query for a schedule's firings of one day (Temporal's own search attributes of scheduled workflows). */
export function scheduleDayQuery(scheduleId: string, w: DayWindow): string {
  if (!SCHEDULE_ID_PATTERN.test(scheduleId)) throw new Error(`not a schedule id: ${JSON.stringify(scheduleId)}`);
  const iso = (ms: number) => new Date(ms).toISOString();
  return (
    `TemporalScheduledById = '${scheduleId}' AND TemporalScheduledStartTime >= '${iso(w.startMs)}'` +
    ` AND TemporalScheduledStartTime < '${iso(w.endMs)}'`
  );
}

/** What `daySpendWith` asks of its runner: the sessions a visibility query lists, and one session's tree spend. */
export interface DaySpendPrimitives {
  list(query: string): Promise<string[]>;
  spend(sessionId: string): Promise<BudgetSpend>;
}

/**
 * What the schedule's firings of the day of `atMs` spent, `exclude` (the asking firing) left out.
 * Each session counts once (a continued-as-new session is listed once per run; its last run's
 * budget carries the whole), and only ids whose nominal time lies in the day.
 */
export async function daySpendWith(
  q: { scheduleId: string; timeZone: string; atMs: number; exclude?: string },
  p: DaySpendPrimitives,
): Promise<DaySpend> {
  const w = dayWindow(q.atMs, q.timeZone);
  const ids = [...new Set(await p.list(scheduleDayQuery(q.scheduleId, w)))]
    .map((id) => ({ id, at: firingTimeOf(id, q.scheduleId) }))
    .filter((s): s is { id: string; at: number } => s.at !== undefined && s.at >= w.startMs && s.at < w.endMs)
    .filter((s) => s.id !== q.exclude)
    .sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
  let spentUsd = 0;
  let spentTokens = 0;
  for (const s of ids) {
    const spend = await p.spend(s.id);
    spentUsd += spend.usd;
    spentTokens += spend.tokens;
  }
  return { ...w, spentUsd, spentTokens, sessions: ids.map((s) => s.id) };
}

/** How one earlier firing's spend is read: its end (no worker needed), else its `budget` and `status` queries. */
export interface SessionSpendPrimitives {
  /** The result of a session that completed; undefined while it runs or when it failed, was cancelled or terminated. */
  completedResult(): Promise<{ treeSpend?: BudgetSpend; modelUsage?: ModelUsage } | undefined>;
  budget(): Promise<BudgetView>;
  status(): Promise<{ modelUsage?: ModelUsage }>;
}

/**
 * One session's tree spend, as its budget counts it: a completed session's result carries it
 * (`treeSpend`; before it, `modelUsage`); any other is asked (its budget view, or, without a budget,
 * its counted usage: a query a worker answers from its history once it has ended).
 */
export async function sessionSpendWith(p: SessionSpendPrimitives): Promise<BudgetSpend> {
  const r = await p.completedResult();
  if (r) return r.treeSpend ?? budgetSpend({ ...(r.modelUsage ? { modelUsage: r.modelUsage } : {}) });
  const v = await p.budget();
  if (v.limitUsd !== undefined || v.limitTokens !== undefined) return { usd: v.spentUsd, tokens: v.spentTokens };
  const s = await p.status();
  return budgetSpend({ ...(s.modelUsage ? { modelUsage: s.modelUsage } : {}) });
}

/** A firing's verdict: run with this budget, or skip (the day is spent). */
export type FiringBudget =
  { kind: 'run'; maxBudgetUsd?: number; maxTotalTokens?: number; message: string } | { kind: 'skip'; reason: string };

const usd = (n: number): string => `$${n.toFixed(4)}`;

/** The day's bounds in words: "2026-12-06 (Europe/Paris)". */
const dayText = (d: DaySpend): string => `${d.day} (${d.timeZone})`;

/**
 * The firing's own budget: min(its per-firing budget, what is left of the day), for USD and tokens
 * alike; a day with nothing left skips the firing. Pure.
 */
export function firingBudget(
  perFiring: { maxBudgetUsd?: number; maxTotalTokens?: number },
  daily: DailyBudget,
  day: DaySpend,
): FiringBudget {
  const leftUsd = daily.maxBudgetUsdPerDay !== undefined ? daily.maxBudgetUsdPerDay - day.spentUsd : undefined;
  const leftTokens =
    daily.maxTotalTokensPerDay !== undefined ? daily.maxTotalTokensPerDay - day.spentTokens : undefined;
  const firings = `${day.sessions.length} earlier firing${day.sessions.length === 1 ? '' : 's'}`;
  if (leftUsd !== undefined && leftUsd <= 1e-9)
    return {
      kind: 'skip',
      reason: `skipped: the daily budget of schedule ${daily.scheduleId}, ${usd(daily.maxBudgetUsdPerDay ?? 0)}, is spent on ${dayText(day)} (${usd(day.spentUsd)} by ${firings}); the next day starts fresh`,
    };
  if (leftTokens !== undefined && leftTokens <= 0)
    return {
      kind: 'skip',
      reason: `skipped: the daily budget of schedule ${daily.scheduleId}, ${daily.maxTotalTokensPerDay} tokens, is spent on ${dayText(day)} (${day.spentTokens} tokens by ${firings}); the next day starts fresh`,
    };
  const min = (a: number | undefined, b: number | undefined): number | undefined =>
    a === undefined ? b : b === undefined ? a : Math.min(a, b);
  const maxBudgetUsd = min(perFiring.maxBudgetUsd, leftUsd);
  const maxTotalTokens = min(perFiring.maxTotalTokens, leftTokens);
  const left = [
    leftUsd !== undefined ? `${usd(leftUsd)} of ${usd(daily.maxBudgetUsdPerDay ?? 0)}` : '',
    leftTokens !== undefined ? `${leftTokens} of ${daily.maxTotalTokensPerDay} tokens` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return {
    kind: 'run',
    ...(maxBudgetUsd !== undefined ? { maxBudgetUsd } : {}),
    ...(maxTotalTokens !== undefined ? { maxTotalTokens } : {}),
    message: `left of the daily budget on ${dayText(day)}: ${left} (after ${firings})`,
  };
}

/** `schedule ls`: today's spend against the cap, one phrase. */
export function daySpendText(daily: Omit<DailyBudget, 'scheduleId' | 'timeZone'>, day: DaySpend): string {
  const parts = [
    daily.maxBudgetUsdPerDay !== undefined ? `${usd(day.spentUsd)} of ${usd(daily.maxBudgetUsdPerDay)}` : '',
    daily.maxTotalTokensPerDay !== undefined ? `${day.spentTokens} of ${daily.maxTotalTokensPerDay} tokens` : '',
  ].filter(Boolean);
  return `today (${day.day}): ${parts.join(', ')} spent by ${day.sessions.length} firing${day.sessions.length === 1 ? '' : 's'}`;
}
