"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.workerSandboxLine = workerSandboxLine;
exports.addWorkerCommand = addWorkerCommand;
const connection_1 = require("../../temporal/connection");
const definitions_1 = require("../../workflows/definitions");
const options_1 = require("../options");
/** What a worker says at start about Bash's OS sandbox on this host. */
async function workerSandboxLine() {
    const { SandboxHost } = await Promise.resolve().then(() => __importStar(require('../../sandbox/host')));
    const a = await new SandboxHost().availability();
    return a.available
        ? 'available (Bash runs sandboxed unless a session opts out)'
        : `UNAVAILABLE — ${a.reason}; sessions run Bash unsandboxed (refused with sandbox.failIfUnavailable)`;
}
function addWorkerCommand(program) {
    (0, options_1.addConnectionOptions)(program
        .command('worker')
        .description('Run a worker only (connects to TEMPORAL_ADDRESS)')
        .option('--task-queue <name>', 'task queue to poll (env DURABLE_AGENT_TASK_QUEUE)')
        .option('--store-dir <dir>', 'transcripts, ledger and large results (env DURABLE_AGENT_STORE_DIR)')
        .option('--store <url>', 'a store shared by workers on several hosts: postgres://user:pw@host:5432/db (env DURABLE_AGENT_STORE)')).action(runWorker);
}
async function runWorker(o) {
    const { connectWorker } = await Promise.resolve().then(() => __importStar(require('../../temporal/connection')));
    const { createAgentWorker } = await Promise.resolve().then(() => __importStar(require('../../worker')));
    const { quietTemporalRuntime } = await Promise.resolve().then(() => __importStar(require('../dev')));
    quietTemporalRuntime();
    const config = (0, connection_1.loadConnectionConfig)((0, options_1.connectionOverrides)(o));
    // The store first: a bad --store / DURABLE_AGENT_STORE is one line, before any connection.
    const { configuredBlobStore, describeBlobStore } = await Promise.resolve().then(() => __importStar(require('../../stores/configured')));
    const storeDir = o.storeDir ?? (await Promise.resolve().then(() => __importStar(require('../../worker')))).defaultStoreDir();
    const blobStore = configuredBlobStore({ storeDir, ...(o.store ? { store: o.store } : {}) });
    const connection = await connectWorker(config);
    const worker = await createAgentWorker({
        connection,
        namespace: config.namespace,
        ...(o.taskQueue ? { taskQueue: o.taskQueue } : {}),
        storeDir,
        blobStore,
    });
    console.log(`worker: ${config.address} namespace ${config.namespace}, task queue ${o.taskQueue ?? process.env.DURABLE_AGENT_TASK_QUEUE ?? definitions_1.TASK_QUEUE_DEFAULT}`);
    console.log(`store: ${describeBlobStore(blobStore)}`);
    console.log(`sandbox: ${await workerSandboxLine()}`);
    const running = worker.run();
    await Promise.race([(0, options_1.waitForSignal)(), running]);
    if (worker.getState() === 'RUNNING')
        worker.shutdown();
    await running;
}
//# sourceMappingURL=worker.js.map