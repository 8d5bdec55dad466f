"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the in-process runner's store (issue 21.8): without a storeDir a session writes into a
// temporary directory of its own, removed when it ends, never into the user's store
// ($DURABLE_AGENT_HOME/store); a subagent's child session writes into its parent's store, so that
// the parent finds the child's large result there; an explicit storeDir is kept.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const zod_1 = require("zod");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const runSession_1 = require("../../src/local/runSession");
const Tool_1 = require("../../src/tools/Tool");
/** A tool whose result is over its size limit: the pipeline persists it to the session's result store. */
const BigOut = (0, Tool_1.buildTool)({
    name: 'BigOut',
    inputSchema: zod_1.z.strictObject({ lines: zod_1.z.number() }),
    maxResultSizeChars: 200,
    prompt: () => 'Prints numbered lines.',
    summary: (i) => `BigOut ${i.lines}`,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    async call(i) {
        return { data: Array.from({ length: i.lines }, (_, n) => `line ${n + 1}`).join('\n') };
    },
    mapToolResultToToolResultBlockParam: (data, toolUseId) => ({
        type: 'tool_result',
        tool_use_id: toolUseId,
        content: data,
    }),
});
/** Runs `body` with the user's data directory pointed at an empty temp dir and no store configured. */
async function withUserHome(body) {
    const home = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-user-home-'));
    const keys = ['DURABLE_AGENT_HOME', 'DURABLE_AGENT_STORE_DIR', 'DURABLE_AGENT_STORE', 'DURABLE_AGENT_BLOB_STORE'];
    const saved = keys.map((k) => process.env[k]);
    process.env.DURABLE_AGENT_HOME = home;
    for (const k of keys.slice(1))
        delete process.env[k];
    try {
        return await body(home);
    }
    finally {
        keys.forEach((k, i) => (saved[i] === undefined ? delete process.env[k] : (process.env[k] = saved[i])));
    }
}
const SAVED = /Full output saved to: (\S+)/;
(0, node_test_1.test)('unit: local store — no storeDir: a temporary store (the child writes into it, the parent reads its result there), removed at the end; the user store untouched', async () => {
    await withUserHome(async (home) => {
        const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
        try {
            const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-store-work-'));
            await (0, promises_1.writeFile)((0, node_path_1.join)(work, 'a.txt'), 'hello\n');
            fake.script((req) => {
                const child = JSON.stringify(req.system ?? '').includes('on behalf of another agent');
                if (child) {
                    if (req.messages.length === 1)
                        return (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_c_big', name: 'BigOut', input: { lines: 400 } }]);
                    const saved = JSON.stringify((0, fakeAnthropic_1.lastToolResults)(req)[0]?.content).match(SAVED)?.[1];
                    return (0, fakeAnthropic_1.textResponse)(`SAVED=${saved}`);
                }
                if (req.messages.length === 1)
                    return (0, fakeAnthropic_1.toolUseResponse)([
                        {
                            id: 'toolu_p_agent',
                            name: 'Agent',
                            input: { description: 'print', prompt: 'print 400 lines', run_in_background: false },
                        },
                    ]);
                if (req.messages.length === 3) {
                    const path = JSON.stringify((0, fakeAnthropic_1.lastToolResults)(req)[0]?.content).match(/SAVED=([^\s"\\]+)/)?.[1];
                    return (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_p_read', name: 'Read', input: { file_path: path, offset: 399 } }]);
                }
                return (0, fakeAnthropic_1.textResponse)('done');
            });
            let seenDuring = [];
            const s = (0, runSession_1.startLocalSession)({
                prompt: 'delegate',
                cwd: work,
                tools: ['Read', 'Agent', 'BigOut'],
                permissionMode: 'bypassPermissions',
                model: { model: 'claude-test', maxTokens: 256 },
                onTurn: () => (seenDuring = (0, node_fs_1.readdirSync)(s.storeDir)),
            }, { tools: [BigOut], anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
            strict_1.default.ok(s.storeDir.startsWith((0, node_os_1.tmpdir)()), s.storeDir);
            const r = await s.result;
            strict_1.default.equal(r.status, 'completed', r.endReason);
            // The child's large result was persisted under the parent's store, and the parent's Read found it.
            const reqs = fake.messageRequests().filter((q) => !JSON.stringify(q.system ?? '').includes('on behalf of'));
            const agentResult = JSON.stringify((0, fakeAnthropic_1.lastToolResults)(reqs[1])[0]?.content);
            const saved = agentResult.match(/SAVED=([^\s"\\]+)/)?.[1];
            strict_1.default.ok(saved?.startsWith((0, node_path_1.join)(s.storeDir, 'results')), agentResult);
            const readResult = (0, fakeAnthropic_1.lastToolResults)(reqs[2])[0];
            strict_1.default.notEqual(readResult.is_error, true, JSON.stringify(readResult));
            strict_1.default.match(JSON.stringify(readResult.content), /line 400/);
            strict_1.default.ok(seenDuring.includes('blobs') && seenDuring.includes('results'), seenDuring.join(','));
            // Gone at the end; nothing in the user's data directory.
            strict_1.default.equal((0, node_fs_1.existsSync)(s.storeDir), false);
            strict_1.default.deepEqual(await (0, promises_1.readdir)(home), []);
        }
        finally {
            await fake.close();
        }
    });
});
(0, node_test_1.test)('unit: local store — an explicit storeDir is kept after the end, with the transcript in it; the user store untouched', async () => {
    await withUserHome(async (home) => {
        const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
        try {
            const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-store-work-'));
            const store = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-store-own-'));
            fake.enqueue((0, fakeAnthropic_1.textResponse)('hi'));
            const s = (0, runSession_1.startLocalSession)({ prompt: 'hello', cwd: work, tools: ['Read'], model: { model: 'claude-test', maxTokens: 64 } }, { storeDir: store, anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
            strict_1.default.equal(s.storeDir, store);
            const r = await s.result;
            strict_1.default.equal(r.status, 'completed', r.endReason);
            strict_1.default.ok((await (0, promises_1.readdir)((0, node_path_1.join)(store, 'blobs'))).length > 0, 'the transcript stays in the caller store');
            strict_1.default.deepEqual(await (0, promises_1.readdir)(home), []);
        }
        finally {
            await fake.close();
        }
    });
});
(0, node_test_1.test)('unit: local store — a bad input throws at start and leaves no temporary store behind', async () => {
    const own = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-store-tmp-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = own; // os.tmpdir() reads it: this test's temp dirs only
    try {
        strict_1.default.throws(() => (0, runSession_1.startLocalSession)({ prompt: '', cwd: '/tmp' }), /prompt/);
        strict_1.default.deepEqual((0, node_fs_1.readdirSync)(own), []);
    }
    finally {
        if (saved === undefined)
            delete process.env.TMPDIR;
        else
            process.env.TMPDIR = saved;
    }
});
//# sourceMappingURL=local-store.test.js.map