"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: a real worker process is SIGKILLed (the process alone, as the OOM killer does it)
// in the middle of a sandboxed Bash call (`sleep 30` inside bubblewrap, with the network proxies'
// socat relays). After the next worker starts, nothing of that call is left: no bwrap, socat,
// bash or sleep, no host-side socat bridge of the dead worker (src/sandbox/reaper.ts). Every
// process below a worker is found by a tag in its environment that the test gives that worker.
// The session then completes on the new worker. The same for an unsandboxed call with a
// background child (`sleep 1000 &`): its process group goes. Second case: the worker's guardian is killed
// too (both gone at once): the next worker's start-up sweep removes the dead worker's sandbox
// machinery. Needs bwrap, socat, ripgrep (fatal under CI=true).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const host_1 = require("../../src/sandbox/host");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const wait_1 = require("../support/wait");
const systemPackages_1 = require("../support/systemPackages");
const workerProcs_1 = require("../support/workerProcs");
const leftovers_1 = require("../support/leftovers");
/** Bash's sandbox in these tests (the worker's start-up owns one: src/workerDeps.ts). */
const sandboxHost = new host_1.SandboxHost();
let skip = false;
(0, node_test_1.before)(async () => {
    const a = await sandboxHost.availability();
    if (!a.available) {
        if ((0, systemPackages_1.isCI)())
            throw new Error(`the sandbox must be available in CI: ${a.reason}`);
        skip = `sandbox unavailable here: ${a.reason}`;
        (0, systemPackages_1.reportSkip)(`the sandbox reaper integration test (sandbox unavailable: ${a.reason}; apt-get install -y bubblewrap socat ripgrep)`);
    }
});
(0, node_test_1.after)(async () => {
    await sandboxHost.close();
    await (0, temporal_1.closeTestEnv)();
});
async function killMidBash(opts) {
    await (0, agent_1.withAgent)({ noWorker: true }, async ({ env, fake, start, workDir, storeDir, taskQueue }) => {
        const baseEnv = await (0, workerProcs_1.workerProcessEnv)({ env, fake, storeDir, taskQueue });
        const workerEnv = (tag) => ({ ...baseEnv, [leftovers_1.TAG_ENV]: tag });
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            {
                id: 'toolu_sleep',
                name: 'Bash',
                input: {
                    command: `echo started > started.txt; ${opts.sandboxed ? '' : 'sleep 1000 & '}sleep 30`,
                    description: 'wait',
                },
            },
        ]), (0, fakeAnthropic_1.textResponse)('The call was lost with its worker; moving on.'));
        const procs = [];
        const tag1 = (0, leftovers_1.newTag)();
        const tag2 = (0, leftovers_1.newTag)();
        try {
            const worker1 = await (0, workerProcs_1.spawnWorker)('worker-1', workerEnv(tag1), procs);
            const handle = await start({
                prompt: 'wait a while in the sandbox',
                tools: ['Bash'],
                permissionMode: 'bypassPermissions',
                toolHeartbeatTimeoutMs: 2_000,
                // An allowlist: the runtime starts its proxies, host bridges and in-sandbox socat relays.
                // The leftover tag passes to Bash's processes only when named (Bash gets an allowlist of the environment).
                sandbox: opts.sandboxed
                    ? { network: { allowedDomains: ['localhost'] }, passEnv: [leftovers_1.TAG_ENV] }
                    : { enabled: false, passEnv: [leftovers_1.TAG_ENV] },
            });
            await (0, wait_1.waitFor)('the command to start inside the sandbox', async () => (0, node_fs_1.existsSync)((0, node_path_1.join)(workDir, 'started.txt')), 60_000);
            const running = (0, leftovers_1.taggedProcesses)(tag1).map((p) => p.comm);
            for (const name of opts.sandboxed ? ['bwrap', 'socat', 'sleep'] : ['bash', 'sleep'])
                strict_1.default.ok(running.includes(name), `before the kill, ${name} runs below worker-1: ${running.join(', ')}`);
            if (opts.killGuardianFirst) {
                const guardian = (0, leftovers_1.taggedProcesses)(tag1).find((p) => p.args.includes('durable-agent-guardian'));
                strict_1.default.ok(guardian, 'worker-1 has a guardian');
                process.kill(guardian.pid, 'SIGKILL');
            }
            process.kill(worker1.child.pid, 'SIGKILL');
            await worker1.exited;
            await (0, workerProcs_1.spawnWorker)('worker-2', workerEnv(tag2), procs);
            // worker-1's guardian removes what it left; without the guardian (second case) what is left
            // is its sandbox machinery — the host socat bridge; the sandbox itself went with bwrap's
            // --die-with-parent — and worker-2 sweeps it at start-up.
            const left = await (0, leftovers_1.waitUntilNoneTagged)(tag1, 20_000);
            (0, leftovers_1.killAll)(left);
            strict_1.default.deepEqual(left.map((p) => p.comm), [], `left behind by worker-1 (${(0, leftovers_1.countByName)(left)}):\n${(0, leftovers_1.describe)(left)}`);
            const result = await handle.result();
            strict_1.default.equal(result.status, 'completed');
        }
        finally {
            for (const p of procs)
                (0, workerProcs_1.killGroup)(p);
            await Promise.all(procs.map((p) => p.exited));
        }
        // worker-2, killed with its process group at the end, leaves nothing either.
        const left2 = await (0, leftovers_1.waitUntilNoneTagged)(tag2, 20_000);
        (0, leftovers_1.killAll)(left2);
        strict_1.default.deepEqual(left2.map((p) => p.comm), [], `left behind by worker-2 (${(0, leftovers_1.countByName)(left2)}):\n${(0, leftovers_1.describe)(left2)}`);
    });
}
(0, node_test_1.test)('integration: SIGKILL of a worker mid sandboxed Bash (sleep 30): after the next worker starts, no bwrap, socat, bash or sleep of it is left; the session completes', { timeout: 180_000 }, async (t) => {
    if (skip)
        return t.skip(skip);
    await killMidBash({ killGuardianFirst: false, sandboxed: true });
});
(0, node_test_1.test)("integration: the worker and its guardian both SIGKILLed mid sandboxed Bash: the next worker sweeps the dead worker's bwrap and socat at start-up", { timeout: 180_000 }, async (t) => {
    if (skip)
        return t.skip(skip);
    await killMidBash({ killGuardianFirst: true, sandboxed: true });
});
(0, node_test_1.test)('integration: SIGKILL of a worker mid unsandboxed Bash (sleep 1000 & sleep 30): its process group is gone after the next worker starts', { timeout: 180_000, skip: process.platform !== 'linux' ? 'needs /proc' : false }, async () => {
    await killMidBash({ killGuardianFirst: false, sandboxed: false });
});
//# sourceMappingURL=sandbox-reaper.test.js.map