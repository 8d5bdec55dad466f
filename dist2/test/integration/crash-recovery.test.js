"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: crash recovery (invariant 5). The worker runs as a separate process; it is killed
// with SIGKILL while a tool runs, a new worker is started, and the session completes. Files that
// the tools append to count the side effects: completed calls ran exactly once, the idempotent
// in-flight call ran again at most once more, the non-idempotent one did not re-run and the model
// is told that its outcome is unknown.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const client_1 = require("../../src/client");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const wait_1 = require("../support/wait");
const workerProcs_1 = require("../support/workerProcs");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const HEARTBEAT_TIMEOUT_MS = 2000;
const SLOW_MS = 4000;
async function turnRecords(client, sessionId, turn) {
    const r = await client.workflow.getHandle(`${sessionId}/turn-${turn}`).result();
    return r.records.map((x) => [x.toolUseId, x.status]);
}
(0, node_test_1.test)('integration: SIGKILL the worker mid-tool twice; the session completes, no completed or non-idempotent call runs twice', { timeout: 120_000 }, async () => {
    await (0, agent_1.withAgent)({ noWorker: true }, async ({ env, fake, start, workDir, storeDir, taskQueue, client }) => {
        const workerEnv = await (0, workerProcs_1.workerProcessEnv)({ env, fake, storeDir, taskQueue });
        const doneLog = (0, node_path_1.join)(workDir, 'done.log');
        const idemLog = (0, node_path_1.join)(workDir, 'idem.log');
        const nonidemLog = (0, node_path_1.join)(workDir, 'nonidem.log');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_done', name: 'AppendSlow', input: { file: doneLog, text: 'done' } }]), (0, fakeAnthropic_1.toolUseResponse)([
            {
                id: 'toolu_idem',
                name: 'AppendSlow',
                input: { file: idemLog, text: 'idem', delayMs: SLOW_MS, idempotent: true },
            },
        ]), (0, fakeAnthropic_1.toolUseResponse)([
            {
                id: 'toolu_nonidem',
                name: 'AppendSlow',
                input: { file: nonidemLog, text: 'nonidem', delayMs: SLOW_MS, idempotent: false },
            },
        ]), (0, fakeAnthropic_1.textResponse)('All three calls are accounted for.'));
        const procs = [];
        const ms = (t0) => `${Date.now() - t0} ms`;
        try {
            let t = Date.now();
            let worker = await (0, workerProcs_1.spawnWorker)('worker-1', workerEnv, procs);
            console.log(`[crash-recovery] worker-1 ready after ${ms(t)}`);
            const handle = await start({
                prompt: 'append to three files',
                tools: ['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash', 'AppendSlow'],
                permissionMode: 'bypassPermissions',
                toolHeartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS,
            });
            // Turn 2's idempotent call is running on worker-1: kill it, start worker-2.
            await (0, wait_1.waitFor)('the idempotent call to start', async () => (await (0, workerProcs_1.lines)(idemLog)).length >= 1);
            strict_1.default.deepEqual(await (0, workerProcs_1.lines)(doneLog), ['done'], 'turn 1 completed before the crash');
            let requestsBefore = fake.messageRequests().length;
            let t0 = Date.now();
            (0, workerProcs_1.killGroup)(worker);
            await worker.exited;
            t = Date.now();
            worker = await (0, workerProcs_1.spawnWorker)('worker-2', workerEnv, procs);
            console.log(`[crash-recovery] kill #1: worker-2 ready after ${ms(t)}`);
            await (0, wait_1.waitFor)('the idempotent call to re-run', async () => (await (0, workerProcs_1.lines)(idemLog)).length >= 2);
            console.log(`[crash-recovery] kill #1: idempotent call re-ran ${ms(t0)} after the kill`);
            await (0, wait_1.waitFor)('the session to continue after turn 2', async () => fake.messageRequests().length > requestsBefore);
            console.log(`[crash-recovery] kill #1: turn 2 done, next model request ${ms(t0)} after the kill`);
            // Turn 3's non-idempotent call is running on worker-2: kill it, start worker-3.
            await (0, wait_1.waitFor)('the non-idempotent call to start', async () => (await (0, workerProcs_1.lines)(nonidemLog)).length >= 1);
            requestsBefore = fake.messageRequests().length;
            t0 = Date.now();
            (0, workerProcs_1.killGroup)(worker);
            await worker.exited;
            t = Date.now();
            worker = await (0, workerProcs_1.spawnWorker)('worker-3', workerEnv, procs);
            console.log(`[crash-recovery] kill #2: worker-3 ready after ${ms(t)}`);
            await (0, wait_1.waitFor)('the session to continue after turn 3', async () => fake.messageRequests().length > requestsBefore);
            console.log(`[crash-recovery] kill #2: turn 3 done (unknown outcome), next model request ${ms(t0)} after the kill`);
            const result = await handle.result();
            console.log(`[crash-recovery] session completed ${ms(t0)} after kill #2`);
            strict_1.default.equal(result.status, 'completed');
            strict_1.default.equal(result.turns, 4);
            // The side-effect counters.
            strict_1.default.deepEqual(await (0, workerProcs_1.lines)(doneLog), ['done'], 'a completed call ran exactly once');
            const idem = await (0, workerProcs_1.lines)(idemLog);
            strict_1.default.ok(idem.length >= 1 && idem.length <= 2, `idempotent call ran ${idem.length} times`);
            strict_1.default.ok(idem.every((l) => l === 'idem'));
            strict_1.default.deepEqual(await (0, workerProcs_1.lines)(nonidemLog), ['nonidem'], 'the non-idempotent call did not re-run');
            // What the model saw.
            const requests = fake.messageRequests();
            strict_1.default.equal(requests.length, 4);
            const [doneResult] = (0, fakeAnthropic_1.lastToolResults)(requests[1]);
            strict_1.default.equal(doneResult?.tool_use_id, 'toolu_done');
            strict_1.default.notEqual(doneResult?.is_error, true);
            const [idemResult] = (0, fakeAnthropic_1.lastToolResults)(requests[2]);
            strict_1.default.equal(idemResult?.tool_use_id, 'toolu_idem');
            strict_1.default.notEqual(idemResult?.is_error, true, JSON.stringify(idemResult));
            const nonidemResults = (0, fakeAnthropic_1.lastToolResults)(requests[3]);
            strict_1.default.equal(nonidemResults.length, 1);
            strict_1.default.equal(nonidemResults[0]?.tool_use_id, 'toolu_nonidem');
            strict_1.default.equal(nonidemResults[0]?.is_error, true);
            strict_1.default.match(JSON.stringify(nonidemResults[0]?.content), /outcome of this AppendSlow call is unknown/);
            strict_1.default.match(JSON.stringify(nonidemResults[0]?.content), /not re-run/);
            // Reported by the execution ledger on the retry (not by the workflow after attempts ran out).
            strict_1.default.match(JSON.stringify(nonidemResults[0]?.content), /worker running it was lost/);
            fake.assertDone();
            // What the workflows recorded.
            strict_1.default.deepEqual(await turnRecords(client, handle.workflowId, 1), [['toolu_done', 'ok']]);
            strict_1.default.deepEqual(await turnRecords(client, handle.workflowId, 2), [['toolu_idem', 'ok']]);
            strict_1.default.deepEqual(await turnRecords(client, handle.workflowId, 3), [['toolu_nonidem', 'unknown_outcome']]);
            const status = await (0, client_1.sessionStatus)(client, handle.workflowId);
            strict_1.default.equal(status.status, 'completed');
            strict_1.default.equal(status.toolCalls, 3);
        }
        finally {
            for (const p of procs)
                (0, workerProcs_1.killGroup)(p);
            await Promise.all(procs.map((p) => p.exited));
        }
    });
});
//# sourceMappingURL=crash-recovery.test.js.map