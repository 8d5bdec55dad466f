// User schedules: a Temporal Schedule that starts a NEW session at each firing (the nightly-job
// use case; `durable-agent schedule add`). The session's input is built and validated when the
// schedule is created, exactly as `run` builds it (src/temporal/client.ts prepareSessionStart), and each
// firing starts it as session `<schedule id>-<firing time, RFC 3339 UTC>` (Temporal appends the
// firing's nominal time to the action's workflow id). Policies: docs/architecture.md "Schedules".
import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  type CalendarSpec,
  type Client,
  type DayOfWeek,
  type Month,
  type ScheduleDescription,
  type ScheduleSummary,
} from '@temporalio/client';
import { DurableAgentError } from '../core/errors';
import type { BudgetSpend, BudgetView } from '../core/budget';
import { QUERIES } from '../core/ids';
import type { ModelUsage } from '../core/modelUsage';
import {
  SCHEDULE_ID_PATTERN,
  dailyBudgetProblem,
  daySpendWith,
  sessionSpendWith,
  type DailyBudget,
  type DaySpend,
} from '../core/scheduleDay';
import { localFieldsIn, nextCronFire, parseCron, type CronSpec } from '../core/cron';
import { prepareSessionStart, type StartSessionOptions } from './client';

const MONTH_NAMES: readonly Month[] = [
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
const DAY_NAMES: readonly DayOfWeek[] = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];

/**
 * A firing while the schedule's previous session still runs waits for it (one at most): sessions of
 * one schedule work in the same directory one after another, and a firing is never lost to a long
 * run nor piled up behind one that waits days for an approval.
 */
export const SCHEDULE_OVERLAP = 'BUFFER_ONE';
/** Firings missed while the server was down are taken when it is back if at most this late (then the overlap rule applies). */
export const SCHEDULE_CATCHUP_WINDOW = '1 day';

/** A schedule refused before anything was created (bad cron, unknown time zone, id taken…). */
export class ScheduleInputError extends DurableAgentError {
  constructor(message: string) {
    super('USAGE', message);
  }
}

export class UnknownScheduleError extends DurableAgentError {
  constructor(readonly scheduleId: string) {
    super('NOT_FOUND', `No schedule with id ${scheduleId}. List schedules with \`durable-agent schedule ls\`.`);
  }
}

/** The IANA name of this machine's time zone (TZ, else the system's). */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The zone's canonical IANA name; throws ScheduleInputError for a name the runtime does not know. */
export function checkTimeZone(tz: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    throw new ScheduleInputError(`--tz ${tz} is not a known IANA time zone (e.g. Europe/Paris, America/New_York, UTC)`);
  }
}

/**
 * The cron expression parsed as the in-session CronCreate tool reads it (src/core/cron.ts), or
 * ScheduleInputError naming the field ("cron: hour field '25' is out of range 0-23"). An expression
 * that never fires within a year (e.g. "0 0 30 2 *") is refused too.
 */
export function checkCron(expression: string, timeZone = 'UTC'): CronSpec {
  const parsed = parseCron(expression);
  if (!parsed.ok) throw new ScheduleInputError(`cron "${expression.trim()}": ${parsed.error}`);
  if (nextCronFire(parsed.spec, Date.now(), localFieldsIn(timeZone)) === null)
    throw new ScheduleInputError(`cron "${parsed.spec.expr}" never fires (no matching time within a year)`);
  return parsed.spec;
}

/** Consecutive runs of values as inclusive ranges: {0,1,2,5} → [[0,2],[5,5]]. */
export function valueRuns(values: ReadonlySet<number>): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (const v of [...values].sort((a, b) => a - b)) {
    const last = runs[runs.length - 1];
    if (last && v === last[1] + 1) last[1] = v;
    else runs.push([v, v]);
  }
  return runs;
}

function ranges<T>(values: ReadonlySet<number>, name?: (v: number) => T): Array<{ start: T; end: T }> {
  return valueRuns(values).map(([a, b]) => ({
    start: name ? name(a) : (a as T),
    end: name ? name(b) : (b as T),
  }));
}

/**
 * The cron expression as Temporal calendars. Temporal's own cron strings AND day-of-month with
 * day-of-week; cron ORs them when both are restricted, which is two calendars (their union).
 */
export function cronCalendars(c: CronSpec): CalendarSpec[] {
  const base: CalendarSpec = {
    second: 0,
    minute: ranges<number>(c.minutes),
    hour: ranges<number>(c.hours),
    month: ranges<Month>(c.months, (m) => MONTH_NAMES[m - 1]!),
    comment: c.expr,
  };
  const dom = ranges<number>(c.daysOfMonth);
  const dow = ranges<DayOfWeek>(c.daysOfWeek, (d) => DAY_NAMES[d]!);
  if (!(c.domRestricted && c.dowRestricted)) return [{ ...base, dayOfMonth: dom, dayOfWeek: dow }];
  return [
    { ...base, dayOfMonth: dom, dayOfWeek: '*' },
    { ...base, dayOfMonth: '*', dayOfWeek: dow },
  ];
}

