// unit: ScheduleWakeup, CronCreate, CronList, CronDelete (issue 19) through schema → validateInput →
// call → map, with their context modifiers applied: what the session then holds, and the texts
// the model reads (the reference's shapes, docs/reference-tools.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolSession } from './tools-harness';
import { CronCreateTool, CronDeleteTool, CronListTool, ScheduleWakeupTool } from '../../src/tools/schedule';
import { humanCron, formatNextRun } from '../../src/core/cronText';

function session(tz = 'UTC'): ToolSession {
  const s = new ToolSession('/tmp');
  s.agent = { ...s.agent, timeZone: tz };
  return s;
}

test('unit: ScheduleWakeup — clamps to 60..3600 s, records the wake-up; stop cancels it', async () => {
  const s = session();
  const before = Date.now();
  const r = await s.run(ScheduleWakeupTool, { delaySeconds: 5, reason: 'build running', prompt: 'check the build' });
  assert.equal(r.isError, false);
  assert.match(
    r.text,
    /^Next wakeup scheduled for \d\d:\d\d:\d\d \(in 60s\) \(clamped to 60s from your requested value\)\./,
  );
  const w = s.agent.autonomy?.wakeup;
  assert.ok(w && w.at >= before + 60_000 && w.at <= Date.now() + 60_000);
  assert.equal(w.prompt, 'check the build');
  assert.equal(w.reason, 'build running');
  const long = await s.run(ScheduleWakeupTool, { delaySeconds: 600, reason: 'r' });
  assert.match(long.text, /\(in 600s\)\. /);
  assert.equal(s.agent.autonomy?.wakeup?.prompt, 'r', 'without a prompt the reason comes back');
  const stop = await s.run(ScheduleWakeupTool, { stop: true });
  assert.match(stop.text, /cancelled 1 pending wakeup/);
  assert.equal(s.agent.autonomy?.wakeup, undefined);
  const missing = await s.run(ScheduleWakeupTool, { prompt: 'x' });
  assert.equal(missing.invalid, '`delaySeconds` and `reason` are required when `stop` is not true.');
  assert.ok((await s.run(ScheduleWakeupTool, { delaySeconds: 'soon', reason: 'r' })).invalid?.startsWith('schema'));
});

test('unit: CronCreate / CronList / CronDelete — jobs recorded in the context, texts as the reference', async () => {
  const s = session('Europe/Berlin');
  const rec = await s.run(CronCreateTool, { cron: '*/5 * * * *', prompt: 'check CI' });
  assert.equal(rec.isError, false);
  const id = rec.data.id as string;
  assert.match(id, /^[0-9a-f]{8}$/);
  assert.match(
    rec.text,
    new RegExp(
      `^Scheduled recurring job ${id} \\(Every 5 minutes\\)\\. Next run: \\w{3} \\d+ \\d+:\\d\\d[ap]m \\(Europe/Berlin\\)\\..*Auto-expires after 7 days`,
    ),
  );
  const job = s.agent.autonomy?.crons[0];
  assert.ok(job && job.recurring && job.timeZone === 'Europe/Berlin' && job.nextFireAt! > Date.now());
  assert.equal(job.nextFireAt! % 300_000, 0, 'every 5 minutes lands on a multiple of 5 minutes');
  assert.equal(job.expiresAt! - job.createdAt, 7 * 24 * 3600_000);
  const once = await s.run(CronCreateTool, { cron: '30 14 28 2 *', prompt: 'remind me', recurring: false });
  assert.match(
    once.text,
    /^Scheduled one-shot task [0-9a-f]{8} \(30 14 28 2 \*\)\. Next run: Feb 28 2:30pm \(Europe\/Berlin\)\. .*fire once then auto-delete\.$/,
  );
  const list = await s.run(CronListTool, {});
  const lines = list.text.split('\n');
  assert.equal(lines.length, 2);
  assert.match(lines[0]!, new RegExp(`^${id} — Every 5 minutes \\(recurring\\), next run .*: check CI$`));
  assert.match(lines[1]!, / \(one-shot\), next run Feb 28 2:30pm \(Europe\/Berlin\): remind me$/);
  const del = await s.run(CronDeleteTool, { id });
  assert.equal(del.text, `Cancelled job ${id}.`);
  assert.equal(s.agent.autonomy?.crons.length, 1);
  assert.equal((await s.run(CronDeleteTool, { id })).invalid, `No scheduled job with id '${id}'`);
  const bad = await s.run(CronCreateTool, { cron: '* * *', prompt: 'x' });
  // The reference's text exactly (test:reference 'Cron bad expressions'); a bad field is named after it.
  assert.equal(bad.invalid, "Invalid cron expression '* * *'. Expected 5 fields: M H DoM Mon DoW.");
  const range = await s.run(CronCreateTool, { cron: '61 * * * *', prompt: 'x' });
  assert.match(
    range.invalid ?? '',
    /^Invalid cron expression '61 \* \* \* \*'\. Expected 5 fields: M H DoM Mon DoW\. \(minute.*61/,
  );
  const never = await s.run(CronCreateTool, { cron: '0 0 30 2 *', prompt: 'x' });
  assert.equal(never.invalid, "Cron expression '0 0 30 2 *' does not match any calendar date in the next year.");
  const empty = await new ToolSession('/tmp').run(CronListTool, {});
  assert.equal(empty.text, 'No scheduled jobs.');
});

test('unit: cron text — common shapes in words, the rest as written; next run in the zone', () => {
  assert.equal(humanCron('* * * * *'), 'Every minute');
  assert.equal(humanCron('0 * * * *'), 'Every hour');
  assert.equal(humanCron('15 * * * *'), 'Every hour at :15');
  assert.equal(humanCron('0 9 * * *'), 'Every day at 9:00 AM');
  assert.equal(humanCron('30 17 * * 1-5'), 'Weekdays at 5:30 PM');
  assert.equal(humanCron('0 0 * * 0'), 'Every Sunday at 12:00 AM');
  assert.equal(humanCron('0 9 1 * *'), '0 9 1 * *');
  assert.equal(formatNextRun(Date.parse('2026-12-03T08:00:00Z'), 'Europe/Berlin'), 'Dec 3 9:00am (Europe/Berlin)');
});
