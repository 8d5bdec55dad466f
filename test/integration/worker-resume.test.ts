// integration: resuming on another worker (issue 35). Two worker processes poll the session's task
// queue; a non-idempotent tool call (AppendSlow: its line is written at once, then it waits) runs on
// one of them, which is then stopped:
// - SIGKILL: nothing more comes from it; the call's heartbeats stop, the attempt times out after the
//   tool heartbeat timeout (5 s by default, core/heartbeats.ts) and is retried on the other worker,
//   whose execution ledger finds it started and answers `unknown_outcome`;
// - SIGTERM: the worker shuts down gracefully — after its grace time the call is cancelled and handed
//   back (failure WORKER_SHUTDOWN), retried on the other worker at once, again `unknown_outcome`,
//   never completed as "interrupted" (nobody interrupted it).
// Both read the history: the retried attempt's start (attempt 2, its previous failure, the worker
// that ran it) and the timeouts the activities were scheduled with. No time bound is asserted
// (bench/resume.ts measures how long resuming takes).
import { after, test } from 'node:test';
import { turnResultFromHistory } from '../../src/core/payloads';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { lastToolResults, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import type { turnWorkflow } from '../../src/temporal/workflows/turn';
import { MODEL_HEARTBEAT_TIMEOUT_MS, TOOL_HEARTBEAT_TIMEOUT_MS } from '../../src/core/heartbeats';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';
import { killGroup, lines, spawnWorker, type WorkerProc, workerProcessEnv } from '../support/workerProcs';

after(closeTestEnv);

const pidOf = (identity: string | null | undefined): number | undefined => {
  const m = /^(\d+)@/.exec(identity ?? '');
  return m ? Number(m[1]) : undefined;
};
const ms = (d: { seconds?: unknown; nanos?: unknown } | null | undefined): number =>
  Number(d?.seconds ?? 0) * 1000 + Math.round(Number(d?.nanos ?? 0) / 1e6);

/** The pid of the worker whose attempt of the turn's runToolUse is running. */
async function toolWorkerPid(client: Client, turnId: string): Promise<number> {
  let pid: number | undefined;
  await waitFor('the tool call to be running on a worker', async () => {
    const desc = await client.workflow
      .getHandle(turnId)
      .describe()
      .catch(() => undefined);
    const a = desc?.raw.pendingActivities?.find((x) => x.activityType?.name === 'runToolUse' && Number(x.state) === 2);
    pid = pidOf(a?.lastWorkerIdentity);
    return pid !== undefined;
  });
  return pid!;
}

/** What the turn's history says of its activities: each scheduled one's timeouts, and runToolUse's (last) start. */
async function turnActivities(client: Client, turnId: string) {
  const events = (await client.workflow.getHandle(turnId).fetchHistory()).events ?? [];
  const scheduled = new Map<number, { type: string; heartbeatMs: number; startToCloseMs: number }>();
  for (const e of events) {
    const a = e.activityTaskScheduledEventAttributes;
    if (a)
      scheduled.set(Number(e.eventId), {
        type: a.activityType?.name ?? '',
        heartbeatMs: ms(a.heartbeatTimeout),
        startToCloseMs: ms(a.startToCloseTimeout),
      });
  }
  const toolStart = events
    .map((e) => e.activityTaskStartedEventAttributes)
    .find((a) => a && scheduled.get(Number(a.scheduledEventId))?.type === 'runToolUse');
  return { scheduled: [...scheduled.values()], toolStart };
}

for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
  test(
    `integration: ${signal} of the worker mid tool call: the other worker runs the retried attempt; the side effect happened once`,
    { timeout: 240_000 },
    async () => {
      await withAgent({ noWorker: true }, async ({ env, fake, start, workDir, storeDir, taskQueue, client }) => {
        const workerEnv = await workerProcessEnv({ env, fake, storeDir, taskQueue });
        const log = join(workDir, 'side-effect.log');
        fake.enqueue(
          toolUseResponse([
            {
              id: 'toolu_slow',
              name: 'AppendSlow',
              input: { file: log, text: 'once', delayMs: 120_000, idempotent: false },
            },
          ]),
          textResponse('The call is accounted for.'),
        );
        const procs: WorkerProc[] = [];
        try {
          // The workers' own grace (WORKER_SHUTDOWN_GRACE): the default's, 2 s.
          const w1 = await spawnWorker('worker-1', { ...workerEnv, WORKER_SHUTDOWN_GRACE: '2s' }, procs);
          const w2 = await spawnWorker('worker-2', { ...workerEnv, WORKER_SHUTDOWN_GRACE: '2s' }, procs);
          const handle = await start({
            prompt: 'append once',
            tools: ['AppendSlow'],
            permissionMode: 'bypassPermissions',
          });
          const turnId = `${handle.workflowId}/turn-1`;
          await waitFor('the call to start', async () => (await lines(log)).length >= 1);
          const pid = await toolWorkerPid(client, turnId);
          const [victim, other] = w1.child.pid === pid ? [w1, w2] : [w2, w1];
          assert.equal(victim.child.pid, pid, 'the call runs on one of the two workers');
          if (signal === 'SIGKILL') killGroup(victim);
          else victim.child.kill('SIGTERM');
          await victim.exited;
          if (signal === 'SIGTERM')
            assert.equal(victim.child.exitCode, 0, 'a SIGTERMed worker shuts down and exits on its own');

          const result = await handle.result();
          assert.equal(result.status, 'completed');
          assert.deepEqual(await lines(log), ['once'], 'the non-idempotent call ran once');

          // The retried attempt: attempt 2, on the other worker, after the failure the signal caused.
          const { scheduled, toolStart } = await turnActivities(client, turnId);
          assert.ok(toolStart, 'runToolUse started');
          assert.equal(Number(toolStart.attempt), 2, 'the call was retried once');
          assert.equal(pidOf(toolStart.identity), other.child.pid, 'the retry ran on the other worker');
          const failure = toolStart.lastFailure;
          if (signal === 'SIGKILL')
            assert.equal(
              failure?.timeoutFailureInfo?.timeoutType,
              4, // TIMEOUT_TYPE_HEARTBEAT
              `a heartbeat timeout: ${JSON.stringify(failure)}`,
            );
          else {
            // Handed back, not timed out (and not cancelled: the turn would take that for an interrupt).
            assert.equal(failure?.applicationFailureInfo?.type, 'WORKER_SHUTDOWN', JSON.stringify(failure));
            assert.ok(!failure?.timeoutFailureInfo);
          }

          // The timeouts it ran under: the short defaults (core/heartbeats.ts).
          const tool = scheduled.find((s) => s.type === 'runToolUse');
          const model = scheduled.find((s) => s.type === 'callModel');
          assert.equal(tool?.heartbeatMs, TOOL_HEARTBEAT_TIMEOUT_MS);
          assert.equal(model?.heartbeatMs, MODEL_HEARTBEAT_TIMEOUT_MS);
          assert.ok(tool!.startToCloseMs > tool!.heartbeatMs);

          // The model is told the outcome is unknown (the ledger's answer on the retry), not "interrupted".
          const [res] = lastToolResults(fake.messageRequests()[1]!);
          assert.equal(res?.tool_use_id, 'toolu_slow');
          assert.equal(res?.is_error, true);
          assert.match(JSON.stringify(res?.content), /outcome of this AppendSlow call is unknown/);
          const r = turnResultFromHistory(await client.workflow.getHandle<typeof turnWorkflow>(turnId).result());
          assert.deepEqual(
            r.records.map((x) => [x.toolUseId, x.status]),
            [['toolu_slow', 'unknown_outcome']],
          );
          fake.assertDone();
        } finally {
          for (const p of procs) killGroup(p);
          await Promise.all(procs.map((p) => p.exited));
        }
      });
    },
  );
}
