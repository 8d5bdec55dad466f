// integration: a session started by an earlier release finishes on today's worker with nothing
// run twice (DESIGN invariant 14). Each scenario runs once per earlier release (upgradeReleases():
// the previous release — the newest CHANGELOG.md entry older than package.json's version — and
// package.json's version once tagged, the release deployed now), each a real build
// (test/support/previousRelease.ts: built once into ~/.cache/durable-agent/releases/<commit>,
// minutes the first time; .ci/run prepares it before the tests). Its worker runs
// turn 1 (a call that runs) and turn 2 up to an approval wait; it is killed; today's worker takes
// the session over — replaying the old worker's session and turn histories — the approval is
// given, and the session goes on for two more turns. A second session: the previous release's
// worker is killed while a non-idempotent call runs; today's worker replays the session and the
// turn, the call's retry finds it started in the execution ledger and ends it as unknown_outcome
// (not re-run), and the session finishes.
import { after, test } from 'node:test';
import { turnResultFromHistory } from '../../src/core/payloads';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { lastToolResults, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { approveToolUse, sessionStatus } from '../../src/temporal/client';
import type { turnWorkflow } from '../../src/temporal/workflows/turn';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { killGroup, lines, releaseWorkerEnv, spawnWorker, type WorkerProc } from '../support/workerProcs';
import { waitFor } from '../support/wait';
import { previousRelease, upgradeReleases } from '../support/previousRelease';
import { TEST_TOOLS } from '../support/testTools';
import { failedWorkflowTasks } from '../support/history';

after(closeTestEnv);

const EventType = temporal.api.enums.v1.EventType;

for (const rel of upgradeReleases()) {
  test(
    `integration: a session started by release ${rel.version} (a call done, an approval waiting) finishes on this worker; nothing runs twice`,
    { timeout: 900_000 },
    async (t) => {
      const release = rel.commit ? previousRelease(rel.commit) : { why: rel.why };
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
              releaseWorkerEnv(release, { env, fake, storeDir, taskQueue }),
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

  test(
    `integration: a call in flight when the worker of release ${rel.version} dies ends on this worker as unknown_outcome; it never runs twice`,
    { timeout: 900_000 },
    async (t) => {
      const release = rel.commit ? previousRelease(rel.commit) : { why: rel.why };
      if (!release.script) return t.skip(release.why);
      await withAgent(
        { noWorker: true, worker: { tools: TEST_TOOLS } },
        async ({ env, fake, start, workDir, storeDir, taskQueue, client, startWorker }) => {
          const done = join(workDir, 'done.log');
          const marker = join(workDir, 'in-flight.log');
          fake.enqueue(
            toolUseResponse([{ id: 'toolu_done', name: 'AppendSlow', input: { file: done, text: 'done' } }]),
            // Writes its marker at once, then runs for ten minutes: it is in flight when the worker dies.
            toolUseResponse([
              {
                id: 'toolu_slow',
                name: 'AppendSlow',
                input: { file: marker, text: 'slow', delayMs: 600_000, idempotent: false },
              },
            ]),
            textResponse('Told the user the outcome is unknown.'),
          );
          const procs: WorkerProc[] = [];
          let newWorker: { stop(): Promise<void> } | undefined;
          try {
            const old = await spawnWorker(
              'previous-release',
              releaseWorkerEnv(release, { env, fake, storeDir, taskQueue }),
              procs,
              release.script,
            );
            const handle = await start({
              prompt: 'append, then a slow append',
              tools: ['AppendSlow'],
              permissionMode: 'bypassPermissions',
              maxTurns: 10,
              // A lost worker shows within two seconds (the default is 30 s).
              toolHeartbeatTimeoutMs: 2000,
            });
            await waitFor(
              'the slow call to start on the previous release',
              async () => (await lines(marker)).length === 1,
            );
            assert.deepEqual(await lines(done), ['done'], 'turn 1 ran on the previous release');
            assert.equal(fake.messageRequests().length, 2, 'turn 2 is in its tool call');
            killGroup(old);
            await old.exited;

            newWorker = await startWorker();
            const result = await handle.result();
            assert.equal(result.status, 'completed', result.endReason);
            assert.equal(result.turns, 3);

            // Neither call ran twice: the finished one is not replayed, the in-flight one is not re-run.
            assert.deepEqual(await lines(done), ['done']);
            assert.deepEqual(await lines(marker), ['slow'], 'the in-flight call did not re-run');

            // What the model was told: the ledger's unknown_outcome (a retry found the call started).
            const requests = fake.messageRequests();
            assert.equal(requests.length, 3);
            assert.deepEqual(
              lastToolResults(requests[1]!).map((r) => [r.tool_use_id, r.is_error === true]),
              [['toolu_done', false]],
            );
            const slow = lastToolResults(requests[2]!);
            assert.deepEqual(
              slow.map((r) => [r.tool_use_id, r.is_error]),
              [['toolu_slow', true]],
            );
            assert.match(JSON.stringify(slow[0]?.content), /outcome of this AppendSlow call is unknown/);
            assert.match(JSON.stringify(slow[0]?.content), /worker running it was lost/);
            fake.assertDone();
            const turn2 = turnResultFromHistory(
              await client.workflow.getHandle<typeof turnWorkflow>(`${handle.workflowId}/turn-2`).result(),
            );
            assert.deepEqual(
              turn2.records.map((r) => [r.toolUseId, r.status]),
              [['toolu_slow', 'unknown_outcome']],
            );
            const status = await sessionStatus(client, handle.workflowId);
            assert.deepEqual(status.toolCallCounts, { ok: 1, unknown_outcome: 1 });

            // One activity for the slow call, started twice (the lost attempt, the ledger's answer on this worker).
            const turn2Events =
              (await client.workflow.getHandle(`${handle.workflowId}/turn-2`).fetchHistory()).events ?? [];
            const scheduled = turn2Events.filter(
              (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runToolUse',
            );
            assert.deepEqual(
              scheduled.map((e) => e.activityTaskScheduledEventAttributes?.activityId),
              ['tool-toolu_slow'],
            );
            const slowId = String(scheduled[0]?.eventId);
            const attempts = turn2Events
              .filter((e) => String(e.activityTaskStartedEventAttributes?.scheduledEventId) === slowId)
              .map((e) => e.activityTaskStartedEventAttributes?.attempt);
            assert.deepEqual(attempts, [2], 'the completed attempt is the retry after the lost worker');

            // This worker replayed what the previous one recorded without a failed workflow task.
            const ids = [1, 2, 3].map((n) => `${handle.workflowId}/turn-${n}`);
            assert.deepEqual(
              await failedWorkflowTasks(client, [handle.workflowId, ...ids]),
              Object.fromEntries([handle.workflowId, ...ids].map((id) => [id, []])),
            );
          } finally {
            for (const p of procs) killGroup(p);
            await newWorker?.stop();
          }
        },
      );
    },
  );
}
