// integration: a worker SIGKILL during a subagent's tool call. The worker runs as a process of its
// own; the parent session's Agent call runs a child session workflow whose second tool call is
// killed mid-way; a new worker resumes the child like any session and the parent completes.
// Nothing completed ran twice: the child's first call ran once, the child workflow was started once.
import { after, test } from 'node:test';
import { turnResultFromHistory } from '../../src/core/payloads';
import type { TurnWorkflowResult } from '../../src/temporal/workflows/definitions';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { lastToolResults, textResponse, toolUseResponse, type MessagesRequest } from '../../src/testing/fakeAnthropic';
import { sessionRuns, turnChildIds } from '../support/history';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { waitFor } from '../support/wait';
import { killGroup, lines, spawnWorker, type WorkerProc, workerProcessEnv } from '../support/workerProcs';

after(closeTestEnv);

// Margins for a loaded machine: a worker whose event loop stalls for less than the heartbeat
// timeout keeps its call (no spurious retry before the kill), and the slow call is still running
// when the test, polling every 100 ms, kills the worker.
const HEARTBEAT_TIMEOUT_MS = 5000;
const SLOW_MS = 8000;

const isChild = (req: MessagesRequest): boolean =>
  JSON.stringify(req.system ?? '').includes('on behalf of another agent');

test(
  'integration: SIGKILL during a subagent tool call; the parent completes, nothing completed ran twice',
  { timeout: 300_000 },
  async () => {
    await withAgent({ noWorker: true }, async ({ env, fake, start, workDir, storeDir, taskQueue, client }) => {
      const workerEnv = await workerProcessEnv({ env, fake, storeDir, taskQueue });
      const doneLog = join(workDir, 'done.log');
      const slowLog = join(workDir, 'slow.log');
      fake.script((req) => {
        const n = req.messages.length;
        if (isChild(req)) {
          if (n === 1)
            return toolUseResponse([
              { id: 'toolu_c_done', name: 'AppendSlow', input: { file: doneLog, text: 'done' } },
            ]);
          if (n === 3)
            return toolUseResponse([
              {
                id: 'toolu_c_slow',
                name: 'AppendSlow',
                input: { file: slowLog, text: 'slow', delayMs: SLOW_MS, idempotent: true },
              },
            ]);
          return textResponse('child: both appends done');
        }
        if (n === 1)
          return toolUseResponse([
            {
              id: 'toolu_agent',
              name: 'Agent',
              input: { run_in_background: false, description: 'append twice', prompt: 'append to both files' },
            },
          ]);
        return textResponse('parent: the agent reported');
      });
      const procs: WorkerProc[] = [];
      try {
        let worker = await spawnWorker('worker-1', workerEnv, procs);
        const handle = await start({
          prompt: 'delegate the appends',
          tools: ['Read', 'Agent', 'AppendSlow'],
          permissionMode: 'bypassPermissions',
          toolHeartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS,
        });
        await waitFor('the subagent slow call to start', async () => (await lines(slowLog)).length >= 1, 120_000);
        assert.deepEqual(await lines(doneLog), ['done']);
        killGroup(worker);
        await worker.exited;
        worker = await spawnWorker('worker-2', workerEnv, procs);
        const result = await handle.result();
        assert.equal(result.status, 'completed', result.endReason);
        assert.equal(result.lastText, 'parent: the agent reported');

        assert.deepEqual(await lines(doneLog), ['done'], 'the completed child call ran exactly once');
        const slow = await lines(slowLog);
        assert.ok(slow.length >= 1 && slow.length <= 2, `the in-flight idempotent call ran ${slow.length} times`);

        const parentReqs = fake.messageRequests().filter((r) => !isChild(r));
        assert.equal(parentReqs.length, 2);
        // Every model call of the child ran once: its turns 1 and 2 (completed before the kill) were not asked again.
        assert.deepEqual(
          fake
            .messageRequests()
            .filter(isChild)
            .map((r) => r.messages.length),
          [1, 3, 5],
        );
        const [agentResult] = lastToolResults(parentReqs[1]!);
        assert.equal(agentResult?.tool_use_id, 'toolu_agent');
        assert.notEqual(agentResult?.is_error, true, JSON.stringify(agentResult));
        assert.match(JSON.stringify(agentResult?.content), /child: both appends done/);
        // One child workflow execution for the call, ever.
        const childId = `${handle.workflowId}/agent-toolu_agent`;
        const runs: string[] = [];
        for await (const w of client.workflow.list({ query: `WorkflowId = '${childId}'` })) runs.push(w.runId);
        assert.equal(runs.length, 1, `child runs: ${runs.join(', ')}`);
        const childDesc = await client.workflow.getHandle(childId).describe();
        assert.equal(childDesc.status.name, 'COMPLETED');
        // The child model saw its first result once and recorded its calls as ok. One user turn: the
        // subagent's turn child (`turn-1`) ran its three model steps across the crash, so it holds
        // both records and no child was started for a later step.
        const subRuns = await sessionRuns(client, childId, childDesc.runId);
        assert.deepEqual(turnChildIds(subRuns), [`${childId}/turn-1`]);
        const t1 = turnResultFromHistory(
          (await client.workflow.getHandle(`${childId}/turn-1`).result()) as TurnWorkflowResult,
        );
        assert.deepEqual(
          t1.records.map((r) => [r.toolUseId, r.status]),
          [
            ['toolu_c_done', 'ok'],
            ['toolu_c_slow', 'ok'],
          ],
        );
      } finally {
        for (const p of procs) killGroup(p);
        await Promise.all(procs.map((p) => p.exited));
      }
    });
  },
);
