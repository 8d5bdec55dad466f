"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TEST_TOOLS = exports.CountSafeTool = exports.AppendSlowTool = void 0;
// Tools for tests that need an observable side effect: each call appends a line to a file
// (a side-effect counter that survives worker crashes), then optionally takes its time.
const promises_1 = require("node:fs/promises");
const promises_2 = require("node:timers/promises");
const zod_1 = require("zod");
const Tool_1 = require("../../src/tools/Tool");
const appendSlowInput = zod_1.z.strictObject({
    file: zod_1.z.string().min(1).describe('Absolute path of the file to append to.'),
    text: zod_1.z.string().describe('The line to append (a newline is added).'),
    delayMs: zod_1.z.number().int().min(0).max(600_000).optional().describe('How long to wait after appending, in ms.'),
    idempotent: zod_1.z.boolean().optional().describe('Whether the call may be re-run after a lost worker.'),
});
/** Waits `ms`, rejecting at once when `signal` aborts. */
function wait(ms, signal) {
    return (0, promises_2.setTimeout)(ms, undefined, { signal });
}
/** Appends `text\n` to `file` at once (the side effect), then waits `delayMs` (abortable). */
exports.AppendSlowTool = (0, Tool_1.buildTool)({
    name: 'AppendSlow',
    inputSchema: appendSlowInput,
    prompt: () => 'Appends a line to a file, then waits. Test tool.',
    summary: (i) => `AppendSlow ${i.file} "${i.text}"${i.delayMs ? ` (+${i.delayMs} ms)` : ''}`,
    isIdempotent: (i) => i.idempotent === true,
    async call(input, ctx) {
        await (0, promises_1.appendFile)(input.file, `${input.text}\n`, 'utf8');
        const waitedMs = input.delayMs ?? 0;
        if (waitedMs > 0)
            await wait(waitedMs, ctx.abortSignal);
        return { data: { file: input.file, text: input.text, waitedMs } };
    },
    mapToolResultToToolResultBlockParam(data, toolUseId) {
        return {
            type: 'tool_result',
            tool_use_id: toolUseId,
            content: `Appended "${data.text}" to ${data.file} (waited ${data.waitedMs} ms).`,
        };
    },
});
const countSafeInput = zod_1.z.strictObject({
    file: zod_1.z.string().min(1).describe('Absolute path of the counter file.'),
    text: zod_1.z.string().describe('The line to append (a newline is added).'),
    delayMs: zod_1.z.number().int().min(0).max(600_000).optional().describe('How long to wait after appending, in ms.'),
});
/**
 * A concurrency-safe tool with an observable side effect (a line per call, written at once):
 * streaming tool execution may start it early, and a test can count how often it really ran.
 */
exports.CountSafeTool = (0, Tool_1.buildTool)({
    name: 'CountSafe',
    inputSchema: countSafeInput,
    prompt: () => 'Appends a line to a counter file, then waits. Concurrency-safe. Test tool.',
    summary: (i) => `CountSafe ${i.file} "${i.text}"`,
    isConcurrencySafe: () => true,
    async call(input, ctx) {
        await (0, promises_1.appendFile)(input.file, `${input.text}\n`, 'utf8');
        const waitedMs = input.delayMs ?? 0;
        if (waitedMs > 0)
            await wait(waitedMs, ctx.abortSignal);
        return { data: { file: input.file, text: input.text, waitedMs } };
    },
    mapToolResultToToolResultBlockParam(data, toolUseId) {
        return { type: 'tool_result', tool_use_id: toolUseId, content: `Counted "${data.text}" in ${data.file}.` };
    },
});
exports.TEST_TOOLS = [exports.AppendSlowTool, exports.CountSafeTool];
//# sourceMappingURL=testTools.js.map