/** A schedule id: what a session id may hold, short enough for `<id>-<RFC 3339 time>`. */
export function checkScheduleId(id: string): string {
  if (!SCHEDULE_ID_PATTERN.test(id))
    throw new ScheduleInputError(
      `schedule id "${id}": use 1-100 letters, digits, ".", "_" or "-", starting with a letter or digit`,
    );
  return id;
}

export interface SessionScheduleOptions {
  /** Default `schedule-<8 hex>`. */
  scheduleId?: string;
  /** 5 fields, in `timeZone`. */
  cron: string;
  /** IANA name; default this machine's zone. */
  timeZone?: string;
  /** Start paused. */
  paused?: boolean;
  /** A budget per day across the firings (issue 34, core/scheduleDay.ts), in the schedule's zone. */
  daily?: { maxBudgetUsdPerDay?: number; maxTotalTokensPerDay?: number };
}

/** The daily cap's figures, as the memo and `schedule ls` carry them. */
export type DailyCap = Omit<DailyBudget, 'scheduleId' | 'timeZone'>;

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
  recent: Array<{ session: string; firedAt: string }>;
  createdAt?: string;
  /** The budget per day, when the schedule has one. */
  daily?: DailyCap;
  /** `schedule ls`: what today's firings spent (the schedule's zone), when it has a budget per day. */
  today?: DaySpend;
  /** `schedule ls`: why today's spend could not be read. */
  todayUnknown?: string;
  /** `schedule ls`, with a budget per day: how the last session ended, when it was over budget or skipped. */
  lastEnd?: { session: string; status: string; endReason: string };
}

/**
 * Creates the schedule. The session input is built and checked now (a bad input creates nothing);
 * the cron and the time zone too. Throws ScheduleInputError for a bad cron, zone or id, or an id taken.
 */
export async function createSessionSchedule(
  client: Client,
  session: Omit<StartSessionOptions, 'id' | 'checkoutGuard'>,
  opts: SessionScheduleOptions,
): Promise<SessionScheduleInfo & { checkout?: string[] }> {
  const timeZone = checkTimeZone(opts.timeZone ?? localTimeZone());
  const cron = checkCron(opts.cron, timeZone);
  const scheduleId = checkScheduleId(opts.scheduleId ?? `schedule-${Math.random().toString(16).slice(2, 10)}`);
  // A checkout's control files are checked now, as for any start (CheckoutNotTrustedError unless
  // trusted); each firing checks again on the worker for a checkout recorded after this moment.
  const createdAt = new Date().toISOString();
  const daily = opts.daily && Object.keys(opts.daily).length > 0 ? { scheduleId, timeZone, ...opts.daily } : undefined;
  const problem = daily ? dailyBudgetProblem(daily) : undefined;
  if (problem) throw new ScheduleInputError(problem);
  const p = await prepareSessionStart(client, { ...session, id: scheduleId });
  const input = {
    ...p.input,
    checkoutGuard: { since: createdAt, runFiles: p.runFiles, scheduleId },
    // Each firing's budget is min(its own, what is left of the day): a tree budget, over which --on-budget applies.
    ...(daily ? { dailyBudget: daily, onBudget: p.input.onBudget ?? ('wait' as const) } : {}),
  };
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
        args: [input],
        staticSummary: `${p.staticSummary.replace(/^Session: /, 'Scheduled session: ')}`.slice(0, 200),
        memo: { ...p.memo, schedule: scheduleId },
        ...(p.typedSearchAttributes ? { typedSearchAttributes: p.typedSearchAttributes as never } : {}),
      },
      policies: { overlap: SCHEDULE_OVERLAP, catchupWindow: SCHEDULE_CATCHUP_WINDOW, pauseOnFailure: false },
      memo: {
        durableAgent: 1,
        cron: cron.expr,
        timeZone,
        prompt: p.input.prompt.slice(0, 500),
        cwd: p.input.cwd,
        ...(opts.daily?.maxBudgetUsdPerDay !== undefined ? { maxBudgetUsdPerDay: opts.daily.maxBudgetUsdPerDay } : {}),
        ...(opts.daily?.maxTotalTokensPerDay !== undefined
          ? { maxTotalTokensPerDay: opts.daily.maxTotalTokensPerDay }
          : {}),
      },
      state: { paused: opts.paused ?? false, ...(opts.paused ? { note: 'created paused' } : {}) },
    });
  } catch (err) {
    if (err instanceof ScheduleAlreadyRunning)
      throw new ScheduleInputError(
        `a schedule with id ${scheduleId} already exists: choose another --id, or remove it first (durable-agent schedule rm ${scheduleId})`,
      );
    throw err;
  }
  const info = await describeSessionSchedule(client, scheduleId);
  return p.checkout ? { ...info, checkout: p.checkout.lines } : info;
}

const iso = (d: Date | undefined): string => (d ? d.toISOString() : '');

