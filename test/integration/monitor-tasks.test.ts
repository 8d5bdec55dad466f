// integration: Monitor tasks (issue 19) on the real dev server. A Monitor call returns at once; the
// session runs the watch command as its own activity `task-<id>` (runMonitorTask), whose stdout
// batches reach the session as `monitorEvent` signals: each becomes one `<task-notification>` that
// wakes the idle session, in order, each once (a doubled signal is dropped), and the end of the
// stream one more (the lines that came with the exit as its event). `status` shows the monitor while
// it runs. TaskStop stops one: its processes are gone and no end notification follows. A worker
// SIGKILLed during a Monitor: the session is told it was lost (not restarted), no process is left.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { textResponse, toolUseResponse, type MessagesRequest } from '../../src/testing/fakeAnthropic';
import { sessionStatus } from '../../src/temporal/client';
import { SIGNALS } from '../../src/core/ids';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';
import { killGroup, spawnWorker, type WorkerProc, workerProcessEnv } from '../support/workerProcs';
import { TAG_ENV, describe, killAll, newTag, waitUntilNoneTagged } from '../support/leftovers';
import { contentTexts, processesWith } from '../support/sessionProbe';

after(closeTestEnv);

/** The texts the request added: every user message after the last assistant message (text blocks and tool results). */
function newTexts(req: MessagesRequest): string[] {
  const lastAssistant = req.messages.map((m) => m.role).lastIndexOf('assistant');
  return req.messages.slice(lastAssistant + 1).flatMap((m) => contentTexts(m.content));
}

