// integration: a session started by an earlier release finishes on today's worker with nothing
// run twice (DESIGN invariant 14). The earlier release is a real build of an earlier commit
// (test/support/previousRelease.ts: built once into ~/.cache/durable-agent/releases/<commit>,
// minutes the first time; .ci/run prepares it before the tests). Its worker runs
// turn 1 (a call that runs) and turn 2 up to an approval wait; it is killed; today's worker takes
// the session over — replaying the old worker's session and turn histories — the approval is
// given, and the session goes on for two more turns.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { lastToolResults, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { approveToolUse, sessionStatus } from '../../src/client';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { killGroup, lines, spawnWorker, type WorkerProc } from '../support/workerProcs';
import { waitFor } from '../support/wait';
import { previousRelease } from '../support/previousRelease';
import { TEST_TOOLS } from '../support/testTools';

after(closeTestEnv);

const EventType = temporal.api.enums.v1.EventType;

test(
  'integration: a session started by the previous release (a call done, an approval waiting) finishes on this worker; nothing runs twice',
  { timeout: 900_000 },
  async (t) => {
    const release = previousRelease();
    if (!release.script) return t.skip(release.why);
    await withAgent(
      { noWorker: true, worker: { tools: TEST_TOOLS } },
      async ({ env, fake, start, workDir, storeDir, taskQueue, client, startWorker }) => {
        const log = join(workDir, 'calls.log');
        const approved = join(workDir, 'approved.txt');
        fake.enqueue(
          toolUseResponse([{ id: 'toolu_one', name: 'AppendSlow', input: { file: log, text: 'one' } }]),
          toolUseResponse([{ id: 'toolu_write', name: 'Write', input: { file_path: approved, content: 'yes\n' } }]),
          toolUseResponse([{ id: 'toolu_three', name: 'AppendSlow', input: { file: log, text: 'three' } }]),
          textResponse('Done in four turns.'),
        );
        const procs: WorkerProc[] = [];
        let newWorker: { stop(): Promise<void> } | undefined;
        try {
          const old = await spawnWorker(
            'previous-release',
            {
              TEMPORAL_TEST_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS ?? env.address,
              TEMPORAL_TEST_NAMESPACE: env.namespace ?? 'default',
              TASK_QUEUE: taskQueue,
              STORE_DIR: storeDir,
              FAKE_ANTHROPIC_URL: fake.baseURL,
            },
            procs,
            release.script,
          );
          // AppendSlow is allowed by rule; the Write asks (default mode).
          const handle = await start({
            prompt: 'append, write, append',
            tools: ['Write', 'AppendSlow'],
            permissionMode: 'default',
            rules: { allow: ['AppendSlow'], ask: [], deny: [] },
            maxTurns: 10,
          });
          await waitFor(
            'the Write to wait for approval on the previous release',
            async () => (await sessionStatus(client, handle.workflowId)).pendingApprovals.length === 1,
            120_000,
          );
          assert.deepEqual(await lines(log), ['one'], 'turn 1 ran on the previous release');
          killGroup(old);
          await old.exited;

          newWorker = await startWorker();
          const answer = await approveToolUse(client, handle.workflowId, 'toolu_write', 'ann@example');
          assert.equal(answer.status, 'applied', JSON.stringify(answer));
          const result = await handle.result();
          assert.equal(result.status, 'completed', result.endReason);
          assert.equal(result.turns, 4);

          // Nothing ran twice; the approved call ran once, on this worker.
          assert.deepEqual(await lines(log), ['one', 'three']);
          assert.equal(await readFile(approved, 'utf8'), 'yes\n');
          const requests = fake.messageRequests();
          assert.equal(requests.length, 4);
          assert.deepEqual(
            lastToolResults(requests[1]!).map((r) => [r.tool_use_id, r.is_error === true]),
            [['toolu_one', false]],
          );
          assert.deepEqual(
            lastToolResults(requests[2]!).map((r) => [r.tool_use_id, r.is_error === true]),
            [['toolu_write', false]],
          );
          assert.deepEqual(
            lastToolResults(requests[3]!).map((r) => [r.tool_use_id, r.is_error === true]),
            [['toolu_three', false]],
          );

          // This worker replayed what the previous one recorded without a failed workflow task.
          for (const id of [
            handle.workflowId,
            `${handle.workflowId}/turn-1`,
            `${handle.workflowId}/turn-2`,
            `${handle.workflowId}/turn-3`,
          ]) {
            const events = (await client.workflow.getHandle(id).fetchHistory()).events ?? [];
            const failed = events
              .filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED)
              .map((e) => e.workflowTaskFailedEventAttributes?.failure?.message);
            assert.deepEqual(failed, [], `${id}: failed workflow tasks`);
          }
          const runToolUses = (
            (await client.workflow.getHandle(`${handle.workflowId}/turn-2`).fetchHistory()).events ?? []
          )
            .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runToolUse')
            .map((e) => e.activityTaskScheduledEventAttributes?.activityId);
          assert.deepEqual(
            runToolUses,
            ['tool-toolu_write', 'tool-toolu_write-approve'],
            'the ask, then the approved run: once each',
          );
        } finally {
          for (const p of procs) killGroup(p);
          await newWorker?.stop();
        }
      },
    );
  },
);
