"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.fakeAnthropicFactory = fakeAnthropicFactory;
exports.withAgent = withAgent;
// Harness for session tests: a real worker on the real dev server, the real Anthropic SDK
// pointed at the fake Messages API, and a temp working directory and store per test.
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const client_1 = require("../../src/client");
const worker_1 = require("../../src/worker");
const temporal_1 = require("./temporal");
function fakeAnthropicFactory(fake) {
    return () => new sdk_1.default({ apiKey: 'test-key', baseURL: fake.baseURL, maxRetries: 0 });
}
async function withAgent(opts, fn) {
    const env = await (0, temporal_1.getTestEnv)();
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)(opts.fake ?? {});
    const taskQueue = (0, temporal_1.uniqueTaskQueue)('agent');
    const storeDir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-store-'));
    const workDir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-work-'));
    const ctx = {
        startWorker: () => Promise.reject(new Error('not ready')),
        env,
        client: env.client,
        fake,
        taskQueue,
        storeDir,
        workDir,
        start: (s) => (0, client_1.startSession)(env.client, {
            cwd: workDir,
            permissionMode: 'bypassPermissions',
            ...s,
            id: s.id ?? (0, temporal_1.uniqueWorkflowId)('session'),
            taskQueue,
            model: { model: 'claude-test', maxTokens: 1024, ...(s.model ?? {}) },
        }),
    };
    const makeWorker = async () => (0, worker_1.createAgentWorker)({
        connection: env.nativeConnection,
        namespace: env.namespace ?? 'default',
        taskQueue,
        storeDir,
        anthropic: fakeAnthropicFactory(fake),
        workflowBundle: await (0, temporal_1.getWorkflowBundle)(worker_1.workflowsPath),
        ...opts.worker,
        workerOptions: { stickyQueueScheduleToStartTimeout: '1s', ...opts.worker?.workerOptions },
    });
    ctx.startWorker = async () => {
        const worker = await makeWorker();
        const running = worker.run();
        return {
            stop: async () => {
                worker.shutdown();
                await running;
            },
        };
    };
    try {
        if (opts.noWorker)
            return await fn(ctx);
        const worker = await makeWorker();
        return await worker.runUntil(() => fn(ctx));
    }
    finally {
        await fake.close();
    }
}
//# sourceMappingURL=agent.js.map