"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: a worker SIGKILL during a subagent's tool call. The worker runs as a process of its
// own; the parent session's Agent call runs a child session workflow whose second tool call is
// killed mid-way; a new worker resumes the child like any session and the parent completes.
// Nothing completed ran twice: the child's first call ran once, the child workflow was started once.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const wait_1 = require("../support/wait");
const workerProcs_1 = require("../support/workerProcs");
(0, node_test_1.after)(temporal_1.closeTestEnv);
// Margins for a loaded machine: a worker whose event loop stalls for less than the heartbeat
// timeout keeps its call (no spurious retry before the kill), and the slow call is still running
// when the test, polling every 100 ms, kills the worker.
const HEARTBEAT_TIMEOUT_MS = 5000;
const SLOW_MS = 8000;
const isChild = (req) => JSON.stringify(req.system ?? '').includes('on behalf of another agent');
(0, node_test_1.test)('integration: SIGKILL during a subagent tool call; the parent completes, nothing completed ran twice', { timeout: 300_000 }, async () => {
    await (0, agent_1.withAgent)({ noWorker: true }, async ({ env, fake, start, workDir, storeDir, taskQueue, client }) => {
        const workerEnv = await (0, workerProcs_1.workerProcessEnv)({ env, fake, storeDir, taskQueue });
        const doneLog = (0, node_path_1.join)(workDir, 'done.log');
        const slowLog = (0, node_path_1.join)(workDir, 'slow.log');
        fake.script((req) => {
            const n = req.messages.length;
            if (isChild(req)) {
                if (n === 1)
                    return (0, fakeAnthropic_1.toolUseResponse)([
                        { id: 'toolu_c_done', name: 'AppendSlow', input: { file: doneLog, text: 'done' } },
                    ]);
                if (n === 3)
                    return (0, fakeAnthropic_1.toolUseResponse)([
                        {
                            id: 'toolu_c_slow',
                            name: 'AppendSlow',
                            input: { file: slowLog, text: 'slow', delayMs: SLOW_MS, idempotent: true },
                        },
                    ]);
                return (0, fakeAnthropic_1.textResponse)('child: both appends done');
            }
            if (n === 1)
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_agent',
                        name: 'Agent',
                        input: { run_in_background: false, description: 'append twice', prompt: 'append to both files' },
                    },
                ]);
            return (0, fakeAnthropic_1.textResponse)('parent: the agent reported');
        });
        const procs = [];
        try {
            let worker = await (0, workerProcs_1.spawnWorker)('worker-1', workerEnv, procs);
            const handle = await start({
                prompt: 'delegate the appends',
                tools: ['Read', 'Agent', 'AppendSlow'],
                permissionMode: 'bypassPermissions',
                toolHeartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS,
            });
            await (0, wait_1.waitFor)('the subagent slow call to start', async () => (await (0, workerProcs_1.lines)(slowLog)).length >= 1, 120_000);
            strict_1.default.deepEqual(await (0, workerProcs_1.lines)(doneLog), ['done']);
            (0, workerProcs_1.killGroup)(worker);
            await worker.exited;
            worker = await (0, workerProcs_1.spawnWorker)('worker-2', workerEnv, procs);
            const result = await handle.result();
            strict_1.default.equal(result.status, 'completed', result.endReason);
            strict_1.default.equal(result.lastText, 'parent: the agent reported');
            strict_1.default.deepEqual(await (0, workerProcs_1.lines)(doneLog), ['done'], 'the completed child call ran exactly once');
            const slow = await (0, workerProcs_1.lines)(slowLog);
            strict_1.default.ok(slow.length >= 1 && slow.length <= 2, `the in-flight idempotent call ran ${slow.length} times`);
            const parentReqs = fake.messageRequests().filter((r) => !isChild(r));
            strict_1.default.equal(parentReqs.length, 2);
            // Every model call of the child ran once: its turns 1 and 2 (completed before the kill) were not asked again.
            strict_1.default.deepEqual(fake
                .messageRequests()
                .filter(isChild)
                .map((r) => r.messages.length), [1, 3, 5]);
            const [agentResult] = (0, fakeAnthropic_1.lastToolResults)(parentReqs[1]);
            strict_1.default.equal(agentResult?.tool_use_id, 'toolu_agent');
            strict_1.default.notEqual(agentResult?.is_error, true, JSON.stringify(agentResult));
            strict_1.default.match(JSON.stringify(agentResult?.content), /child: both appends done/);
            // One child workflow execution for the call, ever.
            const childId = `${handle.workflowId}/agent-toolu_agent`;
            const runs = [];
            for await (const w of client.workflow.list({ query: `WorkflowId = '${childId}'` }))
                runs.push(w.runId);
            strict_1.default.equal(runs.length, 1, `child runs: ${runs.join(', ')}`);
            const childDesc = await client.workflow.getHandle(childId).describe();
            strict_1.default.equal(childDesc.status.name, 'COMPLETED');
            // The child model saw its first result once and recorded its calls as ok.
            const t1 = (await client.workflow.getHandle(`${childId}/turn-1`).result());
            const t2 = (await client.workflow.getHandle(`${childId}/turn-2`).result());
            strict_1.default.deepEqual(t1.records.map((r) => [r.toolUseId, r.status]), [['toolu_c_done', 'ok']]);
            strict_1.default.deepEqual(t2.records.map((r) => [r.toolUseId, r.status]), [['toolu_c_slow', 'ok']]);
        }
        finally {
            for (const p of procs)
                (0, workerProcs_1.killGroup)(p);
            await Promise.all(procs.map((p) => p.exited));
        }
    });
});
//# sourceMappingURL=subagents-crash.test.js.map