"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.WordCount = void 0;
// A custom tool end to end: define it with buildTool, give it to a worker, start a session that
// may use it. Run with a dev server up (`durable-agent dev`):  npx tsx examples/custom-tool.ts
const zod_1 = require("zod");
const worker_1 = require("@temporalio/worker");
const src_1 = require("../src");
// 1. The tool: one zod schema is both the API input_schema and the runtime validator.
exports.WordCount = (0, src_1.buildTool)({
    name: 'WordCount',
    inputSchema: zod_1.z.strictObject({ text: zod_1.z.string().min(1).describe('The text to count words in') }),
    maxResultSizeChars: 1_000,
    prompt: () => 'Counts the words in a text.',
    summary: (input) => `WordCount (${input.text.length} chars)`,
    isReadOnly: () => true, // pure: allowed in default mode, safe to re-run after a lost worker
    isConcurrencySafe: () => true, // may run in a parallel batch
    async call(input) {
        return { data: { words: input.text.trim().split(/\s+/).length } };
    },
    mapToolResultToToolResultBlockParam: (data, toolUseId) => ({
        type: 'tool_result',
        tool_use_id: toolUseId,
        content: `${data.words} words`,
    }),
});
async function main() {
    // 2. A worker that knows the tool (sessions pick tools by name from the worker's registry).
    const connection = await worker_1.NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS ?? 'localhost:7233' });
    const worker = await (0, src_1.createAgentWorker)({ connection, tools: [exports.WordCount], taskQueue: 'custom-tool-example' });
    await worker.runUntil(async () => {
        // 3. A session whose pool includes it.
        const { client } = await (0, src_1.connectClient)();
        const handle = await (0, src_1.startSession)(client, {
            prompt: 'How many words are in "the quick brown fox"? Use the WordCount tool.',
            tools: [...src_1.BUILTIN_TOOL_NAMES, 'WordCount'],
            taskQueue: 'custom-tool-example',
        });
        console.log(await handle.result());
    });
}
if (require.main === module)
    void main();
//# sourceMappingURL=custom-tool.js.map