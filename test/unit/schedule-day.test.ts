// unit: a schedule's budget per day (issue 34, core/scheduleDay.ts): the day's window in the schedule's
// zone (UTC, offsets, DST days of 23 and 25 hours, the day boundary), the firing's nominal time from its
// id, the sum over the day's earlier firings, and the firing's budget: min(per firing, what is left).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  dailyBudgetProblem,
  daySpendWith,
  dayWindow,
  firingBudget,
  firingTimeOf,
  scheduleDayQuery,
  sessionSpendWith,
  type DailyBudget,
  type DaySpend,
} from '../../src/core/scheduleDay';

const t = (iso: string): number => Date.parse(iso);

test('dayWindow: a UTC day is [00:00, next 00:00); the last millisecond of a day is still that day', () => {
  const w = dayWindow(t('2026-12-06T08:30:00Z'), 'UTC');
  assert.deepEqual(w, {
    day: '2026-12-06',
    timeZone: 'UTC',
    startMs: t('2026-12-06T00:00:00Z'),
    endMs: t('2026-12-07T00:00:00Z'),
  });
  assert.equal(dayWindow(t('2026-12-06T23:59:59.999Z'), 'UTC').day, '2026-12-06');
  assert.equal(dayWindow(t('2026-12-07T00:00:00Z'), 'UTC').day, '2026-12-07');
  assert.equal(dayWindow(t('2026-12-06T00:00:00Z'), 'UTC').startMs, t('2026-12-06T00:00:00Z'));
});

test("dayWindow: the schedule's zone decides the day (an instant late in UTC is the next day in Tokyo, the previous in New York)", () => {
  const at = t('2026-12-06T20:00:00Z');
  const tokyo = dayWindow(at, 'Asia/Tokyo');
  assert.equal(tokyo.day, '2026-12-07');
  assert.equal(tokyo.startMs, t('2026-12-06T15:00:00Z'));
  assert.equal(tokyo.endMs, t('2026-12-07T15:00:00Z'));
  const ny = dayWindow(t('2026-12-07T03:00:00Z'), 'America/New_York');
  assert.equal(ny.day, '2026-12-06');
  assert.equal(ny.startMs, t('2026-12-06T05:00:00Z'));
  assert.equal(ny.endMs, t('2026-12-07T05:00:00Z'));
  // A half-hour zone.
  const kolkata = dayWindow(t('2026-12-06T18:29:00Z'), 'Asia/Kolkata');
  assert.equal(kolkata.day, '2026-12-06');
  assert.equal(kolkata.endMs, t('2026-12-06T18:30:00Z'));
});

test('dayWindow: DST days are 23 and 25 hours long (Europe/Paris, March and October 2026)', () => {
  const spring = dayWindow(t('2026-03-29T12:00:00Z'), 'Europe/Paris');
  assert.equal(spring.day, '2026-03-29');
  assert.equal(spring.startMs, t('2026-03-28T23:00:00Z'));
  assert.equal(spring.endMs - spring.startMs, 23 * 3600_000);
  const autumn = dayWindow(t('2026-10-25T12:00:00Z'), 'Europe/Paris');
  assert.equal(autumn.endMs - autumn.startMs, 25 * 3600_000);
  assert.equal(autumn.startMs, t('2026-10-24T22:00:00Z'));
});

test('firingTimeOf: the nominal time Temporal appends to the schedule id; anything else is not a firing', () => {
  assert.equal(firingTimeOf('nightly-2026-12-06T02:00:00Z', 'nightly'), t('2026-12-06T02:00:00Z'));
  assert.equal(firingTimeOf('nightly-x-2026-12-06T02:00:00Z', 'nightly'), undefined);
  assert.equal(firingTimeOf('nightly-2026-12-06T02:00:00Z', 'nightly-2026'), undefined);
  assert.equal(firingTimeOf('other-2026-12-06T02:00:00Z', 'nightly'), undefined);
  assert.equal(firingTimeOf('nightly', 'nightly'), undefined);
});

