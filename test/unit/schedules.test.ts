// unit: user schedules before anything reaches the server — a bad cron is one line naming the
// field (the shared parser, src/core/cron.ts), the translation to Temporal calendars (cron's
// day-of-month OR day-of-week as two calendars), time zones and schedule ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ScheduleInputError,
  checkCron,
  checkScheduleId,
  checkTimeZone,
  cronCalendars,
  localTimeZone,
  valueRuns,
} from '../../src/temporal/schedules';

test('unit: a bad cron is one line naming the field, before anything is created', () => {
  const cases: Array<[string, RegExp]> = [
    ['* * * *', /^cron "\* \* \* \*": expected 5 fields \(M H DoM Mon DoW\), got 4$/],
    ['60 * * * *', /minute field '60' is out of range 0-59/],
    ['0 25 * * *', /hour field '25' is out of range 0-23/],
    ['0 0 0 * *', /day of month field '0' is out of range 1-31/],
    ['0 0 * FOO *', /month field 'FOO' has a value that is not a number/],
    ['0 0 * * 8', /day of week field '8' is out of range 0-7/],
    ['*/0 * * * *', /minute field '\*\/0' has a step of 0/],
    ['0 0 30 2 *', /^cron "0 0 30 2 \*" never fires \(no matching time within a year\)$/],
  ];
  for (const [expr, pattern] of cases) {
    assert.throws(
      () => checkCron(expr),
      (err: unknown) => {
        assert.ok(err instanceof ScheduleInputError, expr);
        assert.match(err.message, pattern, expr);
        assert.equal(err.message.includes('\n'), false, 'one line');
        return true;
      },
    );
  }
});

test('unit: cron → Temporal calendars; both day fields restricted → two calendars (their union is cron OR)', () => {
  assert.deepEqual(valueRuns(new Set([8, 0, 1, 2, 5, 7])), [
    [0, 2],
    [5, 5],
    [7, 8],
  ]);
  const nightly = cronCalendars(checkCron('30 2 * * 1-5'));
  assert.equal(nightly.length, 1);
  assert.deepEqual(nightly[0], {
    second: 0,
    minute: [{ start: 30, end: 30 }],
    hour: [{ start: 2, end: 2 }],
    month: [{ start: 'JANUARY', end: 'DECEMBER' }],
    dayOfMonth: [{ start: 1, end: 31 }],
    dayOfWeek: [{ start: 'MONDAY', end: 'FRIDAY' }],
    comment: '30 2 * * 1-5',
  });
  const either = cronCalendars(checkCron('0 9 1,15 * SUN'));
  assert.equal(either.length, 2);
  assert.deepEqual(either[0]?.dayOfMonth, [
    { start: 1, end: 1 },
    { start: 15, end: 15 },
  ]);
  assert.equal(either[0]?.dayOfWeek, '*');
  assert.equal(either[1]?.dayOfMonth, '*');
  assert.deepEqual(either[1]?.dayOfWeek, [{ start: 'SUNDAY', end: 'SUNDAY' }]);
});

test('unit: time zones are IANA names (the local one by default); schedule ids fit a session id', () => {
  assert.equal(checkTimeZone('Europe/Paris'), 'Europe/Paris');
  assert.equal(checkTimeZone('UTC'), 'UTC');
  assert.throws(() => checkTimeZone('Mars/Olympus'), /--tz Mars\/Olympus is not a known IANA time zone/);
  assert.doesNotThrow(() => checkTimeZone(localTimeZone()));
  assert.equal(checkScheduleId('nightly-triage.v2'), 'nightly-triage.v2');
  for (const bad of ['', '-x', 'a b', 'a/b', 'x'.repeat(101)])
    assert.throws(() => checkScheduleId(bad), /schedule id .*use 1-100 letters/);
});
