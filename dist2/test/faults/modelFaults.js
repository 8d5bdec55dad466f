"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runModelFaults = runModelFaults;
// Scenario: the model misbehaves. One session per fault, all at once: 429 and 529 storms,
// streams cut at random event counts, malformed SSE, a tool_use with invalid JSON, an unknown
// tool, a 1 MB tool input, an answer cut off by max_tokens inside a tool_use. Each session must
// continue or end with a clear reason, every tool_use must be answered (protocol completeness on
// the final transcript), and the ledger calls it made must hold the crash invariants.
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const plan_1 = require("./plan");
const sessions_1 = require("./sessions");
const rand = (a, b) => a + Math.floor(Math.random() * (b - a + 1));
function text(t, extra = {}) {
    return { content: [{ type: 'text', text: t }], ...extra };
}
/** The SSE of a message whose second event is not JSON: a proxy that mangles the stream. */
function malformedSse() {
    return [
        'event: message_start',
        'data: {"type":"message_start","message":{"id":"msg_01Malformed000000000001","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}',
        '',
        'event: content_block_start',
        'data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}',
        '',
        'event: content_block_delta',
        'data: {{{ this is not json',
        '',
        '',
    ].join('\n');
}
function plans(s, pacing) {
    const ledger = (turn) => ({
        content: [
            { type: 'text', text: `Turn ${turn}: recording a call.` },
            ...(0, plan_1.crashTurnCalls)(s, turn, { ...pacing, toolMs: 200 }),
        ],
    });
    const done = text(`Session ${s.name} is done.`);
    const drop = (stream) => stream ? { ...ledger(0), dropAfterEvents: rand(1, 20), delayMs: 10 } : undefined;
    return {
        'storm-429': [
            {
                faults: Array.from({ length: 6 }, () => ({ kind: 'error', status: 429, retryAfterMs: 300 })),
                answer: ledger(0),
            },
            { faults: [], answer: done },
        ],
        'storm-529': [
            { faults: Array.from({ length: 6 }, () => ({ kind: 'error', status: 529 })), answer: ledger(0) },
            {
                faults: [{ kind: 'error', status: 500 }, { kind: 'disconnect' }, { kind: 'error', status: 529 }],
                answer: ledger(1),
            },
            { faults: [], answer: done },
        ],
        disconnects: [
            { faults: [drop, drop, drop], answer: ledger(0) },
            {
                faults: [
                    (st) => (st ? { ...ledger(1), dropAfterEvents: rand(5, 40), delayMs: 10 } : undefined),
                    { kind: 'disconnect', latencyMs: 200 },
                ],
                answer: ledger(1),
            },
            {
                faults: [
                    (st) => (st ? { ...done, streamError: { afterEvents: rand(1, 4), type: 'overloaded_error' } } : undefined),
                ],
                answer: done,
            },
        ],
        'malformed-sse': [
            { faults: [(st) => (st ? { kind: 'raw_sse', body: malformedSse() } : undefined)], answer: ledger(0) },
            { faults: [], answer: done },
        ],
        'invalid-json': [
            {
                faults: [],
                answer: {
                    content: [
                        { type: 'text', text: 'Calling with broken JSON.' },
                        {
                            type: 'tool_use',
                            id: (0, plan_1.toolUseId)(s.name, 0, 0),
                            name: 'Bash',
                            input: {},
                            rawJson: '{"command": "echo broken >> ',
                        },
                    ],
                },
            },
            { faults: [], answer: ledger(1) },
            { faults: [], answer: done },
        ],
        'unknown-tool': [
            {
                faults: [],
                answer: {
                    content: [
                        { type: 'tool_use', id: (0, plan_1.toolUseId)(s.name, 0, 9), name: 'NoSuchTool', input: { x: 1 } },
                        ...(0, plan_1.crashTurnCalls)(s, 0, pacing),
                    ],
                },
            },
            { faults: [], answer: done },
        ],
        'big-input': [
            {
                faults: [],
                answer: {
                    content: [
                        {
                            type: 'tool_use',
                            id: (0, plan_1.toolUseId)(s.name, 0, 0),
                            name: 'AppendSlow',
                            input: { file: (0, node_path_1.join)(s.dir, 'big.txt'), text: 'x'.repeat(1024 * 1024), idempotent: true },
                        },
                    ],
                    jsonChunkSize: 64 * 1024,
                },
            },
            { faults: [], answer: done },
        ],
        'max-tokens': [
            {
                faults: [],
                answer: {
                    content: [
                        { type: 'text', text: 'Writing the ledger entry now.' },
                        {
                            type: 'tool_use',
                            id: (0, plan_1.toolUseId)(s.name, 0, 0),
                            name: 'Bash',
                            input: {},
                            rawJson: '{"command": "echo cut-off >> ',
                        },
                    ],
                    stop_reason: 'max_tokens',
                },
            },
            { faults: [], answer: ledger(1) },
            { faults: [], answer: done },
        ],
    };
}
async function runModelFaults(ctx) {
    // DURABLE_AGENT_FAULTS_MODEL=a,b runs only those (to chase one fault).
    const wanted = process.env.DURABLE_AGENT_FAULTS_MODEL?.split(',');
    const names = Object.keys(plans({ name: 'x', dir: '/x' }, ctx.pacing)).filter((n) => !wanted || wanted.includes(n));
    const sessions = [];
    for (const fault of names) {
        const name = `model-${fault}`;
        const s = { name, dir: (0, node_path_1.join)(ctx.workRoot, name) };
        const turns = plans(s, ctx.pacing)[fault];
        const attempts = new Map();
        ctx.handlers.set(name, (turn, stream) => {
            const plan = turns[Math.min(turn, turns.length - 1)];
            for (;;) {
                const n = attempts.get(turn) ?? 0;
                attempts.set(turn, n + 1);
                const f = plan.faults[n];
                if (f === undefined)
                    return turn >= turns.length ? text(`Session ${name} is done (turn ${turn}).`) : plan.answer;
                const spec = typeof f === 'function' ? f(stream) : f;
                if (spec)
                    return spec;
                // This fault needs a streamed request; a non-streamed one (a fallback) gets the answer.
                return plan.answer;
            }
        });
        sessions.push(await (0, sessions_1.startFaultSession)(ctx.cluster.client, ctx.workRoot, name, ctx.settings, {
            prompt: `Model fault: ${fault}.`,
        }));
    }
    ctx.log(`model faults: ${sessions.length} sessions started (${names.join(', ')})`);
    const approver = (0, sessions_1.startApprover)(ctx.cluster.client, () => sessions);
    await (0, sessions_1.waitForSessions)(ctx.cluster.client, sessions, Number(process.env.DURABLE_AGENT_FAULTS_MODEL_WAIT_MS ?? 10 * 60_000));
    await approver.stop();
    await (0, sessions_1.checkSessions)(ctx.store.dir, sessions);
    const notes = [];
    const violations = [];
    for (const s of sessions) {
        const uses = (s.transcript ?? []).flatMap((m) => m.role === 'assistant' && typeof m.content !== 'string' ? m.content.filter((b) => b.type === 'tool_use') : []);
        const errors = (s.transcript ?? []).flatMap((m) => m.role === 'user' && typeof m.content !== 'string'
            ? m.content.filter((b) => b.type === 'tool_result' && b.is_error)
            : []);
        const said = errors.map((e) => (e.type === 'tool_result'
            ? typeof e.content === 'string'
                ? e.content
                : e.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
            : '')
            .replace(/\s+/g, ' ')
            .slice(0, 110));
        notes.push(`${s.name}: ${s.result ? `${s.result.status} after ${s.result.turns} turns (${s.result.endReason})` : `not ended: ${s.failure}`}; ${uses.length} tool_use, ${errors.length} answered with is_error${said.length ? `: "${said.join('"; "')}"` : ''}`);
    }
    // What the model must have been told, per fault (a clear reason, not an internal error).
    const expected = {
        'invalid-json': /InputValidationError|invalid/i,
        'unknown-tool': /No such tool available: NoSuchTool/,
        'max-tokens': /not run: the response reached max_tokens/,
    };
    for (const s of sessions) {
        const want = expected[s.name.replace(/^model-/, '')];
        const said = (s.transcript ?? [])
            .flatMap((m) => (m.role === 'user' && typeof m.content !== 'string' ? m.content : []))
            .filter((b) => b.type === 'tool_result' && b.is_error);
        const texts = said.map((b) => b.type === 'tool_result'
            ? typeof b.content === 'string'
                ? b.content
                : b.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
            : '');
        if (want && s.transcript && !texts.some((t) => want.test(t)))
            violations.push(`${s.name}: no tool_result says ${want} (said: ${texts.join(' | ').slice(0, 300) || 'nothing'})`);
    }
    const big = await (0, promises_1.stat)((0, node_path_1.join)(ctx.workRoot, 'model-big-input', 'big.txt')).catch(() => undefined);
    if (names.includes('big-input') && (!big || big.size < 1024 * 1024))
        violations.push(`the 1 MB AppendSlow input did not arrive whole (${big?.size ?? 0} bytes written)`);
    return {
        name: 'model',
        title: 'Model faults (429/529 storms, cut streams, malformed SSE, bad tool_use, 1 MB input, max_tokens)',
        sessions,
        notes,
        violations,
    };
}
//# sourceMappingURL=modelFaults.js.map