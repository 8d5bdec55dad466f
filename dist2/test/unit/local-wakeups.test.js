"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: wake-ups in the in-process runner (issue 19): the model calls ScheduleWakeup and ends its
// turn; the session waits (status 'waiting'), and at the wake-up (a clock that skips ahead) the
// prompt comes back as a user message and the session goes on; `stop` ends the next wait.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const runSession_1 = require("../../src/local/runSession");
/** Real time plus what was skipped: the first `skips` timers fire at once (time jumps), later ones never. */
function skippingClock(skips) {
    const clock = {
        skipped: 0,
        now: () => Date.now() + clock.skipped,
        timer(ms, fire) {
            if (skips-- <= 0)
                return () => undefined;
            clock.skipped += ms;
            const t = setImmediate(fire);
            return () => clearImmediate(t);
        },
    };
    return clock;
}
function lastUserText(req) {
    const m = req.messages[req.messages.length - 1];
    if (typeof m.content === 'string')
        return m.content;
    return m.content
        .filter((b) => b.type === 'text')
        .map((b) => b.text)
        .join('\n');
}
(0, node_test_1.test)('unit: local wake-ups — ScheduleWakeup, the wait, the prompt back as a user message, then stop ends the next wait', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-wake-'));
        const wake = (id) => (0, fakeAnthropic_1.toolUseResponse)([
            { id, name: 'ScheduleWakeup', input: { delaySeconds: 90, reason: 'poll the build', prompt: 'WAKE-PROMPT' } },
        ]);
        fake.enqueue(wake('toolu_w1'), (0, fakeAnthropic_1.textResponse)('sleeping'), wake('toolu_w2'), (0, fakeAnthropic_1.textResponse)('sleeping again'));
        const clock = skippingClock(1);
        const started = Date.now();
        const s = (0, runSession_1.startLocalSession)({
            prompt: 'watch the build',
            cwd: work,
            tools: ['Read', 'ScheduleWakeup'],
            model: { model: 'claude-test', maxTokens: 256 },
            clock,
        }, { anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
        // The second wait: the session waits for its wake-up (this clock never fires it), then stop.
        for (let i = 0; i < 500 && !(s.status().turn === 4 && s.status().status === 'waiting'); i++)
            await new Promise((r) => setTimeout(r, 20));
        const waiting = s.status();
        strict_1.default.equal(waiting.status, 'waiting');
        strict_1.default.equal(waiting.phase, 'waiting_for_work');
        s.stop();
        const r = await s.result;
        strict_1.default.equal(r.status, 'completed', r.endReason);
        strict_1.default.equal(r.turns, 4);
        strict_1.default.equal(r.context.autonomy?.wakeup, undefined, 'stop drops the pending wake-up');
        const reqs = fake.messageRequests();
        strict_1.default.equal(reqs.length, 4);
        // The third request is the wake-up's turn: its new user message is the scheduled prompt.
        strict_1.default.equal(lastUserText(reqs[2]), 'WAKE-PROMPT');
        strict_1.default.equal(clock.skipped >= 89_000 && clock.skipped <= 90_000, true, String(clock.skipped));
        strict_1.default.ok(Date.now() - started < 60_000, 'the wait skipped ahead, it did not sleep 90 s');
    }
    finally {
        await fake.close();
    }
});
(0, node_test_1.test)('unit: local wake-ups — stop while waiting ends the session at once; a follow-up during the wait starts a turn first', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-local-wake-'));
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_w1', name: 'ScheduleWakeup', input: { delaySeconds: 3600, reason: 'later', prompt: 'LATER' } },
        ]), (0, fakeAnthropic_1.textResponse)('sleeping'), (0, fakeAnthropic_1.textResponse)('answered the follow-up'));
        const s = (0, runSession_1.startLocalSession)({ prompt: 'go', cwd: work, tools: ['ScheduleWakeup'], model: { model: 'claude-test', maxTokens: 256 } }, { anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
        const waitFor = async (turn) => {
            for (let i = 0; i < 500 && !(s.status().turn === turn && s.status().status === 'waiting'); i++)
                await new Promise((r) => setTimeout(r, 20));
            strict_1.default.equal(s.status().status, 'waiting');
        };
        await waitFor(2);
        s.send('FOLLOW-UP');
        await waitFor(3);
        strict_1.default.equal(lastUserText(fake.messageRequests()[2]), 'FOLLOW-UP');
        s.stop();
        const r = await s.result;
        strict_1.default.equal(r.status, 'completed', r.endReason);
        strict_1.default.equal(r.turns, 3);
        strict_1.default.equal(fake.messageRequests().length, 3, 'the hour-long wake-up never fired');
    }
    finally {
        await fake.close();
    }
});
//# sourceMappingURL=local-wakeups.test.js.map