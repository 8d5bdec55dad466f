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
exports.DEV_SERVER_DYNAMIC_CONFIG = void 0;
exports.dynamicConfigArgs = dynamicConfigArgs;
exports.freePort = freePort;
exports.portIsFree = portIsFree;
exports.startDevServer = startDevServer;
// Starts a Temporal dev server (`temporal server start-dev`) as a child process and stops it
// cleanly. Used by the test runner and by `durable-agent dev`.
const node_child_process_1 = require("node:child_process");
const net = __importStar(require("node:net"));
const client_1 = require("@temporalio/client");
const cli_1 = require("./cli");
/**
 * What the dev server is started with unless the caller says otherwise (measured with
 * bench/floor.ts; numbers in BENCHMARKS.md "Where the time goes"):
 * - history.transferProcessorMaxPollRPS: every new workflow/activity task (and child start or
 *   completion) is dispatched by the history shard's transfer queue reader, which loads at most
 *   this many times a second per shard (default 20). The dev server has ONE shard, so a session's
 *   sequential tasks waited ≈ 40–45 ms each for the next load (50 ms minus the worker's own
 *   processing); at 1000 the wait is 1–3 ms.
 * - system.enableActivityEagerExecution: an activity scheduled by a workflow task completion is
 *   handed back to the same worker in the response, skipping matching (Scheduled→Started 2 ms → 0).
 */
exports.DEV_SERVER_DYNAMIC_CONFIG = {
    'history.transferProcessorMaxPollRPS': 1000,
    'system.enableActivityEagerExecution': true,
};
/** The `--dynamic-config-value` arguments for the defaults merged with `overrides`. */
function dynamicConfigArgs(overrides = {}) {
    const merged = { ...exports.DEV_SERVER_DYNAMIC_CONFIG, ...overrides };
    const args = [];
    for (const [key, value] of Object.entries(merged)) {
        if (value !== null)
            args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
    }
    return args;
}
/** A TCP port that was free a moment ago (the kernel picks it). */
function freePort(host = '127.0.0.1') {
    return new Promise((resolve, reject) => {
        const srv = net.createServer();
        srv.unref();
        srv.on('error', reject);
        srv.listen(0, host, () => {
            const addr = srv.address();
            srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
        });
    });
}
/** True when nothing listens on ip:port right now. */
function portIsFree(ip, port) {
    return new Promise((resolve) => {
        const srv = net.createServer();
        srv.unref();
        srv.once('error', () => resolve(false));
        srv.listen(port, ip, () => srv.close(() => resolve(true)));
    });
}
async function startDevServer(opts = {}) {
    const cli = typeof opts.cli === 'string'
        ? { kind: 'path', path: opts.cli, source: 'env' }
        : (opts.cli ?? (await (0, cli_1.resolveTemporalCli)()));
    return cli.kind === 'path' ? startFromBinary(cli.path, opts) : startWithSdkDownload(cli.tried, opts);
}
async function startFromBinary(binary, opts) {
    const ip = opts.ip ?? '127.0.0.1';
    const namespace = opts.namespace ?? 'default';
    const port = opts.port ?? (await freePort(ip));
    const ui = opts.ui ?? false;
    const uiPort = ui ? (opts.uiPort ?? (await freePort(ip))) : undefined;
    // A server already on the port would answer our readiness check while ours fails to bind:
    // refuse up front, naming the port.
    for (const [what, p] of [
        ['gRPC', port],
        ['UI', uiPort],
    ]) {
        if (p !== undefined && !(await portIsFree(ip, p))) {
            throw new Error(`port ${p} on ${ip} (${what}) is already in use — another Temporal dev server? Stop it, or choose another port (--port / --ui-port).`);
        }
    }
    const args = ['server', 'start-dev', '--ip', ip, '--port', String(port), '--namespace', namespace];
    args.push('--log-level', opts.logLevel ?? 'warn');
    if (uiPort !== undefined)
        args.push('--ui-port', String(uiPort));
    else
        args.push('--headless');
    if (opts.dbFilename)
        args.push('--db-filename', opts.dbFilename);
    args.push(...dynamicConfigArgs(opts.dynamicConfig));
    args.push(...(opts.extraArgs ?? []));
    const started = Date.now();
    const child = (0, node_child_process_1.spawn)(binary, args, {
        // Own process group, so stop() can signal the server and anything it spawned together.
        detached: process.platform !== 'win32',
        stdio: ['ignore', opts.output === 'inherit' ? 'inherit' : 'pipe', opts.output === 'inherit' ? 'inherit' : 'pipe'],
    });
    const output = [];
    const keep = (buf) => {
        output.push(...buf
            .toString()
            .split('\n')
            .filter((l) => l.trim()));
        if (output.length > 40)
            output.splice(0, output.length - 40);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    let exited;
    const exitPromise = new Promise((resolve) => {
        child.on('exit', (code, signal) => {
            exited = { code, signal };
            resolve();
        });
    });
    let spawnError;
    child.on('error', (err) => (spawnError = err));
    // If our process exits without calling stop(), do not leave the server behind.
    const killOnExit = () => killGroup(child, 'SIGKILL');
    process.on('exit', killOnExit);
    let stopping;
    const stop = (graceMs = 5_000) => {
        stopping ??= (async () => {
            process.off('exit', killOnExit);
            if (exited)
                return;
            killGroup(child, 'SIGTERM');
            const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
            await exitPromise;
            clearTimeout(timer);
            // Anything else left in the group (the server spawns none today).
            killGroup(child, 'SIGKILL');
        })();
        return stopping;
    };
    const address = `${ip}:${port}`;
    const timeoutMs = opts.startupTimeoutMs ?? 60_000;
    try {
        await waitUntilReady(address, namespace, timeoutMs, () => {
            if (spawnError)
                return `could not run ${binary}: ${spawnError.message}`;
            if (exited)
                return `${binary} exited (${exited.signal ?? `code ${exited.code}`}) during start-up`;
            return undefined;
        });
    }
    catch (err) {
        await stop(1_000);
        const tail = output.length ? `\nLast server output:\n  ${output.slice(-15).join('\n  ')}` : '';
        throw new Error(`Temporal dev server on ${address} did not start: ${err.message}${tail}`);
    }
    return {
        address,
        uiAddress: uiPort !== undefined ? `http://${ip}:${uiPort}` : undefined,
        namespace,
        binary,
        pid: child.pid,
        startupMs: Date.now() - started,
        stop,
    };
}
function killGroup(child, signal) {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null)
        return;
    try {
        if (process.platform === 'win32')
            child.kill(signal);
        else
            process.kill(-child.pid, signal);
    }
    catch {
        // Already gone.
    }
}
/** Poll until the frontend answers DescribeNamespace (the namespace is registered at start-up). */
async function waitUntilReady(address, namespace, timeoutMs, failed) {
    const deadline = Date.now() + timeoutMs;
    let last = 'no answer yet';
    for (;;) {
        const why = failed();
        if (why)
            throw new Error(why);
        if (Date.now() > deadline)
            throw new Error(`not ready after ${timeoutMs} ms (${last})`);
        if (await portOpen(address)) {
            let connection;
            try {
                connection = await client_1.Connection.connect({ address, connectTimeout: 2_000 });
                await connection.workflowService.describeNamespace({ namespace });
                return;
            }
            catch (err) {
                last = String(err.message ?? err).split('\n')[0] ?? '';
            }
            finally {
                await connection?.close().catch(() => undefined);
            }
        }
        else {
            last = 'port not open';
        }
        await new Promise((r) => setTimeout(r, 100));
    }
}
function portOpen(address) {
    const i = address.lastIndexOf(':');
    const host = address.slice(0, i);
    const port = Number(address.slice(i + 1));
    return new Promise((resolve) => {
        const sock = net.connect({ host, port });
        const done = (ok) => {
            sock.destroy();
            resolve(ok);
        };
        sock.setTimeout(1_000, () => done(false));
        sock.once('connect', () => done(true));
        sock.once('error', () => done(false));
    });
}
/**
 * No local binary: let `@temporalio/testing` download the CLI and run it (needs internet).
 * Loaded lazily so that production code that always has a binary never pulls in the test package.
 */
