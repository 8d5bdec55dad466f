"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.quietTemporalRuntime = quietTemporalRuntime;
exports.startDev = startDev;
exports.serverStatePaths = serverStatePaths;
// `durable-agent dev`: the embedded default — a Temporal dev server persisted to a SQLite file,
// with its UI, plus a worker, in one process tree. With no ANTHROPIC_API_KEY the worker answers
// with the built-in scripted demo model (clearly labelled).
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const worker_1 = require("@temporalio/worker");
const scriptedModel_1 = require("../demo/scriptedModel");
const devServer_1 = require("../temporal/devServer");
const worker_2 = require("../worker");
const definitions_1 = require("../workflows/definitions");
let runtimeInstalled = false;
function quietTemporalRuntime() {
    if (runtimeInstalled)
        return;
    runtimeInstalled = true;
    try {
        worker_1.Runtime.install({
            logger: new worker_1.DefaultLogger(process.env.DURABLE_AGENT_LOG_LEVEL ?? 'WARN'),
        });
    }
    catch {
        // already installed
    }
}
async function startDev(opts) {
    const log = opts.log ?? ((l) => console.log(l));
    quietTemporalRuntime();
    const db = (0, node_path_1.resolve)(opts.db);
    (0, node_fs_1.mkdirSync)((0, node_path_1.dirname)(db), { recursive: true });
    // Before this version the default was ./.durable-agent/temporal.db: inside the working directory,
    // where sandboxed Bash read other sessions' histories and could overwrite the file.
    const legacy = (0, node_path_1.resolve)('.durable-agent', 'temporal.db');
    if (opts.defaultDb && legacy !== db && (0, node_fs_1.existsSync)(legacy)) {
        log(`note: the dev server's database is now ${db}; an older one is at ${legacy} — keep using it with --db ${legacy}, or move it (stop every dev server first, then mv ${legacy} ${db})`);
    }
    await stopStaleServer(`${db}.server.pid`, log);
    const server = await (0, devServer_1.startDevServer)({
        ui: true,
        dbFilename: db,
        ...(opts.ip ? { ip: opts.ip } : {}),
        ...(opts.port ? { port: opts.port } : {}),
        ...(opts.uiPort ? { uiPort: opts.uiPort } : {}),
        extraArgs: ['--search-attribute', `${definitions_1.STATUS_SEARCH_ATTRIBUTE}=Keyword`],
    });
    let demo;
    let worker;
    try {
        let anthropic;
        if (!process.env.ANTHROPIC_API_KEY) {
            demo = await (0, scriptedModel_1.startDemoModel)();
            const baseURL = demo.baseURL;
            anthropic = () => new sdk_1.default({ apiKey: 'demo', baseURL, maxRetries: 0 });
            log(`model:    ${scriptedModel_1.DEMO_MODEL_LABEL}`);
        }
        else {
            log(`model:    Anthropic Messages API${process.env.ANTHROPIC_BASE_URL ? ` at ${process.env.ANTHROPIC_BASE_URL}` : ''}`);
        }
        const connection = await worker_1.NativeConnection.connect({ address: server.address });
        worker = await (0, worker_2.createAgentWorker)({
            connection,
            namespace: server.namespace,
            ...(opts.taskQueue ? { taskQueue: opts.taskQueue } : {}),
            ...(anthropic ? { anthropic } : {}),
            // The server's state, wherever --db put it: never readable or writable by sandboxed Bash.
            privatePaths: serverStatePaths(db),
        });
    }
    catch (err) {
        await demo?.close();
        await server.stop();
        throw err;
    }
    if (server.pid !== undefined)
        (0, node_fs_1.writeFileSync)(`${db}.server.pid`, JSON.stringify({ server: server.pid, dev: process.pid }));
    const running = worker.run();
    let stopping;
    const stop = () => {
        stopping ??= (async () => {
            if (worker.getState() === 'RUNNING')
                worker.shutdown();
            await running.catch(() => undefined);
            await demo?.close();
            await server.stop();
            (0, node_fs_1.rmSync)(`${db}.server.pid`, { force: true });
        })();
        return stopping;
    };
    return { server, worker, ...(demo ? { demo } : {}), running, stop };
}
/** The dev server's files: its SQLite database with SQLite's side files, and the pid file. */
function serverStatePaths(db) {
    return [db, `${db}-wal`, `${db}-shm`, `${db}-journal`, `${db}.server.pid`];
}
/**
 * A `durable-agent dev` killed with SIGKILL cannot stop its server, which then holds the SQLite
 * file and the ports. The next start finds it through the pid file and stops it first.
 */
async function stopStaleServer(pidFile, log) {
    let pid;
    let devPid;
    try {
        const raw = (0, node_fs_1.readFileSync)(pidFile, 'utf8').trim();
        const parsed = raw.startsWith('{')
            ? JSON.parse(raw)
            : { server: Number(raw) };
        pid = parsed.server;
        devPid = parsed.dev;
    }
    catch {
        return;
    }
    const isAlive = (p) => {
        try {
            process.kill(p, 0);
            return true;
        }
        catch {
            return false;
        }
    };
    const alive = () => isAlive(pid);
    if (devPid !== undefined && devPid !== process.pid && isAlive(devPid)) {
        throw new Error(`another durable-agent dev (pid ${devPid}) is using ${pidFile.replace(/\.server\.pid$/, '')}; stop it first (Ctrl-C there), or give this one another --db`);
    }
    let cmdline = '';
    try {
        cmdline = (0, node_fs_1.readFileSync)(`/proc/${pid}/cmdline`, 'utf8');
    }
    catch {
        // not Linux, or gone
    }
    if (Number.isInteger(pid) && pid > 0 && alive() && (cmdline === '' || cmdline.includes('start-dev'))) {
        log(`stopping a dev server left running by an earlier durable-agent dev (pid ${pid})`);
        const signal = (s) => {
            try {
                process.kill(-pid, s);
            }
            catch {
                try {
                    process.kill(pid, s);
                }
                catch {
                    // gone
                }
            }
        };
        signal('SIGTERM');
        for (let i = 0; i < 50 && alive(); i++)
            await new Promise((r) => setTimeout(r, 100));
        if (alive())
            signal('SIGKILL');
        for (let i = 0; i < 20 && alive(); i++)
            await new Promise((r) => setTimeout(r, 100));
    }
    (0, node_fs_1.rmSync)(pidFile, { force: true });
}
//# sourceMappingURL=dev.js.map