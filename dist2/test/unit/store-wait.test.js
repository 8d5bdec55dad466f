"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: a tool call waits out a store outage (src/calls/storeWait.ts). Found by
// `npm run test:faults` (disk faults): a non-idempotent call that ran while the store was full or
// read-only failed its activity when recording the result; the retry found it 'started' and
// reported an unknown outcome — or, once the attempts ran out, "Error calling tool" — for a call
// that had completed. Real files and the real activity code; the store fails like a full disk.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const worker_1 = require("../../src/worker");
const messageStore_1 = require("../../src/stores/messageStore");
const executionLedger_1 = require("../../src/stores/executionLedger");
const storeWait_1 = require("../../src/calls/storeWait");
const context_1 = require("../../src/engine/context");
const testTools_1 = require("../support/testTools");
/** A local store whose puts fail with ENOSPC while `full` is set. */
class FillableStore {
    inner;
    full = false;
    failedPuts = 0;
    constructor(inner) {
        this.inner = inner;
    }
    async put(key, data) {
        if (this.full) {
            this.failedPuts++;
            throw Object.assign(new Error(`ENOSPC: no space left on device, open '${key}.tmp'`), { code: 'ENOSPC' });
        }
        return this.inner.put(key, data);
    }
    get(key) {
        return this.inner.get(key);
    }
}
function runtime(heartbeats) {
    return {
        signal: new AbortController().signal,
        heartbeat: (d) => heartbeats.push(d),
        attempt: 1,
        callKey: 'wf/tool-x',
        warn: () => undefined,
    };
}
(0, node_test_1.test)('unit: a non-idempotent call that ran while the store was full records its result once the store is back (not unknown, not an error)', async () => {
    const dir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-storewait-'));
    const storeDir = (0, node_path_1.join)(dir, 'store');
    const store = new FillableStore(new messageStore_1.LocalBlobStore((0, node_path_1.join)(storeDir, 'blobs')));
    const { runToolCall } = (0, worker_1.createAgentActivities)({
        storeDir,
        blobStore: store,
        tools: testTools_1.TEST_TOOLS,
        replaceBuiltins: true,
    });
    const ledgerFile = (0, node_path_1.join)(dir, 'count.log');
    const heartbeats = [];
    // The disk fills while the call runs (after its 'started' entry, before its result).
    const call = runToolCall({
        session: {
            sessionId: 's1',
            toolNames: ['AppendSlow'],
            permission: { mode: 'bypassPermissions', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [dir] },
        },
        block: {
            type: 'tool_use',
            id: 'toolu_disk_1',
            name: 'AppendSlow',
            input: { file: ledgerFile, text: 'toolu_disk_1', delayMs: 300, idempotent: false },
        },
        context: (0, context_1.initialContext)(dir),
    }, runtime(heartbeats));
    await new Promise((r) => setTimeout(r, 150));
    store.full = true;
    await new Promise((r) => setTimeout(r, 900));
    strict_1.default.ok(store.failedPuts >= 1, 'the result was tried while the store was full');
    store.full = false;
    const r = await call;
    strict_1.default.equal(r.kind, 'done');
    strict_1.default.equal(r.kind === 'done' && r.record.status, 'ok');
    strict_1.default.equal(await (0, promises_1.readFile)(ledgerFile, 'utf8'), 'toolu_disk_1\n', 'the call ran once');
    const entry = await new executionLedger_1.ExecutionLedger(store).get('s1', 'toolu_disk_1');
    strict_1.default.equal(entry?.state, 'completed');
    strict_1.default.equal(entry?.record?.status, 'ok');
    strict_1.default.ok(heartbeats.some((h) => /ENOSPC/.test(String(h.waitingForStore))), 'the wait is visible in the heartbeat details');
});
(0, node_test_1.test)('unit: store waits — I/O errors are waited out, permanent errors and cancellation are not', async () => {
    strict_1.default.equal((0, storeWait_1.isStoreOutage)(Object.assign(new Error('x'), { code: 'EROFS' })), true);
    strict_1.default.equal((0, storeWait_1.isStoreOutage)(Object.assign(new Error('x'), { transient: true })), true);
    strict_1.default.equal((0, storeWait_1.isStoreOutage)(new SyntaxError('Unexpected token')), false);
    const ctx = { signal: new AbortController().signal, heartbeat: () => undefined, warn: () => undefined };
    let n = 0;
    const v = await (0, storeWait_1.waitForStore)('op', async () => (++n < 3 ? Promise.reject(Object.assign(new Error('EIO'), { code: 'EIO' })) : 'ok'), ctx, { firstDelayMs: 5 });
    strict_1.default.deepEqual([v, n], ['ok', 3]);
    await strict_1.default.rejects((0, storeWait_1.waitForStore)('op', () => Promise.reject(new SyntaxError('bad record')), ctx), SyntaxError);
    await strict_1.default.rejects((0, storeWait_1.waitForStore)('op', () => Promise.reject(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' })), ctx, {
        maxWaitMs: 30,
        firstDelayMs: 5,
    }), /ENOSPC/);
    const aborted = new AbortController();
    aborted.abort(new Error('cancelled'));
    await strict_1.default.rejects((0, storeWait_1.waitForStore)('op', () => Promise.reject(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' })), {
        ...ctx,
        signal: aborted.signal,
    }), /ENOSPC/);
});
//# sourceMappingURL=store-wait.test.js.map