test('scheduleDayQuery: bounded by the day; an id that could break the query is refused', () => {
  const q = scheduleDayQuery('nightly', dayWindow(t('2026-12-06T08:00:00Z'), 'UTC'));
  assert.equal(
    q,
    "TemporalScheduledById = 'nightly' AND TemporalScheduledStartTime >= '2026-12-06T00:00:00.000Z' AND TemporalScheduledStartTime < '2026-12-07T00:00:00.000Z'",
  );
  assert.throws(() => scheduleDayQuery("x' OR 1=1 --", dayWindow(0, 'UTC')), /not a schedule id/);
});

test('daySpendWith: sums each earlier firing of the day once, leaves out the asking one and other days', async () => {
  const spends: Record<string, number> = {
    'n-2026-12-06T01:00:00Z': 0.3,
    'n-2026-12-06T02:00:00Z': 0.45,
    'n-2026-12-05T23:59:59Z': 5,
    'n-2026-12-06T09:00:00Z': 7,
  };
  const asked: string[] = [];
  const d = await daySpendWith(
    { scheduleId: 'n', timeZone: 'UTC', atMs: t('2026-12-06T09:00:00Z'), exclude: 'n-2026-12-06T09:00:00Z' },
    {
      // A continued-as-new session is listed once per run; a visibility row of another day is ignored too.
      list: async () => [
        'n-2026-12-06T02:00:00Z',
        'n-2026-12-06T01:00:00Z',
        'n-2026-12-06T02:00:00Z',
        'n-2026-12-05T23:59:59Z',
        'n-2026-12-06T09:00:00Z',
        'n-oops',
      ],
      spend: async (id) => {
        asked.push(id);
        return { usd: spends[id] ?? 0, tokens: 1000 };
      },
    },
  );
  assert.deepEqual(d.sessions, ['n-2026-12-06T01:00:00Z', 'n-2026-12-06T02:00:00Z']);
  assert.deepEqual(asked, d.sessions);
  assert.ok(Math.abs(d.spentUsd - 0.75) < 1e-12);
  assert.equal(d.spentTokens, 2000);
});

const day = (spentUsd: number, spentTokens = 0, sessions = 1): DaySpend => ({
  ...dayWindow(t('2026-12-06T08:00:00Z'), 'UTC'),
  spentUsd,
  spentTokens,
  sessions: Array.from({ length: sessions }, (_, i) => `s${i}`),
});
const daily = (d: Partial<DailyBudget>): DailyBudget => ({ scheduleId: 'n', timeZone: 'UTC', ...d });

test('firingBudget: min(per firing, left of the day); no per-firing budget: the remainder', () => {
  const a = firingBudget({ maxBudgetUsd: 1 }, daily({ maxBudgetUsdPerDay: 2 }), day(1.6));
  assert.equal(a.kind, 'run');
  assert.ok(a.kind === 'run' && Math.abs((a.maxBudgetUsd ?? 0) - 0.4) < 1e-9, JSON.stringify(a));
  const b = firingBudget({ maxBudgetUsd: 0.25 }, daily({ maxBudgetUsdPerDay: 2 }), day(1.6));
  assert.deepEqual(b.kind === 'run' && b.maxBudgetUsd, 0.25);
  const c = firingBudget({}, daily({ maxBudgetUsdPerDay: 2 }), day(0, 0, 0));
  assert.equal(c.kind === 'run' && c.maxBudgetUsd, 2);
  assert.equal(c.kind === 'run' && c.maxTotalTokens, undefined);
  // Tokens alike, and a per-firing USD budget kept beside a daily token cap.
  const d = firingBudget(
    { maxBudgetUsd: 3, maxTotalTokens: 50_000 },
    daily({ maxTotalTokensPerDay: 100_000 }),
    day(9, 70_000),
  );
  assert.deepEqual(d.kind === 'run' && [d.maxBudgetUsd, d.maxTotalTokens], [3, 30_000]);
});

