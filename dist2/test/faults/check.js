"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.UNKNOWN_OUTCOME = void 0;
exports.protocolProblems = protocolProblems;
exports.callsOf = callsOf;
exports.checkSession = checkSession;
exports.countLines = countLines;
const plan_1 = require("./plan");
function resultText(r) {
    return typeof r.content === 'string' ? r.content : r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}
exports.UNKNOWN_OUTCOME = /The outcome of this \w+ call is unknown/;
/** Protocol completeness: one problem line per tool_use without exactly one answer in the next message. */
function protocolProblems(messages) {
    const problems = [];
    messages.forEach((m, i) => {
        if (m.role !== 'assistant' || typeof m.content === 'string')
            return;
        const uses = m.content.filter((b) => b.type === 'tool_use');
        if (uses.length === 0)
            return;
        const next = messages[i + 1];
        const results = next && next.role === 'user' && typeof next.content !== 'string'
            ? next.content.filter((b) => b.type === 'tool_result')
            : [];
        for (const u of uses) {
            const n = results.filter((r) => r.tool_use_id === u.id).length;
            if (n !== 1)
                problems.push(`tool_use ${u.id} (${u.name}) has ${n} tool_result(s) in the next message`);
        }
        for (const r of results)
            if (!uses.some((u) => u.id === r.tool_use_id))
                problems.push(`tool_result ${r.tool_use_id} answers no tool_use of the message before it`);
    });
    return problems;
}
/** Every tool_use of the transcript with its result (the result in the message after it). */
function callsOf(messages) {
    const out = [];
    messages.forEach((m, i) => {
        if (m.role !== 'assistant' || typeof m.content === 'string')
            return;
        const next = messages[i + 1];
        const results = next && next.role === 'user' && typeof next.content !== 'string'
            ? next.content.filter((b) => b.type === 'tool_result')
            : [];
        for (const b of m.content)
            if (b.type === 'tool_use')
                out.push({ use: b, result: results.find((r) => r.tool_use_id === b.id) });
    });
    return out;
}
/**
 * Checks one session. `effects(kind, id)` counts the side effects of a call (ledger lines equal to
 * the id; 1 or 0 for a Write's file); `allEffectIds` lists every id any ledger holds (orphans).
 */
function checkSession(messages, effects, allEffectIds = [], 
/** An error result matching this (a store fault named) is a clear failure, when the call had no effect. */
clearFailure) {
    const check = {
        calls: [],
        completed: 0,
        duplicated: 0,
        unknownOutcomes: 0,
        idempotentReruns: 0,
        failedClearly: 0,
        violations: protocolProblems(messages),
    };
    const seen = new Set();
    for (const { use, result } of callsOf(messages)) {
        seen.add(use.id);
        const kind = (0, plan_1.effectKindOf)(use);
        if (!kind || !result)
            continue;
        const text = resultText(result);
        const status = !result.is_error ? 'ok' : exports.UNKNOWN_OUTCOME.test(text) ? 'unknown_outcome' : 'error';
        const n = effects(kind, use.id);
        check.calls.push({ id: use.id, kind, status, effects: n, text: text.slice(0, 300) });
        const idempotent = plan_1.IDEMPOTENT[kind];
        if (status === 'ok') {
            check.completed++;
            if (n === 0)
                check.violations.push(`${use.id} (${kind}) completed but its effect is missing`);
            if (idempotent)
                check.idempotentReruns += Math.max(0, n - 1);
            else if (n > 1) {
                check.duplicated += n - 1;
                check.violations.push(`${use.id} (${kind}) completed and its effect appears ${n} times`);
            }
        }
        else if (status === 'unknown_outcome') {
            check.unknownOutcomes++;
            if (idempotent)
                check.violations.push(`${use.id} (${kind}) is idempotent but was reported unknown_outcome instead of re-run`);
            if (n > 1) {
                check.duplicated += n - 1;
                check.violations.push(`${use.id} (${kind}) was reported unknown_outcome but ran ${n} times`);
            }
        }
        else if (clearFailure?.test(text) && n === 0) {
            check.failedClearly++;
        }
        else {
            check.violations.push(`${use.id} (${kind}) failed${n > 0 ? ` (its effect happened ${n} time(s))` : ''}: ${text.slice(0, 200)}`);
        }
    }
    for (const id of allEffectIds)
        if (!seen.has(id))
            check.violations.push(`an effect of ${id} is in a ledger, but no tool_use ${id} is in the transcript`);
    return check;
}
/** Ledger lines → count per id. */
function countLines(text) {
    const counts = new Map();
    for (const line of text.split('\n')) {
        const l = line.trim();
        if (l)
            counts.set(l, (counts.get(l) ?? 0) + 1);
    }
    return counts;
}
//# sourceMappingURL=check.js.map