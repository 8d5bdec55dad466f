// integration: tools stay on the host that has the files — a session whose tool activities go to
// their own task queue, served by a `durable-agent worker` process (the product command), while
// the model calls and workflows run on another worker.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { lastToolResults, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { closeTestEnv, uniqueTaskQueue } from '../support/temporal';
import { withAgent } from '../support/agent';
import { stopChild } from '../support/wait';

after(closeTestEnv);
const EventType = temporal.api.enums.v1.EventType;

test(
  'integration: --tool-task-queue sends runToolUse to a `durable-agent worker` on that queue',
  { timeout: 120_000 },
  async () => {
    await withAgent({}, async ({ fake, start, workDir, storeDir, client }) => {
      const toolQueue = uniqueTaskQueue('host-a');
      const worker = spawn(
        process.execPath,
        [join(__dirname, '..', '..', 'src', 'cli', 'main.js'), 'worker', '--task-queue', toolQueue],
        {
          env: {
            ...process.env,
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_STORE_DIR: storeDir,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      worker.stdout.on('data', (d: Buffer) => (out += d.toString()));
      worker.stderr.on('data', (d: Buffer) => (out += d.toString()));
      try {
        await new Promise<void>((resolve, reject) => {
          const t = setInterval(() => out.includes('worker:') && (clearInterval(t), resolve()), 50);
          worker.once('exit', (code) => reject(new Error(`worker exited ${code}: ${out}`)));
        });
        await writeFile(join(workDir, 'here.txt'), 'on host A\n');
        fake.enqueue(
          toolUseResponse([{ id: 'toolu_q1', name: 'Read', input: { file_path: join(workDir, 'here.txt') } }]),
          textResponse('read it'),
        );
        const handle = await start({ prompt: 'read', toolTaskQueue: toolQueue });
        assert.equal((await handle.result()).status, 'completed');
        assert.match(JSON.stringify(lastToolResults(fake.messageRequests()[1]!)[0]?.content), /on host A/);
        // The tool activity was scheduled on the host's queue and run by the worker process.
        const events = (await client.workflow.getHandle(`${handle.workflowId}/turn-1`).fetchHistory()).events ?? [];
        const scheduled = events.find((e) => e.activityTaskScheduledEventAttributes?.activityId === 'tool-toolu_q1');
        assert.equal(scheduled?.activityTaskScheduledEventAttributes?.taskQueue?.name, toolQueue);
        const started = events.find(
          (e) =>
            e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED &&
            Number(e.activityTaskStartedEventAttributes?.scheduledEventId) === Number(scheduled?.eventId),
        );
        assert.match(started?.activityTaskStartedEventAttributes?.identity ?? '', new RegExp(`^${worker.pid}@`));
        const model = events.find((e) => e.activityTaskScheduledEventAttributes?.activityId === 'model-1');
        assert.notEqual(
          model?.activityTaskScheduledEventAttributes?.taskQueue?.name,
          toolQueue,
          'the model call stays on the shared queue',
        );
      } finally {
        await stopChild(worker, 'SIGINT', 10_000);
      }
    });
  },
);
