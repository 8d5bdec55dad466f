"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: interrupts and approvals on the real dev server.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const client_1 = require("../../src/client");
const definitions_1 = require("../../src/workflows/definitions");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const wait_1 = require("../support/wait");
(0, node_test_1.after)(temporal_1.closeTestEnv);
/** Running (not a zombie): a killed process whose parent has not reaped it yet runs no more. */
function running(pid) {
    try {
        const stat = (0, node_fs_1.readFileSync)(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
    }
    catch {
        return false;
    }
}
/** Whether any live process is in process group `pgid` (read from /proc: no pgrep needed). */
function groupRunning(pgid) {
    for (const entry of (0, node_fs_1.readdirSync)('/proc')) {
        if (!/^\d+$/.test(entry))
            continue;
        let stat;
        try {
            stat = (0, node_fs_1.readFileSync)(`/proc/${entry}/stat`, 'utf8');
        }
        catch {
            continue;
        }
        // Fields after "(comm)": state ppid pgrp …
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(pgrp) === pgid && state !== 'Z')
            return true;
    }
    return false;
}
(0, node_test_1.test)('integration: interrupt during [Read, Read] [Bash 30 s]: reads keep results, Bash is interrupted and its process group dies', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir, client }) => {
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'a.txt'), 'alpha\n');
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'b.txt'), 'beta\n');
        const pidFile = (0, node_path_1.join)(workDir, 'bash.pid');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_ra', name: 'Read', input: { file_path: (0, node_path_1.join)(workDir, 'a.txt') } },
            { id: 'toolu_rb', name: 'Read', input: { file_path: (0, node_path_1.join)(workDir, 'b.txt') } },
            { id: 'toolu_sh', name: 'Bash', input: { command: `echo $$ > ${pidFile}; sleep 30; echo finished` } },
        ]), (0, fakeAnthropic_1.textResponse)('Stopped as asked.'));
        // Unsandboxed: `$$` must be a host pid to watch the group die (inside the sandbox's pid namespace
        // it is not); the sandboxed process tree's death on abort is tested in unit/sandbox-bash.
        const handle = await start({ prompt: 'read and wait', sandbox: { enabled: false } });
        const turn = client.workflow.getHandle(`${handle.workflowId}/turn-1`);
        await (0, wait_1.waitFor)('Bash to run', async () => (await turn.query(definitions_1.turnProgressQuery)).running.some((r) => r.toolUseId === 'toolu_sh'));
        const pid = await (0, wait_1.waitFor)('the pid file', async () => Number((await (0, promises_1.readFile)(pidFile, 'utf8').catch(() => '')).trim()) || undefined);
        strict_1.default.ok(running(pid));
        const t0 = Date.now();
        await (0, client_1.interruptSession)(client, handle.workflowId);
        await (0, wait_1.waitFor)('the Bash process group to die', async () => !running(pid) && !groupRunning(pid), 5_000, 20);
        const killMs = Date.now() - t0;
        console.log(`[interrupt] Bash's process group gone ${killMs} ms after the interrupt`);
        strict_1.default.ok(killMs < 2_000, `process gone after ${killMs} ms`);
        const status = await (0, wait_1.waitFor)('the session to wait for a message', async () => {
            const s = await (0, client_1.sessionStatus)(client, handle.workflowId);
            return s.status === 'interrupted' && s.phase === 'waiting_for_message' ? s : undefined;
        });
        strict_1.default.deepEqual(status.lastTurn?.records.map((r) => [r.toolUseId, r.status]), [
            ['toolu_ra', 'ok'],
            ['toolu_rb', 'ok'],
            ['toolu_sh', 'interrupted'],
        ]);
        await (0, client_1.sendMessage)(client, handle.workflowId, 'never mind, stop');
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed');
        // The model saw the protocol complete: both reads' real results and the Bash interruption.
        const second = fake.messageRequests()[1];
        strict_1.default.ok(second);
        const msgs = second.messages;
        const toolResultMsg = msgs[msgs.length - 2];
        strict_1.default.ok(toolResultMsg && Array.isArray(toolResultMsg.content));
        const blocks = toolResultMsg.content;
        strict_1.default.deepEqual(blocks.map((b) => [b.tool_use_id, b.is_error === true]), [
            ['toolu_ra', false],
            ['toolu_rb', false],
            ['toolu_sh', true],
        ]);
        strict_1.default.match(JSON.stringify(blocks[0]?.content), /alpha/);
        strict_1.default.match(JSON.stringify(blocks[2]?.content), /[Ii]nterrupt/);
        // The follow-up, as its own user message (a text block carrying the prompt-cache breakpoint).
        strict_1.default.deepEqual(msgs[msgs.length - 1], {
            role: 'user',
            content: [{ type: 'text', text: 'never mind, stop', cache_control: { type: 'ephemeral' } }],
        });
        fake.assertDone();
    });
});
(0, node_test_1.test)('integration: an ask waits durably across a worker restart; approve runs it, deny returns the rejection to the model', async () => {
    await (0, agent_1.withAgent)({ noWorker: true }, async ({ fake, start, workDir, client, startWorker }) => {
        let worker = await startWorker();
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_w1', name: 'Write', input: { file_path: (0, node_path_1.join)(workDir, 'approved.txt'), content: 'yes\n' } },
        ]), (0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_w2', name: 'Write', input: { file_path: (0, node_path_1.join)(workDir, 'denied.txt'), content: 'no\n' } },
        ]), (0, fakeAnthropic_1.textResponse)('ok'));
        const handle = await start({ prompt: 'write two files', permissionMode: 'default' });
        const pending = await (0, wait_1.waitFor)('an approval request', async () => {
            const s = await (0, client_1.sessionStatus)(client, handle.workflowId);
            return s.pendingApprovals.length === 1 ? s : undefined;
        });
        strict_1.default.equal(pending.status, 'awaiting_approval');
        strict_1.default.equal(pending.pendingApprovals[0]?.toolUseId, 'toolu_w1');
        // The worker goes away while the call waits; a new one takes over.
        await worker.stop();
        worker = await startWorker();
        // (Queries need a worker, so the status is read again only once the new one runs.)
        strict_1.default.equal((await (0, client_1.sessionStatus)(client, handle.workflowId)).pendingApprovals[0]?.toolUseId, 'toolu_w1');
        // Approving something that is not pending is refused.
        await strict_1.default.rejects((0, client_1.approveToolUse)(client, handle.workflowId, 'toolu_nope'), /not waiting for approval/);
        await (0, client_1.approveToolUse)(client, handle.workflowId, 'toolu_w1', 'ann@example');
        await (0, wait_1.waitFor)('the second approval', async () => (await (0, client_1.sessionStatus)(client, handle.workflowId)).pendingApprovals[0]?.toolUseId === 'toolu_w2');
        await (0, client_1.denyToolUse)(client, handle.workflowId, undefined, 'not that one');
        const result = await handle.result();
        await worker.stop();
        strict_1.default.equal(result.status, 'completed');
        strict_1.default.equal(await (0, promises_1.readFile)((0, node_path_1.join)(workDir, 'approved.txt'), 'utf8'), 'yes\n');
        await strict_1.default.rejects((0, promises_1.readFile)((0, node_path_1.join)(workDir, 'denied.txt'), 'utf8'));
        const third = fake.messageRequests()[2];
        strict_1.default.ok(third);
        const [rejection] = (0, fakeAnthropic_1.lastToolResults)(third);
        strict_1.default.equal(rejection?.is_error, true);
        strict_1.default.match(JSON.stringify(rejection?.content), /doesn't want to proceed/);
        strict_1.default.match(JSON.stringify(rejection?.content), /not that one/);
    });
});
(0, node_test_1.test)('integration: dontAsk mode denies at once, and an approval timeout denies with a reason', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir }) => {
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_d1', name: 'Write', input: { file_path: (0, node_path_1.join)(workDir, 'x.txt'), content: 'x' } }]), (0, fakeAnthropic_1.textResponse)('fine'));
        const r1 = await (await start({ prompt: 'write', permissionMode: 'dontAsk' })).result();
        strict_1.default.equal(r1.status, 'completed');
        const [denied] = (0, fakeAnthropic_1.lastToolResults)(fake.messageRequests()[1]);
        strict_1.default.equal(denied?.is_error, true);
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_t1', name: 'Write', input: { file_path: (0, node_path_1.join)(workDir, 'y.txt'), content: 'y' } }]), (0, fakeAnthropic_1.textResponse)('fine'));
        const r2 = await (await start({ prompt: 'write', permissionMode: 'default', approvalTimeoutMs: 1500 })).result();
        strict_1.default.equal(r2.status, 'completed');
        const [timedOut] = (0, fakeAnthropic_1.lastToolResults)(fake.messageRequests()[3]);
        strict_1.default.equal(timedOut?.is_error, true);
        strict_1.default.match(JSON.stringify(timedOut?.content), /No approval arrived/);
        await strict_1.default.rejects((0, promises_1.readFile)((0, node_path_1.join)(workDir, 'y.txt'), 'utf8'));
    });
});
(0, node_test_1.test)('integration: in a parallel batch, a Read that asks holds back the calls after it until approved', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir, client }) => {
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'a.txt'), 'a\n');
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'b.txt'), 'b\n');
        const outside = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-outside-'));
        await (0, promises_1.writeFile)((0, node_path_1.join)(outside, 'o.txt'), 'outside\n');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_pa', name: 'Read', input: { file_path: (0, node_path_1.join)(workDir, 'a.txt') } },
            { id: 'toolu_po', name: 'Read', input: { file_path: (0, node_path_1.join)(outside, 'o.txt') } },
            { id: 'toolu_pb', name: 'Read', input: { file_path: (0, node_path_1.join)(workDir, 'b.txt') } },
        ]), (0, fakeAnthropic_1.textResponse)('read all three'));
        const handle = await start({ prompt: 'read', permissionMode: 'default' });
        await (0, wait_1.waitFor)('the outside Read to ask', async () => (await (0, client_1.sessionStatus)(client, handle.workflowId)).pendingApprovals[0]?.toolUseId === 'toolu_po');
        await (0, client_1.approveToolUse)(client, handle.workflowId, 'toolu_po', 'dana');
        strict_1.default.equal((await handle.result()).status, 'completed');
        const results = (0, fakeAnthropic_1.lastToolResults)(fake.messageRequests()[1]);
        strict_1.default.deepEqual(results.map((r) => [r.tool_use_id, r.is_error === true]), [
            ['toolu_pa', false],
            ['toolu_po', false],
            ['toolu_pb', false],
        ]);
        // In the turn's history: a ran before the approval; b was scheduled only after it.
        const events = (await client.workflow.getHandle(`${handle.workflowId}/turn-1`).fetchHistory()).events ?? [];
        const idx = (pred) => events.findIndex(pred);
        const approvalAt = idx((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'turnApproval');
        const scheduled = (id) => idx((e) => e.activityTaskScheduledEventAttributes?.activityId === id);
        strict_1.default.ok(approvalAt > 0);
        strict_1.default.ok(scheduled('tool-toolu_pa') < approvalAt);
        strict_1.default.ok(scheduled('tool-toolu_pb') > approvalAt, 'b waited for the decision on o');
    });
});
//# sourceMappingURL=session-interrupt.test.js.map