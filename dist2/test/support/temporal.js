"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.getTestEnv = getTestEnv;
exports.closeTestEnv = closeTestEnv;
exports.uniqueTaskQueue = uniqueTaskQueue;
exports.uniqueWorkflowId = uniqueWorkflowId;
exports.getWorkflowBundle = getWorkflowBundle;
exports.withWorker = withWorker;
// Harness for integration tests on a real Temporal dev server: a shared test environment,
// unique ids, cached workflow bundles and a worker that always shuts down.
//
// Use in a test file:
//   after(closeTestEnv);
//   test('…', () => withWorker({ taskQueue, workflowsPath, activities }, async ({ client }) => { … }));
const node_crypto_1 = require("node:crypto");
const testing_1 = require("@temporalio/testing");
const worker_1 = require("@temporalio/worker");
const cli_1 = require("../../src/temporal/cli");
require("./isolatedHome");
let envPromise;
/** Keep the SDK's INFO chatter (worker state changes, bundle sizes) out of test output. */
function quietRuntime() {
    try {
        worker_1.Runtime.install({
            logger: new worker_1.DefaultLogger(process.env.TEMPORAL_TEST_LOG_LEVEL ?? 'WARN'),
        });
    }
    catch {
        // Already installed (by us or by the test): keep it.
    }
}
async function createEnv() {
    quietRuntime();
    const address = process.env.TEMPORAL_TEST_ADDRESS;
    if (address) {
        return testing_1.TestWorkflowEnvironment.createFromExistingServer({
            address,
            namespace: process.env.TEMPORAL_TEST_NAMESPACE ?? 'default',
        });
    }
    // A file run on its own (not through scripts/run-tests.mjs): start a server for this process.
    const cli = await (0, cli_1.resolveTemporalCli)();
    return testing_1.TestWorkflowEnvironment.createLocal({
        server: {
            executable: cli.kind === 'path' ? { type: 'existing-path', path: cli.path } : { type: 'cached-download' },
            ip: '127.0.0.1',
            log: { format: 'pretty', level: 'warn' },
        },
    });
}
/**
 * The test environment for this process, created on first use: connected to TEMPORAL_TEST_ADDRESS
 * (set by the test runner), or a dev server of its own when the variable is absent.
 */
function getTestEnv() {
    envPromise ??= createEnv().catch((err) => {
        envPromise = undefined;
        throw err;
    });
    return envPromise;
}
/** Close the shared environment (and its own server, if it started one). Call it from `after`. */
async function closeTestEnv() {
    const p = envPromise;
    envPromise = undefined;
    if (p)
        await (await p).teardown();
}
/** e.g. `smoke-3f2a…`: one per test, so tests never see each other's tasks. */
function uniqueTaskQueue(prefix = 'test') {
    return `${prefix}-tq-${(0, node_crypto_1.randomUUID)()}`;
}
function uniqueWorkflowId(prefix = 'test') {
    return `${prefix}-wf-${(0, node_crypto_1.randomUUID)()}`;
}
const bundles = new Map();
/** Bundle once per workflows file per process: webpack takes seconds. */
function getWorkflowBundle(workflowsPath) {
    let p = bundles.get(workflowsPath);
    if (!p) {
        p = (0, worker_1.bundleWorkflowCode)({ workflowsPath, logger: new worker_1.DefaultLogger('WARN') });
        p.catch(() => bundles.delete(workflowsPath));
        bundles.set(workflowsPath, p);
    }
    return p;
}
/** Run `fn` while a worker polls `taskQueue`; the worker is shut down afterwards, also when `fn` throws. */
async function withWorker(opts, fn) {
    const env = await getTestEnv();
    const worker = await worker_1.Worker.create({
        connection: env.nativeConnection,
        namespace: env.namespace ?? 'default',
        taskQueue: opts.taskQueue,
        workflowBundle: await getWorkflowBundle(opts.workflowsPath),
        ...(opts.activities ? { activities: opts.activities } : {}),
        ...opts.workerOptions,
    });
    // runUntil shuts the worker down (and waits for it) whether fn resolves or rejects.
    return worker.runUntil(() => fn({ env, client: env.client, worker, taskQueue: opts.taskQueue }));
}
//# sourceMappingURL=temporal.js.map