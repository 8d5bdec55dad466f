"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: the durable-agent command line, as a user runs it: real processes, the real dev
// server, a worker in this process, the fake Messages API.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const client_1 = require("../../src/client");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const cli_1 = require("../support/cli");
const wait_1 = require("../support/wait");
const node_child_process_1 = require("node:child_process");
const node_net_1 = require("node:net");
const node_os_1 = require("node:os");
(0, node_test_1.after)(temporal_1.closeTestEnv);
function oneLineError(r, pattern) {
    strict_1.default.notEqual(r.code, 0, 'non-zero exit');
    const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
    strict_1.default.equal(lines.length, 1, `one line on stderr, got: ${JSON.stringify(r.stderr)}`);
    strict_1.default.match(lines[0], pattern);
    strict_1.default.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
}
(0, node_test_1.test)('cli: bad input gets a one-line message and a non-zero exit', async () => {
    const env = await (0, temporal_1.getTestEnv)();
    const addr = process.env.TEMPORAL_TEST_ADDRESS ?? env.connection.options.address;
    oneLineError(await (0, cli_1.cli)(['bogus']), /unknown command 'bogus'/);
    oneLineError(await (0, cli_1.cli)(['run', '--bogus', 'x']), /unknown option '--bogus'/);
    oneLineError(await (0, cli_1.cli)(['run']), /missing required argument 'prompt'/);
    oneLineError(await (0, cli_1.cli)(['run', '--permission-mode', 'yolo', 'x']), /yolo.*invalid|Allowed choices/i);
    oneLineError(await (0, cli_1.cli)(['run', '--max-turns', 'zero', 'x']), /--max-turns must be a positive whole number/);
    oneLineError(await (0, cli_1.cli)(['status', 'some-id', '--address', '127.0.0.1:1']), /Cannot reach Temporal at 127\.0\.0\.1:1.*durable-agent dev/);
    oneLineError(await (0, cli_1.cli)(['status', 'no-such-session-xyz'], { TEMPORAL_ADDRESS: addr }), /No session with id no-such-session-xyz/);
    oneLineError(await (0, cli_1.cli)(['approve', 'no-such-session-xyz'], { TEMPORAL_ADDRESS: addr }), /No session with id no-such-session-xyz/);
    oneLineError(await (0, cli_1.cli)(['audit', 'no-such-session-xyz'], { TEMPORAL_ADDRESS: addr }), /No session with id no-such-session-xyz/);
    // `dev` on a port something else holds: refused up front (never "ready" against a foreign server).
    const blocker = (0, node_net_1.createServer)();
    await new Promise((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const busy = blocker.address().port;
    try {
        oneLineError(await (0, cli_1.cli)([
            'dev',
            '--db',
            (0, node_path_1.join)((0, node_os_1.tmpdir)(), `da-busy-${busy}.db`),
            '--port',
            String(busy),
            '--ui-port',
            String(busy + 1),
        ]), new RegExp(`port ${busy} on 127\\.0\\.0\\.1 \\(gRPC\\) is already in use`));
    }
    finally {
        blocker.close();
    }
    const help = await (0, cli_1.cli)(['run', '--help']);
    strict_1.default.equal(help.code, 0);
    strict_1.default.match(help.stdout, /--permission-mode/);
});
(0, node_test_1.test)('cli: run --detach, status, approve (not pending → one-line error), audit --json, ls', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, taskQueue, workDir, client }) => {
        const addr = process.env.TEMPORAL_TEST_ADDRESS;
        const env = { TEMPORAL_ADDRESS: addr, DURABLE_AGENT_TASK_QUEUE: taskQueue };
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_cli_w', name: 'Write', input: { file_path: (0, node_path_1.join)(workDir, 'out.txt'), content: 'hi\n' } },
        ]), (0, fakeAnthropic_1.textResponse)('wrote it'));
        const started = await (0, cli_1.cli)(['run', '--detach', '--json', '--cwd', workDir, '--model', 'claude-test', 'write', 'a', 'file'], env);
        strict_1.default.equal(started.code, 0, started.stderr);
        const id = JSON.parse(started.stdout).session;
        // Wait until the Write asks.
        for (let i = 0; i < 100; i++) {
            if ((await (0, client_1.sessionStatus)(client, id)).pendingApprovals.length > 0)
                break;
            await new Promise((r) => setTimeout(r, 100));
        }
        const st = await (0, cli_1.cli)(['status', id, '--json'], env);
        strict_1.default.equal(st.code, 0, st.stderr);
        strict_1.default.equal(JSON.parse(st.stdout).status, 'awaiting_approval');
        oneLineError(await (0, cli_1.cli)(['approve', id, 'toolu_not_pending'], env), /toolu_not_pending is not waiting for approval \(pending: toolu_cli_w\)/);
        const ok = await (0, cli_1.cli)(['approve', id, '--by', 'carol'], env);
        strict_1.default.equal(ok.code, 0, ok.stderr);
        strict_1.default.match(ok.stdout, /approved toolu_cli_w/);
        const attach = await (0, cli_1.cli)(['attach', id], env);
        strict_1.default.equal(attach.code, 0, attach.stderr);
        strict_1.default.match(attach.stdout, /session completed/);
        oneLineError(await (0, cli_1.cli)(['approve', id], env), /not|nothing/i);
        const audit = await (0, cli_1.cli)(['audit', id, '--json'], env);
        strict_1.default.equal(audit.code, 0, audit.stderr);
        const entries = audit.stdout
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l));
        const write = entries.find((e) => e.kind === 'tool_call' && e.toolUseId === 'toolu_cli_w');
        strict_1.default.ok(write, audit.stdout);
        strict_1.default.equal(write.status, 'ok');
        strict_1.default.equal(write.decision.source, 'human');
        strict_1.default.equal(write.decision.by, 'carol');
        const ls = await (0, cli_1.cli)(['ls', '--json', '--limit', '200'], env);
        strict_1.default.equal(ls.code, 0, ls.stderr);
        strict_1.default.ok(ls.stdout.split('\n').some((l) => l.includes(id)));
    });
});
(0, node_test_1.test)('cli: run follows a long tool with its progress (the heartbeat output) and exits 0', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, taskQueue, workDir }) => {
        const env = { TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS, DURABLE_AGENT_TASK_QUEUE: taskQueue };
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            {
                id: 'toolu_cli_long',
                name: 'Bash',
                input: { command: 'for i in 1 2 3 4 5 6 7 8 9; do echo step $i; sleep 1; done' },
            },
        ]), (0, fakeAnthropic_1.textResponse)('counted'));
        const r = await (0, cli_1.cli)([
            'run',
            '--json',
            '--cwd',
            workDir,
            '--permission-mode',
            'bypassPermissions',
            '--model',
            'claude-test',
            'count slowly',
        ], env, 60_000);
        strict_1.default.equal(r.code, 0, r.stderr);
        const events = r.stdout
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l));
        strict_1.default.deepEqual(Object.keys(events[0] ?? {}), ['session', 'event', 'cwd', 'settings', 'memory'], 'the first line says which files were loaded');
        strict_1.default.equal(events[0]?.event, 'started');
        const progress = events.filter((e) => e.event === 'tool_progress' && e.toolUseId === 'toolu_cli_long');
        strict_1.default.ok(progress.length >= 1, r.stdout);
        strict_1.default.ok(progress.some((e) => /^step \d$/.test(e.output ?? '')), JSON.stringify(progress));
        strict_1.default.ok(events.some((e) => e.event === 'tool_done' && e.toolUseId === 'toolu_cli_long' && e.status === 'ok'));
        strict_1.default.equal(events[events.length - 1]?.event, 'ended');
    });
});
(0, node_test_1.test)('cli: Ctrl-C detaches without killing the job; interrupt, send, transcript and cancel steer it', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, taskQueue, workDir, storeDir, client }) => {
        const env = {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
            DURABLE_AGENT_STORE_DIR: storeDir,
        };
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_cli_sleep', name: 'Bash', input: { command: 'sleep 30' } }], {
            text: 'Waiting a while.',
        }), (0, fakeAnthropic_1.textResponse)('Stopped, as you said.'), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_cli_sleep2', name: 'Bash', input: { command: 'sleep 30' } }]));
        // `run` in the foreground, then Ctrl-C: it detaches and says how to come back.
        const child = (0, node_child_process_1.spawn)(process.execPath, [
            (0, node_path_1.join)(__dirname, '..', '..', 'src', 'cli', 'main.js'),
            'run',
            '--cwd',
            workDir,
            '--permission-mode',
            'bypassPermissions',
            '--model',
            'claude-test',
            'wait',
        ], {
            env: { ...process.env, ...env },
            stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d.toString()));
        child.stderr.on('data', (d) => (stderr += d.toString()));
        await (0, wait_1.waitFor)('the Bash call to start', async () => stdout.includes('sleep 30'));
        const id = /session (\S+) started/.exec(stdout)?.[1];
        strict_1.default.ok(id, stdout);
        child.kill('SIGINT');
        const code = await new Promise((r) => child.on('exit', r));
        strict_1.default.equal(code, 130);
        strict_1.default.match(stderr, /detached; the session keeps running/);
        strict_1.default.match(stderr, new RegExp(`durable-agent attach ${id}`));
        strict_1.default.equal((await (0, client_1.sessionStatus)(client, id)).status, 'running');
        const intr = await (0, cli_1.cli)(['interrupt', id], env);
        strict_1.default.equal(intr.code, 0, intr.stderr);
        await (0, wait_1.waitFor)('the session to wait for a message', async () => (await (0, client_1.sessionStatus)(client, id)).phase === 'waiting_for_message');
        const sent = await (0, cli_1.cli)(['send', id, 'please', 'stop'], env);
        strict_1.default.equal(sent.code, 0, sent.stderr);
        await (0, wait_1.waitFor)('the session to complete', async () => (await (0, client_1.sessionStatus)(client, id)).status === 'completed');
        const transcript = await (0, cli_1.cli)(['transcript', id], env);
        strict_1.default.equal(transcript.code, 0, transcript.stderr);
        strict_1.default.match(transcript.stdout, /user: wait/);
        strict_1.default.match(transcript.stdout, /\[tool_use toolu_cli_sleep\] Bash/);
        strict_1.default.match(transcript.stdout, /\[tool_result toolu_cli_sleep error\] .*[Ii]nterrupt/);
        strict_1.default.match(transcript.stdout, /user: please stop/);
        strict_1.default.match(transcript.stdout, /assistant: Stopped, as you said\./);
        // cancel: a second session, cancelled while its tool runs.
        const started = await (0, cli_1.cli)([
            'run',
            '--detach',
            '--cwd',
            workDir,
            '--permission-mode',
            'bypassPermissions',
            '--model',
            'claude-test',
            'wait again',
        ], env);
        const id2 = started.stdout.trim();
        await (0, wait_1.waitFor)('the second Bash call', async () => (await (0, client_1.sessionStatus)(client, id2)).currentTurnWorkflowId !== undefined && fake.remaining() === 0);
        const cancelled = await (0, cli_1.cli)(['cancel', id2], env);
        strict_1.default.equal(cancelled.code, 0, cancelled.stderr);
        const desc = await (0, wait_1.waitFor)('the cancellation', async () => {
            const d = await client.workflow.getHandle(id2).describe();
            return d.status.name === 'CANCELLED' ? d : undefined;
        });
        strict_1.default.equal(desc.status.name, 'CANCELLED');
    });
});
//# sourceMappingURL=cli.test.js.map