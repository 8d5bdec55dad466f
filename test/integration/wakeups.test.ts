// integration: durable wake-ups and cron jobs (issue 19) on the real dev server. The model schedules
// a wake-up and a recurring job and ends its turn; the session sleeps on a durable timer (phase
// waiting_for_work, the reason in status); the worker is SIGKILLed during the wait and another one
// starts; the wake-up fires once, the job fires twice, then the model deletes it and the session
// ends by itself. A second session is ended by `stop` while it sleeps for an hour.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { textResponse, toolUseResponse, type MessagesRequest } from '../../src/testing/fakeAnthropic';
import { sessionStatus } from '../../src/temporal/client';
import { autonomyLines } from '../../src/cli/autonomyText';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';
import { newUserMessages } from '../support/sessionProbe';
import { cli } from '../support/cli';
import { killGroup, spawnWorker, type WorkerProc, workerProcessEnv } from '../support/workerProcs';

after(closeTestEnv);

/** The user texts of the request's newest user messages (a turn may carry several queued messages). */
function lastUserTexts(req: MessagesRequest): string[] {
  return newUserMessages(req).flatMap((m) =>
    typeof m.content === 'string'
      ? [m.content]
      : m.content.flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : [])),
  );
}
const hasToolResult = (req: MessagesRequest): boolean => {
  const last = req.messages[req.messages.length - 1];
  return !!last && typeof last.content !== 'string' && last.content.some((b) => b.type === 'tool_result');
};

// The tests wait on durable timers (a minute's wake-up and cron firings): they run side by side,
// each on its own fake API, task queue and worker, so the file takes the longest one's time (issue 32).
describe('wake-ups and cron jobs', { concurrency: true }, () => {
  test(
    'integration: a wake-up and a recurring job survive a worker SIGKILL during the wait; the job fires twice, CronDelete ends it',
    { timeout: 240_000 },
    async () => {
      await withAgent({ noWorker: true }, async ({ env, fake, start, storeDir, taskQueue, client }) => {
        const workerEnv = await workerProcessEnv({ env, fake, storeDir, taskQueue });
        const sessionId = `wakeups-${Date.now().toString(36)}`;
        const jobId = createHash('sha256').update(`${sessionId}/toolu_cron`).digest('hex').slice(0, 8);
        const seen = { ticks: 0, wakes: 0 };
        fake.script((req) => {
          const texts = lastUserTexts(req);
          if (texts.some((t) => t.includes('start the loop')))
            return toolUseResponse([
              {
                id: 'toolu_wake',
                name: 'ScheduleWakeup',
                input: { delaySeconds: 60, reason: 'the build takes a minute', prompt: 'WAKE: check the build' },
              },
              { id: 'toolu_cron', name: 'CronCreate', input: { cron: '* * * * *', prompt: 'TICK: look at the queue' } },
            ]);
          const ticks = texts.filter((t) => t.startsWith('TICK')).length;
          const wakes = texts.filter((t) => t.startsWith('WAKE')).length;
          seen.ticks += ticks;
          seen.wakes += wakes;
          if (ticks > 0 && seen.ticks >= 2)
            return toolUseResponse([{ id: `toolu_del_${seen.ticks}`, name: 'CronDelete', input: { id: jobId } }]);
          if (hasToolResult(req)) return textResponse('Waiting for the next event.');
          return textResponse(`Handled ${ticks} tick(s) and ${wakes} wake-up(s).`);
        });
        const procs: WorkerProc[] = [];
        try {
          await spawnWorker('worker-1', workerEnv, procs);
          const handle = await start({
            id: sessionId,
            prompt: 'start the loop',
            tools: ['Read', 'ScheduleWakeup', 'CronCreate', 'CronList', 'CronDelete'],
            timeZone: 'Europe/Berlin',
          });
          const waiting = await waitFor('the session to sleep', async () => {
            const s = await sessionStatus(client, handle.workflowId);
            return s.phase === 'waiting_for_work' && s.waiting ? s : undefined;
          });
          assert.match(waiting.waiting!.reason, /wake-up: the build takes a minute|cron/);
          assert.equal(waiting.autonomy?.crons[0]?.id, jobId);
          assert.equal(waiting.autonomy?.crons[0]?.timeZone, 'Europe/Berlin');
          assert.equal(waiting.autonomy?.wakeup?.prompt, 'WAKE: check the build');
          // The worker dies during the wait; a new one takes over the timers.
          killGroup(procs[0]!);
          await procs[0]!.exited;
          await spawnWorker('worker-2', workerEnv, procs);
          const result = await handle.result();
          assert.equal(result.status, 'completed', result.endReason);
          assert.equal(seen.wakes, 1, 'the wake-up fired once');
          assert.equal(seen.ticks, 2, 'the job fired twice, then was deleted');
          const final = await sessionStatus(client, handle.workflowId);
          assert.deepEqual(final.autonomy?.crons, []);
          assert.equal(final.autonomy?.wakeup, undefined);
        } finally {
          for (const p of procs) killGroup(p);
        }
      });
    },
  );

  test('integration: `stop` ends a session that sleeps on an hour-long wake-up', { timeout: 90_000 }, async () => {
    await withAgent({}, async ({ fake, start, client }) => {
      fake.enqueue(
        toolUseResponse([
          {
            id: 'toolu_w',
            name: 'ScheduleWakeup',
            input: { delaySeconds: 3600, reason: 'nightly check', prompt: 'again' },
          },
        ]),
        textResponse('Sleeping for an hour.'),
      );
      const handle = await start({ prompt: 'poll hourly', tools: ['ScheduleWakeup'] });
      const s = await waitFor('the session to sleep', async () => {
        const st = await sessionStatus(client, handle.workflowId);
        return st.phase === 'waiting_for_work' ? st : undefined;
      });
      assert.ok(s.waiting?.until && s.waiting.until - Date.now() > 3_000_000, 'it sleeps about an hour');
      assert.match(s.waiting.reason, /nightly check/);
      const lines = autonomyLines(s);
      assert.match(lines[0] ?? '', /^waiting until \d{4}-\d\d-\d\dT[\d:]+Z: wake-up: nightly check$/);
      assert.match(lines[1] ?? '', /^wake-up: at .*Z — nightly check$/);
      const addr = process.env.TEMPORAL_TEST_ADDRESS as string;
      const unknown = await cli(['stop', 'no-such-session-xyz'], { TEMPORAL_ADDRESS: addr });
      assert.notEqual(unknown.code, 0);
      assert.equal(unknown.stderr.trim().split('\n').length, 1, unknown.stderr);
      const stopped = await cli(['stop', handle.workflowId, '--json'], { TEMPORAL_ADDRESS: addr });
      assert.equal(stopped.code, 0, stopped.stderr);
      assert.deepEqual(JSON.parse(stopped.stdout), { session: handle.workflowId, stopRequested: true });
      const result = await handle.result();
      assert.equal(result.status, 'completed');
      assert.equal(result.turns, 2, 'no turn after the stop');
      assert.equal(fake.requests.length, 2);
    });
  });
});
