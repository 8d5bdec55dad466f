"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: `durable-agent schedule add` makes a Temporal Schedule that starts a NEW session on
// its own at each firing (no manual trigger: a 1-minute cron, so this waits for the next minute),
// named `<schedule id>-<firing time>`; a paused schedule does not fire; resume, rm; `ls` marks the
// scheduled session; bad input (cron, zone, session settings) is one line and creates nothing.
// Real CLI processes, the real dev server, a worker in this process, the fake Messages API.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const client_1 = require("@temporalio/client");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const cli_1 = require("../support/cli");
const wait_1 = require("../support/wait");
(0, node_test_1.after)(temporal_1.closeTestEnv);
function oneLineError(r, pattern) {
    strict_1.default.notEqual(r.code, 0, 'non-zero exit');
    const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
    strict_1.default.equal(lines.length, 1, `one line on stderr, got: ${JSON.stringify(r.stderr)}`);
    strict_1.default.match(lines[0], pattern);
}
(0, node_test_1.test)('integration: schedule add starts sessions on its own; pause stops firings; resume; rm deletes; bad input creates nothing', { timeout: 240_000 }, async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, client, taskQueue, workDir }) => {
        fake.script((req) => (0, fakeAnthropic_1.textResponse)(`done: ${(0, fakeAnthropic_1.lastUserText)(req).slice(0, 40)}`));
        const env = {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
        };
        const suffix = taskQueue.slice(-8);
        const a = `nightly-${suffix}`;
        const b = `paused-${suffix}`;
        // Bad input: one line, nothing created.
        oneLineError(await (0, cli_1.cli)(['schedule', 'add', '--id', a, '0 25 * * *', 'x'], env), /cron "0 25 \* \* \*": hour field .25. is out of range 0-23/);
        oneLineError(await (0, cli_1.cli)(['schedule', 'add', '--id', a, '--tz', 'Mars/Olympus', '0 2 * * *', 'x'], env), /--tz Mars\/Olympus is not a known IANA time zone/);
        oneLineError(await (0, cli_1.cli)(['schedule', 'add', '--bogus', '0 2 * * *', 'x'], env), /unknown option '--bogus'/);
        oneLineError(await (0, cli_1.cli)(['schedule', 'pause', 'no-such-schedule-x'], env), /No schedule with id no-such-schedule-x/);
        // The session input is checked as `run` checks it: the same settings error for both, and no schedule.
        const badDir = (0, node_path_1.join)(workDir, 'bad');
        (0, node_fs_1.mkdirSync)((0, node_path_1.join)(badDir, '.claude'), { recursive: true });
        (0, node_fs_1.writeFileSync)((0, node_path_1.join)(badDir, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: 'nope' } }));
        const runBad = await (0, cli_1.cli)(['run', '--cwd', badDir, 'x'], env);
        const schedBad = await (0, cli_1.cli)(['schedule', 'add', '--id', a, '--cwd', badDir, '0 2 * * *', 'x'], env);
        oneLineError(schedBad, /hooks/);
        strict_1.default.equal(schedBad.stderr, runBad.stderr, 'the same check and message as run');
        await strict_1.default.rejects(client.schedule.getHandle(a).describe(), client_1.ScheduleNotFoundError);
        // Early in a minute, so that the pause below lands before the next firing.
        if (new Date().getSeconds() > 40)
            await new Promise((r) => setTimeout(r, (61 - new Date().getSeconds()) * 1000));
        const common = ['--cwd', workDir, '--model', 'claude-test', '--permission-mode', 'bypassPermissions'];
        const addA = await (0, cli_1.cli)(['schedule', 'add', '--id', a, ...common, '--json', '* * * * *', 'nightly', 'job'], env);
        strict_1.default.equal(addA.code, 0, addA.stderr);
        const rowA = JSON.parse(addA.stdout);
        strict_1.default.equal(rowA.scheduleId, a);
        strict_1.default.equal(rowA.cron, '* * * * *');
        strict_1.default.equal(rowA.timeZone, Intl.DateTimeFormat().resolvedOptions().timeZone, 'the local zone, recorded');
        strict_1.default.ok(rowA.next.length > 0);
        const addB = await (0, cli_1.cli)(['schedule', 'add', '--id', b, ...common, '--tz', 'Asia/Tokyo', '* * * * *', 'other'], env);
        strict_1.default.equal(addB.code, 0, addB.stderr);
        strict_1.default.match(addB.stdout, new RegExp(`schedule ${b} created: "\\* \\* \\* \\* \\*" \\(Asia/Tokyo\\)`));
        oneLineError(await (0, cli_1.cli)(['schedule', 'add', '--id', a, ...common, '0 2 * * *', 'again'], env), new RegExp(`a schedule with id ${a} already exists`));
        const pause = await (0, cli_1.cli)(['schedule', 'pause', b], env);
        strict_1.default.equal(pause.code, 0, pause.stderr);
        const pausedAt = Date.now();
        // A fires on its own at the next minute: a new session, `<id>-<firing time>`, that runs to the end.
        const session = await (0, wait_1.waitFor)('the first firing of the schedule', async () => (await client.schedule.getHandle(a).describe()).info.recentActions[0]?.action.workflow.workflowId, 80_000, 500);
        strict_1.default.match(session, new RegExp(`^${a}-\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:00Z$`));
        const result = (await client.workflow.getHandle(session).result());
        strict_1.default.equal(result.status, 'completed');
        strict_1.default.equal(result.lastText, 'done: nightly job');
        const desc = await client.workflow.getHandle(session).describe();
        strict_1.default.equal(desc.memo.schedule, a);
        strict_1.default.equal(desc.taskQueue, taskQueue);
        // B was paused before that minute: no firing.
        strict_1.default.ok(Date.now() - pausedAt > 1_000);
        const descB = await client.schedule.getHandle(b).describe();
        strict_1.default.equal(descB.state.paused, true);
        strict_1.default.equal(descB.info.numActionsTaken, 0, 'a paused schedule does not fire');
        const ls = await (0, cli_1.cli)(['schedule', 'ls', '--json'], env);
        strict_1.default.equal(ls.code, 0, ls.stderr);
        const rows = ls.stdout
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l));
        const lsA = rows.find((r) => r.scheduleId === a);
        const lsB = rows.find((r) => r.scheduleId === b);
        strict_1.default.ok(lsA && lsB, ls.stdout);
        strict_1.default.equal(lsB.paused, true);
        strict_1.default.equal(lsB.timeZone, 'Asia/Tokyo');
        strict_1.default.ok(lsA.recent.some((r) => r.session === session));
        // `ls` (sessions) marks the scheduled one.
        const sessions = await (0, cli_1.cli)(['ls', '--json', '--limit', '200'], env);
        const row = sessions.stdout
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l))
            .find((r) => r.id === session);
        strict_1.default.equal(row?.schedule, a, sessions.stdout);
        const resume = await (0, cli_1.cli)(['schedule', 'resume', b], env);
        strict_1.default.equal(resume.code, 0, resume.stderr);
        strict_1.default.equal((await client.schedule.getHandle(b).describe()).state.paused, false);
        for (const id of [a, b]) {
            const rm = await (0, cli_1.cli)(['schedule', 'rm', id], env);
            strict_1.default.equal(rm.code, 0, rm.stderr);
            await strict_1.default.rejects(client.schedule.getHandle(id).describe(), client_1.ScheduleNotFoundError);
        }
        oneLineError(await (0, cli_1.cli)(['schedule', 'rm', a], env), new RegExp(`No schedule with id ${a}`));
        // The session the schedule started is still there (rm deletes the schedule, not its sessions).
        strict_1.default.equal((await client.workflow.getHandle(session).describe()).status.name, 'COMPLETED');
    });
});
//# sourceMappingURL=schedules.test.js.map