function memoOf(m: Record<string, unknown> | undefined): {
  cron: string;
  timeZone: string;
  prompt: string;
  cwd: string;
  daily?: DailyCap;
} {
  const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const usd = num(m?.maxBudgetUsdPerDay);
  const tokens = num(m?.maxTotalTokensPerDay);
  return {
    cron: typeof m?.cron === 'string' ? m.cron : '?',
    timeZone: typeof m?.timeZone === 'string' ? m.timeZone : 'UTC',
    prompt: typeof m?.prompt === 'string' ? m.prompt : '',
    cwd: typeof m?.cwd === 'string' ? m.cwd : '',
    ...(usd !== undefined || tokens !== undefined
      ? {
          daily: {
            ...(usd !== undefined ? { maxBudgetUsdPerDay: usd } : {}),
            ...(tokens !== undefined ? { maxTotalTokensPerDay: tokens } : {}),
          },
        }
      : {}),
  };
}

function infoOf(scheduleId: string, d: ScheduleDescription | ScheduleSummary): SessionScheduleInfo {
  const taskQueue = 'taskQueue' in (d.action ?? {}) ? (d.action as { taskQueue?: string }).taskQueue : undefined;
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
export async function describeSessionSchedule(client: Client, scheduleId: string): Promise<SessionScheduleInfo> {
  let d: ScheduleDescription;
  try {
    d = await client.schedule.getHandle(scheduleId).describe();
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) throw new UnknownScheduleError(scheduleId);
    throw err;
  }
  if (d.action.workflowType !== 'sessionWorkflow') throw new UnknownScheduleError(scheduleId);
  return infoOf(scheduleId, d);
}

/** The session schedules of the namespace (schedules of other workflow types are left out); with a budget per day, today's spend. */
export async function listSessionSchedules(client: Client, now = Date.now()): Promise<SessionScheduleInfo[]> {
  const out: SessionScheduleInfo[] = [];
  for await (const s of client.schedule.list()) {
    if (s.action?.workflowType !== 'sessionWorkflow') continue;
    const info = infoOf(s.scheduleId, s);
    if (!info.daily) out.push(info);
    else {
      // One schedule whose sessions cannot be read now (no worker to answer a query) does not stop the list.
      const daily = await dailyState(client, info, now).catch((err: unknown) => ({
        todayUnknown: err instanceof Error ? err.message.split('\n')[0] : String(err),
      }));
      out.push({ ...info, ...daily });
    }
  }
  return out.sort((a, b) => a.scheduleId.localeCompare(b.scheduleId));
}

/** Today's spend of a schedule's firings (the sum each firing makes at its start: core/scheduleDay.ts), and how the last one ended. */
async function dailyState(
  client: Client,
  info: SessionScheduleInfo,
  now: number,
): Promise<Pick<SessionScheduleInfo, 'today' | 'lastEnd'>> {
  const today = await daySpendWith(
    { scheduleId: info.scheduleId, timeZone: info.timeZone, atMs: now },
    {
      list: async (query) => {
        const ids: string[] = [];
        for await (const w of client.workflow.list({ query })) ids.push(w.workflowId);
        return ids;
      },
      spend: (id) => sessionSpend(client, id),
    },
  );
  const last = info.recent[info.recent.length - 1]?.session;
  if (!last) return { today };
  const handle = client.workflow.getHandle(last);
  if ((await handle.describe()).status.name !== 'COMPLETED') return { today };
  const r = await handle.result();
  return r.status === 'budget_exceeded'
    ? { today, lastEnd: { session: last, status: r.status, endReason: r.endReason } }
    : { today };
}

/** One session's tree spend: a completed one's result, else its queries (core/scheduleDay.ts sessionSpendWith). */
async function sessionSpend(client: Client, sessionId: string): Promise<BudgetSpend> {
  const handle = client.workflow.getHandle(sessionId);
  return sessionSpendWith({
    completedResult: async () =>
      (await handle.describe()).status.name === 'COMPLETED' ? await handle.result() : undefined,
    budget: () => handle.query<BudgetView>(QUERIES.budget),
    status: () => handle.query<{ modelUsage?: ModelUsage }>(QUERIES.status),
  });
}

export async function pauseSessionSchedule(client: Client, scheduleId: string, note?: string): Promise<void> {
  await describeSessionSchedule(client, scheduleId);
  await client.schedule.getHandle(scheduleId).pause(note ?? 'paused with durable-agent schedule pause');
}

export async function unpauseSessionSchedule(client: Client, scheduleId: string, note?: string): Promise<void> {
  await describeSessionSchedule(client, scheduleId);
  await client.schedule.getHandle(scheduleId).unpause(note ?? 'resumed with durable-agent schedule resume');
}

/** Deletes the schedule; sessions it started are left alone (they are sessions like any). */
export async function deleteSessionSchedule(client: Client, scheduleId: string): Promise<void> {
  await describeSessionSchedule(client, scheduleId);
  try {
    await client.schedule.getHandle(scheduleId).delete();
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) throw new UnknownScheduleError(scheduleId);
    throw err;
  }
}
