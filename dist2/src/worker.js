"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.workflowsPath = exports.workerPrivatePaths = exports.sessionDirName = exports.defaultStoreDir = exports.createAgentActivities = void 0;
exports.createAgentWorker = createAgentWorker;
exports.bundleAgentWorkflows = bundleAgentWorkflows;
// Worker start-up: the only place that builds real clients and stores and wires them into the
// activity factories. Library users call createAgentWorker() with their own tools and hooks.
const worker_1 = require("@temporalio/worker");
const bashParser_1 = require("./permissions/bashParser");
const workerLimits_1 = require("./workerLimits");
const bashProcess_1 = require("./tools/builtin/bashProcess");
const definitions_1 = require("./workflows/definitions");
const reaper_1 = require("./sandbox/reaper");
const workerDeps_1 = require("./workerDeps");
var workerDeps_2 = require("./workerDeps");
Object.defineProperty(exports, "createAgentActivities", { enumerable: true, get: function () { return workerDeps_2.createAgentActivities; } });
Object.defineProperty(exports, "defaultStoreDir", { enumerable: true, get: function () { return workerDeps_2.defaultStoreDir; } });
Object.defineProperty(exports, "sessionDirName", { enumerable: true, get: function () { return workerDeps_2.sessionDirName; } });
Object.defineProperty(exports, "workerPrivatePaths", { enumerable: true, get: function () { return workerDeps_2.workerPrivatePaths; } });
exports.workflowsPath = require.resolve('./workflows');
async function createAgentWorker(opts) {
    (0, bashProcess_1.bashSpoolCapBytes)(); // a malformed DURABLE_AGENT_BASH_MAX_SPOOL_BYTES stops the worker at start, not each Bash call
    const { activities, closeMcp, blobs } = (0, workerDeps_1.createAgentActivities)(opts);
    // Bash rules and read-only detection run on the tree-sitter-bash parser (wasm, loaded once).
    if (!(await (0, bashParser_1.loadShellParser)())) {
        console.warn(`durable-agent: the shell parser did not load (${(0, bashParser_1.shellParserError)()}); every Bash command will be treated as unknown (never read-only, matched by no allow rule).`);
    }
    const worker = await worker_1.Worker.create({
        connection: opts.connection,
        namespace: opts.namespace ?? process.env.TEMPORAL_NAMESPACE ?? 'default',
        taskQueue: opts.taskQueue ?? process.env.DURABLE_AGENT_TASK_QUEUE ?? definitions_1.TASK_QUEUE_DEFAULT,
        activities,
        ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: exports.workflowsPath }),
        // Cancellation reaches an activity on its next heartbeat: keep the throttle short so an
        // interrupted Bash dies well within two seconds. Tool calls send a keepalive every 500 ms
        // (calls/heartbeat.ts); the throttle coalesces progress and the model's per-event
        // heartbeats to the same rate.
        maxHeartbeatThrottleInterval: '500 ms',
        defaultHeartbeatThrottleInterval: '500 ms',
        // Activities, workflow tasks, cached workflows: sized per concurrent session (src/workerLimits.ts).
        ...(0, workerLimits_1.workerLimits)(),
        ...opts.workerOptions,
    });
    // The worker owns its MCP connections: they close when it stops running.
    const run = worker.run.bind(worker);
    worker.run = async () => {
        // Sandbox processes left by workers of this host that died (a SIGKILL in the first
        // milliseconds of a sandboxed Bash): swept now and every minute (src/sandbox/reaper.ts).
        const stopSweeping = (0, reaper_1.startSweeping)();
        try {
            return await run();
        }
        finally {
            stopSweeping();
            await closeMcp();
            // A store this worker opened (a PostgreSQL pool from DURABLE_AGENT_STORE) closes with it; one passed in belongs to the caller.
            if (!opts.blobStore)
                await blobs.close?.().catch(() => undefined);
        }
    };
    return worker;
}
let bundleCache;
/** Bundles the workflows once per process (webpack is slow). */
function bundleAgentWorkflows() {
    bundleCache ??= (0, worker_1.bundleWorkflowCode)({ workflowsPath: exports.workflowsPath, logger: quietLogger });
    return bundleCache;
}
const quietLogger = {
    log: () => undefined,
    trace: () => undefined,
    debug: () => undefined,
    info: () => undefined,
    warn: (m) => console.warn(m),
    error: (m) => console.error(m),
};
//# sourceMappingURL=worker.js.map