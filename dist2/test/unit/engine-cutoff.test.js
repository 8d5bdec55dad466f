"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: a tool_use cut off by max_tokens is answered without running (src/engine/cutOff.ts).
// Found by `npm run test:faults` (model faults): the cut block ran with whatever the SDK's partial
// JSON parse kept, and the model was told "The required parameter `command` is missing".
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const context_1 = require("../../src/engine/context");
const turn_1 = require("../../src/engine/turn");
const cutOff_1 = require("../../src/engine/cutOff");
const tu = (id, input) => ({ type: 'tool_use', id, name: 'Bash', input });
function executor(message, stopReason, skip) {
    const ran = [];
    const exec = {
        callModel: async () => ({ kind: 'message', message, usage: { input_tokens: 1, output_tokens: 1 }, stopReason }),
        describe: async (blocks) => blocks.map(() => ({ known: true, concurrencySafe: false, readOnly: false, idempotent: false, summary: 'Bash' })),
        async runTool(block) {
            ran.push(block.id);
            return {
                kind: 'done',
                record: {
                    toolUseId: block.id,
                    toolName: 'Bash',
                    input: block.input,
                    summary: 'Bash',
                    status: 'ok',
                    result: { type: 'tool_result', tool_use_id: block.id, content: 'ran' },
                    contextModifiers: [],
                },
            };
        },
        awaitApproval: async () => 'interrupted',
        isInterrupted: () => false,
        ...(skip === undefined ? {} : { skipCutOffToolUse: () => skip }),
    };
    return { exec, ran };
}
const message = {
    role: 'assistant',
    content: [
        { type: 'text', text: 'two calls' },
        tu('toolu_a', { command: 'echo a' }),
        tu('toolu_b', { command: 'rm -rf build' }),
    ],
};
const input = { context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10 };
(0, node_test_1.test)('unit: max_tokens inside the last tool_use — the complete calls before it run, the cut one is answered without running', async () => {
    const { exec, ran } = executor(message, 'max_tokens');
    const out = await (0, turn_1.executeTurn)(input, exec);
    strict_1.default.deepEqual(ran, ['toolu_a']);
    strict_1.default.equal(out.reason, 'tool_use', 'the session goes on: the model sees why');
    const [a, b] = out.records;
    strict_1.default.equal(a?.status, 'ok');
    strict_1.default.equal(b?.status, 'error');
    strict_1.default.equal(b?.result.is_error, true);
    strict_1.default.match(String(b?.result.content), /not run: the response reached max_tokens while this tool_use was being written/);
    strict_1.default.match(String(b?.result.content), /rm -rf build/);
});
(0, node_test_1.test)('unit: max_tokens — nothing is cut when the message ends with text, or the stop reason is tool_use; a workflow turn recorded before the patch still runs it', async () => {
    strict_1.default.equal((0, cutOff_1.cutOffToolUse)({ role: 'assistant', content: [tu('x', {}), { type: 'text', text: 'then' }] }, 'max_tokens'), undefined);
    strict_1.default.equal((0, cutOff_1.cutOffToolUse)(message, 'tool_use'), undefined);
    strict_1.default.equal((0, cutOff_1.cutOffToolUse)(message, 'max_tokens')?.id, 'toolu_b');
    const normal = executor(message, 'tool_use');
    await (0, turn_1.executeTurn)(input, normal.exec);
    strict_1.default.deepEqual(normal.ran, ['toolu_a', 'toolu_b']);
    const old = executor(message, 'max_tokens', false);
    await (0, turn_1.executeTurn)(input, old.exec);
    strict_1.default.deepEqual(old.ran, ['toolu_a', 'toolu_b']);
});
//# sourceMappingURL=engine-cutoff.test.js.map