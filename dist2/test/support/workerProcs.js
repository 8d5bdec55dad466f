"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.lines = lines;
exports.workerProcessEnv = workerProcessEnv;
exports.spawnWorker = spawnWorker;
exports.killGroup = killGroup;
// Worker processes for crash tests: each in its own process group (so SIGKILL takes the whole
// worker), its output prefixed with its name, ready when it prints "worker ready".
const node_child_process_1 = require("node:child_process");
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const node_readline_1 = require("node:readline");
const promises_2 = require("node:fs/promises");
const worker_1 = require("../../src/worker");
const temporal_1 = require("./temporal");
const WORKER_SCRIPT = (0, node_path_1.join)(__dirname, 'workerProcess.js');
async function lines(file) {
    const text = await (0, promises_1.readFile)(file, 'utf8').catch(() => '');
    return text.split('\n').filter((l) => l !== '');
}
/**
 * The environment of worker processes for a `withAgent({ noWorker: true })` test: the test's server
 * and namespace, its task queue, store and fake API, and the workflow bundle, written once into the
 * store directory (each process loads it instead of bundling again). Add what a test needs on top.
 */
async function workerProcessEnv(ctx) {
    const bundlePath = (0, node_path_1.join)(ctx.storeDir, 'workflow-bundle.js');
    await (0, promises_2.writeFile)(bundlePath, (await (0, temporal_1.getWorkflowBundle)(worker_1.workflowsPath)).code);
    return {
        TEMPORAL_TEST_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS ?? ctx.env.address,
        TEMPORAL_TEST_NAMESPACE: ctx.env.namespace ?? 'default',
        TASK_QUEUE: ctx.taskQueue,
        STORE_DIR: ctx.storeDir,
        FAKE_ANTHROPIC_URL: ctx.fake.baseURL,
        WORKFLOW_BUNDLE_PATH: bundlePath,
    };
}
/**
 * Starts a worker process (its own process group) and waits for its "worker ready" line. `script`:
 * another build's workerProcess.js (an earlier release, test/integration/upgrade).
 */
async function spawnWorker(name, env, procs, script = WORKER_SCRIPT) {
    const child = (0, node_child_process_1.spawn)(process.execPath, ['--enable-source-maps', script], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
    });
    const exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const proc = { name, child, exited };
    procs.push(proc);
    (0, node_readline_1.createInterface)({ input: child.stderr }).on('line', (l) => process.stderr.write(`[${name}] ${l}\n`));
    await new Promise((resolve, reject) => {
        // Generous: on a loaded machine (CI, parallel suites) loading the worker takes a while.
        const timer = setTimeout(() => reject(new Error(`${name} did not report ready within 90 s`)), 90_000);
        (0, node_readline_1.createInterface)({ input: child.stdout }).on('line', (l) => {
            if (l.trim() === 'worker ready') {
                clearTimeout(timer);
                resolve();
            }
            else
                process.stdout.write(`[${name}] ${l}\n`);
        });
        child.once('exit', (code, signal) => {
            clearTimeout(timer);
            reject(new Error(`${name} exited before it was ready (code ${code}, signal ${signal})`));
        });
    });
    return proc;
}
function killGroup(proc) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null || proc.child.pid === undefined)
        return;
    try {
        process.kill(-proc.child.pid, 'SIGKILL');
    }
    catch {
        try {
            proc.child.kill('SIGKILL');
        }
        catch {
            // already gone
        }
    }
}
//# sourceMappingURL=workerProcs.js.map