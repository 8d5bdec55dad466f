// integration: Worker Deployment Versioning on the real dev server (docs/deployment.md "Upgrading
// with deployment versions"). Two workers of one deployment on one task queue, build A and build
// B. A is made current; session 1 starts and its turn 1 waits for an approval on A. B starts and is
// made current; session 2 runs wholly on B. The approval is given: session 1's turn 1 — PINNED —
// finishes on build A (its approved tool call and its workflow tasks by A's worker), while the
// session — AUTO_UPGRADE — moves to B and its turn 2 starts and ends on B. Nothing runs twice.
// The workers bundle src/temporal/workflows/versioned.ts (the behaviours); unversioned workers bundle
// src/temporal/workflows/index.ts, which names none (core refuses a behaviour from an unversioned worker).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { approveToolUse, sessionStatus } from '../../src/temporal/client';
import { deploymentVersionStatus, setCurrentDeploymentVersion } from '../../src/temporal/service/deployment';
import { versionedWorkflowsPath } from '../../src/temporal/worker';
import { closeTestEnv, getWorkflowBundle } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';

after(closeTestEnv);

const EventType = temporal.api.enums.v1.EventType;

/** The build a workflow is on and its versioning behaviour, as the server describes it. */
async function versionOf(client: Client, id: string): Promise<{ buildId?: string; behavior?: string }> {
  const info = (await client.workflow.getHandle(id).describe()).raw.workflowExecutionInfo?.versioningInfo;
  const behavior = temporal.api.enums.v1.VersioningBehavior[Number(info?.behavior ?? 0)];
  return { buildId: info?.deploymentVersion?.buildId ?? undefined, behavior };
}

/** The identities of the workers that started each workflow task and each activity of a workflow. */
async function workersOf(client: Client, id: string): Promise<{ tasks: string[]; activities: Record<string, string> }> {
  const events = (await client.workflow.getHandle(id).fetchHistory()).events ?? [];
  const tasks = [
    ...new Set(
      events
        .filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED)
        .map((e) => e.workflowTaskStartedEventAttributes?.identity ?? ''),
    ),
  ];
  const scheduled = new Map<string, string>();
  for (const e of events)
    if (e.activityTaskScheduledEventAttributes?.activityId)
      scheduled.set(String(e.eventId), e.activityTaskScheduledEventAttributes.activityId);
  const activities: Record<string, string> = {};
  for (const e of events) {
    const a = e.activityTaskStartedEventAttributes;
    if (a) activities[scheduled.get(String(a.scheduledEventId)) ?? '?'] = a.identity ?? '';
  }
  return { tasks, activities };
}

test(
  'integration: with deployment versions a turn started on build A finishes on A while build B takes new sessions and the session moves to B',
  { timeout: 300_000 },
  async () => {
    await withAgent({ noWorker: true }, async ({ fake, start, workDir, taskQueue, client, startWorker }) => {
      const deploymentName = `da-test-${taskQueue}`;
      const A = { deploymentName, buildId: 'build-A' };
      const B = { deploymentName, buildId: 'build-B' };
      const approved = join(workDir, 'approved.txt');
      fake.enqueue(
        toolUseResponse([{ id: 'toolu_write', name: 'Write', input: { file_path: approved, content: 'yes\n' } }]),
        textResponse('Session 2 done on B.'),
        textResponse('Session 1 done.'),
      );
      const workers: Array<{ stop(): Promise<void> }> = [];
      const workflowBundle = await getWorkflowBundle(versionedWorkflowsPath);
      try {
        workers.push(await startWorker({ deployment: A, workflowBundle, workerOptions: { identity: 'worker-A' } }));
        await setCurrentDeploymentVersion(client, A);
        // One model step per turn child: the scenario is a new child for the step after the approval,
        // started on B (with several steps per child, turn-1 would run that step too, pinned to A).
        const s1 = await start({
          prompt: 'write it',
          tools: ['Write'],
          permissionMode: 'default',
          maxTurns: 5,
          maxStepsPerTurn: 1,
        });
        await waitFor(
          'session 1 to wait for an approval on build A',
          async () => (await sessionStatus(client, s1.workflowId)).pendingApprovals.length === 1,
          60_000,
        );

        workers.push(await startWorker({ deployment: B, workflowBundle, workerOptions: { identity: 'worker-B' } }));
        await setCurrentDeploymentVersion(client, B);
        const s2 = await start({ prompt: 'say done', tools: ['Read'], maxTurns: 5 });
        const r2 = await s2.result();
        assert.equal(r2.status, 'completed', r2.endReason);
        assert.equal(await deploymentVersionStatus(client, A), 'draining', 'A still has a pinned turn');

        const answer = await approveToolUse(client, s1.workflowId, 'toolu_write', 'ann@example');
        assert.equal(answer.status, 'applied', JSON.stringify(answer));
        const r1 = await s1.result();
        assert.equal(r1.status, 'completed', r1.endReason);
        assert.equal(r1.turns, 2);
        assert.equal(await readFile(approved, 'utf8'), 'yes\n');

        // Session 1's turn 1 stayed on A: pinned, every workflow task and the approved call by A's worker.
        assert.deepEqual(await versionOf(client, `${s1.workflowId}/turn-1`), {
          buildId: 'build-A',
          behavior: 'VERSIONING_BEHAVIOR_PINNED',
        });
        const turn1 = await workersOf(client, `${s1.workflowId}/turn-1`);
        assert.deepEqual(turn1.tasks, ['worker-A']);
        assert.equal(turn1.activities['tool-toolu_write-approve'], 'worker-A', JSON.stringify(turn1.activities));
        assert.equal(turn1.activities['tool-toolu_write'], 'worker-A');
        // The session moved to B (auto-upgrade), and its next turn started there.
        assert.deepEqual(await versionOf(client, s1.workflowId), {
          buildId: 'build-B',
          behavior: 'VERSIONING_BEHAVIOR_AUTO_UPGRADE',
        });
        assert.deepEqual((await workersOf(client, s1.workflowId)).tasks.sort(), ['worker-A', 'worker-B']);
        assert.deepEqual(await versionOf(client, `${s1.workflowId}/turn-2`), {
          buildId: 'build-B',
          behavior: 'VERSIONING_BEHAVIOR_PINNED',
        });
        assert.deepEqual((await workersOf(client, `${s1.workflowId}/turn-2`)).tasks, ['worker-B']);
        // Session 2 ran wholly on B.
        assert.deepEqual((await workersOf(client, s2.workflowId)).tasks, ['worker-B']);
        assert.deepEqual((await workersOf(client, `${s2.workflowId}/turn-1`)).tasks, ['worker-B']);
        assert.equal((await versionOf(client, `${s2.workflowId}/turn-1`)).buildId, 'build-B');
        // One model call per turn: nothing ran twice.
        assert.equal(fake.messageRequests().length, 3);
        fake.assertDone();
      } finally {
        for (const w of workers.reverse()) await w.stop();
      }
    });
  },
);