test('firingBudget: a spent day (or passed: the last firing overshoots by its last call) skips, saying why', () => {
  for (const spent of [2, 2.35]) {
    const v = firingBudget({ maxBudgetUsd: 1 }, daily({ maxBudgetUsdPerDay: 2 }), day(spent, 0, 3));
    assert.equal(v.kind, 'skip');
    assert.match(
      v.kind === 'skip' ? v.reason : '',
      /^skipped: the daily budget of schedule n, \$2\.0000, is spent on 2026-12-06 \(UTC\) \(\$2\.\d{4} by 3 earlier firings\); the next day starts fresh$/,
    );
  }
  const tokens = firingBudget({}, daily({ maxTotalTokensPerDay: 1000 }), day(0, 1000));
  assert.equal(tokens.kind, 'skip');
  // Floating sums that land a hair under the cap count as spent.
  assert.equal(firingBudget({}, daily({ maxBudgetUsdPerDay: 0.9 }), day(0.3 + 0.3 + 0.3)).kind, 'skip');
});

test('dailyBudgetProblem: a cap above 0, a whole number of tokens, a known zone, a schedule id', () => {
  assert.equal(dailyBudgetProblem(daily({ maxBudgetUsdPerDay: 2 })), undefined);
  assert.match(dailyBudgetProblem(daily({})) ?? '', /needs --max-budget-usd-per-day/);
  assert.match(dailyBudgetProblem(daily({ maxBudgetUsdPerDay: 0 })) ?? '', /above 0/);
  assert.match(dailyBudgetProblem(daily({ maxBudgetUsdPerDay: Number.NaN })) ?? '', /above 0/);
  assert.match(dailyBudgetProblem(daily({ maxTotalTokensPerDay: 1.5 })) ?? '', /whole number/);
  assert.match(dailyBudgetProblem(daily({ timeZone: 'Mars/Olympus', maxBudgetUsdPerDay: 1 })) ?? '', /time zone/);
  assert.match(dailyBudgetProblem(daily({ scheduleId: "a'b", maxBudgetUsdPerDay: 1 })) ?? '', /schedule id/);
  assert.match(dailyBudgetProblem(null) ?? '', /object/);
});

test('sessionSpendWith: a completed firing is read from its result (no query, no worker); any other is asked', async () => {
  const never = async (): Promise<never> => {
    throw new Error('not asked');
  };
  const usage = {
    'claude-sonnet-4-5': {
      calls: 1,
      inputTokens: 100_000,
      outputTokens: 0,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
      webSearchRequests: 0,
      costUSD: 0.3,
    },
  };
  assert.deepEqual(
    await sessionSpendWith({
      completedResult: async () => ({ treeSpend: { usd: 0.7, tokens: 9 } }),
      budget: never,
      status: never,
    }),
    { usd: 0.7, tokens: 9 },
  );
  // A result recorded before `treeSpend`: its modelUsage.
  const old = await sessionSpendWith({
    completedResult: async () => ({ modelUsage: usage }),
    budget: never,
    status: never,
  });
  assert.equal(old.tokens, 100_000);
  // Running (or failed, cancelled): its budget view; without a budget, its counted usage.
  const view = { exceeded: false, spentUsd: 0.4, spentTokens: 5, limitUsd: 1, events: [] };
  assert.deepEqual(
    await sessionSpendWith({ completedResult: async () => undefined, budget: async () => view, status: never }),
    { usd: 0.4, tokens: 5 },
  );
  const none = { exceeded: false, spentUsd: 0, spentTokens: 0, events: [] };
  const counted = await sessionSpendWith({
    completedResult: async () => undefined,
    budget: async () => none,
    status: async () => ({ modelUsage: usage }),
  });
  assert.equal(counted.tokens, 100_000);
});
