"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the fault suite's invariant checker (test/faults/check.ts) — it must fail a transcript with
// a duplicated effect, a missing effect, an unanswered tool_use, an idempotent call reported
// unknown, or an effect of a call the transcript does not hold; and pass an honest one.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const check_1 = require("../faults/check");
const plan_1 = require("../faults/plan");
const s = { name: 'u1', dir: '/w/u1' };
const pacing = { eventDelayMs: 0, toolMs: 0 };
function transcript(results) {
    const calls = [...(0, plan_1.crashTurnCalls)(s, 0, pacing), ...(0, plan_1.crashTurnCalls)(s, 1, pacing)];
    return [
        { role: 'user', content: 'go' },
        {
            role: 'assistant',
            content: calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input })),
        },
        {
            role: 'user',
            content: calls.map((c) => {
                const r = results[c.id];
                return {
                    type: 'tool_result',
                    tool_use_id: c.id,
                    content: r?.error ?? 'ok',
                    ...(r?.error ? { is_error: true } : {}),
                };
            }),
        },
        { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    ];
}
const bashId = (0, plan_1.toolUseId)('u1', 0, 0);
const countId = (0, plan_1.toolUseId)('u1', 1, 0);
const idemId = (0, plan_1.toolUseId)('u1', 1, 1);
const counts = (m) => (_k, id) => m[id] ?? 0;
(0, node_test_1.test)('unit: faults check — an honest transcript passes; counts completed, unknown outcomes and idempotent re-runs', () => {
    const unknown = 'The outcome of this AppendSlow call is unknown: the worker running it was lost';
    const c = (0, check_1.checkSession)(transcript({ [countId]: { error: unknown } }), counts({ [bashId]: 1, [countId]: 1, [idemId]: 2 }), [bashId, countId, idemId]);
    strict_1.default.deepEqual(c.violations, []);
    strict_1.default.equal(c.completed, 2);
    strict_1.default.equal(c.unknownOutcomes, 1);
    strict_1.default.equal(c.idempotentReruns, 1);
    strict_1.default.equal(c.duplicated, 0);
});
(0, node_test_1.test)('unit: faults check — a completed non-idempotent call whose effect appears twice is a duplicate', () => {
    const c = (0, check_1.checkSession)(transcript({}), counts({ [bashId]: 2, [countId]: 1, [idemId]: 1 }));
    strict_1.default.equal(c.duplicated, 1);
    strict_1.default.match(c.violations.join('\n'), /completed and its effect appears 2 times/);
});
(0, node_test_1.test)('unit: faults check — missing effects, idempotent unknowns, plain errors and orphan effects are violations', () => {
    const unknown = 'The outcome of this AppendSlow call is unknown';
    const c = (0, check_1.checkSession)(transcript({ [idemId]: { error: unknown }, [bashId]: { error: 'Error calling tool Bash: boom' } }), counts({ [countId]: 0 }), ['toolu_other']);
    const v = c.violations.join('\n');
    strict_1.default.match(v, new RegExp(`${countId} \\(count\\) completed but its effect is missing`));
    strict_1.default.match(v, /is idempotent but was reported unknown_outcome/);
    strict_1.default.match(v, /\(bash\) failed: Error calling tool Bash: boom/);
    strict_1.default.match(v, /no tool_use toolu_other is in the transcript/);
});
(0, node_test_1.test)('unit: faults check — a store error without an effect is a clear failure only when the pattern names it', () => {
    const t = transcript({ [bashId]: { error: 'Error calling tool Bash: ENOSPC: no space left on device' } });
    strict_1.default.equal((0, check_1.checkSession)(t, counts({ [countId]: 1, [idemId]: 1 }), [], /ENOSPC/).failedClearly, 1);
    strict_1.default.match((0, check_1.checkSession)(t, counts({ [bashId]: 1, [countId]: 1, [idemId]: 1 }), [], /ENOSPC/).violations.join('\n'), /its effect happened 1 time/);
});
(0, node_test_1.test)('unit: faults check — protocol completeness: unanswered, doubly answered and stray results', () => {
    const m = [
        { role: 'user', content: 'go' },
        {
            role: 'assistant',
            content: [
                { type: 'tool_use', id: 'a', name: 'Bash', input: {} },
                { type: 'tool_use', id: 'b', name: 'Bash', input: {} },
            ],
        },
        {
            role: 'user',
            content: [
                { type: 'tool_result', tool_use_id: 'a', content: 'x' },
                { type: 'tool_result', tool_use_id: 'a', content: 'y' },
                { type: 'tool_result', tool_use_id: 'z', content: 'y' },
            ],
        },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'Bash', input: {} }] },
    ];
    strict_1.default.deepEqual((0, check_1.protocolProblems)(m), [
        'tool_use a (Bash) has 2 tool_result(s) in the next message',
        'tool_use b (Bash) has 0 tool_result(s) in the next message',
        'tool_result z answers no tool_use of the message before it',
        'tool_use c (Bash) has 0 tool_result(s) in the next message',
    ]);
});
(0, node_test_1.test)('unit: faults plan — ledger calls are recognised by kind; ids are per session, turn and block', () => {
    const kinds = [0, 1, 2, 3].flatMap((t) => (0, plan_1.crashTurnCalls)(s, t, pacing).map((c) => (0, plan_1.effectKindOf)(c)));
    strict_1.default.deepEqual(kinds, ['bash', 'count', 'idem', 'write', 'bash', 'count']);
    strict_1.default.equal((0, plan_1.toolUseId)('kill-3', 7, 1), 'toolu_kill3_t7_1');
    strict_1.default.deepEqual([...(0, check_1.countLines)('a\nb\n\na\n')], [
        ['a', 2],
        ['b', 1],
    ]);
});
//# sourceMappingURL=faults-check.test.js.map