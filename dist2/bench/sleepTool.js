"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SleepTool = exports.SLEEP_TOOL_NAME = void 0;
// A bench-only tool: sleeps `ms`, concurrency-safe and read-only (a stand-in for a slow Read or
// Grep whose duration the bench controls). Registered only by the bench's workers.
const zod_1 = require("zod");
const Tool_1 = require("../src/tools/Tool");
exports.SLEEP_TOOL_NAME = 'BenchSleep';
exports.SleepTool = (0, Tool_1.buildTool)({
    name: exports.SLEEP_TOOL_NAME,
    inputSchema: zod_1.z.strictObject({ ms: zod_1.z.number().int().min(0).max(60_000) }),
    prompt: () => 'Waits the given number of milliseconds (benchmark tool).',
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    summary: (input) => `BenchSleep ${input.ms} ms`,
    async call(input, ctx) {
        await new Promise((resolve) => {
            const t = setTimeout(resolve, input.ms);
            ctx.abortSignal?.addEventListener('abort', () => {
                clearTimeout(t);
                resolve();
            });
        });
        return { data: input.ms };
    },
    mapToolResultToToolResultBlockParam: (ms, id) => ({
        type: 'tool_result',
        tool_use_id: id,
        content: `slept ${ms} ms`,
    }),
});
//# sourceMappingURL=sleepTool.js.map