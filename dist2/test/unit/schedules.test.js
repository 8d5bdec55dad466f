"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: user schedules before anything reaches the server — a bad cron is one line naming the
// field (the shared parser, src/engine/cron.ts), the translation to Temporal calendars (cron's
// day-of-month OR day-of-week as two calendars), time zones and schedule ids.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const schedules_1 = require("../../src/schedules");
(0, node_test_1.test)('unit: a bad cron is one line naming the field, before anything is created', () => {
    const cases = [
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
        strict_1.default.throws(() => (0, schedules_1.checkCron)(expr), (err) => {
            strict_1.default.ok(err instanceof schedules_1.ScheduleInputError, expr);
            strict_1.default.match(err.message, pattern, expr);
            strict_1.default.equal(err.message.includes('\n'), false, 'one line');
            return true;
        });
    }
});
(0, node_test_1.test)('unit: cron → Temporal calendars; both day fields restricted → two calendars (their union is cron OR)', () => {
    strict_1.default.deepEqual((0, schedules_1.valueRuns)(new Set([8, 0, 1, 2, 5, 7])), [
        [0, 2],
        [5, 5],
        [7, 8],
    ]);
    const nightly = (0, schedules_1.cronCalendars)((0, schedules_1.checkCron)('30 2 * * 1-5'));
    strict_1.default.equal(nightly.length, 1);
    strict_1.default.deepEqual(nightly[0], {
        second: 0,
        minute: [{ start: 30, end: 30 }],
        hour: [{ start: 2, end: 2 }],
        month: [{ start: 'JANUARY', end: 'DECEMBER' }],
        dayOfMonth: [{ start: 1, end: 31 }],
        dayOfWeek: [{ start: 'MONDAY', end: 'FRIDAY' }],
        comment: '30 2 * * 1-5',
    });
    const either = (0, schedules_1.cronCalendars)((0, schedules_1.checkCron)('0 9 1,15 * SUN'));
    strict_1.default.equal(either.length, 2);
    strict_1.default.deepEqual(either[0]?.dayOfMonth, [
        { start: 1, end: 1 },
        { start: 15, end: 15 },
    ]);
    strict_1.default.equal(either[0]?.dayOfWeek, '*');
    strict_1.default.equal(either[1]?.dayOfMonth, '*');
    strict_1.default.deepEqual(either[1]?.dayOfWeek, [{ start: 'SUNDAY', end: 'SUNDAY' }]);
});
(0, node_test_1.test)('unit: time zones are IANA names (the local one by default); schedule ids fit a session id', () => {
    strict_1.default.equal((0, schedules_1.checkTimeZone)('Europe/Paris'), 'Europe/Paris');
    strict_1.default.equal((0, schedules_1.checkTimeZone)('UTC'), 'UTC');
    strict_1.default.throws(() => (0, schedules_1.checkTimeZone)('Mars/Olympus'), /--tz Mars\/Olympus is not a known IANA time zone/);
    strict_1.default.doesNotThrow(() => (0, schedules_1.checkTimeZone)((0, schedules_1.localTimeZone)()));
    strict_1.default.equal((0, schedules_1.checkScheduleId)('nightly-triage.v2'), 'nightly-triage.v2');
    for (const bad of ['', '-x', 'a b', 'a/b', 'x'.repeat(101)])
        strict_1.default.throws(() => (0, schedules_1.checkScheduleId)(bad), /schedule id .*use 1-100 letters/);
});
//# sourceMappingURL=schedules.test.js.map