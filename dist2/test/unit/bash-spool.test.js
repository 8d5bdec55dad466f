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
// unit: Bash's output spool has a cap (DURABLE_AGENT_BASH_MAX_SPOOL_BYTES): a command that writes
// past it is stopped — its whole process group killed, sandboxed or not — the spool file in the
// worker's temp directory never grows beyond the cap, and the result says how much was kept.
// Oracles: the spool file's size watched from outside, /proc for the command's processes.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
const bash_1 = require("../../src/tools/builtin/bash");
const host_1 = require("../../src/sandbox/host");
const messages_1 = require("../../src/engine/messages");
const systemPackages_1 = require("../support/systemPackages");
const tools_harness_1 = require("./tools-harness");
/** Bash's sandbox in these tests (the worker's start-up owns one: src/workerDeps.ts). */
const sandboxHost = new host_1.SandboxHost();
const CAP = 1024 * 1024;
let root = '';
let tmp = '';
let work = '';
let sandboxSkip = false;
const saved = { TMPDIR: process.env.TMPDIR, CAP: process.env.DURABLE_AGENT_BASH_MAX_SPOOL_BYTES };
(0, node_test_1.before)(async () => {
    root = await (0, tools_harness_1.makeTmpDir)('da-spool-');
    tmp = path.join(root, 'tmp');
    work = path.join(root, 'work');
    await node_fs_1.promises.mkdir(tmp);
    await node_fs_1.promises.mkdir(work);
    process.env.TMPDIR = tmp; // the worker's temp directory: where the spool goes
    process.env.DURABLE_AGENT_BASH_MAX_SPOOL_BYTES = '1M';
    const a = await sandboxHost.availability();
    if (!a.available) {
        if ((0, systemPackages_1.isCI)())
            throw new Error(`the sandbox must be available in CI: ${a.reason}`);
        sandboxSkip = `sandbox unavailable here: ${a.reason}`;
    }
});
(0, node_test_1.after)(async () => {
    for (const [k, v] of [
        ['TMPDIR', saved.TMPDIR],
        ['DURABLE_AGENT_BASH_MAX_SPOOL_BYTES', saved.CAP],
    ]) {
        if (v === undefined)
            delete process.env[k];
        else
            process.env[k] = v;
    }
    await sandboxHost.close();
    if (root)
        await (0, tools_harness_1.removeDir)(root);
});
function ctx(sandbox) {
    return {
        sessionId: 'spool-session',
        toolUseId: 'toolu_spool',
        idempotencyKey: 'k',
        agent: { cwd: work, additionalDirectories: [], readFiles: {} },
        permission: {
            mode: 'bypassPermissions',
            rules: { allow: [], ask: [], deny: [] },
            workingDirectories: [work],
            sandbox,
        },
        abortSignal: new AbortController().signal,
        sandboxHost,
    };
}
/** Runs the command while watching every spool file under the worker's temp directory: the largest size seen. */
async function runWatched(command, sandbox) {
    let maxSpool = 0;
    let samples = 0;
    let done = false;
    const watch = (async () => {
        while (!done) {
            for (const d of await node_fs_1.promises.readdir(tmp).catch(() => [])) {
                if (!d.startsWith('durable-agent-bash-'))
                    continue;
                const st = await node_fs_1.promises.stat(path.join(tmp, d, 'output')).catch(() => undefined);
                if (st) {
                    samples++;
                    maxSpool = Math.max(maxSpool, st.size, st.blocks * 512 - 4096);
                }
            }
            await new Promise((r) => setImmediate(r));
        }
    })();
    try {
        const r = await bash_1.BashTool.call({ command }, ctx(sandbox), () => undefined);
        return { r, maxSpool, samples };
    }
    finally {
        done = true;
        await watch;
    }
}
async function pidsWith(marker) {
    const out = [];
    for (const name of await node_fs_1.promises.readdir('/proc')) {
        if (!/^\d+$/.test(name) || Number(name) === process.pid)
            continue;
        const cmd = await node_fs_1.promises.readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
        if (cmd.includes(marker))
            out.push(Number(name));
    }
    return out;
}
for (const mode of ['unsandboxed', 'sandboxed']) {
    (0, node_test_1.test)(`unit: ${mode} Bash past the spool cap is stopped; the spool never exceeds the cap; the result says so`, async (t) => {
        if (mode === 'sandboxed' && sandboxSkip)
            return t.skip(sandboxSkip);
        if (process.platform !== 'linux')
            return t.skip('reads /proc');
        const sandbox = mode === 'sandboxed' ? {} : { enabled: false };
        const marker = `SPOOLMARK${mode}${process.pid}`;
        // `yes` writes as fast as the machine can; without the cap it would fill the disk.
        const { r, maxSpool, samples } = await runWatched(`yes ${marker}`, sandbox);
        strict_1.default.equal(r.data.sandbox?.sandboxed, mode === 'sandboxed');
        strict_1.default.deepEqual(r.data.outputCapped, { capBytes: CAP, keptBytes: CAP });
        strict_1.default.equal(Buffer.byteLength(r.data.output), CAP, 'the result holds what was spooled, the whole 1 MiB');
        strict_1.default.ok(r.data.output.startsWith(`${marker}\n${marker}\n`));
        strict_1.default.ok(samples > 0, 'the watcher saw the spool file');
        strict_1.default.ok(maxSpool <= CAP, `spool reached ${maxSpool} bytes (cap ${CAP})`);
        strict_1.default.deepEqual(await pidsWith(marker), [], 'yes is gone');
        const block = bash_1.BashTool.mapToolResultToToolResultBlockParam(r.data, 'toolu_spool');
        strict_1.default.equal(block.is_error, true);
        strict_1.default.match((0, messages_1.toolResultText)(block), /Command was stopped: its output passed the 1 MiB limit \(DURABLE_AGENT_BASH_MAX_SPOOL_BYTES\); its process group was killed\. 1048576 bytes were kept/);
        strict_1.default.deepEqual(await node_fs_1.promises.readdir(tmp).then((l) => l.filter((d) => d.startsWith('durable-agent-bash-'))), [], 'the spool is removed');
    });
}
(0, node_test_1.test)('unit: output up to the cap is kept whole and is not an error; a child left running keeps writing after the call without being stopped', async (t) => {
    if (process.platform !== 'linux')
        return t.skip('reads /proc');
    const exact = await runWatched(`head -c ${CAP} /dev/zero | tr '\\0' a`, { enabled: false });
    strict_1.default.equal(exact.r.data.outputCapped, undefined);
    strict_1.default.equal(exact.r.data.exitCode, 0);
    strict_1.default.equal(exact.r.data.output, 'a'.repeat(CAP));
    // A background child that keeps the pipe: the call returns, and the child's later writes neither
    // block it nor kill it (SIGPIPE) — they go nowhere, as before the spool was a pipe.
    const marker = `SPOOLBG${process.pid}`;
    const bg = await bash_1.BashTool.call({ command: `(while :; do echo ${marker}; sleep 0.02; done) & echo started` }, ctx({ enabled: false }), () => undefined);
    strict_1.default.match(bg.data.output, /^started\n/);
    const pids = await pidsWith(marker);
    try {
        for (let i = 0; i < 20; i++)
            await new Promise((r) => setTimeout(r, 20));
        // Still there after dozens of writes into the pipe the call no longer reads for itself.
        const stat = await Promise.all(pids.map((p) => node_fs_1.promises.readFile(`/proc/${p}/stat`, 'utf8').catch(() => '')));
        strict_1.default.ok(stat.some((s) => s !== '' && !/\) Z /.test(s)), 'the background loop is alive');
    }
    finally {
        for (const p of await pidsWith(marker)) {
            try {
                process.kill(p, 'SIGKILL');
            }
            catch {
                // gone
            }
        }
    }
});
(0, node_test_1.test)('unit: DURABLE_AGENT_BASH_MAX_SPOOL_BYTES: sizes with units; a malformed value is an error naming it', async () => {
    strict_1.default.equal((0, bash_1.bashSpoolCapBytes)({}), 64 * 1024 * 1024);
    strict_1.default.equal((0, bash_1.bashSpoolCapBytes)({ DURABLE_AGENT_BASH_MAX_SPOOL_BYTES: '2048' }), 2048);
    strict_1.default.equal((0, bash_1.bashSpoolCapBytes)({ DURABLE_AGENT_BASH_MAX_SPOOL_BYTES: '512K' }), 512 * 1024);
    strict_1.default.equal((0, bash_1.bashSpoolCapBytes)({ DURABLE_AGENT_BASH_MAX_SPOOL_BYTES: '2G' }), 2 * 1024 ** 3);
    for (const bad of ['lots', '-5', '1.5M', '10']) {
        strict_1.default.throws(() => (0, bash_1.bashSpoolCapBytes)({ DURABLE_AGENT_BASH_MAX_SPOOL_BYTES: bad }), /^Error: DURABLE_AGENT_BASH_MAX_SPOOL_BYTES=.* is not a size/, bad);
    }
    process.env.DURABLE_AGENT_BASH_MAX_SPOOL_BYTES = 'lots';
    try {
        await strict_1.default.rejects(bash_1.BashTool.call({ command: 'echo hi' }, ctx({ enabled: false }), () => undefined), /DURABLE_AGENT_BASH_MAX_SPOOL_BYTES=lots is not a size/);
    }
    finally {
        process.env.DURABLE_AGENT_BASH_MAX_SPOOL_BYTES = '1M';
    }
});
//# sourceMappingURL=bash-spool.test.js.map