// unit: the pure parts of long-running autonomy (issue 19): 5-field cron in a time zone, and the
// session's record of background tasks, a wake-up and cron jobs (core/autonomy.ts), applied as
// context modifiers in block order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cronMatches, localFieldsIn, nextCronFire, parseCron } from '../../src/core/cron';
import {
  clampWakeupDelay,
  dueTimers,
  endTask,
  fireCron,
  fireWakeup,
  hasPendingWork,
  nextDeadline,
  MAX_ENDED_TASKS,
  applyAutonomyModifier,
  type BackgroundTask,
  type CronJob,
} from '../../src/core/autonomy';
import {
  TASK_END_PREAMBLE,
  taskNotification,
  taskNotificationBeforeTextPatch,
} from '../../src/tasks/core/taskNotifications';
import { applyContextModifiers, initialContext, type ContextModifier } from '../../src/core/context';

const utc = localFieldsIn('UTC');
const at = (iso: string): number => Date.parse(iso);

function spec(expr: string) {
  const r = parseCron(expr);
  if (!r.ok) throw new Error(r.error);
  return r.spec;
}

test('unit: cron — fields, names, ranges, steps and lists; errors name the field', () => {
  const s = spec('*/15 9-17 * jan,JUL mon-fri');
  assert.deepEqual([...s.minutes], [0, 15, 30, 45]);
  assert.deepEqual([...s.hours], [9, 10, 11, 12, 13, 14, 15, 16, 17]);
  assert.deepEqual([...s.months], [1, 7]);
  assert.deepEqual([...s.daysOfWeek], [1, 2, 3, 4, 5]);
  assert.deepEqual([...spec('0 0 * * 7').daysOfWeek], [0]);
  assert.deepEqual([...spec('5/20 * * * *').minutes], [5, 25, 45]);
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
  ] as const) {
    const r = parseCron(bad);
    assert.equal(r.ok, false, bad);
    if (!r.ok) assert.match(r.error, new RegExp(word), bad);
  }
});

test('unit: cron — next firing in UTC, strictly after, day-of-month OR day-of-week when both are set', () => {
  assert.equal(nextCronFire(spec('*/5 * * * *'), at('2026-12-02T10:03:30Z'), utc), at('2026-12-02T10:05:00Z'));
  assert.equal(nextCronFire(spec('*/5 * * * *'), at('2026-12-02T10:05:00Z'), utc), at('2026-12-02T10:10:00Z'));
  assert.equal(nextCronFire(spec('30 14 28 2 *'), at('2026-12-02T00:00:00Z'), utc), at('2027-02-28T14:30:00Z'));
  // 1st of the month OR a Monday: from Wed 2 Dec 2026 the next is Mon 7 Dec.
  assert.equal(nextCronFire(spec('0 0 1 * 1'), at('2026-12-02T00:00:00Z'), utc), at('2026-12-07T00:00:00Z'));
  // Feb 30 never comes: no firing within a year.
  assert.equal(nextCronFire(spec('0 0 30 2 *'), at('2026-12-02T00:00:00Z'), utc), null);
  assert.ok(cronMatches(spec('0 12 * * *'), utc(at('2026-12-02T12:00:00Z'))));
});

test('unit: cron — local time in a zone with DST: 09:00 Berlin is 08:00 UTC in winter, 07:00 in summer', () => {
  const berlin = localFieldsIn('Europe/Berlin');
  assert.equal(nextCronFire(spec('0 9 * * *'), at('2026-12-02T10:00:00Z'), berlin), at('2026-12-03T08:00:00Z'));
  assert.equal(nextCronFire(spec('0 9 * * *'), at('2026-07-01T10:00:00Z'), berlin), at('2026-07-02T07:00:00Z'));
  // 02:30 does not exist on the spring-forward day (29 Mar 2026): the next is the day after.
  assert.equal(nextCronFire(spec('30 2 * * *'), at('2026-03-28T12:00:00Z'), berlin), at('2026-03-30T00:30:00Z'));
  assert.throws(() => localFieldsIn('Mars/Olympus'), RangeError);
});

const task = (id: string, over: Partial<BackgroundTask> = {}): BackgroundTask => ({
  id,
  kind: 'local_bash',
  toolUseId: `toolu_${id}`,
  description: `sleep ${id}`,
  startedAt: 1000,
  timeoutMs: 1_800_000,
  state: 'running',
  ...over,
});

test('unit: autonomy — tools record tasks, a wake-up and jobs as modifiers, applied in block order', () => {
  const job: CronJob = {
    id: 'c1',
    cron: '*/5 * * * *',
    prompt: 'check CI',
    recurring: true,
    timeZone: 'UTC',
    createdAt: 0,
    nextFireAt: 300_000,
    fired: 0,
  };
  const mods: ContextModifier[] = [
    { type: 'taskStarted', task: task('b1') },
    { type: 'cronCreated', job },
    { type: 'wakeupScheduled', wakeup: { at: 60_000, prompt: 'look again', reason: 'build', toolUseId: 't9' } },
    { type: 'taskStopRequested', taskId: 'b1' },
  ];
  const ctx = applyContextModifiers(initialContext('/w'), mods);
  assert.equal(ctx.autonomy?.tasks[0]?.stopRequested, true);
  assert.equal(hasPendingWork(ctx.autonomy), true);
  assert.equal(nextDeadline(ctx.autonomy), 60_000);
  const cleared = applyContextModifiers(ctx, [{ type: 'wakeupCancelled' }, { type: 'cronDeleted', id: 'c1' }]);
  assert.equal(nextDeadline(cleared.autonomy), undefined);
  assert.equal(hasPendingWork(cleared.autonomy), true); // b1 still runs
  assert.equal(initialContext('/w').autonomy, undefined);
  assert.equal(hasPendingWork(undefined), false);
});

