"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// One worker process of the load run (bench/load.ts), configured by env:
//   LOAD_ADDRESS, LOAD_TASK_QUEUE, LOAD_STORE_DIR, LOAD_FAKE_URL, LOAD_BUNDLE_PATH, LOAD_IDENTITY
//   DURABLE_AGENT_STORE (optional: the shared store) and the worker limits' env vars (src/workerLimits.ts).
// Counts its store operations and prints them as one JSON line (`store-ops {…}`) when it stops
// (SIGTERM), so that the run can report store traffic per turn. Prints "worker ready" when polling.
const node_fs_1 = require("node:fs");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const worker_1 = require("@temporalio/worker");
const worker_2 = require("../src/worker");
const configured_1 = require("../src/stores/configured");
function required(name) {
    const v = process.env[name];
    if (!v)
        throw new Error(`loadWorker: env ${name} is required`);
    return v;
}
async function main() {
    worker_1.Runtime.install({ logger: new worker_1.DefaultLogger('ERROR') });
    const storeDir = required('LOAD_STORE_DIR');
    const inner = (0, configured_1.configuredBlobStore)({ storeDir });
    const ops = { puts: 0, gets: 0, putBytes: 0, getBytes: 0, putMs: 0, getMs: 0 };
    const counted = {
        toString: () => String(inner),
        async put(key, data) {
            const t = performance.now();
            await inner.put(key, data);
            ops.puts++;
            ops.putBytes += data.length;
            ops.putMs += performance.now() - t;
        },
        async get(key) {
            const t = performance.now();
            const v = await inner.get(key);
            ops.gets++;
            ops.getBytes += v?.length ?? 0;
            ops.getMs += performance.now() - t;
            return v;
        },
    };
    const connection = await worker_1.NativeConnection.connect({ address: required('LOAD_ADDRESS') });
    const baseURL = required('LOAD_FAKE_URL');
    const worker = await (0, worker_2.createAgentWorker)({
        connection,
        taskQueue: required('LOAD_TASK_QUEUE'),
        storeDir,
        blobStore: counted,
        anthropic: () => new sdk_1.default({ apiKey: 'bench', baseURL, maxRetries: 0 }),
        workflowBundle: { code: (0, node_fs_1.readFileSync)(required('LOAD_BUNDLE_PATH'), 'utf8') },
        workerOptions: { identity: required('LOAD_IDENTITY'), shutdownGraceTime: '5s' },
    });
    process.once('SIGTERM', () => worker.shutdown());
    const running = worker.run();
    console.log('worker ready');
    try {
        await running;
    }
    finally {
        console.log(`store-ops ${JSON.stringify(ops)}`);
        await connection.close();
        await inner.close?.();
    }
}
main().then(() => process.exit(0), (err) => {
    console.error(`loadWorker: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
});
//# sourceMappingURL=loadWorker.js.map