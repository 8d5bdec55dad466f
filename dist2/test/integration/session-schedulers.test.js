"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: one session step, two schedulers. The same scripted session — an approval, an
// interrupt of a running tool, a follow-up message — runs in-process and on the real Temporal dev
// server; their transcripts, the requests the model saw, and their end reasons must be the same.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const client_1 = require("../../src/client");
const runSession_1 = require("../../src/local/runSession");
const messageStore_1 = require("../../src/stores/messageStore");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const testTools_1 = require("../support/testTools");
const wait_1 = require("../support/wait");
(0, node_test_1.after)(temporal_1.closeTestEnv);
function script(fake, work) {
    fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
        { id: 'toolu_w', name: 'Write', input: { file_path: (0, node_path_1.join)(work, 'approved.txt'), content: 'yes\n' } },
    ]), (0, fakeAnthropic_1.toolUseResponse)([
        {
            id: 'toolu_slow',
            name: 'AppendSlow',
            input: { file: (0, node_path_1.join)(work, 'started.txt'), text: 'started', delayMs: 120_000 },
        },
    ]), (0, fakeAnthropic_1.textResponse)('Stopped, then carried on as asked.'));
}
const options = (work) => ({
    prompt: 'write a file, then wait',
    cwd: work,
    tools: [...client_1.BUILTIN_TOOL_NAMES, 'AppendSlow'],
    permissionMode: 'default',
    rules: { allow: ['AppendSlow'], ask: [], deny: [] },
    model: { model: 'claude-test', maxTokens: 1024 },
});
/** Paths differ between the two runs: compare with the working directory replaced. */
const normalize = (value, work) => JSON.parse(JSON.stringify(value).split(work).join('<work>'));
async function transcript(storeDir, head) {
    return new messageStore_1.TranscriptStore(new messageStore_1.LocalBlobStore((0, node_path_1.join)(storeDir, 'blobs'))).load(head);
}
(0, node_test_1.test)('integration: the same session (approval, interrupt, follow-up) in-process and on Temporal: same transcript, requests and end', async () => {
    // In-process.
    const local = await (async () => {
        const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
        const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-sched-local-'));
        const storeDir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-sched-local-store-'));
        try {
            script(fake, work);
            const asked = [];
            const session = (0, runSession_1.startLocalSession)({
                ...options(work),
                onAsk: async (a) => {
                    asked.push(a.toolUseId);
                    return { decision: 'approve', source: 'human', by: 'tester' };
                },
            }, { tools: testTools_1.TEST_TOOLS, storeDir, anthropic: (0, agent_1.fakeAnthropicFactory)(fake) });
            await (0, wait_1.waitFor)('the slow tool to start', async () => (0, promises_1.access)((0, node_path_1.join)(work, 'started.txt')).then(() => true));
            session.interrupt();
            await (0, wait_1.waitFor)('the session to wait for a follow-up', async () => session.status().phase === 'waiting_for_message');
            strict_1.default.equal(session.status().status, 'interrupted');
            session.send('carry on');
            const r = await session.result;
            strict_1.default.deepEqual(asked, ['toolu_w']);
            fake.assertDone();
            return {
                status: r.status,
                endReason: r.endReason,
                turns: r.turns,
                transcript: normalize(await transcript(storeDir, r.head), work),
                requests: normalize(fake.messageRequests(), work),
            };
        }
        finally {
            await fake.close();
        }
    })();
    // On the Temporal dev server.
    const temporal = await (0, agent_1.withAgent)({ worker: { tools: testTools_1.TEST_TOOLS } }, async ({ fake, start, workDir, client, storeDir }) => {
        script(fake, workDir);
        const handle = await start(options(workDir));
        const id = handle.workflowId;
        await (0, wait_1.waitFor)('the approval request', async () => (await (0, client_1.sessionStatus)(client, id)).pendingApprovals[0]?.toolUseId === 'toolu_w');
        await (0, client_1.approveToolUse)(client, id, 'toolu_w', 'tester');
        await (0, wait_1.waitFor)('the slow tool to start', async () => (0, promises_1.access)((0, node_path_1.join)(workDir, 'started.txt')).then(() => true));
        await (0, client_1.interruptSession)(client, id);
        await (0, wait_1.waitFor)('the session to wait for a follow-up', async () => (await (0, client_1.sessionStatus)(client, id)).phase === 'waiting_for_message');
        strict_1.default.equal((await (0, client_1.sessionStatus)(client, id)).status, 'interrupted');
        await (0, client_1.sendMessage)(client, id, 'carry on');
        const r = await handle.result();
        fake.assertDone();
        return {
            status: r.status,
            endReason: r.endReason,
            turns: r.turns,
            transcript: normalize(await transcript(storeDir, r.head), workDir),
            requests: normalize(fake.messageRequests(), workDir),
        };
    });
    strict_1.default.equal(local.status, 'completed');
    strict_1.default.equal(local.endReason, 'the model ended its turn');
    strict_1.default.equal(local.turns, 3);
    strict_1.default.deepEqual({ ...temporal, transcript: undefined, requests: undefined }, { ...local, transcript: undefined, requests: undefined });
    strict_1.default.deepEqual(temporal.requests, local.requests, 'the model saw the same requests');
    strict_1.default.deepEqual(temporal.transcript, local.transcript, 'the stored transcripts are the same');
    // And they are what the scenario says: an approved write, an interrupted tool, the follow-up.
    const msgs = local.transcript;
    const text = JSON.stringify(msgs);
    strict_1.default.match(text, /"tool_use_id":"toolu_w","content":"[^"]*approved\.txt/);
    strict_1.default.match(text, /"tool_use_id":"toolu_slow"[^}]*Interrupted by user/);
    strict_1.default.deepEqual(msgs[msgs.length - 2], { role: 'user', content: 'carry on' });
});
//# sourceMappingURL=session-schedulers.test.js.map