test('unit: autonomy — a task ends once: one event keyed by the task; ended tasks are bounded', () => {
  let a = applyContextModifiers(initialContext('/w'), [{ type: 'taskStarted', task: task('b1') }]).autonomy!;
  const note = (t: BackgroundTask) => `${t.id} ${t.state} ${t.exitCode}`;
  const first = endTask(a, 'b1', { state: 'completed', endedAt: 2000, exitCode: 0 }, note);
  assert.deepEqual(first.event, { key: 'task:b1', source: 'task', text: 'b1 completed 0' });
  a = first.autonomy;
  assert.equal(endTask(a, 'b1', { state: 'lost', endedAt: 3000 }, note).event, undefined);
  assert.equal(hasPendingWork(a), false);
  for (let i = 0; i < MAX_ENDED_TASKS + 5; i++) {
    a = applyContextModifiers({ ...initialContext('/w'), autonomy: a }, [
      { type: 'taskStarted', task: task(`x${i}`, { state: 'completed' }) },
    ]).autonomy!;
  }
  a = applyContextModifiers({ ...initialContext('/w'), autonomy: a }, [
    { type: 'taskStarted', task: task('live') },
  ]).autonomy!;
  assert.equal(a.tasks.filter((t) => t.state !== 'running').length, MAX_ENDED_TASKS);
  assert.ok(a.tasks.some((t) => t.id === 'live'));
});

test('unit: autonomy — due timers fire once; one-shot and expired jobs leave, recurring ones move on', () => {
  const base = (over: Partial<CronJob>): CronJob => ({
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
  const due = dueTimers(a, 60_000);
  assert.deepEqual(
    due.crons.map((j) => j.id),
    ['rec', 'once'],
  );
  const w = fireWakeup(a, due.wakeup!);
  assert.equal(w.autonomy.wakeup, undefined);
  assert.equal(w.event.text, 'wake');
  const r = fireCron(w.autonomy, due.crons[0]!, 120_000);
  assert.equal(r.event.key, 'cron:rec:60000');
  assert.equal(r.autonomy.crons.find((j) => j.id === 'rec')?.nextFireAt, 120_000);
  const o = fireCron(r.autonomy, due.crons[1]!, 120_000);
  assert.equal(
    o.autonomy.crons.some((j) => j.id === 'once'),
    false,
  );
  const expiring = base({ id: 'exp', expiresAt: 100_000 });
  assert.equal(fireCron({ tasks: [], crons: [expiring] }, expiring, 120_000).autonomy.crons.length, 0);
});

test('unit: autonomy — wake-up delays are clamped to 60..3600 s', () => {
  assert.deepEqual(clampWakeupDelay(5), { seconds: 60, clamped: true });
  assert.deepEqual(clampWakeupDelay(600), { seconds: 600, clamped: false });
  assert.deepEqual(clampWakeupDelay(99_999), { seconds: 3600, clamped: true });
});

test('unit: a task notification is in the reference shape (escaped), and the ended record drops the command', () => {
  const running: BackgroundTask = {
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
  const a = applyAutonomyModifier(undefined, { type: 'taskStarted', task: running });
  const r = endTask(a, 'babc12345', { state: 'failed', endedAt: 2, exitCode: 2, outputBytes: 5 }, taskNotification);
  assert.equal(r.autonomy.tasks[0]?.command, undefined);
  assert.equal(r.autonomy.tasks[0]?.state, 'failed');
  assert.equal(
    r.event?.text,
    `<system-reminder>\n${TASK_END_PREAMBLE}\n\n<task-notification>\n<task-id>babc12345</task-id>\n<tool-use-id>toolu_1</tool-use-id>\n<output-file>/tmp/x/tasks/babc12345.output</output-file>\n<status>failed</status>\n<summary>Background command "grep a&gt;b &amp;&amp; c" failed with exit code 2</summary>\n</task-notification>\n</system-reminder>`,
  );
  assert.equal(endTask(r.autonomy, 'babc12345', { state: 'completed', endedAt: 3 }, taskNotification).event, undefined);
  // Sessions recorded before the text patch queue the same text without the blank line.
  assert.equal(
    taskNotificationBeforeTextPatch(r.autonomy.tasks[0]!),
    r.event?.text.replace(`${TASK_END_PREAMBLE}\n\n`, `${TASK_END_PREAMBLE}\n`),
  );
  assert.notEqual(taskNotificationBeforeTextPatch(r.autonomy.tasks[0]!), r.event?.text);
  const lost = taskNotification({ ...running, state: 'lost' });
  assert.match(
    lost,
    /<status>failed<\/status>\n<summary>Background command "grep a&gt;b &amp;&amp; c" was lost: .*NOT re-run/,
  );
  assert.match(
    taskNotification({ ...running, state: 'completed', exitCode: 0 }),
    /completed \(exit code 0\)<\/summary>/,
  );
});
