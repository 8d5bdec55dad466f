// integration: a schedule's budget per day (issue 34) on the real dev server. `schedule add
// --max-budget-usd-per-day 1 --max-budget-usd 0.5 --on-budget end` (the real CLI); firings are
// triggered by hand (the Temporal schedule's trigger, one after the other ends), each a new session
// whose every model call costs $0.30 (plus the fake's cache writes). Firing 1 and 2 run with their own
// $0.50; a worker restart between firings changes nothing; firing 3 finds less than $0.50 left of the
// day and runs with exactly the remainder, which its second call passes: it stops there
// (budget_exceeded, no third call); firing 4 finds the day spent and is skipped at once, with the reason
// in `schedule ls`, which shows today's spend against the cap: the exact sum of the firings' own spend.
// A firing backfilled at yesterday's 03:00 belongs to yesterday: fresh, it runs with its own $0.50.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { budgetQuery } from '../../src/temporal/workflows/definitions';
import { dayWindow } from '../../src/core/scheduleDay';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';
import { waitFor } from '../support/wait';

after(closeTestEnv);

// claude-sonnet-4-5 at $3 per million input tokens: $0.30 a call (and its cache writes).
const usage = { usage: { input_tokens: 100_000, output_tokens: 0 } };

interface Row {
  scheduleId: string;
  daily?: { maxBudgetUsdPerDay?: number };
  today?: { day: string; spentUsd: number; sessions: string[] };
  lastEnd?: { session: string; status: string; endReason: string };
  recent: Array<{ session: string }>;
}

/** Triggers one firing and returns its session id once it has ended (the previous one has ended too: no overlap). */
async function fire(client: Client, scheduleId: string): Promise<string> {
  const handle = client.schedule.getHandle(scheduleId);
  const before = (await handle.describe()).info.numActionsTaken;
  // A firing's id is the schedule's id and the trigger's second: a second apart, never the same.
  await new Promise((r) => setTimeout(r, 1100));
  await handle.trigger(ScheduleOverlapPolicy.BUFFER_ONE);
  const id = await waitFor(
    'the triggered firing',
    async () => {
      const d = await handle.describe();
      return d.info.numActionsTaken > before ? d.info.recentActions.at(-1)?.action.workflow.workflowId : undefined;
    },
    60_000,
    200,
  );
  await client.workflow.getHandle(id).result();
  return id;
}

