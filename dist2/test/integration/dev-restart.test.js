"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: the embedded default survives a crash — kill -9 `durable-agent dev` in the middle
// of a demo session, start it again on the same SQLite file, and the session runs to completion
// with every tool call executed once.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const client_1 = require("@temporalio/client");
const devServer_1 = require("../../src/temporal/devServer");
const client_2 = require("../../src/client");
const demo_1 = require("../../src/cli/demo");
const cli_1 = require("../support/cli");
const MAIN = (0, node_path_1.join)(__dirname, '..', '..', 'src', 'cli', 'main.js');
function startDev(db, port, uiPort, env) {
    return new Promise((resolve, reject) => {
        const child = (0, node_child_process_1.spawn)(process.execPath, [MAIN, 'dev', '--db', db, '--port', String(port), '--ui-port', String(uiPort)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        const timer = setTimeout(() => reject(new Error(`dev did not get ready: ${out}`)), 60_000);
        const onData = (d) => {
            out += d.toString();
            if (out.includes('ready.')) {
                clearTimeout(timer);
                resolve(child);
            }
        };
        child.stdout?.on('data', onData);
        child.stderr?.on('data', onData);
        child.on('exit', (code) => reject(new Error(`dev exited (${code}): ${out}`)));
    });
}
(0, node_test_1.test)('integration: kill -9 of `durable-agent dev` mid-session; restarting it resumes the session to completion', { timeout: 240_000 }, async () => {
    const home = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-dev-'));
    const db = (0, node_path_1.join)(home, 'temporal.db');
    const port = await (0, devServer_1.freePort)();
    const uiPort = await (0, devServer_1.freePort)();
    const env = {
        ...process.env,
        DURABLE_AGENT_HOME: home,
        DURABLE_AGENT_STORE_DIR: (0, node_path_1.join)(home, 'store'),
        DURABLE_AGENT_DEMO_DELAY_MS: '1200',
        TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
    };
    delete env.ANTHROPIC_API_KEY;
    delete env.DURABLE_AGENT_TASK_QUEUE;
    const project = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-demo-project-'));
    (0, node_fs_1.cpSync)((0, demo_1.sampleProjectDir)(), project, { recursive: true });
    let dev = await startDev(db, port, uiPort, env);
    let connection;
    try {
        const started = await (0, cli_1.cli)([
            'run',
            '--detach',
            '--json',
            '--cwd',
            project,
            '--permission-mode',
            'acceptEdits',
            '--allow',
            'Bash(node test/*)',
            '--model',
            'scripted-demo',
            'fix the TODO',
        ], env);
        strict_1.default.equal(started.code, 0, started.stderr);
        const id = JSON.parse(started.stdout).session;
        connection = await client_1.Connection.connect({ address: `127.0.0.1:${port}` });
        const client = new client_1.Client({ connection });
        for (let i = 0; i < 300; i++) {
            const s = await (0, client_2.sessionStatus)(client, id).catch(() => undefined);
            if (s && s.turn >= 3)
                break;
            await new Promise((r) => setTimeout(r, 100));
        }
        await connection.close();
        connection = undefined;
        strict_1.default.ok(dev.pid);
        dev.kill('SIGKILL');
        await new Promise((r) => dev.once('exit', r));
        dev = await startDev(db, port, uiPort, env);
        const attached = await (0, cli_1.cli)(['attach', id], env, 180_000);
        strict_1.default.equal(attached.code, 0, attached.stdout + attached.stderr);
        strict_1.default.match(attached.stdout, /session completed/);
        strict_1.default.match((0, node_fs_1.readFileSync)((0, node_path_1.join)(project, 'src', 'stats.js'), 'utf8'), /s\[mid - 1\] \+ s\[mid\]/);
        strict_1.default.equal((0, node_child_process_1.spawnSync)(process.execPath, ['test/stats.test.js'], { cwd: project }).status, 0);
        // Every tool call appears once in the audit, and each ran once (one activity attempt).
        const audit = await (0, cli_1.cli)(['audit', id, '--json'], env);
        strict_1.default.equal(audit.code, 0, audit.stderr);
        const calls = audit.stdout
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l))
            .filter((e) => e.kind === 'tool_call');
        const ids = calls.map((c) => c.toolUseId);
        strict_1.default.equal(new Set(ids).size, ids.length, `no duplicate calls: ${ids.join(', ')}`);
        strict_1.default.equal(calls.length, 8, JSON.stringify(calls));
    }
    finally {
        await connection?.close().catch(() => undefined);
        dev.kill('SIGINT');
        await new Promise((r) => setTimeout(r, 2000));
        if (dev.exitCode === null)
            dev.kill('SIGKILL');
    }
});
//# sourceMappingURL=dev-restart.test.js.map