"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: background tasks (issue 19) on the real dev server. Bash `run_in_background` returns
// at once with the reference's text; the session runs the command as its own activity `task-<id>`,
// sleeps (status `waiting`) while only the task is pending, and the task's `<task-notification>`
// starts the next turn; the model Reads the output file (in `default` mode: the task directory is
// readable without asking). A failing command gives status failed with its exit code. TaskStop kills
// the task's process group and no notification follows. A worker SIGKILLed during a task: the
// session is told the task was lost (not re-run) and none of its processes is left.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const client_1 = require("../../src/client");
const audit_1 = require("../../src/audit");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const wait_1 = require("../support/wait");
const sessionProbe_1 = require("../support/sessionProbe");
const workerProcs_1 = require("../support/workerProcs");
const leftovers_1 = require("../support/leftovers");
(0, node_test_1.after)(temporal_1.closeTestEnv);
/** Every text of the request's last user message: text blocks and tool_result contents. */
function lastUserTexts(req) {
    const last = [...req.messages].reverse().find((m) => m.role === 'user');
    return last ? (0, sessionProbe_1.contentTexts)(last.content) : [];
}
const joined = (req) => lastUserTexts(req).join('\n');
const STARTED = /^Command running in background with ID: (b[a-z0-9]{8})\. Output is being written to: (\S+\.output)\. You will be notified when it completes\. To check interim output, use Read on that file path\.$/;
(0, node_test_1.test)('integration: a background command outlives its turn, its notification (exit code) starts the next turn, Read gets its output; a failing one is reported failed', { timeout: 180_000 }, async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, client }) => {
        const seen = {
            started: [],
            notifications: [],
        };
        fake.script((req) => {
            const text = joined(req);
            if (text.includes('build it'))
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_bg_ok',
                        name: 'Bash',
                        input: { command: 'sleep 3; echo "built <ok> & done"', run_in_background: true, description: 'Build' },
                    },
                    {
                        id: 'toolu_bg_fail',
                        name: 'Bash',
                        input: { command: 'sleep 4; echo oops >&2; exit 3', run_in_background: true },
                    },
                ]);
            for (const t of lastUserTexts(req)) {
                const m = STARTED.exec(t);
                if (m)
                    seen.started.push({ id: m[1], path: m[2] });
            }
            if (text.includes('<task-notification>')) {
                seen.notifications.push(text);
                if (text.includes('toolu_bg_ok'))
                    return (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_read', name: 'Read', input: { file_path: seen.started[0].path } }]);
            }
            if (text.includes('built <ok> & done'))
                return (0, fakeAnthropic_1.textResponse)('Read the build output.');
            return (0, fakeAnthropic_1.textResponse)('Waiting for the tasks.');
        });
        const handle = await start({
            prompt: 'build it',
            tools: ['Bash', 'Read', 'TaskStop'],
            permissionMode: 'default',
        });
        const waiting = await (0, wait_1.waitFor)('the session to wait for its tasks', async () => {
            const s = await (0, client_1.sessionStatus)(client, handle.workflowId);
            return s.status === 'waiting' && s.phase === 'waiting_for_work' ? s : undefined;
        }, 60_000);
        strict_1.default.match(waiting.waiting?.reason ?? '', /2 background tasks running/);
        strict_1.default.deepEqual(waiting.autonomy?.tasks.map((t) => [t.kind, t.state, t.description]), [
            ['local_bash', 'running', 'Build'],
            ['local_bash', 'running', 'sleep 4; echo oops >&2; exit 3'],
        ]);
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed', result.endReason);
        strict_1.default.equal(seen.started.length, 2, 'both calls answered with the reference text');
        const [ok, failed] = seen.started;
        strict_1.default.notEqual(ok.id, failed.id);
        const okNote = seen.notifications.find((n) => n.includes(ok.id));
        strict_1.default.ok(okNote, 'the completed task was notified');
        strict_1.default.match(okNote, /<system-reminder>/);
        strict_1.default.ok(okNote.includes(`<task-notification>\n<task-id>${ok.id}</task-id>\n<tool-use-id>toolu_bg_ok</tool-use-id>\n<output-file>${ok.path}</output-file>\n<status>completed</status>\n<summary>Background command "Build" completed (exit code 0)</summary>\n</task-notification>`), okNote);
        const failNote = seen.notifications.find((n) => n.includes(failed.id));
        strict_1.default.ok(failNote, 'the failed task was notified');
        strict_1.default.match(failNote, /<status>failed<\/status>\n<summary>Background command "sleep 4; echo oops &gt;&amp;2; exit 3" failed with exit code 3<\/summary>/);
        strict_1.default.equal((0, node_fs_1.readFileSync)(failed.path, 'utf8'), 'oops\n\n[exited with code 3]\n');
        const final = await (0, client_1.sessionStatus)(client, handle.workflowId);
        const tasks = final.autonomy?.tasks ?? [];
        strict_1.default.deepEqual(tasks.map((t) => [t.id, t.state, t.exitCode, t.outputBytes]), [
            [ok.id, 'completed', 0, 'built <ok> & done\n'.length],
            [failed.id, 'failed', 3, 'oops\n'.length],
        ]);
        strict_1.default.ok(tasks.every((t) => /^taskoutput-[0-9a-f]{64}$/.test(t.outputRef ?? '')), 'outputs stored');
        strict_1.default.ok(tasks.every((t) => t.command === undefined && t.endedAt >= t.startedAt));
    });
});
(0, node_test_1.test)('integration: TaskStop kills a background task (process gone, no notification); an unknown id is an error', { timeout: 120_000, skip: process.platform !== 'linux' ? 'needs /proc' : false }, async () => {
    const marker = `${4000 + Math.floor(Math.random() * 5000)}.25`;
    await (0, agent_1.withAgent)({}, async ({ fake, start, client }) => {
        let taskId = '';
        const texts = [];
        fake.script((req) => {
            const text = joined(req);
            texts.push(text);
            if (text.includes('serve it'))
                return (0, fakeAnthropic_1.toolUseResponse)([
                    { id: 'toolu_srv', name: 'Bash', input: { command: `sleep ${marker}`, run_in_background: true } },
                ]);
            const m = /with ID: (b[a-z0-9]{8})\./.exec(text);
            if (m) {
                taskId = m[1];
                return (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_nope', name: 'TaskStop', input: { task_id: 'bnotthere' } }]);
            }
            if (text.includes('No task found'))
                return (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_stop', name: 'TaskStop', input: { shell_id: taskId } }]);
            return (0, fakeAnthropic_1.textResponse)('Stopped.');
        });
        const handle = await start({
            prompt: 'serve it',
            tools: ['Bash', 'TaskStop'],
            toolHeartbeatTimeoutMs: 5_000,
        });
        await (0, wait_1.waitFor)('the task to run', async () => (0, sessionProbe_1.processesWith)(`sleep ${marker}`).length > 0 || undefined, 60_000);
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed', result.endReason);
        // The reference wraps it in <tool_use_error>; our pipeline's validation errors are the message alone (docs/tools.md).
        strict_1.default.equal(texts[2], 'No task found with ID: bnotthere');
        const nope = fake.requests[2].body.messages.at(-1).content;
        strict_1.default.equal(nope.find((b) => b.tool_use_id === 'toolu_nope')?.is_error, true);
        strict_1.default.deepEqual(JSON.parse(texts[3] ?? '{}'), {
            message: `Successfully stopped task: ${taskId} (sleep ${marker})`,
            task_id: taskId,
            task_type: 'local_bash',
            command: `sleep ${marker}`,
        });
        strict_1.default.equal(fake.requests.length, 4, 'no notification turn after the stop');
        strict_1.default.ok(!texts.some((t) => t.includes('<task-notification>')));
        await (0, wait_1.waitFor)('the process to be gone', async () => (0, sessionProbe_1.processesWith)(`sleep ${marker}`).length === 0, 20_000).catch(() => undefined);
        strict_1.default.deepEqual((0, sessionProbe_1.processesWith)(`sleep ${marker}`), []);
        const s = await (0, client_1.sessionStatus)(client, handle.workflowId);
        strict_1.default.deepEqual(
        // Killed by the cancellation (a heartbeat timeout would have set an error).
        s.autonomy?.tasks.map((t) => [t.id, t.state, t.stopRequested, t.error]), [[taskId, 'killed', true, undefined]]);
    });
});
(0, node_test_1.test)('integration: audit: a finished task and a stopped one, each a row with its command, state, times, exit, output size and where its output is', { timeout: 120_000 }, async () => {
    const marker = `${4000 + Math.floor(Math.random() * 5000)}.75`;
    await (0, agent_1.withAgent)({}, async ({ fake, start, client }) => {
        let serverId = '';
        fake.script((req) => {
            const text = joined(req);
            if (text.includes('check and serve'))
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_aud_ok',
                        name: 'Bash',
                        input: { command: 'echo checked; exit 0', run_in_background: true, description: 'Quick check' },
                    },
                    { id: 'toolu_aud_srv', name: 'Bash', input: { command: `sleep ${marker}`, run_in_background: true } },
                ]);
            const started = [...text.matchAll(/with ID: (b[a-z0-9]{8})\./g)].map((m) => m[1]);
            if (started.length === 2)
                serverId = started[1];
            // The quick check's notification: now stop the server.
            if (text.includes('<task-notification>') && text.includes('toolu_aud_ok'))
                return (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_aud_stop', name: 'TaskStop', input: { task_id: serverId } }]);
            if (text.includes('Successfully stopped task'))
                return (0, fakeAnthropic_1.textResponse)('Checked, server stopped.');
            return (0, fakeAnthropic_1.textResponse)('Waiting.');
        });
        const handle = await start({ prompt: 'check and serve', tools: ['Bash', 'TaskStop'] });
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed', result.endReason);
        strict_1.default.match(serverId, /^b[a-z0-9]{8}$/);
        const report = await (0, audit_1.buildAudit)(client, handle.workflowId);
        const text = (0, audit_1.formatAuditText)(report);
        if (process.env.AUDIT_PRINT)
            console.log(text);
        strict_1.default.equal(report.session.tasks, 2);
        strict_1.default.equal(report.gaps, undefined);
        const status = await (0, client_1.sessionStatus)(client, handle.workflowId);
        const okRecord = status.autonomy.tasks.find((t) => t.toolUseId === 'toolu_aud_ok');
        const tasks = report.tasks ?? [];
        strict_1.default.deepEqual(tasks.map((t) => [t.activityId, t.taskKind, t.tool, t.turn, t.toolUseId, t.command, t.state, t.exitCode]), [
            [`task-${okRecord.id}`, 'local_bash', 'Bash', 1, 'toolu_aud_ok', 'echo checked; exit 0', 'completed', 0],
            [`task-${serverId}`, 'local_bash', 'Bash', 1, 'toolu_aud_srv', `sleep ${marker}`, 'killed', null],
        ]);
        const [ok, srv] = tasks;
        // The audit agrees with the session's own record of the task (status).
        strict_1.default.equal(ok.outputBytes, 'checked\n'.length);
        strict_1.default.equal(ok.outputRef, okRecord.outputRef);
        strict_1.default.equal(ok.outputFile, okRecord.outputPath);
        strict_1.default.equal(ok.description, 'Quick check');
        strict_1.default.equal(srv.stoppedBy, 'TaskStop toolu_aud_stop');
        strict_1.default.match(srv.outputFile ?? '', new RegExp(`/tasks/${serverId}\\.output$`));
        for (const t of tasks) {
            strict_1.default.ok(t.startedAt && t.endedAt && t.startedAt <= t.endedAt, JSON.stringify(t));
            strict_1.default.equal(t.attempts, 1);
        }
        strict_1.default.ok(srv.endedAt > ok.endedAt, 'the server ran until the stop');
        // Text: one row each, with the command, the state and the output's places.
        const okRow = text.split('\n').find((l) => l.includes(`task-${ok.taskId}`));
        const srvRow = text.split('\n').find((l) => l.includes(`task-${serverId}`));
        strict_1.default.ok(okRow && srvRow, text);
        strict_1.default.match(okRow, /local_bash: Quick check \(\$ echo checked; exit 0\)/);
        strict_1.default.match(okRow, / completed .*exit 0, 8 B output, sandboxed, file \S+\.output, stored taskoutput-[0-9a-f]{64}/);
        strict_1.default.match(srvRow, new RegExp(`local_bash: \\$ sleep ${marker.replace('.', '\\.')} .* killed .*stopped by TaskStop toolu_aud_stop`));
        strict_1.default.match(text, /2 background tasks/);
        // JSON lines: the same rows, kind "task".
        const json = (0, audit_1.auditJsonLines)(report)
            .trimEnd()
            .split('\n')
            .map((l) => JSON.parse(l));
        strict_1.default.deepEqual(json.filter((e) => e.kind === 'task').map((e) => [e.taskId, e.state]), [
            [ok.taskId, 'completed'],
            [serverId, 'killed'],
        ]);
    });
});
(0, node_test_1.test)('integration: SIGKILL of the worker during a background task: the session is told the task was lost (not re-run), no process is left', { timeout: 240_000, skip: process.platform !== 'linux' ? 'needs /proc' : false }, async () => {
    await (0, agent_1.withAgent)({ noWorker: true }, async ({ env, fake, start, storeDir, taskQueue, workDir, client }) => {
        const baseEnv = await (0, workerProcs_1.workerProcessEnv)({ env, fake, storeDir, taskQueue });
        const workerEnv = (tag) => ({ ...baseEnv, [leftovers_1.TAG_ENV]: tag });
        const notes = [];
        fake.script((req) => {
            const text = joined(req);
            if (text.includes('long job'))
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_long',
                        name: 'Bash',
                        input: {
                            command: 'echo run >> runs.txt; sleep 600',
                            run_in_background: true,
                            description: 'Long job',
                        },
                    },
                ]);
            if (text.includes('<task-notification>')) {
                notes.push(text);
                return (0, fakeAnthropic_1.textResponse)('The job was lost; I will look before running it again.');
            }
            return (0, fakeAnthropic_1.textResponse)('Waiting for the job.');
        });
        const procs = [];
        const tag1 = (0, leftovers_1.newTag)();
        try {
            const worker1 = await (0, workerProcs_1.spawnWorker)('worker-1', workerEnv(tag1), procs);
            const handle = await start({
                prompt: 'run the long job',
                tools: ['Bash'],
                toolHeartbeatTimeoutMs: 3_000,
                sandbox: { passEnv: [leftovers_1.TAG_ENV] },
            });
            await (0, wait_1.waitFor)('the command to run', async () => ((0, node_fs_1.readFileSync)((0, node_path_1.join)(workDir, 'runs.txt'), 'utf8').length > 0 ? true : undefined), 60_000);
            process.kill(worker1.child.pid, 'SIGKILL');
            await worker1.exited;
            await (0, workerProcs_1.spawnWorker)('worker-2', workerEnv((0, leftovers_1.newTag)()), procs);
            const left = await (0, leftovers_1.waitUntilNoneTagged)(tag1, 20_000);
            (0, leftovers_1.killAll)(left);
            strict_1.default.deepEqual(left, [], `left behind by worker-1:\n${(0, leftovers_1.describe)(left)}`);
            const result = await handle.result();
            strict_1.default.equal(result.status, 'completed', result.endReason);
            strict_1.default.equal(notes.length, 1, 'one notification');
            strict_1.default.match(notes[0], /<status>failed<\/status>/);
            strict_1.default.match(notes[0], /<summary>Background command "Long job" was lost: the worker running it died, its processes were killed, and it was NOT re-run/);
            strict_1.default.equal((0, node_fs_1.readFileSync)((0, node_path_1.join)(workDir, 'runs.txt'), 'utf8'), 'run\n', 'never re-run');
            const s = await (0, client_1.sessionStatus)(client, handle.workflowId);
            strict_1.default.equal(s.autonomy?.tasks[0]?.state, 'lost');
            strict_1.default.match(s.autonomy?.tasks[0]?.error ?? '', /HEARTBEAT|heartbeat/i);
            // The audit says the same: lost, why, never re-run (one attempt).
            const audited = (await (0, audit_1.buildAudit)(client, handle.workflowId)).tasks ?? [];
            strict_1.default.deepEqual(audited.map((t) => [t.taskId, t.state, t.attempts, t.command]), [[s.autonomy?.tasks[0]?.id, 'lost', 1, 'echo run >> runs.txt; sleep 600']]);
            strict_1.default.match(audited[0]?.error ?? '', /heartbeat/i);
        }
        finally {
            for (const p of procs)
                (0, workerProcs_1.killGroup)(p);
            await Promise.all(procs.map((p) => p.exited));
        }
    });
});
//# sourceMappingURL=background-tasks.test.js.map