test(
  'integration: a daily budget across a schedule’s firings: min(per firing, left of the day), the firing past the cap stops at the remainder, the next is skipped with the reason in schedule ls; yesterday’s firing is fresh',
  { timeout: 300_000 },
  async () => {
    await withAgent({ noWorker: true }, async ({ fake, client, taskQueue, workDir, startWorker }) => {
      let worker = await startWorker();
      // The session's prompt says which firing: FIRING 3 uses a tool, so it would make a third call.
      fake.script((req) => {
        const n = req.messages.length;
        if (n === 1) return toolUseResponse([{ id: `toolu_${n}`, name: 'Read', input: { file_path: '/none' } }], usage);
        if (n === 3) return toolUseResponse([{ id: `toolu_${n}`, name: 'Read', input: { file_path: '/none' } }], usage);
        return textResponse('done', usage);
      });
      const env = {
        TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
        DURABLE_AGENT_TASK_QUEUE: taskQueue,
      };
      // A zone where now is far from midnight and from the cron's 03:00 (UTC or Tokyo always is).
      const hour = (tz: string) =>
        Number(new Intl.DateTimeFormat('en-US', { timeZone: tz, hour: 'numeric', hourCycle: 'h23' }).format());
      const tz = hour('UTC') >= 5 && hour('UTC') <= 22 ? 'UTC' : 'Asia/Tokyo';
      const id = `daily-${taskQueue.slice(-8)}`;
      const common = ['--cwd', workDir, '--model', 'claude-sonnet-4-5', '--permission-mode', 'bypassPermissions'];

      // Bad values: one line, non-zero, nothing created.
      for (const [bad, why] of [
        ['0', /--max-budget-usd-per-day must be an amount of US dollars above 0/],
        ['abc', /--max-budget-usd-per-day must be an amount of US dollars above 0/],
      ] as const) {
        const r = await cli(['schedule', 'add', '--id', id, '--max-budget-usd-per-day', bad, '0 3 * * *', 'x'], env);
        assert.notEqual(r.code, 0);
        const lines = r.stderr.split('\n').filter((l) => l.trim());
        assert.equal(lines.length, 1, r.stderr);
        assert.match(lines[0] as string, why);
      }
      const badTokens = await cli(['schedule', 'add', '--max-total-tokens-per-day', '1.5', '0 3 * * *', 'x'], env);
      assert.notEqual(badTokens.code, 0);
      assert.match(badTokens.stderr, /--max-total-tokens-per-day must be a positive whole number/);

      const add = await cli(
        [
          'schedule',
          'add',
          '--id',
          id,
          '--tz',
          tz,
          ...common,
          '--max-budget-usd',
          '0.5',
          '--max-budget-usd-per-day',
          '1',
          '--on-budget',
          'end',
          '0 3 * * *',
          'nightly job',
        ],
        env,
      );
      assert.equal(add.code, 0, add.stderr);
      assert.match(add.stdout, new RegExp(`daily budget \\$1 \\(${tz} days\\)`));

      const spend = async (session: string) => (await client.workflow.getHandle(session).query(budgetQuery)).spentUsd;
      const limit = async (session: string) => (await client.workflow.getHandle(session).query(budgetQuery)).limitUsd;

      // Firing 1: its own $0.50 (the whole day is left); two calls, $0.60 > $0.50: it stops before a third.
      // The script's third call would be a text answer; the budget stops it first.
      const s1 = await fire(client, id);
      const r1 = await client.workflow.getHandle(s1).result();
      assert.equal(await limit(s1), 0.5);
      assert.equal(r1.status, 'budget_exceeded', r1.endReason);
      const spent1 = await spend(s1);
      assert.ok(spent1 >= 0.6 - 1e-9 && spent1 < 0.65, `firing 1 spent ${spent1}`);

      // A worker restart between firings: the next one's sum replays firing 1 on the new worker.
      await worker.stop();
      worker = await startWorker();

      // Firing 2: $1 - spent1 is left (< $0.50): it runs with exactly that remainder, and its second
      // call passes it: stopped there, no third call (the budget_exceeded semantics of any session).
      const calls2 = fake.messageRequests().length;
      const s2 = await fire(client, id);
      const r2 = await client.workflow.getHandle(s2).result();
      const left = 1 - spent1;
      assert.ok(left < 0.5, `left ${left}`);
      assert.ok(Math.abs(((await limit(s2)) ?? 0) - left) < 1e-9, `firing 2 limit ${await limit(s2)} vs ${left}`);
      assert.equal(r2.status, 'budget_exceeded');
      assert.match(r2.endReason, new RegExp(`reached the budget of \\$${left.toFixed(4).replace('.', '\\.')}`));
      assert.equal(fake.messageRequests().length - calls2, 2, 'firing 2 made two calls and stopped');
      const spent2 = await spend(s2);

      // Firing 3: the day is spent: skipped at once, no model call, the reason in its end and in `schedule ls`.
      const calls3 = fake.messageRequests().length;
      const s3 = await fire(client, id);
      const r3 = await client.workflow.getHandle(s3).result();
      assert.equal(r3.status, 'budget_exceeded');
      assert.equal(r3.turns, 0);
      assert.equal(fake.messageRequests().length, calls3, 'a skipped firing calls no model');
      assert.match(r3.endReason, new RegExp(`^skipped: the daily budget of schedule ${id}, \\$1\\.0000, is spent on `));
      assert.match(r3.endReason, /by 2 earlier firings\); the next day starts fresh$/);

      const ls = await cli(['schedule', 'ls', '--json'], env);
      assert.equal(ls.code, 0, ls.stderr);
      const row = ls.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Row)
        .find((r) => r.scheduleId === id);
      assert.ok(row?.today && row.daily, ls.stdout);
      assert.equal(row.daily.maxBudgetUsdPerDay, 1);
      // The exact sum of the firings' own tree spend (the skipped one spent nothing).
      assert.deepEqual(row.today.sessions, [s1, s2, s3]);
      assert.ok(
        Math.abs(row.today.spentUsd - (spent1 + spent2)) < 1e-12,
        `${row.today.spentUsd} vs ${spent1 + spent2}`,
      );
      assert.equal(row.today.day, dayWindow(Date.now(), tz).day);
      assert.equal(row.lastEnd?.session, s3);
      assert.equal(row.lastEnd?.endReason, r3.endReason);
      const text = await cli(['schedule', 'ls'], env);
      assert.match(
        text.stdout,
        new RegExp(
          `daily budget: today \\(\\d{4}-\\d\\d-\\d\\d\\): \\$${(spent1 + spent2).toFixed(4).replace('.', '\\.')} of \\$1\\.0000 spent by 3 firings`,
        ),
      );
      assert.match(text.stdout, new RegExp(`last session: ${s3} \\(budget_exceeded: skipped: the daily budget`));

      // Yesterday's 03:00, backfilled: another day, fresh; it runs with its own $0.50.
      const yesterday = dayWindow(dayWindow(Date.now(), tz).startMs - 1, tz);
      const at = yesterday.startMs + 3 * 3600_000;
      await client.schedule.getHandle(id).backfill({
        start: new Date(at - 60_000),
        end: new Date(at + 60_000),
        overlap: ScheduleOverlapPolicy.BUFFER_ONE,
      });
      const s4 = `${id}-${new Date(at).toISOString().replace('.000Z', 'Z')}`;
      await waitFor('the backfilled firing', async () =>
        client.workflow
          .getHandle(s4)
          .describe()
          .then((d) => (d.status.name === 'RUNNING' ? undefined : d))
          .catch(() => undefined),
      );
      assert.equal(await limit(s4), 0.5);
      await worker.stop();
      const rm = await cli(['schedule', 'rm', id], env);
      assert.equal(rm.code, 0, rm.stderr);
    });
  },
);
