"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: a session started by an earlier release finishes on today's worker with nothing
// run twice (DESIGN invariant 14). The earlier release is a real build of an earlier commit
// (test/support/previousRelease.ts: built once into ~/.cache/durable-agent/releases/<commit>,
// minutes the first time; .ci/run prepares it before the tests). Its worker runs
// turn 1 (a call that runs) and turn 2 up to an approval wait; it is killed; today's worker takes
// the session over — replaying the old worker's session and turn histories — the approval is
// given, and the session goes on for two more turns. A second session: the previous release's
// worker is killed while a non-idempotent call runs; today's worker replays the session and the
// turn, the call's retry finds it started in the execution ledger and ends it as unknown_outcome
// (not re-run), and the session finishes.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const proto_1 = require("@temporalio/proto");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const client_1 = require("../../src/client");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const workerProcs_1 = require("../support/workerProcs");
const wait_1 = require("../support/wait");
const previousRelease_1 = require("../support/previousRelease");
const testTools_1 = require("../support/testTools");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const EventType = proto_1.temporal.api.enums.v1.EventType;
/** The workflow tasks that failed in each of these workflows' histories (none expected). */
async function failedWorkflowTasks(client, ids) {
    const out = {};
    for (const id of ids) {
        const events = (await client.workflow.getHandle(id).fetchHistory()).events ?? [];
        out[id] = events
            .filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED)
            .map((e) => e.workflowTaskFailedEventAttributes?.failure?.message);
    }
    return out;
}
(0, node_test_1.test)('integration: a session started by the previous release (a call done, an approval waiting) finishes on this worker; nothing runs twice', { timeout: 900_000 }, async (t) => {
    const release = (0, previousRelease_1.previousRelease)();
    if (!release.script)
        return t.skip(release.why);
    await (0, agent_1.withAgent)({ noWorker: true, worker: { tools: testTools_1.TEST_TOOLS } }, async ({ env, fake, start, workDir, storeDir, taskQueue, client, startWorker }) => {
        const log = (0, node_path_1.join)(workDir, 'calls.log');
        const approved = (0, node_path_1.join)(workDir, 'approved.txt');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_one', name: 'AppendSlow', input: { file: log, text: 'one' } }]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_write', name: 'Write', input: { file_path: approved, content: 'yes\n' } }]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_three', name: 'AppendSlow', input: { file: log, text: 'three' } }]), (0, fakeAnthropic_1.textResponse)('Done in four turns.'));
        const procs = [];
        let newWorker;
        try {
            const old = await (0, workerProcs_1.spawnWorker)('previous-release', {
                TEMPORAL_TEST_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS ?? env.address,
                TEMPORAL_TEST_NAMESPACE: env.namespace ?? 'default',
                TASK_QUEUE: taskQueue,
                STORE_DIR: storeDir,
                FAKE_ANTHROPIC_URL: fake.baseURL,
            }, procs, release.script);
            // AppendSlow is allowed by rule; the Write asks (default mode).
            const handle = await start({
                prompt: 'append, write, append',
                tools: ['Write', 'AppendSlow'],
                permissionMode: 'default',
                rules: { allow: ['AppendSlow'], ask: [], deny: [] },
                maxTurns: 10,
            });
            await (0, wait_1.waitFor)('the Write to wait for approval on the previous release', async () => (await (0, client_1.sessionStatus)(client, handle.workflowId)).pendingApprovals.length === 1, 120_000);
            strict_1.default.deepEqual(await (0, workerProcs_1.lines)(log), ['one'], 'turn 1 ran on the previous release');
            (0, workerProcs_1.killGroup)(old);
            await old.exited;
            newWorker = await startWorker();
            const answer = await (0, client_1.approveToolUse)(client, handle.workflowId, 'toolu_write', 'ann@example');
            strict_1.default.equal(answer.status, 'applied', JSON.stringify(answer));
            const result = await handle.result();
            strict_1.default.equal(result.status, 'completed', result.endReason);
            strict_1.default.equal(result.turns, 4);
            // Nothing ran twice; the approved call ran once, on this worker.
            strict_1.default.deepEqual(await (0, workerProcs_1.lines)(log), ['one', 'three']);
            strict_1.default.equal(await (0, promises_1.readFile)(approved, 'utf8'), 'yes\n');
            const requests = fake.messageRequests();
            strict_1.default.equal(requests.length, 4);
            strict_1.default.deepEqual((0, fakeAnthropic_1.lastToolResults)(requests[1]).map((r) => [r.tool_use_id, r.is_error === true]), [['toolu_one', false]]);
            strict_1.default.deepEqual((0, fakeAnthropic_1.lastToolResults)(requests[2]).map((r) => [r.tool_use_id, r.is_error === true]), [['toolu_write', false]]);
            strict_1.default.deepEqual((0, fakeAnthropic_1.lastToolResults)(requests[3]).map((r) => [r.tool_use_id, r.is_error === true]), [['toolu_three', false]]);
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
                strict_1.default.deepEqual(failed, [], `${id}: failed workflow tasks`);
            }
            const runToolUses = ((await client.workflow.getHandle(`${handle.workflowId}/turn-2`).fetchHistory()).events ?? [])
                .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runToolUse')
                .map((e) => e.activityTaskScheduledEventAttributes?.activityId);
            strict_1.default.deepEqual(runToolUses, ['tool-toolu_write', 'tool-toolu_write-approve'], 'the ask, then the approved run: once each');
        }
        finally {
            for (const p of procs)
                (0, workerProcs_1.killGroup)(p);
            await newWorker?.stop();
        }
    });
});
(0, node_test_1.test)('integration: a call in flight when the worker of the previous release dies ends on this worker as unknown_outcome; it never runs twice', { timeout: 900_000 }, async (t) => {
    const release = (0, previousRelease_1.previousRelease)();
    if (!release.script)
        return t.skip(release.why);
    await (0, agent_1.withAgent)({ noWorker: true, worker: { tools: testTools_1.TEST_TOOLS } }, async ({ env, fake, start, workDir, storeDir, taskQueue, client, startWorker }) => {
        const done = (0, node_path_1.join)(workDir, 'done.log');
        const marker = (0, node_path_1.join)(workDir, 'in-flight.log');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_done', name: 'AppendSlow', input: { file: done, text: 'done' } }]), 
        // Writes its marker at once, then runs for ten minutes: it is in flight when the worker dies.
        (0, fakeAnthropic_1.toolUseResponse)([
            {
                id: 'toolu_slow',
                name: 'AppendSlow',
                input: { file: marker, text: 'slow', delayMs: 600_000, idempotent: false },
            },
        ]), (0, fakeAnthropic_1.textResponse)('Told the user the outcome is unknown.'));
        const procs = [];
        let newWorker;
        try {
            const old = await (0, workerProcs_1.spawnWorker)('previous-release', {
                TEMPORAL_TEST_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS ?? env.address,
                TEMPORAL_TEST_NAMESPACE: env.namespace ?? 'default',
                TASK_QUEUE: taskQueue,
                STORE_DIR: storeDir,
                FAKE_ANTHROPIC_URL: fake.baseURL,
            }, procs, release.script);
            const handle = await start({
                prompt: 'append, then a slow append',
                tools: ['AppendSlow'],
                permissionMode: 'bypassPermissions',
                maxTurns: 10,
                // A lost worker shows within two seconds (the default is 30 s).
                toolHeartbeatTimeoutMs: 2000,
            });
            await (0, wait_1.waitFor)('the slow call to start on the previous release', async () => (await (0, workerProcs_1.lines)(marker)).length === 1);
            strict_1.default.deepEqual(await (0, workerProcs_1.lines)(done), ['done'], 'turn 1 ran on the previous release');
            strict_1.default.equal(fake.messageRequests().length, 2, 'turn 2 is in its tool call');
            (0, workerProcs_1.killGroup)(old);
            await old.exited;
            newWorker = await startWorker();
            const result = await handle.result();
            strict_1.default.equal(result.status, 'completed', result.endReason);
            strict_1.default.equal(result.turns, 3);
            // Neither call ran twice: the finished one is not replayed, the in-flight one is not re-run.
            strict_1.default.deepEqual(await (0, workerProcs_1.lines)(done), ['done']);
            strict_1.default.deepEqual(await (0, workerProcs_1.lines)(marker), ['slow'], 'the in-flight call did not re-run');
            // What the model was told: the ledger's unknown_outcome (a retry found the call started).
            const requests = fake.messageRequests();
            strict_1.default.equal(requests.length, 3);
            strict_1.default.deepEqual((0, fakeAnthropic_1.lastToolResults)(requests[1]).map((r) => [r.tool_use_id, r.is_error === true]), [['toolu_done', false]]);
            const slow = (0, fakeAnthropic_1.lastToolResults)(requests[2]);
            strict_1.default.deepEqual(slow.map((r) => [r.tool_use_id, r.is_error]), [['toolu_slow', true]]);
            strict_1.default.match(JSON.stringify(slow[0]?.content), /outcome of this AppendSlow call is unknown/);
            strict_1.default.match(JSON.stringify(slow[0]?.content), /worker running it was lost/);
            fake.assertDone();
            const turn2 = await client.workflow.getHandle(`${handle.workflowId}/turn-2`).result();
            strict_1.default.deepEqual(turn2.records.map((r) => [r.toolUseId, r.status]), [['toolu_slow', 'unknown_outcome']]);
            const status = await (0, client_1.sessionStatus)(client, handle.workflowId);
            strict_1.default.deepEqual(status.toolCallCounts, { ok: 1, unknown_outcome: 1 });
            // One activity for the slow call, started twice (the lost attempt, the ledger's answer on this worker).
            const turn2Events = (await client.workflow.getHandle(`${handle.workflowId}/turn-2`).fetchHistory()).events ?? [];
            const scheduled = turn2Events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runToolUse');
            strict_1.default.deepEqual(scheduled.map((e) => e.activityTaskScheduledEventAttributes?.activityId), ['tool-toolu_slow']);
            const slowId = String(scheduled[0]?.eventId);
            const attempts = turn2Events
                .filter((e) => String(e.activityTaskStartedEventAttributes?.scheduledEventId) === slowId)
                .map((e) => e.activityTaskStartedEventAttributes?.attempt);
            strict_1.default.deepEqual(attempts, [2], 'the completed attempt is the retry after the lost worker');
            // This worker replayed what the previous one recorded without a failed workflow task.
            const ids = [1, 2, 3].map((n) => `${handle.workflowId}/turn-${n}`);
            strict_1.default.deepEqual(await failedWorkflowTasks(client, [handle.workflowId, ...ids]), Object.fromEntries([handle.workflowId, ...ids].map((id) => [id, []])));
        }
        finally {
            for (const p of procs)
                (0, workerProcs_1.killGroup)(p);
            await newWorker?.stop();
        }
    });
});
//# sourceMappingURL=upgrade.test.js.map