const STARTED = /^Monitor started \(task (b[a-z0-9]{8}), expires in 1m unless the source ends first;/;
const EVENT =
  /<task-notification>\n<task-id>(b[a-z0-9]{8})<\/task-id>\n<summary>Monitor event: "ticks &lt;4&gt;"<\/summary>\n<event>([\s\S]*?)<\/event>\n<\/task-notification>/;

test(
  'integration: a Monitor: its lines reach the next turns as events, in order, each once (a doubled signal dropped); the end notification follows; status shows it',
  { timeout: 180_000 },
  async () => {
    // The output file is read after the session ended: kept (it goes with the session otherwise; integration/sessions-apart).
    process.env.DURABLE_AGENT_KEEP_SESSION_TEMP = '1';
    try {
      await withAgent({}, async ({ fake, start, client, workDir }) => {
        let taskId = '';
        const events: string[][] = [];
        const ends: string[] = [];
        fake.script((req) => {
          const texts = newTexts(req);
          if (texts.some((t) => t.includes('watch the ticks')))
            return toolUseResponse([
              {
                id: 'toolu_mon',
                name: 'Monitor',
                input: {
                  description: 'ticks <4>',
                  timeout_ms: 60_000,
                  // After the first tick it holds until the test opens the gate (it has seen the task
                  // running and sent the doubled batch): the looks need not beat a 6 s script.
                  command:
                    'for i in 1 2 3 4; do echo "tick $i"; echo "noise $i" >&2; if [ $i = 1 ]; then until [ -e go ]; do sleep 0.1; done; fi; sleep 1.5; done; echo "done line"',
                },
              },
            ]);
          for (const t of texts) {
            const m = STARTED.exec(t);
            if (m) taskId = m[1]!;
            const e = EVENT.exec(t);
            if (e) {
              assert.equal(e[1], taskId);
              events.push(e[2]!.split('\n'));
            }
            if (t.includes('<status>')) ends.push(t);
          }
          return textResponse(texts.some((t) => t.includes('<task-notification>')) ? 'Noted.' : 'Watching.');
        });
        const handle = await start({ prompt: 'watch the ticks', tools: ['Monitor', 'Read'] });
        const waiting = await waitFor(
          'the session to wait for its monitor',
          async () => {
            const s = await sessionStatus(client, handle.workflowId);
            return s.status === 'waiting' && s.autonomy?.tasks[0]?.state === 'running' ? s : undefined;
          },
          60_000,
        );
        assert.match(waiting.waiting?.reason ?? '', /1 background task running/);
        const task = waiting.autonomy!.tasks[0]!;
        assert.deepEqual([task.kind, task.id, task.description], ['monitor', taskId, 'ticks <4>']);
        assert.match(task.outputPath ?? '', new RegExp(`/tasks/${taskId}\\.output$`));
        // A doubled delivery of the first batch (as a retried signal would be): dropped by its seq.
        await waitFor('the first event', async () => (events.length > 0 ? true : undefined), 60_000);
        await client.workflow
          .getHandle(handle.workflowId)
          .signal(SIGNALS.monitorEvent, { taskId, seq: 1, kind: 'event', text: 'DOUBLED' });
        writeFileSync(join(workDir, 'go'), '');
        const result = await handle.result();
        assert.equal(result.status, 'completed', result.endReason);
        // Every line once, in order: the events, then the lines that came with the exit.
        assert.equal(ends.length, 1, 'one end notification');
        const end = ends[0]!;
        assert.match(
          end,
          new RegExp(
            `<task-notification>\\n<task-id>${taskId}</task-id>\\n<tool-use-id>toolu_mon</tool-use-id>\\n<output-file>${task.outputPath}</output-file>\\n<status>completed</status>\\n<summary>Monitor "ticks &lt;4&gt;" stream ended</summary>`,
          ),
        );
        const endLines = /<event>([\s\S]*?)<\/event>/.exec(end)?.[1]?.split('\n') ?? [];
        assert.deepEqual([...events.flat(), ...endLines], ['tick 1', 'tick 2', 'tick 3', 'tick 4', 'done line']);
        assert.ok(events.length >= 2, 'events reached more than one turn');
        const all = fake.messageRequests().map((r) => JSON.stringify(r.messages));
        assert.ok(!all.some((t) => t.includes('DOUBLED')), 'the doubled signal never reached the model');
        assert.ok(!all.some((t) => t.includes('noise 1')), 'stderr is not an event');
        const output = readFileSync(task.outputPath!, 'utf8');
        assert.match(output, /noise 4/);
        assert.match(output, /done line/);
        const final = await sessionStatus(client, handle.workflowId);
        assert.deepEqual(
          final.autonomy?.tasks.map((t) => [t.id, t.kind, t.state, t.exitCode]),
          [[taskId, 'monitor', 'completed', 0]],
        );
        assert.match(final.autonomy?.tasks[0]?.outputRef ?? '', /^taskoutput-[0-9a-f]{64}$/);
        // The activity is the task's own, as a background command's.
        const history = await client.workflow.getHandle(handle.workflowId).fetchHistory();
        const scheduled = (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes);
        assert.ok(
          scheduled.some(
            (e) =>
              e.activityTaskScheduledEventAttributes?.activityId === `task-${taskId}` &&
              e.activityTaskScheduledEventAttributes.activityType?.name === 'runMonitorTask',
          ),
        );
      });
    } finally {
      delete process.env.DURABLE_AGENT_KEEP_SESSION_TEMP;
    }
  },
);

test(
  'integration: TaskStop stops a Monitor: its processes are gone, no end notification follows',
  { timeout: 120_000, skip: process.platform !== 'linux' ? 'needs /proc' : false },
  async () => {
    const marker = `${4000 + Math.floor(Math.random() * 5000)}.75`;
    await withAgent({}, async ({ fake, start, client }) => {
      let taskId = '';
      const texts: string[] = [];
      fake.script((req) => {
        const added = newTexts(req);
        texts.push(...added);
        const text = added.join('\n');
        if (text.includes('watch forever'))
          return toolUseResponse([
            {
              id: 'toolu_mon',
              name: 'Monitor',
              input: { description: 'forever', timeout_ms: 600_000, command: `echo up; sleep ${marker}` },
            },
          ]);
        const m = STARTED.exec(text) ?? /Monitor started \(task (b[a-z0-9]{8})/.exec(text);
        if (m) taskId = m[1]!;
        if (text.includes('<event>up</event>'))
          return toolUseResponse([{ id: 'toolu_stop', name: 'TaskStop', input: { task_id: taskId } }]);
        return textResponse(text.includes('Successfully stopped') ? 'Stopped.' : 'Watching.');
      });
      const handle = await start({
        prompt: 'watch forever',
        tools: ['Monitor', 'TaskStop'],
        toolHeartbeatTimeoutMs: 5_000,
      });
      await waitFor('the watch to run', async () => processesWith(`sleep ${marker}`).length > 0 || undefined, 60_000);
      const result = await handle.result();
      assert.equal(result.status, 'completed', result.endReason);
      const stopped = texts.find((t) => t.includes('Successfully stopped'));
      assert.deepEqual(JSON.parse(stopped ?? '{}'), {
        message: `Successfully stopped task: ${taskId} (echo up; sleep ${marker})`,
        task_id: taskId,
        task_type: 'local_bash', // the reference's, for a Monitor too
        command: `echo up; sleep ${marker}`,
      });
      assert.ok(!texts.some((t) => t.includes('<status>')), 'no end notification');
      await waitFor('the process to be gone', async () => processesWith(`sleep ${marker}`).length === 0, 20_000).catch(
        () => undefined,
      );
      assert.deepEqual(processesWith(`sleep ${marker}`), []);
      const s = await sessionStatus(client, handle.workflowId);
      assert.deepEqual(
        s.autonomy?.tasks.map((t) => [t.id, t.kind, t.state, t.stopRequested]),
        [[taskId, 'monitor', 'killed', true]],
      );
    });
  },
);

test(
  'integration: SIGKILL of the worker during a Monitor: the session is told it was lost (not restarted), no process is left',
  { timeout: 240_000, skip: process.platform !== 'linux' ? 'needs /proc' : false },
  async () => {
    await withAgent({ noWorker: true }, async ({ env, fake, start, storeDir, taskQueue, workDir, client }) => {
      const baseEnv = await workerProcessEnv({ env, fake, storeDir, taskQueue });
      const workerEnv = (tag: string): NodeJS.ProcessEnv => ({ ...baseEnv, [TAG_ENV]: tag });
      const ends: string[] = [];
      let events = 0;
      fake.script((req) => {
        const texts = newTexts(req);
        if (texts.some((t) => t.includes('watch the log')))
          return toolUseResponse([
            {
              id: 'toolu_watch',
              name: 'Monitor',
              input: {
                description: 'Log',
                timeout_ms: 600_000,
                command: 'echo run >> runs.txt; echo started; sleep 600',
              },
            },
          ]);
        for (const t of texts) {
          if (t.includes('<event>started</event>')) events++;
          if (t.includes('<status>')) ends.push(t);
        }
        return textResponse('Noted.');
      });
      const procs: WorkerProc[] = [];
      const tag1 = newTag();
      try {
        const worker1 = await spawnWorker('worker-1', workerEnv(tag1), procs);
        const handle = await start({
          prompt: 'watch the log',
          tools: ['Monitor'],
          toolHeartbeatTimeoutMs: 3_000,
          sandbox: { passEnv: [TAG_ENV] },
        });
        await waitFor('the first event', async () => (events > 0 ? true : undefined), 60_000);
        process.kill(worker1.child.pid!, 'SIGKILL');
        await worker1.exited;
        await spawnWorker('worker-2', workerEnv(newTag()), procs);
        const left = await waitUntilNoneTagged(tag1, 20_000);
        killAll(left);
        assert.deepEqual(left, [], `left behind by worker-1:\n${describe(left)}`);
        const result = await handle.result();
        assert.equal(result.status, 'completed', result.endReason);
        // What the model finally saw (a turn whose model call the dead worker had started is asked again).
        const seen = fake
          .messageRequests()
          .at(-1)!
          .messages.flatMap((m) => newTexts({ ...fake.messageRequests().at(-1)!, messages: [m] }));
        assert.equal(seen.filter((t) => t.includes('<event>started</event>')).length, 1, 'the event once');
        assert.equal(seen.filter((t) => t.includes('<status>')).length, 1, 'one end notification');
        assert.ok(ends.length >= 1);
        assert.match(ends[0]!, /<status>failed<\/status>/);
        assert.match(
          ends[0]!,
          /<summary>Monitor "Log" was lost: the worker running it died and its processes were killed; it was not restarted<\/summary>/,
        );
        assert.equal(readFileSync(join(workDir, 'runs.txt'), 'utf8'), 'run\n', 'never restarted');
        const s = await sessionStatus(client, handle.workflowId);
        assert.deepEqual([s.autonomy?.tasks[0]?.kind, s.autonomy?.tasks[0]?.state], ['monitor', 'lost']);
        assert.match(s.autonomy?.tasks[0]?.error ?? '', /HEARTBEAT|heartbeat/i);
      } finally {
        for (const p of procs) killGroup(p);
        await Promise.all(procs.map((p) => p.exited));
      }
    });
  },
);
