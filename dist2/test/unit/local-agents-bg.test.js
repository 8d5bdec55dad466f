"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: background agents in the in-process runner (issue 19), with the fake Messages API: an Agent
// call without `run_in_background: false` answers at once with the launched text (the workflow's,
// engine/subagents.ts), its turn ends, the child session runs after it, and the agent's
// `<task-notification>` (engine/taskNotifications.ts) with the child's report starts the next turn;
// TaskStop of a running child aborts it (no notification); handle.stop() during the wait aborts it too.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const runSession_1 = require("../../src/local/runSession");
const subagents_1 = require("../../src/engine/subagents");
const taskNotifications_1 = require("../../src/engine/taskNotifications");
function lastUserTexts(req) {
    const m = req.messages[req.messages.length - 1];
    if (typeof m.content === 'string')
        return [m.content];
    return m.content.map((b) => b.type === 'text'
        ? (b.text ?? '')
        : typeof b.content === 'string'
            ? b.content
            : b.content.map((c) => c.text ?? '').join('\n'));
}
const isChild = (req) => JSON.stringify(req.messages[0]?.content ?? '').includes('SUBTASK');
async function start(fake, sessionId) {
    const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-bga-'));
    return (0, runSession_1.startLocalSession)({
        sessionId,
        prompt: 'delegate',
        cwd: work,
        tools: ['Read', 'Agent', 'TaskStop'],
        permissionMode: 'bypassPermissions',
        model: { model: 'claude-test', maxTokens: 256 },
    }, { anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
}
async function until(what, ok) {
    for (let i = 0; i < 1500 && !ok(); i++)
        await new Promise((r) => setTimeout(r, 20));
    strict_1.default.ok(ok(), what);
}
/** The session's result, or a failure after a minute (a child the stop did not reach would hang it). */
function within(p) {
    let timer;
    return Promise.race([
        p,
        new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('the session did not end: its child was not stopped')), 60_000);
        }),
    ]).finally(() => clearTimeout(timer));
}
(0, node_test_1.test)('unit: local background agent — launched result at once, the turn ends, the child report comes as the next turn', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        const sessionId = `local-bga-${Date.now()}`;
        const taskId = (0, subagents_1.agentTaskId)(sessionId, 'toolu_ag');
        const childId = (0, subagents_1.subagentSessionId)(sessionId, 'toolu_ag');
        const order = [];
        fake.script((req) => {
            if (isChild(req)) {
                order.push('child');
                return (0, fakeAnthropic_1.textResponse)('child report <x> & done');
            }
            const texts = lastUserTexts(req);
            if (req.messages.length === 1) {
                order.push('parent: launch');
                return (0, fakeAnthropic_1.toolUseResponse)([
                    { id: 'toolu_ag', name: 'Agent', input: { description: 'report', prompt: 'SUBTASK report' } },
                ]);
            }
            if (texts.some((t) => t.includes('<task-notification>'))) {
                order.push('parent: notification');
                return (0, fakeAnthropic_1.textResponse)('The agent reported.');
            }
            order.push('parent: after launch');
            return (0, fakeAnthropic_1.textResponse)('Waiting for the agent.');
        });
        const s = await start(fake, sessionId);
        const r = await within(s.result);
        strict_1.default.equal(r.status, 'completed', r.endReason);
        strict_1.default.deepEqual(order, ['parent: launch', 'parent: after launch', 'child', 'parent: notification']);
        strict_1.default.equal(r.turns, 3, 'the Agent call, the answer to its launch, the notification turn');
        const parent = fake.messageRequests().filter((q) => !isChild(q));
        strict_1.default.deepEqual(lastUserTexts(parent[1]), [(0, subagents_1.agentLaunchedText)(taskId, childId)]);
        const rec = r.records.find((x) => x.toolUseId === 'toolu_ag');
        strict_1.default.equal(rec.result.is_error, undefined);
        const task = r.context.autonomy?.tasks.find((t) => t.id === taskId);
        strict_1.default.equal(task?.kind, 'local_agent');
        strict_1.default.equal(task?.state, 'completed');
        const [note, ...rest] = lastUserTexts(parent[2]);
        strict_1.default.deepEqual(rest, []);
        const m = /<subagent_tokens>(\d+)<\/subagent_tokens><tool_uses>0<\/tool_uses><duration_ms>(\d+)<\/duration_ms>/.exec(note ?? '');
        strict_1.default.ok(m, note);
        strict_1.default.ok(Number(m[1]) > 0, 'the child tokens are counted');
        const expected = (0, taskNotifications_1.agentNotification)({ id: taskId, description: 'report', toolUseId: 'toolu_ag' }, {
            state: 'completed',
            result: 'child report <x> & done',
            totalTokens: Number(m[1]),
            toolUses: 0,
            durationMs: Number(m[2]),
        });
        strict_1.default.equal(note, expected);
        strict_1.default.ok(note.includes('<result>child report &lt;x&gt; &amp; done</result>'), note);
    }
    finally {
        await fake.close();
    }
});
/** A parent whose child's model call never answers until released; the test decides what stops it. */
function blockedChild(fake, parentTurn2) {
    const seen = { child: 0, notifications: 0 };
    let release;
    const released = new Promise((r) => (release = r));
    fake.script(async (req) => {
        if (isChild(req)) {
            seen.child++;
            await released;
            return (0, fakeAnthropic_1.textResponse)('late child report');
        }
        const texts = lastUserTexts(req);
        if (texts.some((t) => t.includes('<task-notification>')))
            seen.notifications++;
        if (req.messages.length === 1)
            return (0, fakeAnthropic_1.toolUseResponse)([
                { id: 'toolu_ag', name: 'Agent', input: { description: 'slow', prompt: 'SUBTASK slow' } },
            ]);
        return parentTurn2(texts);
    });
    return { seen, release: () => release?.() };
}
(0, node_test_1.test)('unit: local background agent — TaskStop aborts the running child (no notification); stopping it again: not found', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    const sessionId = `local-bga-stop-${Date.now()}`;
    const taskId = (0, subagents_1.agentTaskId)(sessionId, 'toolu_ag');
    const b = blockedChild(fake, (texts) => {
        if (texts.includes('stop the agent'))
            return (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_stop', name: 'TaskStop', input: { task_id: taskId } }]);
        if (texts.some((t) => t.includes('Successfully stopped task')))
            return (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_stop2', name: 'TaskStop', input: { task_id: taskId } }]);
        if (texts.some((t) => t.includes('No task found')))
            return (0, fakeAnthropic_1.textResponse)('Stopped.');
        return (0, fakeAnthropic_1.textResponse)('Waiting.');
    });
    try {
        const s = await start(fake, sessionId);
        await until('the child runs', () => b.seen.child === 1);
        s.send('stop the agent');
        const r = await within(s.result);
        strict_1.default.equal(r.status, 'completed', r.endReason);
        const stopped = r.records.find((x) => x.toolUseId === 'toolu_stop');
        strict_1.default.equal(JSON.stringify(stopped.result.content).includes(JSON.stringify(`Successfully stopped task: ${taskId} (slow)`).slice(1, -1)), true, JSON.stringify(stopped.result.content));
        strict_1.default.equal(r.records.find((x) => x.toolUseId === 'toolu_stop2').result.is_error, true);
        strict_1.default.equal(r.context.autonomy?.tasks.find((t) => t.id === taskId)?.state, 'killed');
        strict_1.default.equal(b.seen.notifications, 0, 'no notification after TaskStop');
        strict_1.default.equal(b.seen.child, 1);
    }
    finally {
        b.release();
        await fake.close();
    }
});
(0, node_test_1.test)('unit: local background agent — handle.stop() during the wait aborts the running child', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    const sessionId = `local-bga-all-${Date.now()}`;
    const taskId = (0, subagents_1.agentTaskId)(sessionId, 'toolu_ag');
    const b = blockedChild(fake, () => (0, fakeAnthropic_1.textResponse)('Waiting.'));
    try {
        const s = await start(fake, sessionId);
        await until('the child runs while its parent waits', () => b.seen.child === 1 && s.status().status === 'waiting');
        s.stop();
        const r = await within(s.result);
        strict_1.default.equal(r.status, 'completed', r.endReason);
        strict_1.default.equal(r.context.autonomy?.tasks.find((t) => t.id === taskId)?.state, 'killed');
        strict_1.default.equal(b.seen.notifications, 0);
        strict_1.default.equal(r.turns, 2, 'no notification turn');
    }
    finally {
        b.release();
        await fake.close();
    }
});
//# sourceMappingURL=local-agents-bg.test.js.map