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
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: `durable-agent up` / `down` — the embedded default (a real Temporal dev server and a
// worker) as a background service with its files in a temp DURABLE_AGENT_HOME; `run` reuses it
// through the default address (TEMPORAL_ADDRESS's port is the one `up` serves); `up` twice says it
// is already up; `down` stops it and leaves no process behind; `down` again says nothing ran.
// Real processes, the fake Messages API; the oracles are the exit codes, the state file, /proc.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const devServer_1 = require("../../src/temporal/devServer");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const cli_1 = require("../support/cli");
const leftovers_1 = require("../support/leftovers");
function alive(pid) {
    try {
        process.kill(pid, 0);
        return true;
    }
    catch {
        return false;
    }
}
(0, node_test_1.test)('integration: up starts the dev server and a worker in the background, run uses it, up again says so, down stops everything', { timeout: 240_000 }, async () => {
    const root = (0, node_fs_1.realpathSync)((0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-svc-')));
    const home = (0, node_path_1.join)(root, 'home');
    const work = (0, node_path_1.join)(root, 'work');
    const { mkdirSync } = await Promise.resolve().then(() => __importStar(require('node:fs')));
    mkdirSync(work);
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)({ script: () => (0, fakeAnthropic_1.textResponse)('hello from the service') });
    const port = await (0, devServer_1.freePort)();
    const uiPort = await (0, devServer_1.freePort)();
    const tag = (0, leftovers_1.newTag)();
    const env = {
        DURABLE_AGENT_HOME: home,
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: fake.baseURL,
        // No --port: `up` serves the port of TEMPORAL_ADDRESS, where `run` connects.
        TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
        DURABLE_AGENT_TASK_QUEUE: `svc-${tag.slice(0, 8)}`,
        DURABLE_AGENT_WORKER_GRACE_MS: '200',
        [leftovers_1.TAG_ENV]: tag,
    };
    try {
        const up = await (0, cli_1.cli)(['up', '--ui-port', String(uiPort), '--json'], env, 150_000);
        strict_1.default.equal(up.code, 0, up.stderr);
        const state = JSON.parse(up.stdout.trim());
        strict_1.default.equal(state.status, 'up');
        strict_1.default.equal(state.address, `127.0.0.1:${port}`);
        strict_1.default.equal(state.taskQueue, env.DURABLE_AGENT_TASK_QUEUE);
        strict_1.default.ok(alive(state.pid), 'the service runs after `up` returned');
        strict_1.default.equal(state.log, (0, node_path_1.join)(home, 'service', 'service.log'));
        strict_1.default.ok((0, node_fs_1.existsSync)((0, node_path_1.join)(home, 'service', 'service.json')));
        strict_1.default.ok((0, node_fs_1.existsSync)((0, node_path_1.join)(home, 'temporal.db')), 'the server persists to the data directory');
        // Its own session and process group: the terminal that ran `up` can go away.
        const stat = (0, node_fs_1.readFileSync)(`/proc/${state.pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        strict_1.default.equal(Number(fields[3]), state.pid, 'session leader (setsid): no controlling terminal of ours');
        const again = await (0, cli_1.cli)(['up'], env, 30_000);
        strict_1.default.equal(again.code, 0, again.stderr);
        strict_1.default.match(again.stdout, new RegExp(`already up \\(pid ${state.pid}\\)`));
        const run = await (0, cli_1.cli)(['run', '--cwd', work, '--model', 'claude-test', 'say', 'hello'], env, 60_000);
        strict_1.default.equal(run.code, 0, run.stderr);
        strict_1.default.match(run.stdout, /hello from the service/);
        strict_1.default.match(run.stdout, /session completed/);
        strict_1.default.doesNotMatch(run.stderr, /no worker polls/, 'the service polls the default task queue');
        const down = await (0, cli_1.cli)(['down'], env, 60_000);
        strict_1.default.equal(down.code, 0, down.stderr);
        strict_1.default.match(down.stdout, new RegExp(`stopped \\(pid ${state.pid}\\)`));
        strict_1.default.equal(alive(state.pid), false);
        strict_1.default.equal((0, node_fs_1.existsSync)((0, node_path_1.join)(home, 'service', 'service.json')), false);
        const left = await (0, leftovers_1.waitUntilNoneTagged)(tag, 15_000);
        strict_1.default.equal(left.length, 0, `processes left behind:\n${(0, leftovers_1.describe)(left)}`);
        strict_1.default.ok(await (0, devServer_1.portIsFree)('127.0.0.1', port), 'the server stopped');
        const nothing = await (0, cli_1.cli)(['down', '--json'], env, 30_000);
        strict_1.default.equal(nothing.code, 0, nothing.stderr);
        strict_1.default.deepEqual(JSON.parse(nothing.stdout), { status: 'not_running', home });
    }
    finally {
        const left = (0, leftovers_1.taggedProcesses)(tag);
        (0, leftovers_1.killAll)(left);
        await fake.close();
        (0, node_fs_1.rmSync)(root, { recursive: true, force: true });
    }
});
(0, node_test_1.test)('integration: up with a bad flag, or a port that is taken, is one line and a non-zero exit (nothing left running)', async () => {
    const home = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-svc-bad-'));
    try {
        const bad = await (0, cli_1.cli)(['up', '--port', 'zero'], { DURABLE_AGENT_HOME: home });
        strict_1.default.notEqual(bad.code, 0);
        strict_1.default.deepEqual(bad.stderr.trim().split('\n').length, 1, bad.stderr);
        strict_1.default.match(bad.stderr, /--port must be a positive whole number/);
        const { createServer } = await Promise.resolve().then(() => __importStar(require('node:net')));
        const blocker = createServer();
        await new Promise((r) => blocker.listen(0, '127.0.0.1', () => r()));
        const busy = blocker.address().port;
        try {
            const taken = await (0, cli_1.cli)(['up', '--port', String(busy), '--ui-port', String(await (0, devServer_1.freePort)())], {
                DURABLE_AGENT_HOME: home,
            });
            strict_1.default.notEqual(taken.code, 0);
            strict_1.default.equal(taken.stderr.trim().split('\n').length, 1, taken.stderr);
            strict_1.default.match(taken.stderr, new RegExp(`did not start.*port ${busy} on 127\\.0\\.0\\.1 \\(gRPC\\) is already in use`));
            strict_1.default.equal((0, node_fs_1.existsSync)((0, node_path_1.join)(home, 'service', 'service.json')), false);
        }
        finally {
            blocker.close();
        }
    }
    finally {
        (0, node_fs_1.rmSync)(home, { recursive: true, force: true });
    }
});
//# sourceMappingURL=service.test.js.map