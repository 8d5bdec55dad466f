"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the outage policy (pure): backoff honouring retry-after, the cap, the outage limit, and
// the turn's wait-and-call-again loop against a scripted executor.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const context_1 = require("../../src/engine/context");
const retry_1 = require("../../src/engine/retry");
const turn_1 = require("../../src/engine/turn");
(0, node_test_1.test)('unit: retry — exponential from 2 s, retry-after wins, both capped', () => {
    const p = (0, retry_1.retryPolicy)({ retryCapMs: 60_000 });
    strict_1.default.deepEqual([1, 2, 3, 4, 5, 6, 7].map((n) => (0, retry_1.backoffMs)(n, p)), [2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000]);
    strict_1.default.equal((0, retry_1.backoffMs)(1, p, 5_000), 5_000);
    strict_1.default.equal((0, retry_1.backoffMs)(1, p, 600_000), 60_000);
    strict_1.default.equal((0, retry_1.backoffMs)(1, (0, retry_1.retryPolicy)({ retryCapMs: 500 })), 500);
});
(0, node_test_1.test)('unit: retry — an outage accumulates; the outage limit gives up with the reason', () => {
    const p = (0, retry_1.retryPolicy)({ retryCapMs: 1_000, maxOutageMs: 2_500 });
    const f = { kind: 'overloaded', message: 'model API error 529', retryAfterMs: 5_000 };
    const a = (0, retry_1.nextAttempt)(undefined, 'model', f, 10_000, p);
    strict_1.default.equal(a.action, 'wait');
    strict_1.default.deepEqual(a.state, {
        what: 'model',
        kind: 'overloaded',
        since: 10_000,
        attempts: 1,
        lastError: 'model API error 529',
        nextTryAt: 11_000,
    });
    const b = (0, retry_1.nextAttempt)(a.state, 'model', f, 11_000, p);
    strict_1.default.equal(b.action, 'wait');
    const c = (0, retry_1.nextAttempt)(b.state, 'model', f, 12_000, p);
    strict_1.default.equal(c.action, 'give_up');
    strict_1.default.match(c.action === 'give_up' ? c.reason : '', /model was unavailable for longer than 3 s \(3 attempts; last: model API error 529\)/);
    const o = {
        ...a.state,
        since: Date.parse('2026-01-01T10:00:00Z'),
        nextTryAt: Date.parse('2026-01-01T10:00:40Z'),
    };
    strict_1.default.equal((0, retry_1.describeOutage)(o, Date.parse('2026-01-01T10:00:10Z')), 'waiting for the model: overloaded since 2026-01-01T10:00:00Z, next try in 30 s at 2026-01-01T10:00:40Z (1 failed attempt; last: model API error 529)');
});
(0, node_test_1.test)('unit: turn — the model is called again after each wait; the outage is shown, then cleared', async () => {
    const results = [
        { kind: 'unavailable', failure: { kind: 'overloaded', message: '529', retryAfterMs: 5_000 } },
        { kind: 'unavailable', failure: { kind: 'connection', message: 'ECONNRESET' } },
        {
            kind: 'message',
            message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
            usage: { input_tokens: 1, output_tokens: 1 },
            stopReason: 'end_turn',
        },
    ];
    const log = [];
    let clock = 0;
    const exec = {
        async callModel(attempt) {
            log.push(`call ${attempt}`);
            return results.shift();
        },
        now: () => clock,
        sleep: async (ms) => {
            log.push(`sleep ${ms}`);
            clock += ms;
            return 'done';
        },
        onOutage: (o) => log.push(o ? `outage ${o.kind} #${o.attempts}` : 'outage over'),
        describe: async () => [],
        runTool: async () => strict_1.default.fail('no tools'),
        awaitApproval: async () => 'interrupted',
        isInterrupted: () => false,
    };
    const out = await (0, turn_1.executeTurn)({
        context: (0, context_1.initialContext)('/w'),
        priorRecords: new Map(),
        maxConcurrency: 1,
        retry: (0, retry_1.retryPolicy)({ retryCapMs: 3_000 }),
    }, exec);
    strict_1.default.equal(out.reason, 'end_turn');
    strict_1.default.deepEqual(log, [
        'call 1',
        'outage overloaded #1',
        'sleep 3000',
        'call 2',
        'outage connection #2',
        'sleep 3000',
        'call 3',
        'outage over',
    ]);
});
(0, node_test_1.test)('unit: turn — an interrupt during the wait ends the turn as interrupted and clears the outage', async () => {
    const log = [];
    const exec = {
        callModel: async () => ({ kind: 'unavailable', failure: { kind: 'overloaded', message: '529' } }),
        now: () => 0,
        sleep: async () => 'interrupted',
        onOutage: (o) => log.push(o ? 'outage' : 'outage over'),
        describe: async () => [],
        runTool: async () => strict_1.default.fail('no tools'),
        awaitApproval: async () => 'interrupted',
        isInterrupted: () => false,
    };
    const out = await (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 1 }, exec);
    strict_1.default.equal(out.reason, 'interrupted');
    strict_1.default.equal(out.assistant, undefined);
    strict_1.default.deepEqual(log, ['outage', 'outage over']);
});
//# sourceMappingURL=engine-retry.test.js.map