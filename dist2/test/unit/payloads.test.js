"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: what history carries instead of tool inputs, tool results and model output (invariant 11).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const payloads_1 = require("../../src/engine/payloads");
const records_1 = require("../../src/engine/records");
const client_1 = require("../../src/client");
const big = 'x'.repeat(100_000);
(0, node_test_1.test)('unit: messageForHistory keeps ids and names, small inputs whole, large inputs/text/thinking as previews', () => {
    const message = {
        role: 'assistant',
        content: [
            { type: 'thinking', thinking: big, signature: 'sig'.repeat(1000) },
            { type: 'text', text: big },
            { type: 'tool_use', id: 'a', name: 'Read', input: { file_path: '/x' } },
            { type: 'tool_use', id: 'b', name: 'Write', input: { file_path: '/y', content: big } },
        ],
    };
    const light = (0, payloads_1.messageForHistory)(message);
    strict_1.default.ok(JSON.stringify(light).length < 5000, `${JSON.stringify(light).length}`);
    const [thinking, text, small, large] = light.content;
    strict_1.default.equal(thinking?.type, 'thinking');
    strict_1.default.equal(text?.type === 'text' && text.text.length, payloads_1.TEXT_PREVIEW_CHARS);
    strict_1.default.deepEqual(small, { type: 'tool_use', id: 'a', name: 'Read', input: { file_path: '/x' } });
    strict_1.default.ok(large?.type === 'tool_use' && large.id === 'b' && large.name === 'Write');
    strict_1.default.ok(large.type === 'tool_use' && (0, payloads_1.isStoredInput)(large.input));
    strict_1.default.equal(large.input.chars, JSON.stringify({ file_path: '/y', content: big }).length);
    // An input exactly at the limit stays inline.
    const edge = { s: 'y'.repeat(payloads_1.INLINE_INPUT_MAX_CHARS - 8) };
    strict_1.default.equal(JSON.stringify(edge).length, payloads_1.INLINE_INPUT_MAX_CHARS);
    strict_1.default.deepEqual((0, payloads_1.messageForHistory)({ role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'T', input: edge }] })
        .content[0], { type: 'tool_use', id: 'c', name: 'T', input: edge });
    // The message itself is not changed.
    strict_1.default.equal(message.content[1].text.length, big.length);
    strict_1.default.deepEqual((0, payloads_1.findToolUse)([message], 'b'), message.content[3]);
    strict_1.default.equal((0, payloads_1.findToolUse)([message], 'zz'), undefined);
});
(0, node_test_1.test)('unit: recordForHistory keeps a preview and the reference; toolResultsByRef refers to stored results, keeps synthetic ones inline', async () => {
    const record = {
        toolUseId: 'a',
        toolName: 'Read',
        input: { file_path: '/x', pad: big },
        summary: 'Read /x',
        status: 'ok',
        result: { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: big }] },
        contextModifiers: [{ type: 'fileRead', path: '/x', mtimeMs: 1, partial: false }],
        newMessages: [{ role: 'user', content: big }],
    };
    const light = (0, payloads_1.recordForHistory)(record, 'toolresult-abc');
    strict_1.default.ok(JSON.stringify(light).length < payloads_1.RESULT_PREVIEW_CHARS + 1500, `${JSON.stringify(light).length}`);
    strict_1.default.equal(light.resultRef, 'toolresult-abc');
    strict_1.default.equal(light.resultChars, big.length);
    strict_1.default.deepEqual(light.contextModifiers, record.contextModifiers);
    strict_1.default.equal(light.newMessages, undefined);
    strict_1.default.ok((0, payloads_1.isStoredInput)(light.input));
    const synthetic = (0, records_1.syntheticRecord)({ type: 'tool_use', id: 'b', name: 'Bash', input: {} }, 'interrupted', 'Interrupted');
    const msg = (0, payloads_1.toolResultsByRef)([light, synthetic]);
    strict_1.default.deepEqual(msg.content, [
        { type: 'tool_result_ref', tool_use_id: 'a', ref: 'toolresult-abc' },
        synthetic.result,
    ]);
    const stored = { 'toolresult-abc': record.result };
    const [resolved] = await (0, payloads_1.resolveMessages)([msg], async (ref) => stored[ref]);
    strict_1.default.deepEqual(resolved, { role: 'user', content: [record.result, synthetic.result] });
    // A reference that answers another tool_use is refused, not silently misplaced.
    await strict_1.default.rejects((0, payloads_1.resolveMessages)([{ role: 'user', content: [{ type: 'tool_result_ref', tool_use_id: 'zz', ref: 'toolresult-abc' }] }], async (ref) => stored[ref]), /answers a, not zz/);
});
(0, node_test_1.test)('unit: a prompt longer than MAX_MESSAGE_CHARS is refused with what to do instead (user messages travel inline)', () => {
    strict_1.default.throws(() => (0, client_1.sessionInput)({ prompt: 'x'.repeat(client_1.MAX_MESSAGE_CHARS + 1), cwd: '/tmp' }), /the prompt is 262145 characters; the limit is 262144: put the material in a file/);
    strict_1.default.equal((0, client_1.sessionInput)({ prompt: 'x'.repeat(client_1.MAX_MESSAGE_CHARS), cwd: '/tmp' }).prompt.length, client_1.MAX_MESSAGE_CHARS);
});
//# sourceMappingURL=payloads.test.js.map