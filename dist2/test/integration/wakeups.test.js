"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: durable wake-ups and cron jobs (issue 19) on the real dev server. The model schedules
// a wake-up and a recurring job and ends its turn; the session sleeps on a durable timer (phase
// waiting_for_work, the reason in status); the worker is SIGKILLed during the wait and another one
// starts; the wake-up fires once, the job fires twice, then the model deletes it and the session
// ends by itself. A second session is ended by `stop` while it sleeps for an hour.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_crypto_1 = require("node:crypto");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const client_1 = require("../../src/client");
const autonomyText_1 = require("../../src/cli/autonomyText");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const wait_1 = require("../support/wait");
const cli_1 = require("../support/cli");
const workerProcs_1 = require("../support/workerProcs");
(0, node_test_1.after)(temporal_1.closeTestEnv);
/** The user texts of the request's last user message (a turn may carry several queued messages). */
function lastUserTexts(req) {
    const last = [...req.messages].reverse().find((m) => m.role === 'user');
    if (!last)
        return [];
    if (typeof last.content === 'string')
        return [last.content];
    return last.content.flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : []));
}
const hasToolResult = (req) => {
    const last = req.messages[req.messages.length - 1];
    return !!last && typeof last.content !== 'string' && last.content.some((b) => b.type === 'tool_result');
};
(0, node_test_1.test)('integration: a wake-up and a recurring job survive a worker SIGKILL during the wait; the job fires twice, CronDelete ends it', { timeout: 240_000 }, async () => {
    await (0, agent_1.withAgent)({ noWorker: true }, async ({ env, fake, start, storeDir, taskQueue, client }) => {
        const workerEnv = await (0, workerProcs_1.workerProcessEnv)({ env, fake, storeDir, taskQueue });
        const sessionId = `wakeups-${Date.now().toString(36)}`;
        const jobId = (0, node_crypto_1.createHash)('sha256').update(`${sessionId}/toolu_cron`).digest('hex').slice(0, 8);
        const seen = { ticks: 0, wakes: 0 };
        fake.script((req) => {
            const texts = lastUserTexts(req);
            if (texts.some((t) => t.includes('start the loop')))
                return (0, fakeAnthropic_1.toolUseResponse)([
                    {
                        id: 'toolu_wake',
                        name: 'ScheduleWakeup',
                        input: { delaySeconds: 60, reason: 'the build takes a minute', prompt: 'WAKE: check the build' },
                    },
                    { id: 'toolu_cron', name: 'CronCreate', input: { cron: '* * * * *', prompt: 'TICK: look at the queue' } },
                ]);
            const ticks = texts.filter((t) => t.startsWith('TICK')).length;
            const wakes = texts.filter((t) => t.startsWith('WAKE')).length;
            seen.ticks += ticks;
            seen.wakes += wakes;
            if (ticks > 0 && seen.ticks >= 2)
                return (0, fakeAnthropic_1.toolUseResponse)([{ id: `toolu_del_${seen.ticks}`, name: 'CronDelete', input: { id: jobId } }]);
            if (hasToolResult(req))
                return (0, fakeAnthropic_1.textResponse)('Waiting for the next event.');
            return (0, fakeAnthropic_1.textResponse)(`Handled ${ticks} tick(s) and ${wakes} wake-up(s).`);
        });
        const procs = [];
        try {
            await (0, workerProcs_1.spawnWorker)('worker-1', workerEnv, procs);
            const handle = await start({
                id: sessionId,
                prompt: 'start the loop',
                tools: ['Read', 'ScheduleWakeup', 'CronCreate', 'CronList', 'CronDelete'],
                timeZone: 'Europe/Berlin',
            });
            const waiting = await (0, wait_1.waitFor)('the session to sleep', async () => {
                const s = await (0, client_1.sessionStatus)(client, handle.workflowId);
                return s.phase === 'waiting_for_work' && s.waiting ? s : undefined;
            });
            strict_1.default.match(waiting.waiting.reason, /wake-up: the build takes a minute|cron/);
            strict_1.default.equal(waiting.autonomy?.crons[0]?.id, jobId);
            strict_1.default.equal(waiting.autonomy?.crons[0]?.timeZone, 'Europe/Berlin');
            strict_1.default.equal(waiting.autonomy?.wakeup?.prompt, 'WAKE: check the build');
            // The worker dies during the wait; a new one takes over the timers.
            (0, workerProcs_1.killGroup)(procs[0]);
            await new Promise((r) => setTimeout(r, 2000));
            await (0, workerProcs_1.spawnWorker)('worker-2', workerEnv, procs);
            const result = await handle.result();
            strict_1.default.equal(result.status, 'completed', result.endReason);
            strict_1.default.equal(seen.wakes, 1, 'the wake-up fired once');
            strict_1.default.equal(seen.ticks, 2, 'the job fired twice, then was deleted');
            const final = await (0, client_1.sessionStatus)(client, handle.workflowId);
            strict_1.default.deepEqual(final.autonomy?.crons, []);
            strict_1.default.equal(final.autonomy?.wakeup, undefined);
        }
        finally {
            for (const p of procs)
                (0, workerProcs_1.killGroup)(p);
        }
    });
});
(0, node_test_1.test)('integration: `stop` ends a session that sleeps on an hour-long wake-up', { timeout: 90_000 }, async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, start, client }) => {
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            {
                id: 'toolu_w',
                name: 'ScheduleWakeup',
                input: { delaySeconds: 3600, reason: 'nightly check', prompt: 'again' },
            },
        ]), (0, fakeAnthropic_1.textResponse)('Sleeping for an hour.'));
        const handle = await start({ prompt: 'poll hourly', tools: ['ScheduleWakeup'] });
        const s = await (0, wait_1.waitFor)('the session to sleep', async () => {
            const st = await (0, client_1.sessionStatus)(client, handle.workflowId);
            return st.phase === 'waiting_for_work' ? st : undefined;
        });
        strict_1.default.ok(s.waiting?.until && s.waiting.until - Date.now() > 3_000_000, 'it sleeps about an hour');
        strict_1.default.match(s.waiting.reason, /nightly check/);
        const lines = (0, autonomyText_1.autonomyLines)(s);
        strict_1.default.match(lines[0] ?? '', /^waiting until \d{4}-\d\d-\d\dT[\d:]+Z: wake-up: nightly check$/);
        strict_1.default.match(lines[1] ?? '', /^wake-up: at .*Z — nightly check$/);
        const addr = process.env.TEMPORAL_TEST_ADDRESS;
        const unknown = await (0, cli_1.cli)(['stop', 'no-such-session-xyz'], { TEMPORAL_ADDRESS: addr });
        strict_1.default.notEqual(unknown.code, 0);
        strict_1.default.equal(unknown.stderr.trim().split('\n').length, 1, unknown.stderr);
        const stopped = await (0, cli_1.cli)(['stop', handle.workflowId, '--json'], { TEMPORAL_ADDRESS: addr });
        strict_1.default.equal(stopped.code, 0, stopped.stderr);
        strict_1.default.deepEqual(JSON.parse(stopped.stdout), { session: handle.workflowId, stopRequested: true });
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed');
        strict_1.default.equal(result.turns, 2, 'no turn after the stop');
        strict_1.default.equal(fake.requests.length, 2);
    });
});
//# sourceMappingURL=wakeups.test.js.map