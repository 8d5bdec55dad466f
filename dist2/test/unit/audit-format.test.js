"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the audit formatters on a hand-made report: the text ledger (one line per call, model
// calls interleaved by time, decisions with their source) and JSON lines (one object per entry).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const audit_1 = require("../../src/audit");
const T = (s) => new Date(Date.UTC(2025, 0, 2, 10, 0, s)).toISOString();
function report() {
    return {
        session: {
            kind: 'session',
            sessionId: 'session-1',
            prompt: 'fix the\nbug',
            model: 'claude-test',
            permissionMode: 'default',
            status: 'completed',
            endReason: 'the model ended its turn',
            runs: 2,
            runIds: ['r1', 'r2'],
            turns: 2,
            startedAt: T(0),
            endedAt: T(30),
            usage: { input_tokens: 30, output_tokens: 7 },
            toolCalls: 3,
            modelCalls: 2,
            messages: [{ at: T(20), text: 'go on' }],
            interrupts: [{ at: T(15), by: 'bob' }],
        },
        // Deliberately out of order: the formatter sorts by time.
        modelCalls: [
            {
                kind: 'model_call',
                turn: 2,
                run: 1,
                activityId: 'model-2',
                model: 'claude-test',
                startedAt: T(21),
                endedAt: T(22),
                attempts: 3,
                status: 'ok',
                usage: { input_tokens: 20, output_tokens: 2 },
                stopReason: 'end_turn',
                fallback: true,
                tombstones: [{ attempt: 3, error: 'terminated', eventsReceived: 4, partialPreview: 'Half an ans' }],
                failures: ['model API error 529: Overloaded [ModelHttp529]'],
                textPreview: 'Done.',
                toolUseIds: [],
            },
            {
                kind: 'model_call',
                turn: 1,
                run: 0,
                activityId: 'model-1',
                model: 'claude-test',
                startedAt: T(1),
                endedAt: T(2),
                attempts: 1,
                status: 'ok',
                usage: { input_tokens: 10, output_tokens: 5 },
                stopReason: 'tool_use',
                fallback: false,
                tombstones: [],
                failures: [],
                toolUseIds: ['toolu_a', 'toolu_b', 'toolu_c'],
            },
        ],
        toolCalls: [
            {
                kind: 'tool_call',
                turn: 1,
                run: 0,
                toolUseId: 'toolu_a',
                tool: 'Grep',
                input: { pattern: 'x' },
                summary: 'Grep "x"',
                decision: { behavior: 'allow', source: 'mode', detail: 'default' },
                attempts: 1,
                activities: [
                    {
                        activityId: 'tool-toolu_a',
                        attempts: 1,
                        startedAt: T(3),
                        endedAt: T(4),
                        outcome: 'completed',
                        result: 'done',
                        failures: [],
                    },
                ],
                startedAt: T(3),
                endedAt: T(4),
                status: 'ok',
                isError: false,
                resultPreview: 'a.ts:1: x',
                batch: 0,
                concurrent: true,
            },
            {
                kind: 'tool_call',
                turn: 1,
                run: 0,
                toolUseId: 'toolu_b',
                tool: 'Write',
                input: { file_path: '/w/b' },
                summary: 'Write /w/b',
                decision: { behavior: 'allow', source: 'human', by: 'alice@example' },
                approval: {
                    asked: { behavior: 'ask', source: 'mode', detail: 'default' },
                    message: 'Write needs approval',
                    askedAt: T(5),
                    resolution: 'approve',
                    resolvedAt: T(9),
                    by: 'alice@example',
                },
                attempts: 2,
                activities: [
                    {
                        activityId: 'tool-toolu_b',
                        attempts: 1,
                        startedAt: T(5),
                        endedAt: T(5),
                        outcome: 'completed',
                        result: 'ask',
                        failures: [],
                    },
                    {
                        activityId: 'tool-toolu_b-approve',
                        attempts: 2,
                        startedAt: T(10),
                        endedAt: T(11),
                        outcome: 'completed',
                        result: 'done',
                        failures: ['worker lost'],
                    },
                ],
                startedAt: T(5),
                endedAt: T(11),
                status: 'ok',
                isError: false,
                resultPreview: 'File created',
                batch: 1,
                concurrent: false,
            },
            {
                kind: 'tool_call',
                turn: 1,
                run: 0,
                toolUseId: 'toolu_c',
                tool: 'Bash',
                input: { command: 'sleep 30' },
                summary: 'Bash: sleep 30',
                attempts: 0,
                activities: [],
                endedAt: T(15),
                status: 'interrupted',
                isError: true,
                resultPreview: 'Interrupted by user: this tool call was not started.',
                batch: 2,
                concurrent: false,
            },
        ],
    };
}
(0, node_test_1.test)('unit: formatAuditText prints a header and one line per call, model calls interleaved by time', () => {
    const text = (0, audit_1.formatAuditText)(report());
    const lines = text.trimEnd().split('\n');
    strict_1.default.match(lines[0] ?? '', /^Session session-1: completed \(the model ended its turn\)$/);
    strict_1.default.match(text, /prompt: "fix the bug"/);
    strict_1.default.match(text, /2 runs · 2 turns · 2 model calls · 3 tool calls · tokens in 30 \/ out 7/);
    const body = lines.slice(lines.findIndex((l) => l.startsWith('TIME')) + 1);
    strict_1.default.deepEqual(body.map((l) => /(model-\d|toolu_\w|interrupt|user message)/.exec(l)?.[1]), ['model-1', 'toolu_a', 'toolu_b', 'toolu_c', 'interrupt', 'user message', 'model-2']);
    const [m1, a, b, c, , , m2] = body;
    strict_1.default.match(m1 ?? '', /^10:00:01\.000 {2}t1 +model +model-1 +claude-test → tool_use \(3 tool uses\).* ok +1 att +in 10 \/ out 5/);
    strict_1.default.match(a ?? '', /^10:00:03\.000 {2}t1 +tool +toolu_a +Grep "x" +allow \[mode: default\] +ok +1 att +batch 0 ∥ +→ "a\.ts:1: x"$/);
    strict_1.default.match(b ?? '', /ask \[mode: default\] → allow \[human: alice@example\] +ok +2 att \(ask→approve\)/);
    strict_1.default.match(b ?? '', /failures: worker lost/);
    // Not started: no start time, so the line shows when it ended.
    strict_1.default.match(c ?? '', /^10:00:15\.000 {2}t1 +tool +toolu_c +Bash: sleep 30 +- +interrupted +0 att +batch 2 +→ "Interrupted by user: this tool call was not started\."$/);
    strict_1.default.match(m2 ?? '', /FALLBACK \(non-streamed\), tombstone: terminated; partial "Half an ans", failures: model API error 529/);
    strict_1.default.match(m2 ?? '', /→ "Done\."$/);
    strict_1.default.match(text, /» {2}interrupt by bob/);
});
(0, node_test_1.test)('unit: auditJsonLines: the session, then every call in time order, one JSON object per line with its kind', () => {
    const r = report();
    const out = (0, audit_1.auditJsonLines)(r);
    strict_1.default.ok(out.endsWith('\n'));
    const objs = out
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
    strict_1.default.deepEqual(objs.map((o) => o.kind), ['session', 'model_call', 'tool_call', 'tool_call', 'tool_call', 'model_call']);
    strict_1.default.deepEqual(objs.map((o) => o.toolUseId ?? o.activityId ?? o.kind), ['session', 'model-1', 'toolu_a', 'toolu_b', 'toolu_c', 'model-2']);
    strict_1.default.deepEqual(objs[3], JSON.parse(JSON.stringify(r.toolCalls[1])));
    strict_1.default.deepEqual((0, audit_1.auditEntries)(r).map((e) => e.kind), ['model_call', 'tool_call', 'tool_call', 'tool_call', 'model_call']);
});
(0, node_test_1.test)('unit: formatDecision names the behavior, the source and its detail or approver', () => {
    strict_1.default.equal((0, audit_1.formatDecision)(undefined), '-');
    strict_1.default.equal((0, audit_1.formatDecision)({ behavior: 'allow', source: 'rule', detail: 'Read(./src/**)' }), 'allow [rule: Read(./src/**)]');
    strict_1.default.equal((0, audit_1.formatDecision)({ behavior: 'deny', source: 'human', by: 'ann', reason: 'no' }), 'deny [human: ann]');
    strict_1.default.equal((0, audit_1.formatDecision)({ behavior: 'deny', source: 'timeout', detail: '86400000ms' }), 'deny [timeout: 86400000ms]');
});
//# sourceMappingURL=audit-format.test.js.map