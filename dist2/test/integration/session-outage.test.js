"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: a model outage never fails a session (invariant 10). The fake API answers 529
// (retry-after 5 s) for longer than the old retry budget (8 attempts, ~35 s with retry-after 5);
// with a small backoff cap the session waits visibly — status, the CLI, the turn's UI details —
// and completes once the API is back. Also: the outage limit ends a session with the reason, and
// the in-process runner waits out an outage the same way.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const client_1 = require("../../src/client");
const runSession_1 = require("../../src/local/runSession");
const retry_1 = require("../../src/engine/retry");
const follow_1 = require("../../src/cli/follow");
const messageStore_1 = require("../../src/stores/messageStore");
const testTools_1 = require("../support/testTools");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const cli_1 = require("../support/cli");
const wait_1 = require("../support/wait");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const OLD_BUDGET_MS = 8 * 5_000;
/** Overloaded (529, retry-after 5 s) until `until`, then the script `then`. */
function overloadedUntil(until, then) {
    return (req) => (Date.now() < until ? (0, fakeAnthropic_1.overloadedError)({ retryAfter: 5 }) : then(req));
}
(0, node_test_1.test)('integration: 529 for longer than the old retry budget — the session waits visibly and completes', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir, client, taskQueue }) => {
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'a.txt'), 'alpha\n');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_o1', name: 'Read', input: { file_path: (0, node_path_1.join)(workDir, 'a.txt') } }]));
        const t0 = Date.now();
        let until = Number.POSITIVE_INFINITY;
        fake.script((req) => overloadedUntil(until, () => (0, fakeAnthropic_1.textResponse)('Read it after the outage.'))(req));
        const handle = await start({ prompt: 'read a.txt', retryCapMs: 1_000 });
        const id = handle.workflowId;
        // The live view (what `run` and `attach` print) follows along.
        const live = [];
        const following = (0, follow_1.followSession)(client, id, { out: (l) => live.push(l), intervalMs: 250 });
        // Turn 2's model call meets the outage: the session says so.
        const waiting = await (0, wait_1.waitFor)('the waiting state', async () => {
            const s = await (0, client_1.sessionStatus)(client, id);
            return s.outage && s.outage.attempts >= 2 ? s : undefined;
        });
        until = Date.now() + OLD_BUDGET_MS + 5_000;
        strict_1.default.equal(waiting.status, 'waiting_for_model');
        strict_1.default.equal(waiting.outage?.what, 'model');
        strict_1.default.equal(waiting.outage?.kind, 'overloaded');
        strict_1.default.match(waiting.outage?.lastError ?? '', /529/);
        strict_1.default.ok((waiting.outage?.nextTryAt ?? 0) - Date.now() <= 1_500, 'retry-after 5 s is capped at the configured 1 s');
        const env = await (0, temporal_1.getTestEnv)();
        const cliEnv = {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS ?? env.connection.options.address,
            TEMPORAL_NAMESPACE: env.namespace ?? 'default',
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
        };
        const shown = await (0, cli_1.cli)(['status', id], cliEnv);
        strict_1.default.equal(shown.code, 0, shown.stderr);
        strict_1.default.match(shown.stdout, /status +waiting_for_model/);
        strict_1.default.match(shown.stdout, /waiting +waiting for the model: overloaded since \S+Z, next try in \d+ s/);
        // The turn's current details (the UI's "current details") say the same.
        const details = await (0, wait_1.waitFor)('the turn details', async () => {
            const meta = await client.workflow
                .getHandle(`${id}/turn-2`)
                .query('__temporal_workflow_metadata');
            return meta.currentDetails?.includes('waiting for the model') ? meta.currentDetails : undefined;
        });
        strict_1.default.match(details, /overloaded since/);
        const result = await handle.result();
        const elapsed = Date.now() - t0;
        await following;
        strict_1.default.ok(live.some((l) => /⏳ waiting for the model: overloaded since \S+Z, next try in \d+ s/.test(l)), live.join('\n'));
        strict_1.default.ok(live.some((l) => /the model is back/.test(l)), live.join('\n'));
        strict_1.default.equal(result.status, 'completed', result.endReason);
        strict_1.default.ok(elapsed > OLD_BUDGET_MS, `the outage outlasted the old budget (${elapsed} ms)`);
        const failed = fake.requests.filter((r) => r.response?.status === 529).length;
        console.log(`[outage] ${failed} overloaded answers over ${Math.round(elapsed / 1000)} s; the session completed`);
        strict_1.default.ok(failed > 8, `more attempts than the old budget allowed (${failed})`);
        const after = await (0, client_1.sessionStatus)(client, id);
        strict_1.default.equal(after.outage, undefined);
        strict_1.default.equal(after.lastTurn?.text, 'Read it after the outage.');
    });
});
(0, node_test_1.test)('integration: an outage longer than maxOutageMs ends the session with the reason; a 401 ends it at once', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start }) => {
        fake.script(() => (0, fakeAnthropic_1.overloadedError)({ retryAfter: 1 }));
        const r = await (await start({ prompt: 'hi', retryCapMs: 500, maxOutageMs: 3_000 })).result().then(() => strict_1.default.fail('the session should fail'), (err) => String(err.cause?.message ?? err.message));
        strict_1.default.match(r, /model was unavailable for longer than 3 s/);
        fake.script(undefined);
        fake.enqueue({ kind: 'error', status: 401, type: 'authentication_error', message: 'invalid x-api-key' });
        const before = fake.requests.length;
        const r2 = await (await start({ prompt: 'hi' })).result().then(() => strict_1.default.fail('the session should fail'), (err) => String(err.cause?.message ?? err.message));
        strict_1.default.match(r2, /401.*invalid x-api-key/);
        strict_1.default.equal(fake.requests.length - before, 1, 'a permanent error is not retried');
    });
});
(0, node_test_1.test)('integration: the in-process runner waits out an outage the same way (status shows it)', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-outage-local-'));
    const storeDir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-outage-local-store-'));
    try {
        const until = Date.now() + 4_000;
        fake.script(overloadedUntil(until, () => (0, fakeAnthropic_1.textResponse)('back')));
        const s = (0, runSession_1.startLocalSession)({ prompt: 'hi', cwd: work, retryCapMs: 500, model: { model: 'claude-test', maxTokens: 256 } }, { storeDir, anthropic: (0, agent_1.fakeAnthropicFactory)(fake) });
        const seen = await (0, wait_1.waitFor)('the waiting state', async () => (s.status().outage ? s.status() : undefined));
        strict_1.default.equal(seen.status, 'waiting_for_model');
        const r = await s.result;
        strict_1.default.equal(r.status, 'completed', r.endReason);
        strict_1.default.equal(r.lastText, 'back');
        strict_1.default.equal(s.status().outage, undefined);
    }
    finally {
        await fake.close();
    }
});
(0, node_test_1.test)('integration: a store outage (transcript writes failing) waits visibly and goes on', async () => {
    const base = new messageStore_1.LocalBlobStore(await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-outage-blobs-')));
    let failing = false;
    // Transcript nodes are keyed by a bare hash; the ledger, results and read files keep working.
    const flaky = {
        put: async (key, data) => {
            if (failing && !key.includes('-'))
                throw new Error('ENOSPC: no space left on device (test)');
            return base.put(key, data);
        },
        get: (key) => base.get(key),
    };
    await (0, agent_1.withAgent)({ worker: { tools: testTools_1.TEST_TOOLS, blobStore: flaky } }, async ({ fake, start, workDir, client }) => {
        const marker = (0, node_path_1.join)(workDir, 'started.txt');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_s1', name: 'AppendSlow', input: { file: marker, text: 'x', delayMs: 1_500 } }]), (0, fakeAnthropic_1.textResponse)('recorded'));
        const handle = await start({ prompt: 'append', tools: ['AppendSlow'], retryCapMs: 1_000 });
        await (0, wait_1.waitFor)('the tool to start', async () => (0, promises_1.access)(marker).then(() => true));
        failing = true;
        const s = await (0, wait_1.waitFor)('the store outage to show', async () => {
            const st = await (0, client_1.sessionStatus)(client, handle.workflowId);
            return st.outage?.what === 'store' ? st : undefined;
        }, 60_000);
        strict_1.default.equal(s.status, 'waiting_for_model', 'one status name for model and store outages; the line says which');
        strict_1.default.match((0, retry_1.describeOutage)(s.outage, Date.now()), /^waiting for the store: failing since .*ENOSPC/);
        failing = false;
        const r = await handle.result();
        strict_1.default.equal(r.status, 'completed', r.endReason);
        strict_1.default.deepEqual((0, fakeAnthropic_1.lastToolResults)(fake.messageRequests()[1]).map((b) => b.tool_use_id), ['toolu_s1']);
    });
});
(0, node_test_1.test)('integration: the in-process runner waits out a store outage too', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-outage-local-store-'));
    const base = new messageStore_1.LocalBlobStore(await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-outage-local-blobs-')));
    let failing = false;
    const flaky = {
        put: async (key, data) => {
            if (failing && !key.includes('-'))
                throw new Error('EIO: i/o error (test)');
            return base.put(key, data);
        },
        get: (key) => base.get(key),
    };
    try {
        const marker = (0, node_path_1.join)(work, 'started.txt');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_ls1', name: 'AppendSlow', input: { file: marker, text: 'x', delayMs: 1_000 } }]), (0, fakeAnthropic_1.textResponse)('recorded'));
        const s = (0, runSession_1.startLocalSession)({
            prompt: 'append',
            cwd: work,
            tools: ['AppendSlow'],
            permissionMode: 'bypassPermissions',
            retryCapMs: 500,
            model: { model: 'claude-test', maxTokens: 256 },
        }, { tools: testTools_1.TEST_TOOLS, blobStore: flaky, anthropic: (0, agent_1.fakeAnthropicFactory)(fake) });
        await (0, wait_1.waitFor)('the tool to start', async () => (0, promises_1.access)(marker).then(() => true));
        failing = true;
        const seen = await (0, wait_1.waitFor)('the store outage', async () => s.status().outage?.what === 'store' ? s.status() : undefined);
        strict_1.default.equal(seen.status, 'waiting_for_model');
        strict_1.default.match((0, retry_1.describeOutage)(seen.outage, Date.now()), /^waiting for the store: failing since .*EIO/);
        failing = false;
        const r = await s.result;
        strict_1.default.equal(r.status, 'completed', r.endReason);
        strict_1.default.equal(s.status().outage, undefined);
    }
    finally {
        await fake.close();
    }
});
//# sourceMappingURL=session-outage.test.js.map