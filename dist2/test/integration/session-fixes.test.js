"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: correctness fixes found in review (issue 9, part 5), each a case that went wrong:
// a session reusing an earlier session's id, an approve racing the approval timeout, and the
// non-streamed fallback with a large max_tokens. (An interrupt that arrives while the session
// drains handlers before continue-as-new: unit/engine-session, "checkpoint … carried".)
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const client_1 = require("../../src/client");
const runSession_1 = require("../../src/local/runSession");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const testTools_1 = require("../support/testTools");
const wait_1 = require("../support/wait");
(0, node_test_1.after)(temporal_1.closeTestEnv);
(0, node_test_1.test)('integration: a new session that reuses an id (a nightly job) runs its tool calls again', async () => {
    await (0, agent_1.withAgent)({ worker: { tools: testTools_1.TEST_TOOLS } }, async ({ fake, start, workDir }) => {
        const log = (0, node_path_1.join)(workDir, 'nightly.log');
        const id = (0, temporal_1.uniqueWorkflowId)('nightly');
        for (const night of [1, 2]) {
            // The model happens to give the call the same id both nights.
            fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_nightly', name: 'AppendSlow', input: { file: log, text: `night ${night}` } }]), (0, fakeAnthropic_1.textResponse)('done'));
            const r = await (await start({ id, prompt: 'nightly job', tools: ['AppendSlow'] })).result();
            strict_1.default.equal(r.status, 'completed');
        }
        strict_1.default.equal(await (0, promises_1.readFile)(log, 'utf8'), 'night 1\nnight 2\n', 'the second night ran its call');
    });
});
(0, node_test_1.test)('integration: an approve that races the approval timeout is answered with what happened', async () => {
    await (0, agent_1.withAgent)({ noWorker: true }, async ({ fake, start, workDir, client, startWorker }) => {
        const target = (0, node_path_1.join)(workDir, 'raced.txt');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_race', name: 'Write', input: { file_path: target, content: 'x\n' } }]), (0, fakeAnthropic_1.textResponse)('ok'));
        let worker = await startWorker();
        const handle = await start({ prompt: 'write', permissionMode: 'default', approvalTimeoutMs: 3_000 });
        await (0, wait_1.waitFor)('the approval request', async () => (await (0, client_1.sessionStatus)(client, handle.workflowId)).pendingApprovals.length === 1);
        // No worker while the timeout passes: when one comes back, the turn's timer has fired and the
        // approve arrives at the same time — the session still lists the call as pending.
        await worker.stop();
        await new Promise((r) => setTimeout(r, 3_500));
        const answer = (0, client_1.approveToolUse)(client, handle.workflowId, 'toolu_race', 'late@example');
        await new Promise((r) => setTimeout(r, 300));
        worker = await startWorker();
        try {
            // Three honest answers: applied; not applied (the update ran after the timeout's denial);
            // or refused by the validator when the timeout's denial was already recorded — that refusal
            // must say what counted.
            const a = await answer.catch((err) => {
                strict_1.default.match(err.message, /is no longer waiting for approval: too late: no approval arrived within the approval timeout/);
                return { status: 'refused', message: err.message };
            });
            const result = await handle.result();
            strict_1.default.equal(result.status, 'completed');
            const written = await (0, promises_1.readFile)(target, 'utf8').then(() => true, () => false);
            if (a.status === 'refused') {
                strict_1.default.equal(written, false, 'approve was refused as too late: nothing was written');
            }
            else if (a.status === 'applied') {
                strict_1.default.ok(written, 'approve said applied: the file must exist');
            }
            else {
                strict_1.default.equal(a.status, 'not_applied', JSON.stringify(a));
                strict_1.default.equal(written, false, 'approve said not applied: nothing was written');
                if (a.status === 'not_applied') {
                    strict_1.default.equal(a.decision, 'deny');
                    strict_1.default.match(a.outcome, /too late: no approval arrived within the approval timeout/);
                }
            }
            console.log(`[approval-race] answer ${a.status}; file written: ${written}`);
        }
        finally {
            await worker.stop();
        }
    });
});
(0, node_test_1.test)('integration: the non-streamed fallback works with max_tokens 64000 (the SDK wants a timeout for it)', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-fallback-'));
    const storeDir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-fallback-store-'));
    try {
        fake.enqueue({ ...(0, fakeAnthropic_1.textResponse)('a long answer, cut'), dropAfterEvents: 3 }, (0, fakeAnthropic_1.textResponse)('the whole answer'));
        const r = await (0, runSession_1.runLocalSession)({ prompt: 'write a lot', cwd: work, model: { model: 'claude-test', maxTokens: 64_000 } }, { storeDir, anthropic: (0, agent_1.fakeAnthropicFactory)(fake) });
        strict_1.default.equal(r.status, 'completed', r.endReason);
        strict_1.default.equal(r.lastText, 'the whole answer');
        strict_1.default.deepEqual(fake.requests.map((q) => q.stream), [true, false], 'the second request is the non-streamed fallback');
        strict_1.default.equal((fake.requests[1]?.body).max_tokens, 64_000);
        fake.assertDone();
    }
    finally {
        await fake.close();
    }
});
//# sourceMappingURL=session-fixes.test.js.map