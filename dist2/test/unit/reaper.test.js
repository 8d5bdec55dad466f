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
// unit: what a Bash call leaves when the process running it is SIGKILLed (src/sandbox/reaper.ts).
// A child process runs one real Bash tool call and kills itself at a chosen moment — inside
// spawn, a few ms after it (bubblewrap still setting up: the window where the sandbox's own bwrap
// misses its parent's death), or once the command runs. Every process below the child carries a
// test tag in its environment; none may be left after a bounded wait. No Temporal.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
const host_1 = require("../../src/sandbox/host");
const reaper_1 = require("../../src/sandbox/reaper");
const systemPackages_1 = require("../support/systemPackages");
const leftovers_1 = require("../support/leftovers");
const tools_harness_1 = require("./tools-harness");
const wait_1 = require("../support/wait");
/** Bash's sandbox in these tests (the worker's start-up owns one: src/workerDeps.ts). */
const sandboxHost = new host_1.SandboxHost();
const CHILD = path.join(__dirname, '..', 'support', 'bashKillChild.js');
const LEFTOVER_WAIT_MS = 15_000;
let root = '';
let sandboxSkip = false;
(0, node_test_1.before)(async () => {
    root = await (0, tools_harness_1.makeTmpDir)('da-reaper-');
    const a = await sandboxHost.availability();
    if (!a.available) {
        if ((0, systemPackages_1.isCI)())
            throw new Error(`the sandbox must be available in CI: ${a.reason}`);
        sandboxSkip = `sandbox unavailable here: ${a.reason}`;
        (0, systemPackages_1.reportSkip)(`the sandboxed reaper tests (sandbox unavailable: ${a.reason}; apt-get install -y bubblewrap socat ripgrep)`);
    }
});
(0, node_test_1.after)(async () => {
    await sandboxHost.close();
    if (root)
        await (0, tools_harness_1.removeDir)(root);
});
/** Runs the child until it kills itself; resolves with how it ended. */
async function runChild(tag, cwd, command, when, sandbox) {
    const child = (0, node_child_process_1.spawn)(process.execPath, [CHILD, cwd, command, when], {
        env: { ...process.env, [leftovers_1.TAG_ENV]: tag, SANDBOX: sandbox ? '1' : '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d.toString()));
    child.stderr.on('data', (d) => (output += d.toString()));
    const signal = await new Promise((resolve) => child.once('exit', (_code, sig) => resolve(sig)));
    return { signal, output };
}
async function assertNothingLeft(tag, what) {
    const left = await (0, leftovers_1.waitUntilNoneTagged)(tag, LEFTOVER_WAIT_MS);
    (0, leftovers_1.killAll)(left);
    strict_1.default.deepEqual(left.map((p) => p.comm), [], `${what}: left behind (${(0, leftovers_1.countByName)(left)}):\n${(0, leftovers_1.describe)(left)}`);
}
(0, node_test_1.test)('unit: owners: this process is alive under its own id; a wrong start time or an impossible pid is not', () => {
    strict_1.default.match((0, reaper_1.ownerId)(), /^\d+\.\d+$/);
    strict_1.default.equal((0, reaper_1.ownerAlive)((0, reaper_1.ownerId)()), true);
    strict_1.default.equal((0, reaper_1.ownerAlive)(`${process.pid}.1`), false, 'same pid, another start time: a reused pid');
    strict_1.default.equal((0, reaper_1.ownerAlive)('999999999.5'), false);
    strict_1.default.equal((0, reaper_1.ownerAlive)('garbage'), false);
});
(0, node_test_1.test)('unit: the sweep kills sandbox machinery of dead workers only — not a live worker’s, not other processes', { skip: process.platform !== 'linux' ? 'needs /proc' : false }, async () => {
    const dir = path.join(root, 'fake-bin');
    await node_fs_1.promises.mkdir(dir, { recursive: true });
    // Processes named socat (the kernel's comm is the executable's file name), running sleep.
    await node_fs_1.promises.symlink((await node_fs_1.promises.realpath('/bin/sleep')), path.join(dir, 'socat'));
    const tag = (0, leftovers_1.newTag)();
    const start = (name, env) => (0, node_child_process_1.spawn)(name === 'socat' ? path.join(dir, 'socat') : '/bin/sleep', ['60'], {
        env: { ...process.env, [leftovers_1.TAG_ENV]: tag, ...env },
        stdio: 'ignore',
    });
    const deadBridge = start('socat', { [reaper_1.OWNER_MARKER_ENV]: '999999999.5' });
    const deadCallSocat = start('socat', { [reaper_1.CALL_MARKER_ENV]: '999999999.5/abc' });
    const liveBridge = start('socat', { [reaper_1.OWNER_MARKER_ENV]: (0, reaper_1.ownerId)() });
    const deadCallSleep = start('sleep', { [reaper_1.CALL_MARKER_ENV]: '999999999.5/abc' });
    const exits = [deadBridge, deadCallSocat, liveBridge, deadCallSleep].map((c) => new Promise((r) => c.once('exit', (_c, s) => r(s))));
    try {
        // Until each has exec'd (before that it is a copy of node, with node's name and environment).
        for (const [c, name] of [
            [deadBridge, 'socat'],
            [deadCallSocat, 'socat'],
            [liveBridge, 'socat'],
            [deadCallSleep, 'sleep'],
        ]) {
            await (0, wait_1.waitFor)(`${name} ${c.pid} to start`, async () => (await node_fs_1.promises.readFile(`/proc/${c.pid}/comm`, 'utf8').catch(() => '')).trim() === name, 10_000, 20);
        }
        const killed = await (0, reaper_1.sweepLeftovers)();
        const mine = killed.filter((p) => [deadBridge.pid, deadCallSocat.pid, liveBridge.pid, deadCallSleep.pid].includes(p.pid));
        strict_1.default.deepEqual(mine.map((p) => p.pid).sort(), [deadBridge.pid, deadCallSocat.pid].sort());
        strict_1.default.equal(await exits[0], 'SIGKILL');
        strict_1.default.equal(await exits[1], 'SIGKILL');
        strict_1.default.equal(liveBridge.exitCode, null, 'a live worker’s bridge is not touched');
        strict_1.default.equal(deadCallSleep.exitCode, null, 'only sandbox machinery is swept (a call’s own processes are the guardian’s)');
    }
    finally {
        liveBridge.kill('SIGKILL');
        deadCallSleep.kill('SIGKILL');
        deadBridge.kill('SIGKILL');
        deadCallSocat.kill('SIGKILL');
        await Promise.all(exits);
    }
});
(0, node_test_1.test)('unit: unsandboxed Bash: SIGKILL of the process running it, inside spawn or while the command runs — its process group goes too', { skip: process.platform !== 'linux' ? 'needs /proc' : false }, async () => {
    for (const when of ['spawn+0', 'file:started']) {
        const cwd = await (0, tools_harness_1.makeTmpDir)('da-reaper-plain-');
        const tag = (0, leftovers_1.newTag)();
        const r = await runChild(tag, cwd, 'echo started > started; sleep 1000 & sleep 999; echo never', when.replace('file:', `file:${cwd}/`), false);
        strict_1.default.equal(r.signal, 'SIGKILL', r.output);
        await assertNothingLeft(tag, `unsandboxed, killed at ${when}`);
        await (0, tools_harness_1.removeDir)(cwd);
    }
});
(0, node_test_1.test)('unit: sandboxed Bash: SIGKILL of the process running it at any moment leaves no bwrap, socat or command behind', async (t) => {
    if (sandboxSkip)
        return t.skip(sandboxSkip);
    // Inside spawn; while bubblewrap sets up (the inner bwrap arms its parent-death signal late);
    // while the command runs (it wrote its file).
    for (const when of ['spawn+0', 'spawn+2', 'spawn+5', 'spawn+10', 'file:started']) {
        const cwd = await (0, tools_harness_1.makeTmpDir)('da-reaper-sbx-');
        const tag = (0, leftovers_1.newTag)();
        const r = await runChild(tag, cwd, 'echo started > started; sleep 30', when.replace('file:', `file:${cwd}/`), true);
        strict_1.default.equal(r.signal, 'SIGKILL', r.output);
        await assertNothingLeft(tag, `sandboxed, killed at ${when}`);
        await (0, tools_harness_1.removeDir)(cwd);
    }
});
//# sourceMappingURL=reaper.test.js.map