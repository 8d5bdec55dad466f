"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: ScheduleWakeup, CronCreate, CronList, CronDelete (issue 19) through schema → validateInput →
// call → map, with their context modifiers applied: what the session then holds, and the texts
// the model reads (the reference's shapes, docs/reference-tools.md).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const tools_harness_1 = require("./tools-harness");
const schedule_1 = require("../../src/tools/builtin/schedule");
const cronText_1 = require("../../src/tools/cronText");
function session(tz = 'UTC') {
    const s = new tools_harness_1.ToolSession('/tmp');
    s.agent = { ...s.agent, timeZone: tz };
    return s;
}
(0, node_test_1.test)('unit: ScheduleWakeup — clamps to 60..3600 s, records the wake-up; stop cancels it', async () => {
    const s = session();
    const before = Date.now();
    const r = await s.run(schedule_1.ScheduleWakeupTool, { delaySeconds: 5, reason: 'build running', prompt: 'check the build' });
    strict_1.default.equal(r.isError, false);
    strict_1.default.match(r.text, /^Next wakeup scheduled for \d\d:\d\d:\d\d \(in 60s\) \(clamped to 60s from your requested value\)\./);
    const w = s.agent.autonomy?.wakeup;
    strict_1.default.ok(w && w.at >= before + 60_000 && w.at <= Date.now() + 60_000);
    strict_1.default.equal(w.prompt, 'check the build');
    strict_1.default.equal(w.reason, 'build running');
    const long = await s.run(schedule_1.ScheduleWakeupTool, { delaySeconds: 600, reason: 'r' });
    strict_1.default.match(long.text, /\(in 600s\)\. /);
    strict_1.default.equal(s.agent.autonomy?.wakeup?.prompt, 'r', 'without a prompt the reason comes back');
    const stop = await s.run(schedule_1.ScheduleWakeupTool, { stop: true });
    strict_1.default.match(stop.text, /cancelled 1 pending wakeup/);
    strict_1.default.equal(s.agent.autonomy?.wakeup, undefined);
    const missing = await s.run(schedule_1.ScheduleWakeupTool, { prompt: 'x' });
    strict_1.default.equal(missing.invalid, '`delaySeconds` and `reason` are required when `stop` is not true.');
    strict_1.default.ok((await s.run(schedule_1.ScheduleWakeupTool, { delaySeconds: 'soon', reason: 'r' })).invalid?.startsWith('schema'));
});
(0, node_test_1.test)('unit: CronCreate / CronList / CronDelete — jobs recorded in the context, texts as the reference', async () => {
    const s = session('Europe/Berlin');
    const rec = await s.run(schedule_1.CronCreateTool, { cron: '*/5 * * * *', prompt: 'check CI' });
    strict_1.default.equal(rec.isError, false);
    const id = rec.data.id;
    strict_1.default.match(id, /^[0-9a-f]{8}$/);
    strict_1.default.match(rec.text, new RegExp(`^Scheduled recurring job ${id} \\(Every 5 minutes\\)\\. Next run: \\w{3} \\d+ \\d+:\\d\\d[ap]m \\(Europe/Berlin\\)\\..*Auto-expires after 7 days`));
    const job = s.agent.autonomy?.crons[0];
    strict_1.default.ok(job && job.recurring && job.timeZone === 'Europe/Berlin' && job.nextFireAt > Date.now());
    strict_1.default.equal(job.nextFireAt % 300_000, 0, 'every 5 minutes lands on a multiple of 5 minutes');
    strict_1.default.equal(job.expiresAt - job.createdAt, 7 * 24 * 3600_000);
    const once = await s.run(schedule_1.CronCreateTool, { cron: '30 14 28 2 *', prompt: 'remind me', recurring: false });
    strict_1.default.match(once.text, /^Scheduled one-shot task [0-9a-f]{8} \(30 14 28 2 \*\)\. Next run: Feb 28 2:30pm \(Europe\/Berlin\)\. .*fire once then auto-delete\.$/);
    const list = await s.run(schedule_1.CronListTool, {});
    const lines = list.text.split('\n');
    strict_1.default.equal(lines.length, 2);
    strict_1.default.match(lines[0], new RegExp(`^${id} — Every 5 minutes \\(recurring\\), next run .*: check CI$`));
    strict_1.default.match(lines[1], / \(one-shot\), next run Feb 28 2:30pm \(Europe\/Berlin\): remind me$/);
    const del = await s.run(schedule_1.CronDeleteTool, { id });
    strict_1.default.equal(del.text, `Cancelled job ${id}.`);
    strict_1.default.equal(s.agent.autonomy?.crons.length, 1);
    strict_1.default.equal((await s.run(schedule_1.CronDeleteTool, { id })).invalid, `No scheduled job with id '${id}'`);
    const bad = await s.run(schedule_1.CronCreateTool, { cron: '* * *', prompt: 'x' });
    // The reference's text exactly (test:reference 'Cron bad expressions'); a bad field is named after it.
    strict_1.default.equal(bad.invalid, "Invalid cron expression '* * *'. Expected 5 fields: M H DoM Mon DoW.");
    const range = await s.run(schedule_1.CronCreateTool, { cron: '61 * * * *', prompt: 'x' });
    strict_1.default.match(range.invalid ?? '', /^Invalid cron expression '61 \* \* \* \*'\. Expected 5 fields: M H DoM Mon DoW\. \(minute.*61/);
    const never = await s.run(schedule_1.CronCreateTool, { cron: '0 0 30 2 *', prompt: 'x' });
    strict_1.default.equal(never.invalid, "Cron expression '0 0 30 2 *' does not match any calendar date in the next year.");
    const empty = await new tools_harness_1.ToolSession('/tmp').run(schedule_1.CronListTool, {});
    strict_1.default.equal(empty.text, 'No scheduled jobs.');
});
(0, node_test_1.test)('unit: cron text — common shapes in words, the rest as written; next run in the zone', () => {
    strict_1.default.equal((0, cronText_1.humanCron)('* * * * *'), 'Every minute');
    strict_1.default.equal((0, cronText_1.humanCron)('0 * * * *'), 'Every hour');
    strict_1.default.equal((0, cronText_1.humanCron)('15 * * * *'), 'Every hour at :15');
    strict_1.default.equal((0, cronText_1.humanCron)('0 9 * * *'), 'Every day at 9:00 AM');
    strict_1.default.equal((0, cronText_1.humanCron)('30 17 * * 1-5'), 'Weekdays at 5:30 PM');
    strict_1.default.equal((0, cronText_1.humanCron)('0 0 * * 0'), 'Every Sunday at 12:00 AM');
    strict_1.default.equal((0, cronText_1.humanCron)('0 9 1 * *'), '0 9 1 * *');
    strict_1.default.equal((0, cronText_1.formatNextRun)(Date.parse('2026-12-03T08:00:00Z'), 'Europe/Berlin'), 'Dec 3 9:00am (Europe/Berlin)');
});
//# sourceMappingURL=tools-schedule.test.js.map