"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the objects `run -p --output-format …` prints (src/cli/printFormat.ts): an assistant line
// per content block, a user line per tool_result, the reference's num_turns, a model error read from
// a failed session's reason, the result's subtype per ending, what text mode prints; the -p alias.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const printFormat_1 = require("../../src/cli/printFormat");
const main_1 = require("../../src/cli/main");
const memory_1 = require("../../src/engine/memory");
const messages = [
    { role: 'user', content: `${memory_1.MEMORY_REMINDER_HEAD}memory${memory_1.MEMORY_REMINDER_TAIL}` },
    { role: 'user', content: 'do it' },
    {
        role: 'assistant',
        content: [
            { type: 'text', text: 'Looking.' },
            { type: 'tool_use', id: 'toolu_a', name: 'Read', input: { file_path: '/x' } },
            { type: 'tool_use', id: 'toolu_b', name: 'Bash', input: { command: 'ls' } },
        ],
    },
    {
        role: 'user',
        content: [
            { type: 'tool_result', tool_use_id: 'toolu_a', content: 'x' },
            { type: 'tool_result', tool_use_id: 'toolu_b', content: 'y', is_error: true },
        ],
    },
    { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
];
const ending = (over) => ({
    sessionId: 's1',
    status: 'completed',
    reason: 'the model ended its turn',
    lastText: 'Done.',
    turns: 2,
    usage: { input_tokens: 10, output_tokens: 5 },
    durationMs: 1234.4,
    calls: [
        {
            model: 'm',
            usage: { input_tokens: 4, output_tokens: 2 },
            stopReason: 'tool_use',
            startedAt: '2026-01-01T00:00:00.000Z',
            endedAt: '2026-01-01T00:00:00.300Z',
        },
        {
            model: 'm',
            usage: { input_tokens: 6, output_tokens: 3 },
            stopReason: 'end_turn',
            startedAt: '2026-01-01T00:00:01.000Z',
            endedAt: '2026-01-01T00:00:01.200Z',
        },
    ],
    denials: [],
    webSearches: 0,
    webFetches: 0,
    ...over,
});
(0, node_test_1.test)('unit print-format: an assistant line per block (one message id), a user line per tool_result, the prompt not printed', () => {
    const lines = (0, printFormat_1.messageEvents)(messages, 0, 's1', (n) => (n === 0 ? { messageId: 'msg_1', requestId: 'req_1', model: 'm' } : undefined), 'fallback', () => 'T');
    strict_1.default.deepEqual(lines.map((l) => `${String(l['type'])}:${JSON.stringify(l['message'].content[0])}`), [
        'assistant:{"type":"text","text":"Looking."}',
        'assistant:{"type":"tool_use","id":"toolu_a","name":"Read","input":{"file_path":"/x"}}',
        'assistant:{"type":"tool_use","id":"toolu_b","name":"Bash","input":{"command":"ls"}}',
        'user:{"type":"tool_result","tool_use_id":"toolu_a","content":"x"}',
        'user:{"type":"tool_result","tool_use_id":"toolu_b","content":"y","is_error":true}',
        'assistant:{"type":"text","text":"Done."}',
    ]);
    strict_1.default.equal(lines[0]['message'].id, 'msg_1');
    strict_1.default.equal(lines[2]['message'].id, 'msg_1');
    strict_1.default.equal(lines[0]['request_id'], 'req_1');
    strict_1.default.equal(lines[5]['message'].model, 'fallback');
    strict_1.default.equal(new Set(lines.map((l) => l['uuid'])).size, lines.length, 'one uuid per line');
    // From an index: only what is new (the assistant count before it keeps the audit's order).
    const later = (0, printFormat_1.messageEvents)(messages, 4, 's1', (n) => (n === 1 ? { messageId: 'msg_2' } : undefined), 'f');
    strict_1.default.equal(later.length, 1);
    strict_1.default.equal(later[0]['message'].id, 'msg_2');
});
(0, node_test_1.test)('unit print-format: num_turns counts the prompt and each tool_result (not a memory-only message)', () => {
    strict_1.default.equal((0, printFormat_1.numTurns)(messages), 3);
    strict_1.default.equal((0, printFormat_1.numTurns)([{ role: 'user', content: 'hi' }]), 1);
});
(0, node_test_1.test)('unit print-format: a model error in the reason, the result per ending, and what text prints', () => {
    const reason = 'session failed: turn 1 failed: model call failed: model API error 400: 400 {"type":"error","error":{"type":"invalid_request_error","message":"bad \\"request\\""},"request_id":"req_9"}';
    strict_1.default.deepEqual((0, printFormat_1.apiError)(reason), {
        status: 400,
        type: 'invalid_request_error',
        requestId: 'req_9',
        message: 'bad "request"',
    });
    strict_1.default.equal((0, printFormat_1.apiError)('turn 1 failed: tool crashed'), undefined);
    const ok = (0, printFormat_1.resultEvent)(ending({}));
    strict_1.default.equal(ok['subtype'], 'success');
    strict_1.default.equal(ok['is_error'], false);
    strict_1.default.equal(ok['result'], 'Done.');
    strict_1.default.equal(ok['stop_reason'], 'end_turn');
    strict_1.default.equal(ok['duration_ms'], 1234);
    strict_1.default.equal(ok['duration_api_ms'], 500);
    strict_1.default.equal(ok['api_error_status'], null);
    strict_1.default.deepEqual(ok['modelUsage']['m'].inputTokens, 10);
    strict_1.default.deepEqual((0, printFormat_1.textOutput)(ok), { text: 'Done.\n', exitCode: 0 });
    const failed = (0, printFormat_1.resultEvent)(ending({ status: 'failed', reason }));
    strict_1.default.equal(failed['subtype'], 'success');
    strict_1.default.equal(failed['is_error'], true);
    strict_1.default.equal(failed['result'], 'API Error: 400 bad "request"');
    strict_1.default.equal(failed['terminal_reason'], 'api_error');
    strict_1.default.deepEqual((0, printFormat_1.textOutput)(failed), { text: 'API Error: 400 bad "request"\n', exitCode: 1 });
    const synthetic = (0, printFormat_1.apiErrorEvent)(failed);
    strict_1.default.equal(synthetic['type'], 'assistant');
    strict_1.default.equal(synthetic['is_api_error_message'], true);
    strict_1.default.equal(synthetic['request_id'], 'req_9');
    const max = (0, printFormat_1.resultEvent)(ending({ status: 'max_turns', reason: 'reached the limit of 3 turns', maxTurns: 3 }));
    strict_1.default.equal(max['subtype'], 'error_max_turns');
    strict_1.default.deepEqual(max['errors'], ['Reached maximum number of turns (3)']);
    strict_1.default.equal('result' in max, false);
    strict_1.default.equal('api_error_status' in max, false);
    strict_1.default.deepEqual((0, printFormat_1.textOutput)(max), { text: 'Error: Reached max turns (3)', exitCode: 1 });
    const stopped = (0, printFormat_1.resultEvent)(ending({ status: 'cancelled', reason: 'cancelled' }));
    strict_1.default.equal(stopped['subtype'], 'error_during_execution');
    strict_1.default.equal(stopped['is_error'], true);
    strict_1.default.deepEqual((0, printFormat_1.textOutput)(stopped), { text: 'Error: cancelled', exitCode: 1 });
    strict_1.default.equal((0, printFormat_1.apiErrorEvent)(stopped), undefined);
});
(0, node_test_1.test)('unit print-format: the init line and the -p alias', () => {
    const init = (0, printFormat_1.initEvent)({
        sessionId: 's1',
        cwd: '/w',
        tools: ['Read'],
        mcpServers: ['fs'],
        model: 'm',
        permissionMode: 'default',
        agents: ['general-purpose'],
        skills: ['deploy'],
        additionalDirectories: [],
        apiKeySource: 'none',
        version: '0.1.0',
    });
    strict_1.default.equal(init['type'], 'system');
    strict_1.default.equal(init['subtype'], 'init');
    strict_1.default.equal(init['session_id'], 's1');
    strict_1.default.deepEqual(init['mcp_servers'], [{ name: 'fs', status: 'pending' }]);
    strict_1.default.equal(init['durable_agent_version'], '0.1.0');
    strict_1.default.deepEqual(init['skills'], ['deploy']);
    strict_1.default.deepEqual((0, main_1.withPrintAlias)(['node', 'da', '-p', 'x']), ['node', 'da', 'run', '-p', 'x']);
    strict_1.default.deepEqual((0, main_1.withPrintAlias)(['node', 'da', '--output-format=json', 'x']), [
        'node',
        'da',
        'run',
        '--output-format=json',
        'x',
    ]);
    strict_1.default.deepEqual((0, main_1.withPrintAlias)(['node', 'da', 'status', '-p']), ['node', 'da', 'status', '-p']);
});
//# sourceMappingURL=print-format.test.js.map