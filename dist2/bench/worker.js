"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// The bench's Temporal worker, in its own process (as in a deployment), so that its RSS is its
// own. Forked by bench/run.ts with IPC: answers 'rss', stops on 'stop'.
//   env: BENCH_ADDRESS, BENCH_TASK_QUEUE, BENCH_FAKE_URL, BENCH_STORE_DIR
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const worker_1 = require("@temporalio/worker");
const worker_2 = require("../src/worker");
const sleepTool_1 = require("./sleepTool");
async function main() {
    worker_1.Runtime.install({ logger: new worker_1.DefaultLogger('ERROR') });
    const env = (k) => {
        const v = process.env[k];
        if (!v)
            throw new Error(`bench worker: ${k} is not set`);
        return v;
    };
    const connection = await worker_1.NativeConnection.connect({ address: env('BENCH_ADDRESS') });
    const worker = await (0, worker_2.createAgentWorker)({
        connection,
        taskQueue: env('BENCH_TASK_QUEUE'),
        tools: [sleepTool_1.SleepTool],
        anthropic: () => new sdk_1.default({ apiKey: 'bench', baseURL: env('BENCH_FAKE_URL'), maxRetries: 0 }),
        storeDir: env('BENCH_STORE_DIR'),
        workflowBundle: await (0, worker_2.bundleAgentWorkflows)(),
    });
    process.on('message', (m) => {
        if (m?.type === 'rss')
            process.send?.({ type: 'rss', rss: process.memoryUsage().rss });
        if (m?.type === 'stop')
            worker.shutdown();
    });
    process.on('disconnect', () => worker.shutdown());
    const running = worker.run();
    process.send?.({ type: 'ready' });
    await running;
    await connection.close();
    process.exit(0);
}
main().catch((err) => {
    console.error(err);
    process.exit(1);
});
//# sourceMappingURL=worker.js.map