"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: MCP servers from npm (server-everything, server-filesystem) and a small SDK server
// (test/support/mcpServer.ts) as real processes: the worker's connections (start, reuse, crash and
// restart, timeouts, streamable HTTP), and sessions on the real dev server calling MCP tools.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const proto_1 = require("@temporalio/proto");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const runSession_1 = require("../../src/local/runSession");
const mcp_1 = require("../../src/mcp");
const node_net_1 = require("node:net");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const cli_1 = require("../support/cli");
const wait_1 = require("../support/wait");
const client_1 = require("../../src/client");
const definitions_1 = require("../../src/workflows/definitions");
(0, node_test_1.after)(temporal_1.closeTestEnv);
const EventType = proto_1.temporal.api.enums.v1.EventType;
const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const filesystem = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
const testServer = (0, node_path_1.join)(__dirname, '..', 'support', 'mcpServer.js');
const text = (r) => r.content.map((c) => String(c.text ?? '')).join('');
(0, node_test_1.test)('integration mcp: the worker owns connections: npm servers over stdio, reuse, crash and restart, start failures and timeouts', async () => {
    const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'mcp-fs-'));
    await (0, promises_1.writeFile)((0, node_path_1.join)(work, 'hello.txt'), 'hello from the filesystem server\n');
    const m = new mcp_1.McpManager({ startupTimeoutMs: 20_000, toolTimeoutMs: 20_000 });
    try {
        const ev = { command: process.execPath, args: [everything] };
        const tools = await m.listTools('everything', ev, work);
        strict_1.default.ok(tools.some((t) => t.name === 'echo' && t.annotations?.readOnlyHint === true), JSON.stringify(tools.map((t) => t.name)));
        strict_1.default.equal(text(await m.callTool('everything', ev, work, 'echo', { message: 'hi' })), 'Echo: hi');
        strict_1.default.match(text(await m.callTool('everything', ev, work, 'get-sum', { a: 2, b: 3 })), /5/);
        strict_1.default.equal(m.started, 1, 'one server process for the list and both calls');
        const fs = { command: process.execPath, args: [filesystem, work] };
        strict_1.default.match(text(await m.callTool('fs', fs, work, 'read_text_file', { path: (0, node_path_1.join)(work, 'hello.txt') })), /hello from the filesystem server/);
        const outside = await m.callTool('fs', fs, work, 'read_text_file', { path: '/etc/hostname' });
        strict_1.default.equal(outside.isError, true, 'the server refuses paths outside its allowed directory: isError comes through');
        // A server that dies mid-call: an McpUnavailableError saying so, then the next call starts it again.
        const ts = { command: process.execPath, args: [testServer] };
        const pid1 = text(await m.callTool('test', ts, work, 'pid', {}));
        await strict_1.default.rejects(m.callTool('test', ts, work, 'crash', {}), (e) => e instanceof mcp_1.McpUnavailableError && /MCP server test is gone/.test(e.message));
        const pid2 = text(await m.callTool('test', ts, work, 'pid', {}));
        strict_1.default.notEqual(pid1, pid2, 'a new server process answers after the crash');
        // A server that cannot start, and one that never answers initialize: errors, never a hang.
        const broken = { command: process.execPath, args: ['-e', 'process.exit(2)'] };
        await strict_1.default.rejects(m.listTools('broken', broken, work), /MCP server broken failed to start/);
        const startedBefore = m.started;
        await strict_1.default.rejects(m.callTool('broken', broken, work, 'x', {}), /MCP server broken failed to start/);
        strict_1.default.equal(m.started, startedBefore, 'a failed start is remembered for a moment: no second start within the same turn');
        const slow = new mcp_1.McpManager({ startupTimeoutMs: 1_000 });
        await strict_1.default.rejects(slow.listTools('mute', { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] }, work), /MCP server mute failed to start.*(within 1000 ms|timed out)/i);
        await slow.close();
        await strict_1.default.rejects(m.listTools('nocmd', { command: '/nonexistent/mcp-server' }, work), /failed to start/);
        // A missing environment variable: named, before anything starts.
        await strict_1.default.rejects(m.listTools('env', { command: '${MCP_TEST_UNSET_CMD}' }, work), /missing environment variable MCP_TEST_UNSET_CMD/);
    }
    finally {
        await m.close();
    }
    strict_1.default.equal(m.openConnections, 0);
    await strict_1.default.rejects(m.listTools('everything', { command: process.execPath, args: [everything] }, work), /shutting down/);
});
(0, node_test_1.test)('integration mcp: streamable HTTP with ${VAR:-default} expansion in the url', async () => {
    const portFile = (0, node_path_1.join)(await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'mcp-http-')), 'port');
    const child = (0, node_child_process_1.spawn)(process.execPath, [testServer, 'http', portFile], { stdio: 'ignore' });
    const m = new mcp_1.McpManager({ env: { MCP_TEST_HOST: '127.0.0.1' } });
    try {
        let port = '';
        for (let i = 0; i < 200 && !port; i++) {
            port = await (0, promises_1.readFile)(portFile, 'utf8').catch(() => '');
            if (!port)
                await new Promise((r) => setTimeout(r, 50));
        }
        strict_1.default.ok(port, 'the HTTP server wrote its port');
        const cfg = { type: 'http', url: `http://\${MCP_TEST_HOST}:\${MCP_TEST_PORT:-${port}}/mcp` };
        const tools = await m.listTools('web', cfg, (0, node_os_1.tmpdir)());
        strict_1.default.ok(tools.some((t) => t.name === 'ping'));
        strict_1.default.equal(text(await m.callTool('web', cfg, (0, node_os_1.tmpdir)(), 'ping', { message: 'over http' })), 'pong over http');
    }
    finally {
        await m.close();
        child.kill();
    }
});
(0, node_test_1.test)('integration mcp: the reference\'s other server forms: type "sse" (server-everything over HTTP+SSE) and a server\'s own "timeout"', async () => {
    const port = await new Promise((resolve) => {
        const srv = (0, node_net_1.createServer)().listen(0, '127.0.0.1', () => {
            const p = srv.address().port;
            srv.close(() => resolve(p));
        });
    });
    const child = (0, node_child_process_1.spawn)(process.execPath, [everything, 'sse'], {
        env: { ...process.env, PORT: String(port) },
        stdio: 'ignore',
    });
    const m = new mcp_1.McpManager({ startupTimeoutMs: 20_000, env: { MCP_TEST_PORT: String(port) } });
    try {
        const [cfg] = Object.values((0, mcp_1.parseMcpServers)({ ev: { type: 'sse', url: 'http://127.0.0.1:${MCP_TEST_PORT}/sse' } }, '.mcp.json'));
        let tools;
        for (let i = 0; i < 100 && !tools; i++) {
            tools = await m.listTools('ev', cfg, (0, node_os_1.tmpdir)()).catch(async () => {
                await new Promise((r) => setTimeout(r, 100));
                return undefined;
            });
            if (!tools)
                await m.close(false);
        }
        strict_1.default.ok(tools?.some((t) => t.name === 'echo'), 'tools listed over SSE');
        strict_1.default.equal(text(await m.callTool('ev', cfg, (0, node_os_1.tmpdir)(), 'echo', { message: 'over sse' })), 'Echo: over sse');
        // `timeout` (ms) bounds a call of that server, whatever MCP_TOOL_TIMEOUT says.
        const ts = { command: process.execPath, args: [testServer], timeout: 1000 };
        strict_1.default.equal(m.callTimeoutMs(ts), 1000);
        const t0 = Date.now();
        await strict_1.default.rejects(m.callTool('slow', ts, (0, node_os_1.tmpdir)(), 'wait', { ms: 5000, tag: 't' }), /MCP server slow did not answer the call of wait within 1000 ms/);
        strict_1.default.ok(Date.now() - t0 < 4500, 'the call gave up before the server answered');
    }
    finally {
        await m.close();
        child.kill();
    }
});
(0, node_test_1.test)('integration mcp: a server that hangs at start-up costs MCP_TIMEOUT once: later listings answer at once and retry in the background', async () => {
    const m = new mcp_1.McpManager({ startupTimeoutMs: 1_000, failedStartMemoryMs: 0 });
    const mute = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };
    try {
        await strict_1.default.rejects(m.listTools('mute', mute, (0, node_os_1.tmpdir)(), true), /MCP server mute failed to start/);
        strict_1.default.equal(m.startsInFlight, 0);
        // The next turn's listing: the same error at once, while a new start runs in the background.
        await strict_1.default.rejects(m.listTools('mute', mute, (0, node_os_1.tmpdir)(), true), /MCP server mute failed to start/);
        strict_1.default.equal(m.startsInFlight, 1, 'answered before the retry finished');
        strict_1.default.equal(m.started, 2);
        // A call waits for a start (bounded by the start-up timeout).
        await strict_1.default.rejects(m.callTool('mute', mute, (0, node_os_1.tmpdir)(), 'x', {}), /MCP server mute failed to start/);
        strict_1.default.equal(m.startsInFlight, 0);
    }
    finally {
        await m.close();
    }
});
(0, node_test_1.test)('integration mcp: a server that adds a tool (notifications/tools/list_changed): the next listing has it, on the same process', async () => {
    const m = new mcp_1.McpManager({ startupTimeoutMs: 20_000 });
    try {
        const ts = { command: process.execPath, args: [testServer] };
        const before = await m.listTools('t', ts, (0, node_os_1.tmpdir)());
        strict_1.default.ok(!before.some((t) => t.name === 'grown'));
        strict_1.default.equal(text(await m.callTool('t', ts, (0, node_os_1.tmpdir)(), 'grow', {})), 'grew');
        await (0, wait_1.waitFor)('tools/list_changed', async () => m.listChanges > 0, 10_000);
        const after = await m.listTools('t', ts, (0, node_os_1.tmpdir)());
        strict_1.default.ok(after.some((t) => t.name === 'grown' && t.annotations?.readOnlyHint === true), JSON.stringify(after.map((t) => t.name)));
        strict_1.default.equal(text(await m.callTool('t', ts, (0, node_os_1.tmpdir)(), 'grown', {})), 'grown here');
        strict_1.default.equal(m.started, 1, 'no restart was needed');
    }
    finally {
        await m.close();
    }
});
(0, node_test_1.test)('integration mcp: a session calls MCP tools on the dev server: results, deny rules, a crashed server, batching by annotations', async () => {
    const manager = new mcp_1.McpManager({ startupTimeoutMs: 20_000, toolTimeoutMs: 20_000 });
    await (0, agent_1.withAgent)({ worker: { mcp: manager } }, async ({ fake, start, workDir, client }) => {
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, 'notes.txt'), 'durable notes\n');
        const mcpServers = {
            everything: { command: process.execPath, args: [everything] },
            fs: { command: process.execPath, args: [filesystem, '.'] },
            test: { command: process.execPath, args: [testServer] },
        };
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_echo', name: 'mcp__everything__echo', input: { message: 'durable' } },
            { id: 'toolu_read', name: 'mcp__fs__read_text_file', input: { path: (0, node_path_1.join)(workDir, 'notes.txt') } },
            { id: 'toolu_w1', name: 'mcp__test__wait', input: { ms: 300, tag: 'a' } },
            { id: 'toolu_w2', name: 'mcp__test__wait', input: { ms: 300, tag: 'b' } },
        ]), (0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_sum', name: 'mcp__everything__get-sum', input: { a: 1, b: 2 } },
            { id: 'toolu_badin', name: 'mcp__everything__echo', input: { message: 42 } },
            { id: 'toolu_fail', name: 'mcp__test__fail', input: {} },
            { id: 'toolu_img', name: 'mcp__test__image', input: {} },
            { id: 'toolu_big', name: 'mcp__test__big', input: { n: 150_000 } },
            { id: 'toolu_hooked', name: 'mcp__test__pid', input: {} },
        ]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_crash', name: 'mcp__test__crash', input: {} }]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_ping', name: 'mcp__test__ping', input: { message: 'again' } }]), (0, fakeAnthropic_1.textResponse)('done'));
        const handle = await start({
            prompt: 'use the MCP tools',
            permissionMode: 'default',
            // Batching by annotations as such (the batch's calls scheduled together); streamed early starts: integration/streaming-tools.
            streamingToolExecution: false,
            mcpServers,
            rules: { allow: ['mcp__test'], ask: [], deny: ['mcp__everything__get-sum'] },
            hooks: {
                PreToolUse: [
                    { matcher: 'mcp__test__pid', hooks: [{ type: 'command', command: 'echo "no pids today" >&2; exit 2' }] },
                ],
            },
        });
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed', result.endReason);
        strict_1.default.equal(result.turns, 5);
        fake.assertDone();
        const reqs = fake.messageRequests();
        // The model was offered the MCP tools with the servers' schemas, minus the denied one.
        const offered = (reqs[0]?.tools ?? []);
        const names = offered.map((t) => t.name);
        for (const n of [
            'mcp__everything__echo',
            'mcp__fs__read_text_file',
            'mcp__test__ping',
            'mcp__test__crash',
            'Read',
            'Bash',
        ])
            strict_1.default.ok(names.includes(n), n);
        strict_1.default.ok(!names.includes('mcp__everything__get-sum'), 'a denied MCP tool is not offered');
        strict_1.default.ok(offered.find((t) => t.name === 'mcp__everything__echo')?.input_schema.properties?.message);
        const [echo, read, w1, w2] = (0, fakeAnthropic_1.lastToolResults)(reqs[1]);
        strict_1.default.equal(JSON.stringify(echo?.content).includes('Echo: durable'), true, JSON.stringify(echo));
        strict_1.default.equal(echo?.is_error, undefined);
        strict_1.default.match(JSON.stringify(read?.content), /durable notes/);
        strict_1.default.match(JSON.stringify(w1?.content), /waited a/);
        strict_1.default.match(JSON.stringify(w2?.content), /waited b/);
        const [sum, badin, fail, img, big, hooked] = (0, fakeAnthropic_1.lastToolResults)(reqs[2]);
        // The size policy: stored whole, a preview inline.
        strict_1.default.match(JSON.stringify(big?.content), /<persisted-output>[\s\S]*Full output saved to: /);
        strict_1.default.ok(JSON.stringify(big?.content).length < 10_000);
        // PreToolUse hooks match MCP tool names.
        strict_1.default.equal(hooked?.is_error, true);
        strict_1.default.match(JSON.stringify(hooked?.content), /no pids today/);
        strict_1.default.equal(sum?.is_error, true);
        strict_1.default.match(JSON.stringify(sum?.content), /No such tool available: mcp__everything__get-sum/);
        strict_1.default.equal(badin?.is_error, true, 'the server schema validates the input');
        strict_1.default.match(JSON.stringify(badin?.content), /InputValidationError|string/);
        strict_1.default.equal(fail?.is_error, true, "the server's isError becomes is_error");
        strict_1.default.match(JSON.stringify(fail?.content), /the thing failed/);
        strict_1.default.match(JSON.stringify(img?.content), /\[Image could not be processed: its bytes are not image\/png\]/, 'bytes that are not a PNG never reach the API');
        strict_1.default.match(JSON.stringify(img?.content), /embedded note/);
        const [crash] = (0, fakeAnthropic_1.lastToolResults)(reqs[3]);
        strict_1.default.equal(crash?.is_error, true);
        strict_1.default.match(JSON.stringify(crash?.content), /MCP server test is gone/);
        const [ping] = (0, fakeAnthropic_1.lastToolResults)(reqs[4]);
        strict_1.default.equal(ping?.is_error, undefined, JSON.stringify(ping));
        strict_1.default.match(JSON.stringify(ping?.content), /pong again/, 'the session continued on a restarted server');
        // readOnlyHint tools ran as one concurrent batch: the four calls of turn 1 were scheduled together.
        const history = await client.workflow.getHandle(`${handle.workflowId}/turn-1`).fetchHistory();
        const scheduled = [[]];
        for (const e of history.events ?? []) {
            if (e.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
                scheduled[scheduled.length - 1].push(e.activityTaskScheduledEventAttributes?.activityId ?? '');
            if (e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED && scheduled[scheduled.length - 1].length > 0)
                scheduled.push([]);
        }
        const batch = scheduled.find((g) => g.includes('tool-toolu_w1'));
        strict_1.default.ok(batch?.includes('tool-toolu_w2') && batch.includes('tool-toolu_echo') && batch.includes('tool-toolu_read'), JSON.stringify(scheduled));
        // The crash (unannotated) ran alone in its turn; the same connections served the whole session.
        strict_1.default.ok(manager.started <= 4, `servers started: ${manager.started} (3 servers + 1 restart)`);
        // A second session with the same config reuses the worker's connections.
        const before = manager.started;
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_e2', name: 'mcp__everything__echo', input: { message: 'second' } }]), (0, fakeAnthropic_1.textResponse)('ok'));
        const r2 = await (await start({ prompt: 'again', mcpServers, permissionMode: 'default' })).result();
        strict_1.default.equal(r2.status, 'completed');
        strict_1.default.match(JSON.stringify((0, fakeAnthropic_1.lastToolResults)(fake.messageRequests().at(-1))[0]?.content), /Echo: second/);
        strict_1.default.equal(manager.started, before, 'no new server process for the second session');
    });
    strict_1.default.equal(manager.openConnections, 0, 'the worker closed its connections on shutdown');
});
(0, node_test_1.test)('integration mcp: a server that fails to start: its tools are not offered and a call is an is_error result saying why', async () => {
    await (0, agent_1.withAgent)({ worker: { mcp: new mcp_1.McpManager({ startupTimeoutMs: 2_000 }) } }, async ({ fake, start }) => {
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_x', name: 'mcp__dead__anything', input: {} }]), (0, fakeAnthropic_1.textResponse)('ok'));
        const result = await (await start({ prompt: 'x', mcpServers: { dead: { command: process.execPath, args: ['-e', 'process.exit(1)'] } } })).result();
        strict_1.default.equal(result.status, 'completed');
        const offered = (fake.messageRequests()[0]?.tools ?? []).map((t) => t.name);
        strict_1.default.ok(!offered.some((n) => n.startsWith('mcp__')));
        const [r] = (0, fakeAnthropic_1.lastToolResults)(fake.messageRequests()[1]);
        strict_1.default.equal(r?.is_error, true);
        strict_1.default.match(JSON.stringify(r?.content), /MCP server dead is unavailable: MCP server dead failed to start/);
    });
});
(0, node_test_1.test)('integration mcp: durable-agent run reads .mcp.json and ~/.claude.json, starts the servers (unapproved too, as claude -p), warns about the disabled one, and the calls return their results', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, taskQueue, workDir }) => {
        const home = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'mcp-home-'));
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, '.mcp.json'), JSON.stringify({
            mcpServers: {
                everything: { command: process.execPath, args: [everything] },
                other: { command: '${MCP_TEST_OTHER_CMD:-nothing}' },
            },
        }));
        await (0, promises_1.mkdir)((0, node_path_1.join)(workDir, '.durable-agent'));
        // No approval for everything: as `claude -p`, run starts a .mcp.json server unless it is disabled.
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, '.durable-agent', 'settings.json'), JSON.stringify({ disabledMcpjsonServers: ['other'] }));
        // A user-scope server where `claude mcp add -s user` keeps it ($CLAUDE_CONFIG_DIR/.claude.json), its name with a dot.
        const claudeDir = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'mcp-claude-config-'));
        await (0, promises_1.writeFile)((0, node_path_1.join)(claudeDir, '.claude.json'), JSON.stringify({ numStartups: 1, mcpServers: { 'user.ev': { command: process.execPath, args: [everything] } } }));
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_cli_echo', name: 'mcp__everything__echo', input: { message: 'from the cli' } },
            { id: 'toolu_cli_sum', name: 'mcp__user_ev__get-sum', input: { a: 20, b: 22 } },
        ]), (0, fakeAnthropic_1.textResponse)('echoed'));
        const env = {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
            DURABLE_AGENT_HOME: home,
            CLAUDE_CONFIG_DIR: claudeDir,
        };
        const r = await (0, cli_1.cli)(['run', '--cwd', workDir, '--model', 'claude-test', '--permission-mode', 'default', 'echo', 'something'], env, 120_000);
        strict_1.default.equal(r.code, 0, r.stderr + r.stdout);
        strict_1.default.match(r.stderr, /\.mcp\.json: mcpServers\.other is disabled \(disabledMcpjsonServers\); not started/);
        strict_1.default.match(r.stdout, /MCP servers: user\.ev \(.*\.claude\.json\), everything \(.*\.mcp\.json\)/);
        fake.assertDone();
        const [res, sum] = (0, fakeAnthropic_1.lastToolResults)(fake.messageRequests()[1]);
        strict_1.default.equal(res?.is_error, undefined, JSON.stringify(res));
        strict_1.default.match(JSON.stringify(res?.content), /Echo: from the cli/);
        strict_1.default.equal(sum?.is_error, undefined, JSON.stringify(sum));
        strict_1.default.match(JSON.stringify(sum?.content), /42/);
        const offered = (fake.messageRequests()[0]?.tools ?? []).map((t) => t.name);
        strict_1.default.ok(offered.includes('mcp__everything__echo') && !offered.some((n) => n.startsWith('mcp__other__')));
    });
});
(0, node_test_1.test)('integration mcp: the in-process runner calls MCP tools the same way (batches by annotations, asks for unannotated tools)', async () => {
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    const work = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'mcp-local-'));
    const store = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'mcp-local-store-'));
    try {
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_lp1', name: 'mcp__test__ping', input: { message: 'one' } },
            { id: 'toolu_lp2', name: 'mcp__test__ping', input: { message: 'two' } },
            { id: 'toolu_lf', name: 'mcp__test__fail', input: {} },
        ]), (0, fakeAnthropic_1.textResponse)('done'));
        const asked = [];
        const result = await (0, runSession_1.runLocalSession)({
            prompt: 'ping',
            cwd: work,
            permissionMode: 'default',
            model: { model: 'claude-test', maxTokens: 256 },
            mcpServers: { test: { command: process.execPath, args: [testServer] } },
            onAsk: async (a) => {
                asked.push(a.toolUseId);
                return { decision: 'approve', source: 'human', by: 'tester' };
            },
        }, { storeDir: store, anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
        strict_1.default.equal(result.status, 'completed', result.endReason);
        strict_1.default.deepEqual(asked, ['toolu_lf'], 'only the unannotated tool asks in default mode');
        strict_1.default.deepEqual(result.turnsDetail[0]?.batches.map((b) => [b.concurrencySafe, b.toolUseIds]), [
            [true, ['toolu_lp1', 'toolu_lp2']],
            [false, ['toolu_lf']],
        ]);
        const [p1, p2, f] = (0, fakeAnthropic_1.lastToolResults)(fake.messageRequests()[1]);
        strict_1.default.match(JSON.stringify(p1?.content), /pong one/);
        strict_1.default.match(JSON.stringify(p2?.content), /pong two/);
        strict_1.default.equal(f?.is_error, true);
    }
    finally {
        await fake.close();
    }
});
(0, node_test_1.test)('integration mcp: an interrupt cancels a running MCP call; the connection stays usable for the next call', async () => {
    const manager = new mcp_1.McpManager({ startupTimeoutMs: 20_000 });
    await (0, agent_1.withAgent)({ worker: { mcp: manager } }, async ({ fake, start, client }) => {
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_long', name: 'mcp__test__wait', input: { ms: 60_000, tag: 'long' } }]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_after', name: 'mcp__test__ping', input: { message: 'after the interrupt' } }]), (0, fakeAnthropic_1.textResponse)('done'));
        const handle = await start({
            prompt: 'wait',
            mcpServers: { test: { command: process.execPath, args: [testServer] } },
        });
        const turn = client.workflow.getHandle(`${handle.workflowId}/turn-1`);
        await (0, wait_1.waitFor)('the MCP call to run', async () => (await turn.query(definitions_1.turnProgressQuery)).running.some((r) => r.toolUseId === 'toolu_long'), 30_000);
        await (0, client_1.interruptSession)(client, handle.workflowId);
        const status = await (0, wait_1.waitFor)('the session to wait for a message', async () => {
            const s = await (0, client_1.sessionStatus)(client, handle.workflowId);
            return s.status === 'interrupted' && s.phase === 'waiting_for_message' ? s : undefined;
        }, 30_000);
        strict_1.default.deepEqual(status.lastTurn?.records.map((r) => [r.toolUseId, r.status]), [['toolu_long', 'interrupted']]);
        await (0, client_1.sendMessage)(client, handle.workflowId, 'ping instead');
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed', result.endReason);
        const [after] = (0, fakeAnthropic_1.lastToolResults)(fake.messageRequests()[2]);
        strict_1.default.match(JSON.stringify(after?.content), /pong after the interrupt/);
        strict_1.default.equal(manager.started, 1, 'the cancelled call did not cost the connection');
    });
});
//# sourceMappingURL=mcp.test.js.map