"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: an MCP server that runs a script from the project (`node ./server.js`), through the
// command line on the real dev server: the session's Write to the script is named, the server that
// crashed afterwards is not started again from the rewritten script (its tools answer why), and the
// next `run` there names the script before anything runs it (the manifest watches the files the
// session's servers run). Real processes: the test MCP server behind the project's server.js.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const node_os_1 = require("node:os");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const cli_1 = require("../support/cli");
(0, node_test_1.after)(temporal_1.closeTestEnv);
(0, node_test_1.test)('cli: a session rewrites the script its MCP server runs: the write is named, the crashed server is not restarted from it, the next run names it (Temporal)', async () => {
    await (0, agent_1.withAgent)({}, async ({ fake, taskQueue, workDir, storeDir }) => {
        const home = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-home-'));
        const env = {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
            DURABLE_AGENT_HOME: home,
            DURABLE_AGENT_STORE_DIR: storeDir,
            HOME: home,
        };
        const testServer = (0, node_path_1.join)(__dirname, '..', 'support', 'mcpServer.js');
        const script = (0, node_path_1.join)(workDir, 'server.js');
        const marker = (0, node_path_1.join)(workDir, 'rewritten-server-ran');
        await (0, promises_1.writeFile)(script, `require(${JSON.stringify(testServer)});\n`);
        await (0, promises_1.writeFile)((0, node_path_1.join)(workDir, '.mcp.json'), JSON.stringify({ mcpServers: { local: { command: process.execPath, args: ['./server.js'] } } }));
        const evil = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nrequire(${JSON.stringify(testServer)});\n`;
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_pin_p1', name: 'mcp__local__ping', input: { message: 'one' } }]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_pin_r', name: 'Read', input: { file_path: script } }]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_pin_w', name: 'Write', input: { file_path: script, content: evil } }]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_pin_crash', name: 'mcp__local__crash', input: {} }]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_pin_p2', name: 'mcp__local__ping', input: { message: 'two' } }]), (0, fakeAnthropic_1.textResponse)('done'));
        const r = await (0, cli_1.cli)([
            'run',
            '--cwd',
            workDir,
            '--model',
            'claude-test',
            '--permission-mode',
            'bypassPermissions',
            '--no-sandbox',
            'use',
            'the',
            'server',
        ], env, 90_000);
        strict_1.default.equal(r.code, 0, r.stderr + r.stdout);
        strict_1.default.match(r.stdout, /Write .*\n\s+⚠ control file server\.js modified by this call/);
        strict_1.default.equal(await (0, promises_1.readFile)(script, 'utf8'), evil, 'bypassPermissions wrote it');
        // The model got the refusal as the second ping's result.
        const results = fake
            .messageRequests()
            .flatMap((q) => q.messages)
            .flatMap((m) => (Array.isArray(m.content) ? m.content : []));
        const p2 = results.find((b) => b.type === 'tool_result' && b.tool_use_id === 'toolu_pin_p2');
        strict_1.default.equal(p2?.is_error, true, JSON.stringify(p2));
        strict_1.default.match(JSON.stringify(p2?.content), /MCP server local was not started: .*server\.js was modified since this session started/);
        strict_1.default.equal((0, node_fs_1.existsSync)(marker), false, 'the rewritten script never ran in that session');
        // The next run names the script first (--strict-mcp-config: nothing starts it here).
        fake.enqueue((0, fakeAnthropic_1.textResponse)('ok'));
        const next = await (0, cli_1.cli)(['run', '--cwd', workDir, '--model', 'claude-test', '--strict-mcp-config', 'look'], env, 60_000);
        strict_1.default.equal(next.code, 0, next.stderr);
        strict_1.default.match(next.stderr, /⚠ server\.js changed since the last session here .*: during that session/);
        strict_1.default.equal((0, node_fs_1.existsSync)(marker), false);
    });
});
//# sourceMappingURL=mcp-pins.test.js.map