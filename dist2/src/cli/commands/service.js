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
exports.defaultServicePort = defaultServicePort;
exports.addServiceCommands = addServiceCommands;
const dataHome_1 = require("../../stores/dataHome");
const options_1 = require("../options");
/** A loopback TEMPORAL_ADDRESS's port: `up` serves where `run` connects unless --port says otherwise. */
function defaultServicePort(env = process.env) {
    const m = /^(?:localhost|127\.0\.0\.1|\[::1\]):(\d+)$/.exec(env.TEMPORAL_ADDRESS ?? '');
    return m ? Number(m[1]) : undefined;
}
function addServiceCommands(program) {
    (0, options_1.addServerOptions)(program
        .command('up')
        .description('Start the embedded default (dev server + worker, as `dev`) as a background service that outlives this terminal; its pid file and log are in the data directory'))
        .option('--ip <ip>', 'address to bind', '127.0.0.1')
        .option('--task-queue <name>', 'task queue of the worker (env DURABLE_AGENT_TASK_QUEUE)')
        .option('--json', 'one JSON line')
        .action(async (o, cmd) => {
        const { serviceLine, serviceUp } = await Promise.resolve().then(() => __importStar(require('../service')));
        let port = o.port;
        if (cmd.getOptionValueSource('port') === 'default') {
            const fromEnv = defaultServicePort();
            if (fromEnv !== undefined)
                port = fromEnv;
            else if (process.env.TEMPORAL_ADDRESS)
                process.stderr.write(`durable-agent: warning: TEMPORAL_ADDRESS is ${process.env.TEMPORAL_ADDRESS}, not this machine: \`run\` will connect there, not to the service on port ${port}\n`);
        }
        const args = ['--db', o.db, '--port', String(port), '--ui-port', String(o.uiPort), '--ip', o.ip];
        if (o.taskQueue)
            args.push('--task-queue', o.taskQueue);
        let r;
        try {
            r = await serviceUp(args);
        }
        catch (err) {
            throw new options_1.UsageError(err.message);
        }
        (0, options_1.print)(o, { status: r.status, ...r.state, home: (0, dataHome_1.durableAgentHome)() }, serviceLine(r));
    });
    program
        .command('down')
        .description('Stop the background service started by `up` (its worker, then its server)')
        .option('--json', 'one JSON line')
        .action(async (o) => {
        const { serviceDown } = await Promise.resolve().then(() => __importStar(require('../service')));
        const r = await serviceDown();
        const home = (0, dataHome_1.durableAgentHome)();
        (0, options_1.print)(o, { ...r, home }, r.status === 'not_running'
            ? `durable-agent is not running (no service in ${home}): nothing to stop`
            : `durable-agent stopped (pid ${r.pid})${r.forced ? ': it did not stop within 30 s and was killed' : ''}`);
    });
}
//# sourceMappingURL=service.js.map