async function startWithSdkDownload(tried, opts) {
    const { TestWorkflowEnvironment } = await Promise.resolve().then(() => __importStar(require('@temporalio/testing')));
    const ip = opts.ip ?? '127.0.0.1';
    const namespace = opts.namespace ?? 'default';
    const port = opts.port ?? (await freePort(ip));
    const uiPort = opts.ui ? (opts.uiPort ?? (await freePort(ip))) : undefined;
    const started = Date.now();
    let env;
    try {
        env = await TestWorkflowEnvironment.createLocal({
            server: {
                executable: { type: 'cached-download' },
                ip,
                port,
                namespace,
                ...(uiPort !== undefined ? { ui: true, uiPort } : {}),
                ...(opts.dbFilename ? { dbFilename: opts.dbFilename } : {}),
                log: { format: 'pretty', level: opts.logLevel ?? 'warn' },
                extraArgs: [...dynamicConfigArgs(opts.dynamicConfig), ...(opts.extraArgs ?? [])],
            },
        });
    }
    catch (err) {
        throw new cli_1.TemporalCliNotFoundError([...tried, `SDK download of the CLI: ${err.message}`], err);
    }
    let stopping;
    return {
        address: env.address,
        uiAddress: uiPort !== undefined ? `http://${ip}:${uiPort}` : undefined,
        namespace,
        binary: 'sdk-download',
        pid: undefined,
        startupMs: Date.now() - started,
        stop: () => (stopping ??= env.teardown()),
    };
}
//# sourceMappingURL=devServer.js.map