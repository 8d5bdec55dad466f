// integration: crash recovery (invariant 5). The worker runs as a separate process; it is killed
// with SIGKILL while a tool runs, a new worker is started, and the session completes. Files that
// the tools append to count the side effects: completed calls ran exactly once, the idempotent
// in-flight call ran again at most once more, the non-idempotent one did not re-run and the model
// is told that its outcome is unknown.
import { after, test } from 'node:test';
import { turnResultFromHistory } from '../../src/core/payloads';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Client, WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { lastToolResults, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { sessionStatus } from '../../src/temporal/client';
import type { turnWorkflow } from '../../src/temporal/workflows/turn';
import { sessionRuns, turnChildIds } from '../support/history';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';
import { killGroup, lines, spawnWorker, type WorkerProc, workerProcessEnv } from '../support/workerProcs';

after(closeTestEnv);

const HEARTBEAT_TIMEOUT_MS = 2000;
const SLOW_MS = 4000;

async function turnRecords(client: Client, sessionId: string, turn: number) {
  const r = turnResultFromHistory(
    await client.workflow.getHandle<typeof turnWorkflow>(`${sessionId}/turn-${turn}`).result(),
  );
  return r.records.map((x) => [x.toolUseId, x.status]);
}

test(
  'integration: SIGKILL the worker mid-tool twice; the session completes, no completed or non-idempotent call runs twice',
  { timeout: 120_000 },
  async () => {
    await withAgent({ noWorker: true }, async ({ env, fake, start, workDir, storeDir, taskQueue, client }) => {
      const workerEnv = await workerProcessEnv({ env, fake, storeDir, taskQueue });
      const doneLog = join(workDir, 'done.log');
      const idemLog = join(workDir, 'idem.log');
      const nonidemLog = join(workDir, 'nonidem.log');
      fake.enqueue(
        toolUseResponse([{ id: 'toolu_done', name: 'AppendSlow', input: { file: doneLog, text: 'done' } }]),
        toolUseResponse([
          {
            id: 'toolu_idem',
            name: 'AppendSlow',
            input: { file: idemLog, text: 'idem', delayMs: SLOW_MS, idempotent: true },
          },
        ]),
        toolUseResponse([
          {
            id: 'toolu_nonidem',
            name: 'AppendSlow',
            input: { file: nonidemLog, text: 'nonidem', delayMs: SLOW_MS, idempotent: false },
          },
        ]),
        textResponse('All three calls are accounted for.'),
      );
      const procs: WorkerProc[] = [];
      const ms = (t0: number) => `${Date.now() - t0} ms`;
      try {
        let t = Date.now();
        let worker = await spawnWorker('worker-1', workerEnv, procs);
        console.log(`[crash-recovery] worker-1 ready after ${ms(t)}`);
        const handle = await start({
          prompt: 'append to three files',
          tools: ['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash', 'AppendSlow'],
          permissionMode: 'bypassPermissions',
          toolHeartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS,
        });

        // Step 2's idempotent call is running on worker-1: kill it, start worker-2.
        await waitFor('the idempotent call to start', async () => (await lines(idemLog)).length >= 1);
        assert.deepEqual(await lines(doneLog), ['done'], 'step 1 completed before the crash');
        let requestsBefore = fake.messageRequests().length;
        let t0 = Date.now();
        killGroup(worker);
        await worker.exited;
        t = Date.now();
        worker = await spawnWorker('worker-2', workerEnv, procs);
        console.log(`[crash-recovery] kill #1: worker-2 ready after ${ms(t)}`);
        await waitFor('the idempotent call to re-run', async () => (await lines(idemLog)).length >= 2);
        console.log(`[crash-recovery] kill #1: idempotent call re-ran ${ms(t0)} after the kill`);
        await waitFor(
          'the session to continue after step 2',
          async () => fake.messageRequests().length > requestsBefore,
        );
        console.log(`[crash-recovery] kill #1: step 2 done, next model request ${ms(t0)} after the kill`);

        // Step 3's non-idempotent call is running on worker-2: kill it, start worker-3.
        await waitFor('the non-idempotent call to start', async () => (await lines(nonidemLog)).length >= 1);
        requestsBefore = fake.messageRequests().length;
        t0 = Date.now();
        killGroup(worker);
        await worker.exited;
        t = Date.now();
        worker = await spawnWorker('worker-3', workerEnv, procs);
        console.log(`[crash-recovery] kill #2: worker-3 ready after ${ms(t)}`);
        await waitFor(
          'the session to continue after step 3',
          async () => fake.messageRequests().length > requestsBefore,
        );
        console.log(
          `[crash-recovery] kill #2: step 3 done (unknown outcome), next model request ${ms(t0)} after the kill`,
        );

        const result = await handle.result();
        console.log(`[crash-recovery] session completed ${ms(t0)} after kill #2`);
        assert.equal(result.status, 'completed');
        assert.equal(result.turns, 4);

        // The side-effect counters.
        assert.deepEqual(await lines(doneLog), ['done'], 'a completed call ran exactly once');
        const idem = await lines(idemLog);
        assert.ok(idem.length >= 1 && idem.length <= 2, `idempotent call ran ${idem.length} times`);
        assert.ok(idem.every((l) => l === 'idem'));
        assert.deepEqual(await lines(nonidemLog), ['nonidem'], 'the non-idempotent call did not re-run');

        // What the model saw.
        const requests = fake.messageRequests();
        assert.equal(requests.length, 4);
        const [doneResult] = lastToolResults(requests[1]!);
        assert.equal(doneResult?.tool_use_id, 'toolu_done');
        assert.notEqual(doneResult?.is_error, true);
        const [idemResult] = lastToolResults(requests[2]!);
        assert.equal(idemResult?.tool_use_id, 'toolu_idem');
        assert.notEqual(idemResult?.is_error, true, JSON.stringify(idemResult));
        const nonidemResults = lastToolResults(requests[3]!);
        assert.equal(nonidemResults.length, 1);
        assert.equal(nonidemResults[0]?.tool_use_id, 'toolu_nonidem');
        assert.equal(nonidemResults[0]?.is_error, true);
        assert.match(JSON.stringify(nonidemResults[0]?.content), /outcome of this AppendSlow call is unknown/);
        assert.match(JSON.stringify(nonidemResults[0]?.content), /not re-run/);
        // Reported by the execution ledger on the retry (not by the workflow after attempts ran out).
        assert.match(JSON.stringify(nonidemResults[0]?.content), /worker running it was lost/);
        fake.assertDone();

        // What the workflows recorded.
        // One user turn in two children: `turn-1` ran steps 1..3 across both crashes and returned to
        // its session after the unknown outcome (the session must see it: core/turnSteps.ts
        // stepNeedsSession); `turn-4` ran the last step (the text), with no tool call.
        const runs = await sessionRuns(
          client,
          handle.workflowId,
          (handle as WorkflowHandleWithFirstExecutionRunId).firstExecutionRunId,
        );
        assert.deepEqual(turnChildIds(runs), [`${handle.workflowId}/turn-1`, `${handle.workflowId}/turn-4`]);
        assert.deepEqual(await turnRecords(client, handle.workflowId, 1), [
          ['toolu_done', 'ok'],
          ['toolu_idem', 'ok'],
          ['toolu_nonidem', 'unknown_outcome'],
        ]);
        assert.deepEqual(await turnRecords(client, handle.workflowId, 4), []);
        const status = await sessionStatus(client, handle.workflowId);
        assert.equal(status.status, 'completed');
        assert.equal(status.toolCalls, 3);
      } finally {
        for (const p of procs) killGroup(p);
        await Promise.all(procs.map((p) => p.exited));
      }
    });
  },
);
