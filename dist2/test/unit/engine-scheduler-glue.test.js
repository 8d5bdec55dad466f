"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the glue both schedulers share (issue 21, finding 4; src/engine/schedulerGlue.ts): the
// store-outage loop, reading a transient failure, the approval-timeout denial, a hook firing that
// could not run, and the Notification hook on an approval wait — and that the in-process runner,
// like the session workflow, ends a session only after that hook has finished.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const retry_1 = require("../../src/engine/retry");
const schedulerGlue_1 = require("../../src/engine/schedulerGlue");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const runSession_1 = require("../../src/local/runSession");
function scheduler(classify, maxOutageMs) {
    const shown = [];
    const slept = [];
    let now = 1_000;
    return {
        shown,
        slept,
        s: {
            policy: (0, retry_1.retryPolicy)({ retryCapMs: 10_000, ...(maxOutageMs !== undefined ? { maxOutageMs } : {}) }),
            now: () => now,
            sleep: async (ms) => {
                slept.push(ms);
                now += ms;
            },
            classify,
            onOutage: (o) => shown.push(o),
            giveUp: (reason) => new Error(`gave up: ${reason}`),
        },
    };
}
(0, node_test_1.test)('unit: scheduler glue — a store call waits out failures attempt by attempt, shows the outage and its end', async () => {
    const { s, shown, slept } = scheduler((err) => ({ kind: 'store', message: err.message }));
    const attempts = [];
    const r = await (0, schedulerGlue_1.waitOutStoreOutage)(async (attempt) => {
        attempts.push(attempt);
        if (attempt < 3)
            throw new Error(`disk full ${attempt}`);
        return 'ref-1';
    }, s);
    strict_1.default.equal(r, 'ref-1');
    strict_1.default.deepEqual(attempts, [1, 2, 3]);
    strict_1.default.deepEqual(slept, [2_000, 4_000]);
    strict_1.default.deepEqual(shown.map((o) => o && [o.what, o.kind, o.attempts, o.lastError, o.since]), [['store', 'store', 1, 'disk full 1', 1_000], ['store', 'store', 2, 'disk full 2', 1_000], undefined]);
});
(0, node_test_1.test)('unit: scheduler glue — a permanent failure is rethrown at once; past the outage limit the scheduler error is thrown', async () => {
    const permanent = scheduler(() => undefined);
    const boom = new Error('bad request');
    await strict_1.default.rejects((0, schedulerGlue_1.waitOutStoreOutage)(async () => Promise.reject(boom), permanent.s), (err) => err === boom);
    strict_1.default.deepEqual(permanent.shown, []);
    const limited = scheduler((err) => ({ kind: 'store', message: err.message }), 5_000);
    await strict_1.default.rejects((0, schedulerGlue_1.waitOutStoreOutage)(async () => Promise.reject(new Error('down')), limited.s), /gave up: the store was unavailable for longer than 5 s \(2 attempts; last: down\)/);
    strict_1.default.deepEqual(limited.slept, [2_000]);
});
(0, node_test_1.test)('unit: scheduler glue — transient failures, the timeout denial and a hook firing that could not run', () => {
    strict_1.default.deepEqual((0, schedulerGlue_1.transientFailureFromDetails)('model', 'overloaded', [{ kind: 'overloaded', retryAfterMs: 3_000 }]), {
        kind: 'overloaded',
        message: 'overloaded',
        retryAfterMs: 3_000,
    });
    strict_1.default.deepEqual((0, schedulerGlue_1.transientFailureFromDetails)('model', 'x', undefined), { kind: 'other', message: 'x' });
    strict_1.default.deepEqual((0, schedulerGlue_1.transientFailureFromDetails)('store', 'y', [{ kind: 'overloaded' }]), {
        kind: 'store',
        message: 'y',
    });
    strict_1.default.deepEqual((0, schedulerGlue_1.approvalTimeoutDenial)(90_000), {
        decision: 'deny',
        source: 'timeout',
        afterMs: 90_000,
        reason: 'No approval arrived within 90 s; denied by default for unattended runs.',
    });
    strict_1.default.deepEqual((0, schedulerGlue_1.hookFailureRuns)('Stop', new Error('no worker')), [
        { event: 'Stop', hook: 'Stop hooks', outcome: 'non_blocking_error', durationMs: 0, error: 'no worker' },
    ]);
    strict_1.default.equal((0, schedulerGlue_1.hookFailureRuns)('Stop', 'plain')[0]?.error, 'plain');
});
(0, node_test_1.test)('unit: scheduler glue — the Notification hook of an approval wait runs only when configured, with the reference fields', async () => {
    const fired = [];
    const runner = (has) => ({
        hasHooks: (e) => has && e === 'Notification',
        runHooks: async (...args) => (fired.push(args), []),
    });
    strict_1.default.equal((0, schedulerGlue_1.notifyApprovalPending)(runner(false), 'Write', 'h1'), undefined);
    strict_1.default.equal((0, schedulerGlue_1.notifyApprovalPending)({}, 'Write', 'h1'), undefined);
    await (0, schedulerGlue_1.notifyApprovalPending)(runner(true), 'Write', 'h1');
    strict_1.default.deepEqual(fired, [
        [
            'Notification',
            { message: 'Claude needs your permission to use Write', notification_type: 'permission_prompt' },
            'h1',
        ],
    ]);
});
(0, node_test_1.test)('unit: in-process runner — a Notification hook still running when the approval is answered finishes before the session ends', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-glue-'));
    const store = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-glue-store-'));
    try {
        const done = (0, node_path_1.join)(work, 'notified.txt');
        const hook = (0, node_path_1.join)(work, 'note.sh');
        // The hook is slow on purpose: the approver answers at once, long before it writes.
        await (0, promises_1.writeFile)(hook, `#!/bin/bash\ninput=$(cat)\nsleep 1\nprintf '%s' "$input" > ${done}\n`);
        await (0, promises_1.chmod)(hook, 0o755);
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_w', name: 'Write', input: { file_path: (0, node_path_1.join)(work, 'x.txt'), content: 'x\n' } }]), (0, fakeAnthropic_1.textResponse)('ok'));
        const result = await (0, runSession_1.runLocalSession)({
            prompt: 'write x',
            cwd: work,
            tools: ['Write'],
            permissionMode: 'default',
            model: { model: 'claude-test', maxTokens: 256 },
            hooks: { Notification: [{ hooks: [{ type: 'command', command: hook, timeout: 30 }] }] },
            onAsk: async () => ({ decision: 'approve', source: 'human', by: 'tester' }),
        }, { storeDir: store, anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
        strict_1.default.equal(result.status, 'completed');
        strict_1.default.equal(await (0, promises_1.readFile)((0, node_path_1.join)(work, 'x.txt'), 'utf8'), 'x\n');
        const notified = JSON.parse(await (0, promises_1.readFile)(done, 'utf8'));
        strict_1.default.equal(notified.hook_event_name, 'Notification');
        strict_1.default.equal(notified.notification_type, 'permission_prompt');
    }
    finally {
        await fake.close();
    }
});
//# sourceMappingURL=engine-scheduler-glue.test.js.map