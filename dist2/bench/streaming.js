"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Benchmark: streaming tool execution. Each turn's message streams over ~2.6 s: three read blocks
// that complete at ~0.3 s, ~0.9 s and ~1.5 s (each read takes 1 s: a slow file system or a
// remote search), then the model keeps writing text for ~1 s. Wall time per turn with and without streaming execution,
// on a Temporal dev server and in-process, in one run. Not a test: machines are noisy.
//   npm run build && node dist/bench/streaming.js [turns=4]
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const client_1 = require("@temporalio/client");
const worker_1 = require("@temporalio/worker");
const zod_1 = require("zod");
const fakeAnthropic_1 = require("../src/testing/fakeAnthropic");
const runSession_1 = require("../src/local/runSession");
const client_2 = require("../src/client");
const devServer_1 = require("../src/temporal/devServer");
const worker_2 = require("../src/worker");
const Tool_1 = require("../src/tools/Tool");
const TURNS = Number(process.argv[2] ?? 4);
const TOOL_MS = 1000;
/** A concurrency-safe read that takes TOOL_MS (a slow disk or a network file system). */
const SlowRead = (0, Tool_1.buildTool)({
    name: 'SlowRead',
    inputSchema: zod_1.z.strictObject({ name: zod_1.z.string() }),
    prompt: () => 'Reads a named file slowly.',
    summary: (i) => `SlowRead ${i.name}`,
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    async call(input) {
        await new Promise((r) => setTimeout(r, TOOL_MS));
        return { data: `contents of ${input.name}` };
    },
    mapToolResultToToolResultBlockParam: (data, id) => ({ type: 'tool_result', tool_use_id: id, content: data }),
});
function script(tag) {
    return (req) => {
        const turn = req.messages.filter((m) => m.role === 'assistant').length + 1;
        if (turn > TURNS)
            return (0, fakeAnthropic_1.textResponse)('done');
        return {
            content: [
                { type: 'text', text: 'Reading three files.', pauseAfterMs: 300 },
                ...[0, 1, 2].map((i) => ({
                    type: 'tool_use',
                    id: `toolu_${tag}${turn}_${i}`,
                    name: 'SlowRead',
                    input: { name: `f${i}` },
                    pauseAfterMs: i < 2 ? 600 : 1100,
                })),
                { type: 'text', text: 'And while those run, some more thoughts.' },
            ],
        };
    };
}
async function main() {
    worker_1.Runtime.install({ logger: new worker_1.DefaultLogger('ERROR') });
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    const anthropic = () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });
    const work = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-bench-stream-'));
    (0, node_fs_1.writeFileSync)((0, node_path_1.join)(work, 'x'), 'x');
    const common = {
        prompt: 'bench',
        cwd: work,
        tools: ['SlowRead'],
        permissionMode: 'bypassPermissions',
        model: { model: 'bench', maxTokens: 256 },
        maxTurns: TURNS + 1,
    };
    const rows = [];
    for (const on of [true, false]) {
        fake.script(script(on ? 'l' : 'L'));
        const t0 = performance.now();
        await (0, runSession_1.runLocalSession)({ ...common, streamingToolExecution: on }, { tools: [SlowRead], anthropic, storeDir: (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-bench-store-')) });
        rows.push(['in-process', on ? 1 : 0, (performance.now() - t0) / TURNS]);
    }
    const server = await (0, devServer_1.startDevServer)({});
    const connection = await worker_1.NativeConnection.connect({ address: server.address });
    const worker = await (0, worker_2.createAgentWorker)({
        connection,
        taskQueue: 'bench-stream',
        tools: [SlowRead],
        anthropic,
        storeDir: (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-bench-store-')),
        workflowBundle: await (0, worker_2.bundleAgentWorkflows)(),
    });
    await worker.runUntil(async () => {
        const c = await client_1.Connection.connect({ address: server.address });
        const client = new client_1.Client({ connection: c });
        for (const on of [true, false]) {
            fake.script(script(on ? 't' : 'T'));
            const t1 = performance.now();
            const r = await (await (0, client_2.startSession)(client, {
                ...common,
                streamingToolExecution: on,
                taskQueue: 'bench-stream',
                useSearchAttributes: false,
            })).result();
            if (r.status !== 'completed')
                throw new Error(`temporal session ${r.status}: ${r.endReason}`);
            rows.push(['temporal', on ? 1 : 0, (performance.now() - t1) / TURNS]);
        }
        await c.close();
    });
    await server.stop();
    await fake.close();
    console.log(`${TURNS} tool turns (+1 closing text turn, counted in the average); each message streams ~2.6 s, its 3 SlowReads of ${TOOL_MS} ms complete at ~0.3/0.9/1.5 s`);
    for (const where of ['in-process', 'temporal']) {
        const on = rows.find((r) => r[0] === where && r[1] === 1)?.[2] ?? NaN;
        const off = rows.find((r) => r[0] === where && r[1] === 0)?.[2] ?? NaN;
        console.log(`${where.padEnd(10)}  streaming on ${on.toFixed(0)} ms/turn, off ${off.toFixed(0)} ms/turn: ${(100 * (1 - on / off)).toFixed(0)} % less`);
    }
}
main().catch((err) => {
    console.error(err);
    process.exit(1);
});
//# sourceMappingURL=streaming.js.map