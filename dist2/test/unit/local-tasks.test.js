"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: background tasks in the in-process runner (issue 19), with real processes: Bash
// run_in_background answers at once, the task starts after its turn (a later call of the same turn
// does not see it), writes its output file in the session's temp dir, and its notification (the
// engine's text) is the next turn's user message — the idle session wakes for it; TaskStop kills a
// running task (no notification), an unknown id is an error; handle.stop() ends the wait and kills
// every running task. Monitor in process: local-monitor.test.ts.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const runSession_1 = require("../../src/local/runSession");
const host_1 = require("../../src/sandbox/host");
const bash_1 = require("../../src/tools/builtin/bash");
const taskNotifications_1 = require("../../src/engine/taskNotifications");
const STARTED = /^Command running in background with ID: (b[a-z0-9]{8})\. Output is being written to: (\S+\.output)\. You will be notified when it completes\. To check interim output, use Read on that file path\.$/;
function userTexts(req) {
    const m = req.messages[req.messages.length - 1];
    if (typeof m.content === 'string')
        return [m.content];
    return m.content.map((b) => b.type === 'text' ? (b.text ?? '') : typeof b.content === 'string' ? b.content : JSON.stringify(b.content));
}
function start(fake, cwd, sessionId, tools = ['Bash', 'TaskStop']) {
    return (0, runSession_1.startLocalSession)({
        sessionId,
        prompt: 'start the jobs',
        cwd,
        tools,
        permissionMode: 'bypassPermissions',
        model: { model: 'claude-test', maxTokens: 256 },
    }, { anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
}
/** Is a process whose command line holds `marker` alive? */
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
(0, node_test_1.test)('unit: local tasks — run_in_background answers at once; the task starts after its turn, writes its output file; its notification is the next turn', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-task-'));
        const sessionId = `local-task-${Date.now()}`;
        const id = (0, bash_1.backgroundTaskId)(sessionId, 'toolu_bg');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            {
                id: 'toolu_bg',
                name: 'Bash',
                input: { command: 'touch started; sleep 0.3; echo "built <ok> & done"', run_in_background: true },
            },
            // The same turn: the task has not started yet (it starts after the turn).
            { id: 'toolu_look', name: 'Bash', input: { command: 'test -e started && echo SEEN || echo NOT-YET' } },
        ]), (0, fakeAnthropic_1.textResponse)('Waiting for the build.'), (0, fakeAnthropic_1.textResponse)('The build is done.'));
        const s = start(fake, work, sessionId);
        const r = await s.result;
        strict_1.default.equal(r.status, 'completed', r.endReason);
        strict_1.default.equal(r.turns, 3, 'tools, wait, the notification turn');
        const reqs = fake.messageRequests();
        strict_1.default.equal(reqs.length, 3);
        const [bgResult, look] = userTexts(reqs[1]);
        const m = STARTED.exec(bgResult ?? '');
        strict_1.default.ok(m, bgResult);
        strict_1.default.equal(m[1], id);
        strict_1.default.equal(m[2], (0, node_path_1.join)((0, host_1.sessionTasksPath)(sessionId), `${id}.output`));
        strict_1.default.equal(look, 'NOT-YET');
        strict_1.default.equal(await (0, promises_1.readFile)(m[2], 'utf8'), 'built <ok> & done\n\n[exited with code 0]\n');
        strict_1.default.ok((0, node_fs_1.existsSync)((0, node_path_1.join)(work, 'started')), 'the task ran in the session cwd');
        const task = r.context.autonomy?.tasks.find((t) => t.id === id);
        strict_1.default.equal(task?.state, 'completed');
        strict_1.default.equal(task?.exitCode, 0);
        strict_1.default.equal(task?.outputBytes, 'built <ok> & done\n'.length);
        strict_1.default.deepEqual(userTexts(reqs[2]), [(0, taskNotifications_1.taskNotification)(task)]);
        strict_1.default.ok(userTexts(reqs[2])[0].includes('\n\n<task-notification>\n' +
            `<task-id>${id}</task-id>\n<tool-use-id>toolu_bg</tool-use-id>\n<output-file>${m[2]}</output-file>\n<status>completed</status>\n` +
            '<summary>Background command "touch started; sleep 0.3; echo "built &lt;ok&gt; &amp; done"" completed (exit code 0)</summary>\n</task-notification>\n</system-reminder>'), userTexts(reqs[2])[0]);
    }
    finally {
        await fake.close();
    }
});
(0, node_test_1.test)('unit: local tasks — TaskStop kills a running task (process gone, no notification); an unknown id is an error', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-task-'));
        const sessionId = `local-taskstop-${Date.now()}`;
        const id = (0, bash_1.backgroundTaskId)(sessionId, 'toolu_srv');
        const marker = `${3000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_srv', name: 'Bash', input: { command: `sleep ${marker}`, run_in_background: true } },
        ]));
        // Turn 2 (the task started before it): the process runs; stop it, and an unknown id.
        let sawRunning = false;
        fake.script(async (req) => {
            const texts = userTexts(req);
            if (texts.some((t) => t.startsWith('Command running in background'))) {
                // The task started before this turn; its process is spawned shortly after.
                for (let i = 0; i < 500 && !sawRunning; i++) {
                    sawRunning = running(`sleep ${marker}`);
                    if (!sawRunning)
                        await new Promise((r) => setTimeout(r, 20));
                }
                return (0, fakeAnthropic_1.toolUseResponse)([
                    { id: 'toolu_stop', name: 'TaskStop', input: { task_id: id } },
                    { id: 'toolu_stop2', name: 'TaskStop', input: { task_id: 'bnosuchid' } },
                ]);
            }
            return (0, fakeAnthropic_1.textResponse)('Stopped.');
        });
        const s = start(fake, work, sessionId);
        const r = await s.result;
        strict_1.default.equal(r.status, 'completed', r.endReason);
        strict_1.default.ok(sawRunning, 'the task ran during the next turn');
        const reqs = fake.messageRequests();
        strict_1.default.equal(reqs.length, 3);
        const [stopped, unknown] = userTexts(reqs[2]);
        strict_1.default.equal(stopped, JSON.stringify({
            message: `Successfully stopped task: ${id} (sleep ${marker})`,
            task_id: id,
            task_type: 'local_bash',
            command: `sleep ${marker}`,
        }));
        // The reference wraps it in <tool_use_error>; our validation errors are the message alone (docs/tools.md).
        strict_1.default.equal(unknown, 'No task found with ID: bnosuchid');
        strict_1.default.equal(running(`sleep ${marker}`), false, 'its process is gone');
        strict_1.default.equal(r.context.autonomy?.tasks.find((t) => t.id === id)?.state, 'killed');
        for (const req of reqs)
            for (const t of userTexts(req))
                strict_1.default.ok(!t.includes('<task-notification>'), t);
    }
    finally {
        await fake.close();
    }
});
(0, node_test_1.test)('unit: local tasks — handle.stop() during the wait ends the session and kills its running tasks', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-task-'));
        const sessionId = `local-taskall-${Date.now()}`;
        const marker = `${4000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_a', name: 'Bash', input: { command: `sleep ${marker}`, run_in_background: true } },
            { id: 'toolu_b', name: 'Bash', input: { command: `sleep ${marker}1`, run_in_background: true } },
        ]), (0, fakeAnthropic_1.textResponse)('Waiting.'));
        const s = start(fake, work, sessionId);
        await until('the session waits for its tasks', () => s.status().status === 'waiting');
        await until('both tasks run', () => running(`sleep ${marker}`) && running(`sleep ${marker}1`));
        s.stop();
        const r = await s.result;
        strict_1.default.equal(r.status, 'completed', r.endReason);
        strict_1.default.equal(running(`sleep ${marker}`), false);
        strict_1.default.deepEqual(r.context.autonomy?.tasks.map((t) => t.state), ['killed', 'killed']);
        strict_1.default.equal(fake.messageRequests().length, 2, 'no notification turn');
    }
    finally {
        await fake.close();
    }
});
//# sourceMappingURL=local-tasks.test.js.map