"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.servicePaths = servicePaths;
exports.runningService = runningService;
exports.writeServiceState = writeServiceState;
exports.removeServiceState = removeServiceState;
exports.serviceUp = serviceUp;
exports.serviceDown = serviceDown;
exports.serviceLine = serviceLine;
exports.announceService = announceService;
// `durable-agent up` / `down`: the embedded default (the dev server and a worker, as `dev` runs
// them) as a background service that outlives the terminal. Its files live in the user's data
// directory: <home>/service/service.json (pid and addresses, written once it is ready, removed when
// it stops) and <home>/service/service.log (its output).
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const dataHome_1 = require("../stores/dataHome");
function servicePaths(home = (0, dataHome_1.durableAgentHome)()) {
    const dir = (0, node_path_1.join)(home, 'service');
    return { dir, state: (0, node_path_1.join)(dir, 'service.json'), log: (0, node_path_1.join)(dir, 'service.log') };
}
function isAlive(pid) {
    try {
        process.kill(pid, 0);
        return true;
    }
    catch (err) {
        return err.code === 'EPERM';
    }
}
/** The pid is (still) our service, not a process that got its number since: its command line says so where /proc exists. */
function isService(pid) {
    if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid))
        return false;
    try {
        const cmdline = (0, node_fs_1.readFileSync)(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return cmdline.includes('dev') && cmdline.includes('--service');
    }
    catch {
        return true; // no /proc (macOS): the pid is all we have
    }
}
function readState(file) {
    try {
        const s = JSON.parse((0, node_fs_1.readFileSync)(file, 'utf8'));
        return typeof s.pid === 'number' ? s : undefined;
    }
    catch {
        return undefined;
    }
}
/** The running service, if any (a state file whose process is gone is removed). */
function runningService(paths = servicePaths()) {
    const s = readState(paths.state);
    if (!s)
        return undefined;
    if (isService(s.pid))
        return s;
    (0, node_fs_1.rmSync)(paths.state, { force: true });
    return undefined;
}
/** Written by the service itself once the server answers and the worker runs. */
function writeServiceState(state, paths = servicePaths()) {
    (0, node_fs_1.mkdirSync)(paths.dir, { recursive: true });
    const tmp = `${paths.state}.${process.pid}.tmp`;
    (0, node_fs_1.writeFileSync)(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
    (0, node_fs_1.renameSync)(tmp, paths.state);
}
function removeServiceState(pid, paths = servicePaths()) {
    if (readState(paths.state)?.pid === pid)
        (0, node_fs_1.rmSync)(paths.state, { force: true });
}
/** Past this size the log is moved to service.log.1 when the service starts again. */
const LOG_ROTATE_BYTES = 10 * 1024 * 1024;
/**
 * Starts `durable-agent dev --service <args>` detached (its own session: a closed terminal does not
 * reach it), output to the log, and waits until it says it is ready — or fails with the log's last
 * line. Already running: says so.
 */
async function serviceUp(devArgs, opts = {}) {
    const paths = opts.paths ?? servicePaths();
    const existing = runningService(paths);
    if (existing)
        return { status: 'already_up', state: existing };
    (0, node_fs_1.mkdirSync)(paths.dir, { recursive: true, mode: 0o700 });
    try {
        if ((0, node_fs_1.statSync)(paths.log).size > LOG_ROTATE_BYTES)
            (0, node_fs_1.renameSync)(paths.log, `${paths.log}.1`);
    }
    catch {
        // no log yet
    }
    const fd = (0, node_fs_1.openSync)(paths.log, 'a', 0o600);
    (0, node_fs_1.writeFileSync)(fd, `\n=== durable-agent up at ${new Date().toISOString()} ===\n`);
    const child = (0, node_child_process_1.spawn)(process.execPath, [(0, node_path_1.join)(__dirname, 'main.js'), 'dev', '--service', ...devArgs], {
        detached: true,
        stdio: ['ignore', fd, fd],
        env: opts.env ?? process.env,
    });
    (0, node_fs_1.closeSync)(fd);
    let exited;
    child.on('exit', (code, signal) => (exited = signal ?? `code ${code}`));
    child.unref();
    const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
    for (;;) {
        const s = readState(paths.state);
        if (s && s.pid === child.pid)
            return { status: 'up', state: s };
        if (exited !== undefined || Date.now() > deadline) {
            if (exited === undefined)
                killGroup(child.pid ?? 0, 'SIGKILL');
            throw new Error(`the service did not start (${exited ?? 'not ready in time'}): ${lastLogLine(paths.log)}`);
        }
        await sleep(200);
    }
}
/**
 * Stops the service: SIGTERM (it stops its worker, then its server, as Ctrl-C stops `dev`), then
 * SIGKILL of its process group and of the server after `graceMs`.
 */
async function serviceDown(opts = {}) {
    const paths = opts.paths ?? servicePaths();
    const s = runningService(paths);
    if (!s)
        return { status: 'not_running' };
    process.kill(s.pid, 'SIGTERM');
    const deadline = Date.now() + (opts.graceMs ?? 30_000);
    while (isAlive(s.pid) && Date.now() < deadline)
        await sleep(100);
    let forced = false;
    if (isAlive(s.pid)) {
        forced = true;
        killGroup(s.pid, 'SIGKILL');
        // The server runs in a group of its own (dev.ts writes its pid next to the database).
        const serverPid = serverPidOf(s.db);
        if (serverPid !== undefined)
            killGroup(serverPid, 'SIGKILL');
        for (let i = 0; i < 50 && isAlive(s.pid); i++)
            await sleep(100);
    }
    (0, node_fs_1.rmSync)(paths.state, { force: true });
    return { status: 'stopped', pid: s.pid, forced };
}
function serverPidOf(db) {
    try {
        const raw = JSON.parse((0, node_fs_1.readFileSync)(`${db}.server.pid`, 'utf8'));
        return typeof raw.server === 'number' ? raw.server : undefined;
    }
    catch {
        return undefined;
    }
}
function killGroup(pid, signal) {
    if (!(pid > 0))
        return;
    try {
        process.kill(-pid, signal);
    }
    catch {
        try {
            process.kill(pid, signal);
        }
        catch {
            // gone
        }
    }
}
function lastLogLine(log) {
    if (!(0, node_fs_1.existsSync)(log))
        return `no log at ${log}`;
    const lines = (0, node_fs_1.readFileSync)(log, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('==='));
    return `${lines[lines.length - 1] ?? '(no output)'} (log: ${log})`;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** One line on the service for the terminal. */
function serviceLine(r) {
    const s = r.state;
    return `durable-agent is ${r.status === 'up' ? 'up' : 'already up'} (pid ${s.pid}): temporal ${s.address}${s.ui ? `, ui ${s.ui}` : ''}, task queue ${s.taskQueue}; log ${s.log}; stop it with \`durable-agent down\``;
}
/**
 * Called by `dev --service` once its server answers and its worker runs: writes the state file
 * `up` waits for, and ignores SIGHUP. Returns what removes the file when the service stops.
 */
function announceService(s) {
    const paths = servicePaths();
    process.on('SIGHUP', () => undefined);
    writeServiceState({
        pid: process.pid,
        address: s.address,
        ...(s.ui ? { ui: s.ui } : {}),
        taskQueue: s.taskQueue,
        db: s.db,
        log: paths.log,
        startedAt: new Date().toISOString(),
    }, paths);
    return () => removeServiceState(process.pid, paths);
}
//# sourceMappingURL=service.js.map