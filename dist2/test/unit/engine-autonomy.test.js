"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the pure parts of long-running autonomy (issue 19): 5-field cron in a time zone, and the
// session's record of background tasks, a wake-up and cron jobs (engine/autonomy.ts), applied as
// context modifiers in block order.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const cron_1 = require("../../src/engine/cron");
const autonomy_1 = require("../../src/engine/autonomy");
const taskNotifications_1 = require("../../src/engine/taskNotifications");
const context_1 = require("../../src/engine/context");
const utc = (0, cron_1.localFieldsIn)('UTC');
const at = (iso) => Date.parse(iso);
function spec(expr) {
    const r = (0, cron_1.parseCron)(expr);
    if (!r.ok)
        throw new Error(r.error);
    return r.spec;
}
(0, node_test_1.test)('unit: cron — fields, names, ranges, steps and lists; errors name the field', () => {
    const s = spec('*/15 9-17 * jan,JUL mon-fri');
    strict_1.default.deepEqual([...s.minutes], [0, 15, 30, 45]);
    strict_1.default.deepEqual([...s.hours], [9, 10, 11, 12, 13, 14, 15, 16, 17]);
    strict_1.default.deepEqual([...s.months], [1, 7]);
    strict_1.default.deepEqual([...s.daysOfWeek], [1, 2, 3, 4, 5]);
    strict_1.default.deepEqual([...spec('0 0 * * 7').daysOfWeek], [0]);
    strict_1.default.deepEqual([...spec('5/20 * * * *').minutes], [5, 25, 45]);
    for (const [bad, word] of [
        ['* * * *', 'expected 5 fields'],
        ['60 * * * *', 'minute'],
        ['* 24 * * *', 'hour'],
        ['* * 0 * *', 'day of month'],
        ['* * * 13 *', 'month'],
        ['* * * * 8', 'day of week'],
        ['*/0 * * * *', 'step of 0'],
        ['a * * * *', 'minute'],
        ['5-1 * * * *', 'minute'],
    ]) {
        const r = (0, cron_1.parseCron)(bad);
        strict_1.default.equal(r.ok, false, bad);
        if (!r.ok)
            strict_1.default.match(r.error, new RegExp(word), bad);
    }
});
(0, node_test_1.test)('unit: cron — next firing in UTC, strictly after, day-of-month OR day-of-week when both are set', () => {
    strict_1.default.equal((0, cron_1.nextCronFire)(spec('*/5 * * * *'), at('2026-12-02T10:03:30Z'), utc), at('2026-12-02T10:05:00Z'));
    strict_1.default.equal((0, cron_1.nextCronFire)(spec('*/5 * * * *'), at('2026-12-02T10:05:00Z'), utc), at('2026-12-02T10:10:00Z'));
    strict_1.default.equal((0, cron_1.nextCronFire)(spec('30 14 28 2 *'), at('2026-12-02T00:00:00Z'), utc), at('2027-02-28T14:30:00Z'));
    // 1st of the month OR a Monday: from Wed 2 Dec 2026 the next is Mon 7 Dec.
    strict_1.default.equal((0, cron_1.nextCronFire)(spec('0 0 1 * 1'), at('2026-12-02T00:00:00Z'), utc), at('2026-12-07T00:00:00Z'));
    // Feb 30 never comes: no firing within a year.
    strict_1.default.equal((0, cron_1.nextCronFire)(spec('0 0 30 2 *'), at('2026-12-02T00:00:00Z'), utc), null);
    strict_1.default.ok((0, cron_1.cronMatches)(spec('0 12 * * *'), utc(at('2026-12-02T12:00:00Z'))));
});
(0, node_test_1.test)('unit: cron — local time in a zone with DST: 09:00 Berlin is 08:00 UTC in winter, 07:00 in summer', () => {
    const berlin = (0, cron_1.localFieldsIn)('Europe/Berlin');
    strict_1.default.equal((0, cron_1.nextCronFire)(spec('0 9 * * *'), at('2026-12-02T10:00:00Z'), berlin), at('2026-12-03T08:00:00Z'));
    strict_1.default.equal((0, cron_1.nextCronFire)(spec('0 9 * * *'), at('2026-07-01T10:00:00Z'), berlin), at('2026-07-02T07:00:00Z'));
    // 02:30 does not exist on the spring-forward day (29 Mar 2026): the next is the day after.
    strict_1.default.equal((0, cron_1.nextCronFire)(spec('30 2 * * *'), at('2026-03-28T12:00:00Z'), berlin), at('2026-03-30T00:30:00Z'));
    strict_1.default.throws(() => (0, cron_1.localFieldsIn)('Mars/Olympus'), RangeError);
});
const task = (id, over = {}) => ({
    id,
    kind: 'local_bash',
    toolUseId: `toolu_${id}`,
    description: `sleep ${id}`,
    startedAt: 1000,
    timeoutMs: 1_800_000,
    state: 'running',
    ...over,
});
(0, node_test_1.test)('unit: autonomy — tools record tasks, a wake-up and jobs as modifiers, applied in block order', () => {
    const job = {
        id: 'c1',
        cron: '*/5 * * * *',
        prompt: 'check CI',
        recurring: true,
        timeZone: 'UTC',
        createdAt: 0,
        nextFireAt: 300_000,
        fired: 0,
    };
    const mods = [
        { type: 'taskStarted', task: task('b1') },
        { type: 'cronCreated', job },
        { type: 'wakeupScheduled', wakeup: { at: 60_000, prompt: 'look again', reason: 'build', toolUseId: 't9' } },
        { type: 'taskStopRequested', taskId: 'b1' },
    ];
    const ctx = (0, context_1.applyContextModifiers)((0, context_1.initialContext)('/w'), mods);
    strict_1.default.equal(ctx.autonomy?.tasks[0]?.stopRequested, true);
    strict_1.default.equal((0, autonomy_1.hasPendingWork)(ctx.autonomy), true);
    strict_1.default.equal((0, autonomy_1.nextDeadline)(ctx.autonomy), 60_000);
    const cleared = (0, context_1.applyContextModifiers)(ctx, [{ type: 'wakeupCancelled' }, { type: 'cronDeleted', id: 'c1' }]);
    strict_1.default.equal((0, autonomy_1.nextDeadline)(cleared.autonomy), undefined);
    strict_1.default.equal((0, autonomy_1.hasPendingWork)(cleared.autonomy), true); // b1 still runs
    strict_1.default.equal((0, context_1.initialContext)('/w').autonomy, undefined);
    strict_1.default.equal((0, autonomy_1.hasPendingWork)(undefined), false);
});
(0, node_test_1.test)('unit: autonomy — a task ends once: one event keyed by the task; ended tasks are bounded', () => {
    let a = (0, context_1.applyContextModifiers)((0, context_1.initialContext)('/w'), [{ type: 'taskStarted', task: task('b1') }]).autonomy;
    const note = (t) => `${t.id} ${t.state} ${t.exitCode}`;
    const first = (0, autonomy_1.endTask)(a, 'b1', { state: 'completed', endedAt: 2000, exitCode: 0 }, note);
    strict_1.default.deepEqual(first.event, { key: 'task:b1', source: 'task', text: 'b1 completed 0' });
    a = first.autonomy;
    strict_1.default.equal((0, autonomy_1.endTask)(a, 'b1', { state: 'lost', endedAt: 3000 }, note).event, undefined);
    strict_1.default.equal((0, autonomy_1.hasPendingWork)(a), false);
    for (let i = 0; i < autonomy_1.MAX_ENDED_TASKS + 5; i++) {
        a = (0, context_1.applyContextModifiers)({ ...(0, context_1.initialContext)('/w'), autonomy: a }, [
            { type: 'taskStarted', task: task(`x${i}`, { state: 'completed' }) },
        ]).autonomy;
    }
    a = (0, context_1.applyContextModifiers)({ ...(0, context_1.initialContext)('/w'), autonomy: a }, [
        { type: 'taskStarted', task: task('live') },
    ]).autonomy;
    strict_1.default.equal(a.tasks.filter((t) => t.state !== 'running').length, autonomy_1.MAX_ENDED_TASKS);
    strict_1.default.ok(a.tasks.some((t) => t.id === 'live'));
});
(0, node_test_1.test)('unit: autonomy — due timers fire once; one-shot and expired jobs leave, recurring ones move on', () => {
    const base = (over) => ({
        id: 'j',
        cron: '* * * * *',
        prompt: 'p',
        recurring: true,
        timeZone: 'UTC',
        createdAt: 0,
        nextFireAt: 60_000,
        fired: 0,
        ...over,
    });
    const a = {
        tasks: [],
        crons: [base({ id: 'rec' }), base({ id: 'once', recurring: false }), base({ id: 'late', nextFireAt: 600_000 })],
        wakeup: { at: 30_000, prompt: 'wake', reason: 'r', toolUseId: 't' },
    };
    const due = (0, autonomy_1.dueTimers)(a, 60_000);
    strict_1.default.deepEqual(due.crons.map((j) => j.id), ['rec', 'once']);
    const w = (0, autonomy_1.fireWakeup)(a, due.wakeup);
    strict_1.default.equal(w.autonomy.wakeup, undefined);
    strict_1.default.equal(w.event.text, 'wake');
    const r = (0, autonomy_1.fireCron)(w.autonomy, due.crons[0], 120_000);
    strict_1.default.equal(r.event.key, 'cron:rec:60000');
    strict_1.default.equal(r.autonomy.crons.find((j) => j.id === 'rec')?.nextFireAt, 120_000);
    const o = (0, autonomy_1.fireCron)(r.autonomy, due.crons[1], 120_000);
    strict_1.default.equal(o.autonomy.crons.some((j) => j.id === 'once'), false);
    const expiring = base({ id: 'exp', expiresAt: 100_000 });
    strict_1.default.equal((0, autonomy_1.fireCron)({ tasks: [], crons: [expiring] }, expiring, 120_000).autonomy.crons.length, 0);
});
(0, node_test_1.test)('unit: autonomy — wake-up delays are clamped to 60..3600 s', () => {
    strict_1.default.deepEqual((0, autonomy_1.clampWakeupDelay)(5), { seconds: 60, clamped: true });
    strict_1.default.deepEqual((0, autonomy_1.clampWakeupDelay)(600), { seconds: 600, clamped: false });
    strict_1.default.deepEqual((0, autonomy_1.clampWakeupDelay)(99_999), { seconds: 3600, clamped: true });
});
(0, node_test_1.test)('unit: a task notification is in the reference shape (escaped), and the ended record drops the command', () => {
    const running = {
        id: 'babc12345',
        kind: 'local_bash',
        toolUseId: 'toolu_1',
        description: 'grep a>b && c',
        startedAt: 1,
        timeoutMs: 60_000,
        outputPath: '/tmp/x/tasks/babc12345.output',
        state: 'running',
        command: 'grep a>b && c',
    };
    const a = (0, autonomy_1.applyAutonomyModifier)(undefined, { type: 'taskStarted', task: running });
    const r = (0, autonomy_1.endTask)(a, 'babc12345', { state: 'failed', endedAt: 2, exitCode: 2, outputBytes: 5 }, taskNotifications_1.taskNotification);
    strict_1.default.equal(r.autonomy.tasks[0]?.command, undefined);
    strict_1.default.equal(r.autonomy.tasks[0]?.state, 'failed');
    strict_1.default.equal(r.event?.text, `<system-reminder>\n${taskNotifications_1.TASK_END_PREAMBLE}\n\n<task-notification>\n<task-id>babc12345</task-id>\n<tool-use-id>toolu_1</tool-use-id>\n<output-file>/tmp/x/tasks/babc12345.output</output-file>\n<status>failed</status>\n<summary>Background command "grep a&gt;b &amp;&amp; c" failed with exit code 2</summary>\n</task-notification>\n</system-reminder>`);
    strict_1.default.equal((0, autonomy_1.endTask)(r.autonomy, 'babc12345', { state: 'completed', endedAt: 3 }, taskNotifications_1.taskNotification).event, undefined);
    // Sessions recorded before the text patch queue the same text without the blank line.
    strict_1.default.equal((0, taskNotifications_1.taskNotificationBeforeTextPatch)(r.autonomy.tasks[0]), r.event?.text.replace(`${taskNotifications_1.TASK_END_PREAMBLE}\n\n`, `${taskNotifications_1.TASK_END_PREAMBLE}\n`));
    strict_1.default.notEqual((0, taskNotifications_1.taskNotificationBeforeTextPatch)(r.autonomy.tasks[0]), r.event?.text);
    const lost = (0, taskNotifications_1.taskNotification)({ ...running, state: 'lost' });
    strict_1.default.match(lost, /<status>failed<\/status>\n<summary>Background command "grep a&gt;b &amp;&amp; c" was lost: .*NOT re-run/);
    strict_1.default.match((0, taskNotifications_1.taskNotification)({ ...running, state: 'completed', exitCode: 0 }), /completed \(exit code 0\)<\/summary>/);
});
//# sourceMappingURL=engine-autonomy.test.js.map