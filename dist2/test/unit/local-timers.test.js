"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the in-process runner's wait for a session's own work (src/local/timers.ts): a due wake-up
// is queued once, a recurring job moves on to its next firing, stop drops the timers, a poke wakes.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const timers_1 = require("../../src/local/timers");
const context_1 = require("../../src/engine/context");
const session_1 = require("../../src/engine/session");
function stateWith(autonomy) {
    const s = (0, session_1.initialSessionState)('go', (0, context_1.initialContext)('/w'));
    s.pendingMessages = [];
    s.context = { ...s.context, autonomy };
    return s;
}
(0, node_test_1.test)('unit: local timers — a wake-up 50 ms ahead queues its prompt once; nothing left: false', async () => {
    const state = stateWith({
        tasks: [],
        crons: [],
        wakeup: { at: Date.now() + 50, prompt: 'WAKE', reason: 'r', toolUseId: 't' },
    });
    const timers = new timers_1.LocalTimers(state);
    strict_1.default.equal(await timers.waitForWork(), true);
    strict_1.default.deepEqual(state.pendingMessages, ['WAKE']);
    strict_1.default.equal(state.context.autonomy?.wakeup, undefined);
    state.pendingMessages = [];
    strict_1.default.equal(await timers.waitForWork(), false);
});
(0, node_test_1.test)('unit: local timers — a due recurring job is queued and moves to its next minute; stop drops it', async () => {
    const now = Date.now();
    const state = stateWith({
        tasks: [],
        crons: [
            {
                id: 'j1',
                cron: '* * * * *',
                prompt: 'TICK',
                recurring: true,
                timeZone: 'UTC',
                createdAt: now,
                nextFireAt: now - 1,
                fired: 0,
            },
        ],
    });
    const timers = new timers_1.LocalTimers(state);
    strict_1.default.equal(await timers.waitForWork(), true);
    strict_1.default.deepEqual(state.pendingMessages, ['TICK']);
    const job = state.context.autonomy?.crons[0];
    strict_1.default.ok(job && job.nextFireAt > now && job.nextFireAt % 60_000 === 0 && job.fired === 1);
    state.pendingMessages = [];
    const waiting = timers.waitForWork();
    setTimeout(() => timers.requestStop(), 20);
    strict_1.default.equal(await waiting, false);
    strict_1.default.deepEqual(state.context.autonomy?.crons, []);
});
(0, node_test_1.test)('unit: local timers — a poke after a message arrived ends the wait at once', async () => {
    const state = stateWith({
        tasks: [],
        crons: [],
        wakeup: { at: Date.now() + 3_600_000, prompt: 'later', reason: 'r', toolUseId: 't' },
    });
    const timers = new timers_1.LocalTimers(state);
    const waiting = timers.waitForWork();
    setTimeout(() => {
        state.pendingMessages.push('follow-up');
        timers.poke();
    }, 20);
    strict_1.default.equal(await waiting, true);
    strict_1.default.deepEqual(state.pendingMessages, ['follow-up']);
    strict_1.default.ok(state.context.autonomy?.wakeup, 'the hour-long wake-up stays pending');
});
(0, node_test_1.test)('unit: local timers — sync runs before each look (the plug for background tasks); a task end that queues its notification and pokes wakes the wait', async () => {
    const state = stateWith({
        tasks: [
            {
                id: 'b1',
                kind: 'local_bash',
                toolUseId: 't1',
                description: 'sleep 100',
                startedAt: Date.now(),
                timeoutMs: 60_000,
                state: 'running',
            },
        ],
        crons: [],
    });
    let looks = 0;
    const timers = new timers_1.LocalTimers(state, undefined, () => {
        looks++;
        // The first look starts the "task"; it ends 20 ms later as LocalTasks ends one.
        if (looks === 1)
            setTimeout(() => {
                state.pendingMessages.push('ENDED b1');
                timers.poke();
            }, 20);
    });
    strict_1.default.equal(await timers.waitForWork(), true);
    strict_1.default.deepEqual(state.pendingMessages, ['ENDED b1']);
    strict_1.default.equal(looks, 2, 'one look before the wait, one after the poke');
});
//# sourceMappingURL=local-timers.test.js.map