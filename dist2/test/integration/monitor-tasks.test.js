"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: Monitor tasks (issue 19) on the real dev server. A Monitor call returns at once; the
// session runs the watch command as its own activity `task-<id>` (runMonitorTask), whose stdout
// batches reach the session as `monitorEvent` signals: each becomes one `<task-notification>` that
// wakes the idle session, in order, each once (a doubled signal is dropped), and the end of the
// stream one more (the lines that came with the exit as its event). `status` shows the monitor while
// it runs. TaskStop stops one: its processes are gone and no end notification follows. A worker
// SIGKILLed during a Monitor: the session is told it was lost (not restarted), no process is left.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const client_1 = require("../../src/client");
const ids_1 = require("../../src/engine/ids");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const wait_1 = require("../support/wait");
const workerProcs_1 = require("../support/workerProcs");
const leftovers_1 = require("../support/leftovers");
const sessionProbe_1 = require("../support/sessionProbe");
(0, node_test_1.after)(temporal_1.closeTestEnv);
/** The texts the request added: every user message after the last assistant message (text blocks and tool results). */
function newTexts(req) {
    const lastAssistant = req.messages.map((m) => m.role).lastIndexOf('assistant');
    return req.messages.slice(lastAssistant + 1).flatMap((m) => (0, sessionProbe_1.contentTexts)(m.content));
}
const STARTED = /^Monitor started \(task (b[a-z0-9]{8}), expires in 1m unless the source ends first;/;
const EVENT = /<task-notification>\n<task-id>(b[a-z0-9]{8})<\/task-id>\n<summary>Monitor event: "ticks &lt;4&gt;"<\/summary>\n<event>([\s\S]*?)<\/event>\n<\/task-notification>/;
(0, node_test_1.test)('integration: a Monitor: its lines reach the next turns as events, in order, each once (a doubled signal dropped); the end notification follows; status shows it', { timeout: 180_000 }, async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, client }) => {
        let taskId = '';
        const events = [];
        const ends = [];
        fake.script((req) => {
            const texts = newTexts(req);
            if (texts.some((t) => t.includes('watch the ticks')))
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_mon',
                        name: 'Monitor',
                        input: {
                            description: 'ticks <4>',
                            timeout_ms: 60_000,
                            command: 'for i in 1 2 3 4; do echo "tick $i"; echo "noise $i" >&2; sleep 1.5; done; echo "done line"',
                        },
                    },
                ]);
            for (const t of texts) {
                const m = STARTED.exec(t);
                if (m)
                    taskId = m[1];
                const e = EVENT.exec(t);
                if (e) {
                    strict_1.default.equal(e[1], taskId);
                    events.push(e[2].split('\n'));
                }
                if (t.includes('<status>'))
                    ends.push(t);
            }
            return (0, fakeAnthropic_1.textResponse)(texts.some((t) => t.includes('<task-notification>')) ? 'Noted.' : 'Watching.');
        });
        const handle = await start({ prompt: 'watch the ticks', tools: ['Monitor', 'Read'] });
        const waiting = await (0, wait_1.waitFor)('the session to wait for its monitor', async () => {
            const s = await (0, client_1.sessionStatus)(client, handle.workflowId);
            return s.status === 'waiting' && s.autonomy?.tasks[0]?.state === 'running' ? s : undefined;
        }, 60_000);
        strict_1.default.match(waiting.waiting?.reason ?? '', /1 background task running/);
        const task = waiting.autonomy.tasks[0];
        strict_1.default.deepEqual([task.kind, task.id, task.description], ['monitor', taskId, 'ticks <4>']);
        strict_1.default.match(task.outputPath ?? '', new RegExp(`/tasks/${taskId}\\.output$`));
        // A doubled delivery of the first batch (as a retried signal would be): dropped by its seq.
        await (0, wait_1.waitFor)('the first event', async () => (events.length > 0 ? true : undefined), 60_000);
        await client.workflow
            .getHandle(handle.workflowId)
            .signal(ids_1.SIGNALS.monitorEvent, { taskId, seq: 1, kind: 'event', text: 'DOUBLED' });
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed', result.endReason);
        // Every line once, in order: the events, then the lines that came with the exit.
        strict_1.default.equal(ends.length, 1, 'one end notification');
        const end = ends[0];
        strict_1.default.match(end, new RegExp(`<task-notification>\\n<task-id>${taskId}</task-id>\\n<tool-use-id>toolu_mon</tool-use-id>\\n<output-file>${task.outputPath}</output-file>\\n<status>completed</status>\\n<summary>Monitor "ticks &lt;4&gt;" stream ended</summary>`));
        const endLines = /<event>([\s\S]*?)<\/event>/.exec(end)?.[1]?.split('\n') ?? [];
        strict_1.default.deepEqual([...events.flat(), ...endLines], ['tick 1', 'tick 2', 'tick 3', 'tick 4', 'done line']);
        strict_1.default.ok(events.length >= 2, 'events reached more than one turn');
        const all = fake.messageRequests().map((r) => JSON.stringify(r.messages));
        strict_1.default.ok(!all.some((t) => t.includes('DOUBLED')), 'the doubled signal never reached the model');
        strict_1.default.ok(!all.some((t) => t.includes('noise 1')), 'stderr is not an event');
        const output = (0, node_fs_1.readFileSync)(task.outputPath, 'utf8');
        strict_1.default.match(output, /noise 4/);
        strict_1.default.match(output, /done line/);
        const final = await (0, client_1.sessionStatus)(client, handle.workflowId);
        strict_1.default.deepEqual(final.autonomy?.tasks.map((t) => [t.id, t.kind, t.state, t.exitCode]), [[taskId, 'monitor', 'completed', 0]]);
        strict_1.default.match(final.autonomy?.tasks[0]?.outputRef ?? '', /^taskoutput-[0-9a-f]{64}$/);
        // The activity is the task's own, as a background command's.
        const history = await client.workflow.getHandle(handle.workflowId).fetchHistory();
        const scheduled = (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes);
        strict_1.default.ok(scheduled.some((e) => e.activityTaskScheduledEventAttributes?.activityId === `task-${taskId}` &&
            e.activityTaskScheduledEventAttributes.activityType?.name === 'runMonitorTask'));
    });
});
(0, node_test_1.test)('integration: TaskStop stops a Monitor: its processes are gone, no end notification follows', { timeout: 120_000, skip: process.platform !== 'linux' ? 'needs /proc' : false }, async () => {
    const marker = `${4000 + Math.floor(Math.random() * 5000)}.75`;
    await (0, agent_1.withAgent)({}, async ({ fake, start, client }) => {
        let taskId = '';
        const texts = [];
        fake.script((req) => {
            const added = newTexts(req);
            texts.push(...added);
            const text = added.join('\n');
            if (text.includes('watch forever'))
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_mon',
                        name: 'Monitor',
                        input: { description: 'forever', timeout_ms: 600_000, command: `echo up; sleep ${marker}` },
                    },
                ]);
            const m = STARTED.exec(text) ?? /Monitor started \(task (b[a-z0-9]{8})/.exec(text);
            if (m)
                taskId = m[1];
            if (text.includes('<event>up</event>'))
                return (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_stop', name: 'TaskStop', input: { task_id: taskId } }]);
            return (0, fakeAnthropic_1.textResponse)(text.includes('Successfully stopped') ? 'Stopped.' : 'Watching.');
        });
        const handle = await start({
            prompt: 'watch forever',
            tools: ['Monitor', 'TaskStop'],
            toolHeartbeatTimeoutMs: 5_000,
        });
        await (0, wait_1.waitFor)('the watch to run', async () => (0, sessionProbe_1.processesWith)(`sleep ${marker}`).length > 0 || undefined, 60_000);
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed', result.endReason);
        const stopped = texts.find((t) => t.includes('Successfully stopped'));
        strict_1.default.deepEqual(JSON.parse(stopped ?? '{}'), {
            message: `Successfully stopped task: ${taskId} (echo up; sleep ${marker})`,
            task_id: taskId,
            task_type: 'monitor',
            command: `echo up; sleep ${marker}`,
        });
        strict_1.default.ok(!texts.some((t) => t.includes('<status>')), 'no end notification');
        await (0, wait_1.waitFor)('the process to be gone', async () => (0, sessionProbe_1.processesWith)(`sleep ${marker}`).length === 0, 20_000).catch(() => undefined);
        strict_1.default.deepEqual((0, sessionProbe_1.processesWith)(`sleep ${marker}`), []);
        const s = await (0, client_1.sessionStatus)(client, handle.workflowId);
        strict_1.default.deepEqual(s.autonomy?.tasks.map((t) => [t.id, t.kind, t.state, t.stopRequested]), [[taskId, 'monitor', 'killed', true]]);
    });
});
(0, node_test_1.test)('integration: SIGKILL of the worker during a Monitor: the session is told it was lost (not restarted), no process is left', { timeout: 240_000, skip: process.platform !== 'linux' ? 'needs /proc' : false }, async () => {
    await (0, agent_1.withAgent)({ noWorker: true }, async ({ env, fake, start, storeDir, taskQueue, workDir, client }) => {
        const baseEnv = await (0, workerProcs_1.workerProcessEnv)({ env, fake, storeDir, taskQueue });
        const workerEnv = (tag) => ({ ...baseEnv, [leftovers_1.TAG_ENV]: tag });
        const ends = [];
        let events = 0;
        fake.script((req) => {
            const texts = newTexts(req);
            if (texts.some((t) => t.includes('watch the log')))
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_watch',
                        name: 'Monitor',
                        input: {
                            description: 'Log',
                            timeout_ms: 600_000,
                            command: 'echo run >> runs.txt; echo started; sleep 600',
                        },
                    },
                ]);
            for (const t of texts) {
                if (t.includes('<event>started</event>'))
                    events++;
                if (t.includes('<status>'))
                    ends.push(t);
            }
            return (0, fakeAnthropic_1.textResponse)('Noted.');
        });
        const procs = [];
        const tag1 = (0, leftovers_1.newTag)();
        try {
            const worker1 = await (0, workerProcs_1.spawnWorker)('worker-1', workerEnv(tag1), procs);
            const handle = await start({
                prompt: 'watch the log',
                tools: ['Monitor'],
                toolHeartbeatTimeoutMs: 3_000,
                sandbox: { passEnv: [leftovers_1.TAG_ENV] },
            });
            await (0, wait_1.waitFor)('the first event', async () => (events > 0 ? true : undefined), 60_000);
            process.kill(worker1.child.pid, 'SIGKILL');
            await worker1.exited;
            await (0, workerProcs_1.spawnWorker)('worker-2', workerEnv((0, leftovers_1.newTag)()), procs);
            const left = await (0, leftovers_1.waitUntilNoneTagged)(tag1, 20_000);
            (0, leftovers_1.killAll)(left);
            strict_1.default.deepEqual(left, [], `left behind by worker-1:\n${(0, leftovers_1.describe)(left)}`);
            const result = await handle.result();
            strict_1.default.equal(result.status, 'completed', result.endReason);
            // What the model finally saw (a turn whose model call the dead worker had started is asked again).
            const seen = fake
                .messageRequests()
                .at(-1)
                .messages.flatMap((m) => newTexts({ ...fake.messageRequests().at(-1), messages: [m] }));
            strict_1.default.equal(seen.filter((t) => t.includes('<event>started</event>')).length, 1, 'the event once');
            strict_1.default.equal(seen.filter((t) => t.includes('<status>')).length, 1, 'one end notification');
            strict_1.default.ok(ends.length >= 1);
            strict_1.default.match(ends[0], /<status>failed<\/status>/);
            strict_1.default.match(ends[0], /<summary>Monitor "Log" was lost: the worker running it died and its processes were killed; it was not restarted<\/summary>/);
            strict_1.default.equal((0, node_fs_1.readFileSync)((0, node_path_1.join)(workDir, 'runs.txt'), 'utf8'), 'run\n', 'never restarted');
            const s = await (0, client_1.sessionStatus)(client, handle.workflowId);
            strict_1.default.deepEqual([s.autonomy?.tasks[0]?.kind, s.autonomy?.tasks[0]?.state], ['monitor', 'lost']);
            strict_1.default.match(s.autonomy?.tasks[0]?.error ?? '', /HEARTBEAT|heartbeat/i);
        }
        finally {
            for (const p of procs)
                (0, workerProcs_1.killGroup)(p);
            await Promise.all(procs.map((p) => p.exited));
        }
    });
});
//# sourceMappingURL=monitor-tasks.test.js.map