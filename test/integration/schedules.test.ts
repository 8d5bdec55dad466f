// integration: `durable-agent schedule add` makes a Temporal Schedule that starts a NEW session on
// its own at each firing (no manual trigger: a 1-minute cron, so this waits for the next minute),
// named `<schedule id>-<firing time>`; a paused schedule does not fire; resume, rm; `ls` marks the
// scheduled session; bad input (cron, zone, session settings) is one line and creates nothing.
// Real CLI processes, the real dev server, a worker in this process, the fake Messages API.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScheduleNotFoundError, type ScheduleExecutionResult } from '@temporalio/client';
import { lastUserText, textResponse } from '../../src/testing/fakeAnthropic';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';
import { waitFor } from '../support/wait';

after(closeTestEnv);

function oneLineError(r: { code: number | null; stderr: string }, pattern: RegExp): void {
  assert.notEqual(r.code, 0, 'non-zero exit');
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
  assert.equal(lines.length, 1, `one line on stderr, got: ${JSON.stringify(r.stderr)}`);
  assert.match(lines[0] as string, pattern);
}

interface ScheduleRow {
  scheduleId: string;
  cron: string;
  timeZone: string;
  paused: boolean;
  next: string[];
  recent: Array<{ session: string }>;
}

test(
  'integration: schedule add starts sessions on its own; pause stops firings; resume; rm deletes; bad input creates nothing',
  { timeout: 240_000 },
  async () => {
    await withAgent({}, async ({ fake, client, taskQueue, workDir }) => {
      fake.script((req) => textResponse(`done: ${lastUserText(req).slice(0, 40)}`));
      const env = {
        TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
        DURABLE_AGENT_TASK_QUEUE: taskQueue,
      };
      const suffix = taskQueue.slice(-8);
      const a = `nightly-${suffix}`;
      const b = `paused-${suffix}`;

      // Bad input: one line, nothing created (its own id: `a` is created below).
      const c = `bad-${suffix}`;
      const badInput = async (): Promise<void> => {
        oneLineError(
          await cli(['schedule', 'add', '--id', c, '0 25 * * *', 'x'], env),
          /cron "0 25 \* \* \*": hour field .25. is out of range 0-23/,
        );
        oneLineError(
          await cli(['schedule', 'add', '--id', c, '--tz', 'Mars/Olympus', '0 2 * * *', 'x'], env),
          /--tz Mars\/Olympus is not a known IANA time zone/,
        );
        oneLineError(await cli(['schedule', 'add', '--bogus', '0 2 * * *', 'x'], env), /unknown option '--bogus'/);
        oneLineError(
          await cli(['schedule', 'pause', 'no-such-schedule-x'], env),
          /No schedule with id no-such-schedule-x/,
        );
        // The session input is checked as `run` checks it: the same settings error for both, and no schedule.
        const badDir = join(workDir, 'bad');
        mkdirSync(join(badDir, '.claude'), { recursive: true });
        writeFileSync(join(badDir, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: 'nope' } }));
        const runBad = await cli(['run', '--cwd', badDir, 'x'], env);
        const schedBad = await cli(['schedule', 'add', '--id', c, '--cwd', badDir, '0 2 * * *', 'x'], env);
        oneLineError(schedBad, /hooks/);
        assert.equal(schedBad.stderr, runBad.stderr, 'the same check and message as run');
        await assert.rejects(client.schedule.getHandle(c).describe(), ScheduleNotFoundError);
      };

      const common = ['--cwd', workDir, '--model', 'claude-test', '--permission-mode', 'bypassPermissions'];
      const addA = await cli(['schedule', 'add', '--id', a, ...common, '--json', '* * * * *', 'nightly', 'job'], env);
      assert.equal(addA.code, 0, addA.stderr);
      const rowA = JSON.parse(addA.stdout) as ScheduleRow;
      assert.equal(rowA.scheduleId, a);
      assert.equal(rowA.cron, '* * * * *');
      assert.equal(rowA.timeZone, Intl.DateTimeFormat().resolvedOptions().timeZone, 'the local zone, recorded');
      assert.ok(rowA.next.length > 0);
      const addB = await cli(
        ['schedule', 'add', '--id', b, ...common, '--tz', 'Asia/Tokyo', '* * * * *', 'other'],
        env,
      );
      assert.equal(addB.code, 0, addB.stderr);
      assert.match(addB.stdout, new RegExp(`schedule ${b} created: "\\* \\* \\* \\* \\*" \\(Asia/Tokyo\\)`));
      const pause = await cli(['schedule', 'pause', b], env);
      assert.equal(pause.code, 0, pause.stderr);
      const pausedAt = Date.now();
      oneLineError(
        await cli(['schedule', 'add', '--id', a, ...common, '0 2 * * *', 'again'], env),
        new RegExp(`a schedule with id ${a} already exists`),
      );
      // Bad input while the next minute is awaited.
      await badInput();

      // A fires on its own at a minute after the pause: a new session, `<id>-<firing time>`, that runs
      // to the end. (A minute that began while the commands above ran may have fired both A and B before
      // B's pause landed: a firing scheduled before the pause counts for neither check. No wait for an
      // early second of the minute: on a loaded machine, that wait and three CLI runs still crossed the
      // minute, and B fired before its pause.)
      const afterPause = (actions: ScheduleExecutionResult[]): ScheduleExecutionResult[] =>
        actions.filter((x) => x.scheduledAt.getTime() > pausedAt);
      const session = await waitFor(
        'a firing of the schedule after the pause',
        async () =>
          afterPause((await client.schedule.getHandle(a).describe()).info.recentActions)[0]?.action.workflow.workflowId,
        140_000,
        500,
      );
      assert.match(session, new RegExp(`^${a}-\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:00Z$`));
      const result = (await client.workflow.getHandle(session).result()) as { status: string; lastText?: string };
      assert.equal(result.status, 'completed');
      assert.equal(result.lastText, 'done: nightly job');
      const desc = await client.workflow.getHandle(session).describe();
      assert.equal((desc.memo as { schedule?: string }).schedule, a);
      assert.equal(desc.taskQueue, taskQueue);

      // B was paused through that minute: no firing after the pause.
      assert.ok(Date.now() - pausedAt > 1_000);
      const descB = await client.schedule.getHandle(b).describe();
      assert.equal(descB.state.paused, true);
      assert.deepEqual(afterPause(descB.info.recentActions), [], 'a paused schedule does not fire');
      assert.equal(
        descB.info.numActionsTaken,
        descB.info.recentActions.length,
        'every firing of B is in its recent actions (none hidden from the check above)',
      );

      const ls = await cli(['schedule', 'ls', '--json'], env);
      assert.equal(ls.code, 0, ls.stderr);
      const rows = ls.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as ScheduleRow);
      const lsA = rows.find((r) => r.scheduleId === a);
      const lsB = rows.find((r) => r.scheduleId === b);
      assert.ok(lsA && lsB, ls.stdout);
      assert.equal(lsB.paused, true);
      assert.equal(lsB.timeZone, 'Asia/Tokyo');
      assert.ok(lsA.recent.some((r) => r.session === session));
      // `ls` (sessions) marks the scheduled one.
      const sessions = await cli(['ls', '--json', '--limit', '200'], env);
      const row = sessions.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id: string; schedule?: string })
        .find((r) => r.id === session);
      assert.equal(row?.schedule, a, sessions.stdout);

      const resume = await cli(['schedule', 'resume', b], env);
      assert.equal(resume.code, 0, resume.stderr);
      assert.equal((await client.schedule.getHandle(b).describe()).state.paused, false);

      for (const id of [a, b]) {
        const rm = await cli(['schedule', 'rm', id], env);
        assert.equal(rm.code, 0, rm.stderr);
        await assert.rejects(client.schedule.getHandle(id).describe(), ScheduleNotFoundError);
      }
      oneLineError(await cli(['schedule', 'rm', a], env), new RegExp(`No schedule with id ${a}`));
      // The session the schedule started is still there (rm deletes the schedule, not its sessions).
      assert.equal((await client.workflow.getHandle(session).describe()).status.name, 'COMPLETED');
    });
  },
);
