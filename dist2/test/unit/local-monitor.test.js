"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: Monitor in the in-process runner (issue 19), with real processes: the watch starts after its
// turn, each stdout batch reaches the model once and in order as the engine's event notification
// (the idle session wakes for it), then the end notification (engine/monitorTasks.ts `monitorEndText`);
// TaskStop kills the watch's process, nothing more is queued for it and no end notification comes;
// handle.stop() during the wait kills a running watch; at timeout_ms the expiry notice is the last notification.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const runSession_1 = require("../../src/local/runSession");
const monitor_1 = require("../../src/tools/builtin/monitor");
const taskNotifications_1 = require("../../src/engine/taskNotifications");
const host_1 = require("../../src/sandbox/host");
function userTexts(req) {
    const m = req.messages[req.messages.length - 1];
    if (typeof m.content === 'string')
        return [m.content];
    return m.content.map((b) => b.type === 'text' ? (b.text ?? '') : typeof b.content === 'string' ? b.content : JSON.stringify(b.content));
}
/** Every task notification the model was sent, in the order it got them. */
function notifications(fake) {
    return fake
        .messageRequests()
        .flatMap(userTexts)
        .filter((t) => t.includes('<task-notification>'));
}
function start(fake, cwd, sessionId) {
    return (0, runSession_1.startLocalSession)({
        sessionId,
        prompt: 'watch it',
        cwd,
        tools: ['Monitor', 'TaskStop'],
        permissionMode: 'bypassPermissions',
        model: { model: 'claude-test', maxTokens: 256 },
    }, { anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
}
function running(marker) {
    return (0, node_child_process_1.execFileSync)('ps', ['-eo', 'args'], { encoding: 'utf8' })
        .split('\n')
        .some((l) => l.includes(marker) && !l.includes('ps -eo'));
}
async function until(what, ok) {
    for (let i = 0; i < 1500 && !ok(); i++)
        await new Promise((r) => setTimeout(r, 20));
    strict_1.default.ok(ok(), what);
}
(0, node_test_1.test)('unit: local monitor — each batch once and in order as an event notification (the idle session wakes), then the end notification', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-monitor-'));
        const sessionId = `local-monitor-${Date.now()}`;
        const id = (0, monitor_1.monitorTaskId)(sessionId, 'toolu_mon');
        const command = 'for i in 1 2 3; do echo "tick <$i>"; sleep 0.6; done; echo err >&2';
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_mon', name: 'Monitor', input: { description: 'ticks', command, timeout_ms: 60_000 } },
        ]));
        fake.script(() => (0, fakeAnthropic_1.textResponse)('Noted.'));
        const r = await start(fake, work, sessionId).result;
        strict_1.default.equal(r.status, 'completed', r.endReason);
        strict_1.default.match(userTexts(fake.messageRequests()[1])[0], new RegExp(`^Monitor started \\(task ${id}, `));
        const task = {
            id,
            description: 'ticks',
            toolUseId: 'toolu_mon',
            outputPath: (0, node_path_1.join)((0, host_1.sessionTasksPath)(sessionId), `${id}.output`),
        };
        strict_1.default.deepEqual(notifications(fake), [
            (0, taskNotifications_1.monitorEventNotification)(task, 'tick <1>'),
            (0, taskNotifications_1.monitorEventNotification)(task, 'tick <2>'),
            (0, taskNotifications_1.monitorEventNotification)(task, 'tick <3>'),
            (0, taskNotifications_1.monitorEndNotification)(task, { state: 'completed', exitCode: 0, events: 3 }),
        ]);
        strict_1.default.ok(notifications(fake)[3].includes('<status>completed</status>'));
        strict_1.default.ok(notifications(fake)[0].includes('<event>tick &lt;1&gt;</event>'));
        // Idle between events: each event woke the session for a turn of its own or joined the next one.
        strict_1.default.ok(r.turns >= 3, `turns ${r.turns}`);
        const record = r.context.autonomy?.tasks.find((t) => t.id === id);
        strict_1.default.equal(record?.kind, 'monitor');
        strict_1.default.equal(record?.state, 'completed');
        strict_1.default.equal(record?.exitCode, 0);
        strict_1.default.equal(await (0, promises_1.readFile)(task.outputPath, 'utf8'), 'tick <1>\ntick <2>\ntick <3>\nerr\n\n[exited with code 0]\n');
    }
    finally {
        await fake.close();
    }
});
(0, node_test_1.test)('unit: local monitor — TaskStop kills the watch (process gone); nothing more is queued for it, no end notification', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-monitor-'));
        const sessionId = `local-monitor-stop-${Date.now()}`;
        const id = (0, monitor_1.monitorTaskId)(sessionId, 'toolu_mon');
        const marker = `${5000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
        // One event, then a line every 0.2 s after a pause: what comes after TaskStop never reaches the model.
        const command = `echo first; sleep 0.5; (while :; do echo again; sleep 0.2; done) & sleep ${marker}`;
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_mon', name: 'Monitor', input: { description: 'watch', command, timeout_ms: 600_000 } },
        ]));
        let stopped = false;
        fake.script((req) => {
            if (!stopped && userTexts(req).some((t) => t.includes('<event>first</event>'))) {
                stopped = true;
                return (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_stop', name: 'TaskStop', input: { task_id: id } }]);
            }
            return (0, fakeAnthropic_1.textResponse)('ok');
        });
        const s = start(fake, work, sessionId);
        await until('the watch runs', () => running(`sleep ${marker}`));
        const r = await s.result;
        strict_1.default.equal(r.status, 'completed', r.endReason);
        strict_1.default.ok(stopped, 'the first event reached the model');
        strict_1.default.equal(running(`sleep ${marker}`), false, 'its process is gone');
        const stopResult = fake
            .messageRequests()
            .flatMap(userTexts)
            .find((t) => t.includes('Successfully stopped task'));
        strict_1.default.ok(stopResult?.includes(id), stopResult);
        // The first event only: no "again" after the stop (its lines came 0.5 s later), no end notification.
        const all = notifications(fake);
        strict_1.default.equal(all.length, 1, all.join('\n---\n'));
        strict_1.default.ok(all[0].includes('<event>first</event>'));
        strict_1.default.equal(r.context.autonomy?.tasks.find((t) => t.id === id)?.state, 'killed');
        // Give a straggler time to show: nothing is queued for the stopped task after the session's end.
        await new Promise((res) => setTimeout(res, 500));
        strict_1.default.equal(notifications(fake).length, 1);
    }
    finally {
        await fake.close();
    }
});
(0, node_test_1.test)('unit: local monitor — handle.stop() during the wait kills a running watch (no end notification)', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-monitor-'));
        const sessionId = `local-monitor-all-${Date.now()}`;
        const marker = `${6000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            {
                id: 'toolu_mon',
                name: 'Monitor',
                input: { description: 'w', command: `sleep ${marker}`, timeout_ms: 600_000 },
            },
        ]), (0, fakeAnthropic_1.textResponse)('Waiting.'));
        const s = start(fake, work, sessionId);
        await until('the session waits for its watch', () => s.status().status === 'waiting');
        await until('the watch runs', () => running(`sleep ${marker}`));
        s.stop();
        const r = await s.result;
        strict_1.default.equal(r.status, 'completed', r.endReason);
        strict_1.default.equal(running(`sleep ${marker}`), false);
        strict_1.default.deepEqual(r.context.autonomy?.tasks.map((t) => [t.kind, t.state]), [['monitor', 'killed']]);
        strict_1.default.equal(fake.messageRequests().length, 2, 'no notification turn');
    }
    finally {
        await fake.close();
    }
});
(0, node_test_1.test)('unit: local monitor — at timeout_ms the watch is killed and the expiry notice is its last notification', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-monitor-'));
        const sessionId = `local-monitor-expiry-${Date.now()}`;
        const id = (0, monitor_1.monitorTaskId)(sessionId, 'toolu_mon');
        const marker = `${7000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            {
                id: 'toolu_mon',
                name: 'Monitor',
                input: { description: 'quiet', command: `echo one; sleep ${marker}`, timeout_ms: 1500 },
            },
        ]));
        fake.script(() => (0, fakeAnthropic_1.textResponse)('ok'));
        const r = await start(fake, work, sessionId).result;
        strict_1.default.equal(r.status, 'completed', r.endReason);
        strict_1.default.equal(running(`sleep ${marker}`), false, 'the watch is gone');
        strict_1.default.deepEqual(notifications(fake), [
            (0, taskNotifications_1.monitorEventNotification)({ id, description: 'quiet' }, 'one'),
            (0, taskNotifications_1.monitorEventNotification)({ id, description: 'quiet' }, (0, taskNotifications_1.monitorExpiredText)(1500, 1)),
        ]);
        strict_1.default.equal(r.context.autonomy?.tasks.find((t) => t.id === id)?.state, 'timed_out');
    }
    finally {
        await fake.close();
    }
});
//# sourceMappingURL=local-monitor.test.js.map