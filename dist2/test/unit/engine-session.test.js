"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the pure session loop against a scripted executor (no Temporal, no I/O).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const context_1 = require("../../src/engine/context");
const session_1 = require("../../src/engine/session");
function scripted(state, steps, hooks = {}) {
    const log = [];
    let interrupt = false;
    const exec = {
        async runTurn(turn, append) {
            const step = steps.shift();
            strict_1.default.ok(step, `no scripted turn ${turn}`);
            log.push(`turn ${turn} [${append.map((m) => m.content).join(', ')}]`);
            if (step.interruptDuring)
                interrupt = true;
            if (step.sendDuring)
                state.pendingMessages.push(step.sendDuring);
            return {
                consumedAppend: true,
                head: `h${turn}`,
                context: state.context,
                records: [],
                text: `t${turn}`,
                usage: { input_tokens: 10, output_tokens: 1 },
                ...step,
            };
        },
        takeInterrupt() {
            const was = interrupt;
            interrupt = false;
            return was;
        },
        async waitForMessage() {
            log.push('wait');
            return hooks.onWait ? hooks.onWait() : false;
        },
        ...(hooks.checkpointAfter !== undefined
            ? { shouldCheckpoint: (n) => n >= hooks.checkpointAfter }
            : {}),
        async drain() {
            if (hooks.interruptWhileDraining)
                interrupt = true;
        },
        onStatus: (s, p) => log.push(`status ${s}/${p}`),
    };
    return { exec, log, interruptNow: () => (interrupt = true) };
}
const fresh = (prompt = 'go') => (0, session_1.initialSessionState)(prompt, (0, context_1.initialContext)('/w'));
(0, node_test_1.test)('unit: session — tool_use turns continue, end_turn ends; usage, last usage and counts are summed', async () => {
    const state = fresh();
    const { exec, log } = scripted(state, [
        { reason: 'tool_use', records: [{ status: 'ok' }, { status: 'denied' }] },
        { reason: 'end_turn', usage: { input_tokens: 30, output_tokens: 2, cache_read_input_tokens: 20 } },
    ]);
    const end = await (0, session_1.runSession)(state, (0, session_1.sessionConfig)({}), exec);
    strict_1.default.deepEqual(end, { kind: 'end', status: 'completed', endReason: session_1.END_REASONS.endTurn });
    strict_1.default.deepEqual(log.filter((l) => l.startsWith('turn')), ['turn 1 [go]', 'turn 2 []']);
    strict_1.default.deepEqual(state.usage, { input_tokens: 40, output_tokens: 3, cache_read_input_tokens: 20 });
    strict_1.default.deepEqual(state.lastUsage, { input_tokens: 30, output_tokens: 2, cache_read_input_tokens: 20 });
    strict_1.default.deepEqual(state.toolCallCounts, { ok: 1, denied: 1 });
    strict_1.default.equal(state.head, 'h2');
    strict_1.default.equal(state.lastText, 't2');
});
(0, node_test_1.test)('unit: session — limits end with the same messages (turns, tokens)', async () => {
    const s1 = fresh();
    const r1 = await (0, session_1.runSession)(s1, (0, session_1.sessionConfig)({ maxTurns: 2 }), scripted(s1, [{ reason: 'tool_use' }, { reason: 'tool_use' }]).exec);
    strict_1.default.deepEqual(r1, { kind: 'end', status: 'max_turns', endReason: 'reached the limit of 2 turns' });
    const s2 = fresh();
    const r2 = await (0, session_1.runSession)(s2, (0, session_1.sessionConfig)({ maxTotalTokens: 15 }), scripted(s2, [{ reason: 'tool_use' }, { reason: 'tool_use' }]).exec);
    strict_1.default.deepEqual(r2, { kind: 'end', status: 'max_tokens', endReason: 'reached the limit of 15 tokens (used 22)' });
    strict_1.default.equal(s2.turn, 2);
});
(0, node_test_1.test)('unit: session — an interrupted turn waits for a follow-up, which the next turn sends', async () => {
    const state = fresh();
    const { exec, log } = scripted(state, [{ reason: 'interrupted', interruptDuring: true }, { reason: 'end_turn' }], {
        onWait: () => {
            state.pendingMessages.push('carry on');
            return true;
        },
    });
    const end = await (0, session_1.runSession)(state, (0, session_1.sessionConfig)({}), exec);
    strict_1.default.equal(end.kind === 'end' && end.status, 'completed');
    strict_1.default.deepEqual(log, [
        'status running/starting',
        'status running/turn',
        'turn 1 [go]',
        'status interrupted/waiting_for_message',
        'wait',
        'status running/waiting_for_message',
        'status running/turn',
        'turn 2 [carry on]',
    ]);
});
(0, node_test_1.test)('unit: session — interrupted before the model answered: the prompt is sent again with the follow-up', async () => {
    const state = fresh();
    const { exec, log } = scripted(state, [{ reason: 'interrupted', consumedAppend: false }, { reason: 'end_turn' }], {
        onWait: () => {
            state.pendingMessages.push('now');
            return true;
        },
    });
    await (0, session_1.runSession)(state, (0, session_1.sessionConfig)({}), exec);
    strict_1.default.ok(log.includes('turn 2 [go, now]'), log.join('\n'));
});
(0, node_test_1.test)('unit: session — onInterrupt end, and no follow-up within the idle timeout', async () => {
    const s1 = fresh();
    const r1 = await (0, session_1.runSession)(s1, (0, session_1.sessionConfig)({ onInterrupt: 'end' }), scripted(s1, [{ reason: 'interrupted' }]).exec);
    strict_1.default.deepEqual(r1, { kind: 'end', status: 'interrupted', endReason: session_1.END_REASONS.interrupted });
    const s2 = fresh();
    const r2 = await (0, session_1.runSession)(s2, (0, session_1.sessionConfig)({}), scripted(s2, [{ reason: 'interrupted' }]).exec);
    strict_1.default.deepEqual(r2, { kind: 'end', status: 'interrupted', endReason: session_1.END_REASONS.idle });
});
(0, node_test_1.test)('unit: session — a follow-up that arrives during a final turn runs another turn', async () => {
    const state = fresh();
    const { exec, log } = scripted(state, [{ reason: 'end_turn', sendDuring: 'one more' }, { reason: 'max_tokens' }]);
    const end = await (0, session_1.runSession)(state, (0, session_1.sessionConfig)({}), exec);
    strict_1.default.deepEqual(end, { kind: 'end', status: 'completed', endReason: session_1.END_REASONS.modelMaxTokens });
    strict_1.default.ok(log.includes('turn 2 [one more]'));
});
(0, node_test_1.test)("unit: session — a hook's continue:false stops the session after its turn", async () => {
    const state = fresh();
    const { exec } = scripted(state, [
        { reason: 'tool_use', records: [{ status: 'ok', stop: { reason: 'enough', hook: 'stop.sh' } }] },
    ]);
    const end = await (0, session_1.runSession)(state, (0, session_1.sessionConfig)({}), exec);
    strict_1.default.deepEqual(end, { kind: 'end', status: 'stopped', endReason: 'stopped by a hook (stop.sh): enough' });
    strict_1.default.equal(state.head, 'h1', 'the turn (with its results) is kept');
});
(0, node_test_1.test)('unit: session — a failed turn ends the session with its cause and keeps the prompt pending', async () => {
    const state = fresh();
    const end = await (0, session_1.runSession)(state, (0, session_1.sessionConfig)({}), scripted(state, [{ reason: 'failed', error: 'model API error 401' }]).exec);
    strict_1.default.deepEqual(end, { kind: 'end', status: 'failed', endReason: 'turn 1 failed: model API error 401' });
    strict_1.default.deepEqual(state.pendingMessages, ['go']);
});
(0, node_test_1.test)('unit: session — checkpoint after a turn; an interrupt that arrives while handlers drain is carried', async () => {
    const state = fresh();
    const { exec } = scripted(state, [{ reason: 'tool_use' }], { checkpointAfter: 1, interruptWhileDraining: true });
    const out = await (0, session_1.runSession)(state, (0, session_1.sessionConfig)({}), exec);
    strict_1.default.deepEqual(out, { kind: 'checkpoint' });
    strict_1.default.equal(state.interrupted, true, 'the next run starts interrupted (waits for a follow-up)');
    // The next run (same state): waits for a message first.
    state.runs++;
    const next = scripted(state, [{ reason: 'end_turn' }], {
        onWait: () => {
            state.pendingMessages.push('resume');
            return true;
        },
    });
    const end = await (0, session_1.runSession)(state, (0, session_1.sessionConfig)({}), next.exec);
    strict_1.default.equal(end.kind === 'end' && end.status, 'completed');
    strict_1.default.ok(next.log.includes('wait') && next.log.includes('turn 2 [resume]'), next.log.join('\n'));
});
(0, node_test_1.test)('unit: session — addUsage keeps absent cache counters absent', () => {
    strict_1.default.deepEqual((0, session_1.addUsage)({ input_tokens: 1, output_tokens: 2 }, { input_tokens: 3, output_tokens: 4 }), {
        input_tokens: 4,
        output_tokens: 6,
    });
    strict_1.default.deepEqual((0, session_1.addUsage)({ input_tokens: 1, output_tokens: 2 }, { input_tokens: 3, output_tokens: 4, cache_creation_input_tokens: 5 }), { input_tokens: 4, output_tokens: 6, cache_creation_input_tokens: 5 });
});
(0, node_test_1.test)('unit: session — an end_turn with background work pending waits for it; the event runs the next turn', async () => {
    const state = fresh();
    const running = (0, context_1.applyContextModifiers)(state.context, [
        {
            type: 'taskStarted',
            task: {
                id: 'b1',
                kind: 'local_bash',
                toolUseId: 't1',
                description: 'npm test',
                startedAt: 0,
                timeoutMs: 60_000,
                state: 'running',
            },
        },
    ]);
    const { exec, log } = scripted(state, [{ reason: 'end_turn', context: running }, { reason: 'end_turn' }]);
    let waits = 0;
    exec.waitForWork = async (s) => {
        waits++;
        log.push('waitForWork');
        // The task ended: its notification is queued and it no longer runs.
        s.pendingMessages.push('<task-notification>b1 completed</task-notification>');
        s.context = { ...s.context, autonomy: { tasks: [], crons: [] } };
        return true;
    };
    const end = await (0, session_1.runSession)(state, (0, session_1.sessionConfig)({}), exec);
    strict_1.default.equal(end.kind === 'end' && end.status, 'completed');
    strict_1.default.equal(waits, 1, 'the second end_turn has nothing pending: no second wait');
    strict_1.default.deepEqual(log.filter((l) => l.startsWith('turn') || l === 'waitForWork' || l.includes('waiting_for_work')), [
        'turn 1 [go]',
        'status waiting/waiting_for_work',
        'waitForWork',
        'turn 2 [<task-notification>b1 completed</task-notification>]',
    ]);
});
(0, node_test_1.test)('unit: session — waitForWork false (stopped, or nothing left) ends the session as the model ended it', async () => {
    const state = fresh();
    const sleeping = (0, context_1.applyContextModifiers)(state.context, [
        { type: 'wakeupScheduled', wakeup: { at: 1, prompt: 'again', reason: 'poll', toolUseId: 't' } },
    ]);
    const { exec } = scripted(state, [{ reason: 'end_turn', context: sleeping }]);
    exec.waitForWork = async () => false;
    const end = await (0, session_1.runSession)(state, (0, session_1.sessionConfig)({}), exec);
    strict_1.default.deepEqual(end, { kind: 'end', status: 'completed', endReason: session_1.END_REASONS.endTurn });
});
(0, node_test_1.test)('unit: session — a message queued after the turn ended the session (a task ended while Stop hooks ran) gets a turn when the executor says so', async () => {
    const run = async (wakes) => {
        const state = fresh();
        const { exec, log } = scripted(state, [{ reason: 'end_turn' }, { reason: 'end_turn' }]);
        let stops = 0;
        exec.hasHooks = (e) => e === 'Stop';
        exec.runHooks = async () => {
            // The first Stop hook's wait: the task's end notification is queued meanwhile.
            if (stops++ === 0)
                state.pendingMessages.push('<task-notification>b1 completed</task-notification>');
            return [];
        };
        if (wakes !== undefined)
            exec.wakesForQueued = () => wakes;
        const end = await (0, session_1.runSession)(state, (0, session_1.sessionConfig)({}), exec);
        return { end, turns: log.filter((l) => l.startsWith('turn')), pending: state.pendingMessages };
    };
    const woke = await run(true);
    strict_1.default.deepEqual(woke.turns, ['turn 1 [go]', 'turn 2 [<task-notification>b1 completed</task-notification>]']);
    strict_1.default.deepEqual(woke.pending, []);
    // Before the patch (or without the method): the session ended with the notification unread.
    for (const before of [false, undefined]) {
        const ended = await run(before);
        strict_1.default.deepEqual(ended.turns, ['turn 1 [go]']);
        strict_1.default.deepEqual(ended.end, { kind: 'end', status: 'completed', endReason: session_1.END_REASONS.endTurn });
        strict_1.default.deepEqual(ended.pending, ['<task-notification>b1 completed</task-notification>']);
    }
});
//# sourceMappingURL=engine-session.test.js.map