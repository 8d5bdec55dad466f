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
exports.addDevCommand = addDevCommand;
// `durable-agent dev`: the embedded default — a Temporal dev server (SQLite, with its UI) and a worker.
const node_path_1 = require("node:path");
const commander_1 = require("commander");
const definitions_1 = require("../../workflows/definitions");
const options_1 = require("../options");
const worker_1 = require("./worker");
function addDevCommand(program) {
    (0, options_1.addServerOptions)(program
        .command('dev')
        .description('Start the embedded default: a Temporal dev server (persisted to SQLite, with its UI) and a worker'))
        .option('--ip <ip>', 'address to bind', '127.0.0.1')
        .option('--task-queue <name>', 'task queue of the worker (env DURABLE_AGENT_TASK_QUEUE)')
        .addOption(new commander_1.Option('--service', 'run as the background service of `durable-agent up`').hideHelp())
        .action(runDev);
}
async function runDev(o, cmd) {
    const { startDev } = await Promise.resolve().then(() => __importStar(require('../dev')));
    const defaultDb = cmd.getOptionValueSource('db') === 'default';
    const dev = await startDev({
        db: o.db,
        defaultDb,
        port: o.port,
        uiPort: o.uiPort,
        ip: o.ip,
        ...(o.taskQueue ? { taskQueue: o.taskQueue } : {}),
    });
    const taskQueue = o.taskQueue ?? process.env.DURABLE_AGENT_TASK_QUEUE ?? definitions_1.TASK_QUEUE_DEFAULT;
    console.log(`temporal: ${dev.server.address} (persisted to ${(0, node_path_1.resolve)(o.db)})`);
    console.log(`ui:       ${dev.server.uiAddress}`);
    console.log(`worker:   task queue ${taskQueue}`);
    console.log(`sandbox:  ${await (0, worker_1.workerSandboxLine)()}`);
    console.log(`ready. In another terminal: durable-agent run "…"   (Ctrl-C here stops the server and the worker; sessions resume on the next start)`);
    // As `up`'s service: the state file `up` waits for, removed when it stops.
    const unannounce = o.service
        ? (await Promise.resolve().then(() => __importStar(require('../service')))).announceService({
            address: dev.server.address,
            ...(dev.server.uiAddress ? { ui: dev.server.uiAddress } : {}),
            taskQueue,
            db: (0, node_path_1.resolve)(o.db),
        })
        : undefined;
    await (0, options_1.waitForSignal)();
    console.log('stopping…');
    await dev.stop();
    unannounce?.();
}
//# sourceMappingURL=dev.js.map