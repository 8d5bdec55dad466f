"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: `run` and `attach` say in ONE line when no worker polls the session's task queue
// (before: they waited silently), and say nothing when one does. Same session shape both times (it
// parks on an approval, so the check runs while the session is alive); real CLI processes, the
// real dev server, a worker in this process or none.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const cli_1 = require("../support/cli");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const MAIN = (0, node_path_1.join)(__dirname, '..', '..', 'src', 'cli', 'main.js');
const WARNING = /no worker polls task queue "([^"]+)": the session waits until one does\. Start one with `durable-agent up`/;
/** Runs the command until `until(stdout, stderr)` holds (or 30 s passed), `thenMs` more, then Ctrl-C (detach). */
function runUntil(args, env, until, thenMs) {
    return new Promise((resolve) => {
        const child = (0, node_child_process_1.spawn)(process.execPath, [MAIN, ...args], {
            env: { ...process.env, ...env },
            stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        let timer;
        const check = () => {
            if (timer === undefined && until(stdout, stderr))
                timer = setTimeout(() => child.kill('SIGINT'), thenMs);
        };
        child.stdout.on('data', (d) => {
            stdout += d.toString();
            check();
        });
        child.stderr.on('data', (d) => {
            stderr += d.toString();
            check();
        });
        const giveUp = setTimeout(() => child.kill('SIGINT'), 30_000);
        const hard = setTimeout(() => child.kill('SIGKILL'), 45_000);
        child.on('exit', (code) => {
            clearTimeout(timer);
            clearTimeout(giveUp);
            clearTimeout(hard);
            resolve({ code, stdout, stderr });
        });
    });
}
(0, node_test_1.test)('integration: run and attach warn in one line when no worker polls the task queue, and not when one does', async () => {
    // No worker: the warning, once, naming the queue and how to start a worker.
    await (0, agent_1.withAgent)({ noWorker: true }, async ({ taskQueue, workDir }) => {
        const env = {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
            DURABLE_AGENT_WORKER_GRACE_MS: '300',
        };
        // Ctrl-C 1 s after the warning (a second warning would be there by then), or after 30 s without one.
        const r = await runUntil(['run', '--id', `nowork-${taskQueue}`, '--cwd', workDir, '--model', 'claude-test', 'write', 'a', 'file'], env, (_out, err) => WARNING.test(err), 1_000);
        strict_1.default.equal(r.code, 130, `detached by Ctrl-C: ${r.stderr}`);
        const warnings = r.stderr.split('\n').filter((l) => WARNING.test(l));
        strict_1.default.equal(warnings.length, 1, r.stderr);
        strict_1.default.equal(WARNING.exec(warnings[0])?.[1], taskQueue);
        const a = await runUntil(['attach', `nowork-${taskQueue}`], env, (_out, err) => WARNING.test(err), 1_000);
        strict_1.default.equal(a.stderr.split('\n').filter((l) => WARNING.test(l)).length, 1, a.stderr);
        const c = await (0, cli_1.cli)(['cancel', `nowork-${taskQueue}`], env);
        strict_1.default.equal(c.code, 0, c.stderr);
    });
    // A worker polls: the same session (parked on an approval) gets no warning.
    await (0, agent_1.withAgent)({}, async ({ fake, taskQueue, workDir }) => {
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_ww', name: 'Write', input: { file_path: (0, node_path_1.join)(workDir, 'x.txt'), content: 'x' } }]));
        const env = {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
            DURABLE_AGENT_WORKER_GRACE_MS: '300',
        };
        // Ctrl-C 3 s after the session parked (the check runs 0.3 s after run starts following).
        const r = await runUntil(['run', '--id', `withwork-${taskQueue}`, '--cwd', workDir, '--model', 'claude-test', 'write', 'a', 'file'], env, (out) => /approval needed/.test(out), 3_000);
        strict_1.default.equal(r.code, 130, r.stderr);
        strict_1.default.match(r.stdout, /approval needed: Write/, 'the session was alive and parked during the check');
        strict_1.default.doesNotMatch(r.stderr, /no worker polls/);
        const c = await (0, cli_1.cli)(['cancel', `withwork-${taskQueue}`], env);
        strict_1.default.equal(c.code, 0, c.stderr);
    });
});
//# sourceMappingURL=worker-warning.test.js.map