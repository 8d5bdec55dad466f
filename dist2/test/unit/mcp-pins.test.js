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
// The files stdio MCP servers run from the working directories (issue 18): they are control files of
// the session (the file tools ask or deny, the sandbox denies, writes are named), and their content
// is pinned at the start: a server whose script changed since the session started is not started
// again after a crash (src/mcp/pins.ts, src/mcp/manager.ts). Real files, real server processes (the
// test MCP server behind a `server.js` in the project), real bwrap where it is available.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const protectedPaths_1 = require("../../src/permissions/protectedPaths");
const pins_1 = require("../../src/mcp/pins");
const mcp_1 = require("../../src/mcp");
const tools_1 = require("../../src/calls/tools");
const decide_1 = require("../../src/permissions/decide");
const bash_1 = require("../../src/tools/builtin/bash");
const builtin_1 = require("../../src/tools/builtin");
const host_1 = require("../../src/sandbox/host");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const runSession_1 = require("../../src/local/runSession");
const systemPackages_1 = require("../support/systemPackages");
const tools_harness_1 = require("./tools-harness");
/** Bash's sandbox in these tests (the worker's start-up owns one: src/workerDeps.ts). */
const sandboxHost = new host_1.SandboxHost();
const TEST_SERVER = path.join(__dirname, '..', 'support', 'mcpServer.js');
let root = '';
(0, node_test_1.before)(async () => {
    root = await (0, tools_harness_1.makeTmpDir)('da-mcp-pins-');
});
(0, node_test_1.after)(async () => {
    await sandboxHost.close();
    if (root)
        await (0, tools_harness_1.removeDir)(root);
});
/** A project whose `server.js` is the test MCP server; `evil` adds a line that leaves a marker when it runs. */
async function project(name) {
    const dir = path.join(root, name);
    await node_fs_1.promises.mkdir(dir, { recursive: true });
    const script = path.join(dir, 'server.js');
    const marker = path.join(root, `${name}-evil-ran`);
    await node_fs_1.promises.writeFile(script, `require(${JSON.stringify(TEST_SERVER)});\n`);
    const evil = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nrequire(${JSON.stringify(TEST_SERVER)});\n`;
    return { dir, script, marker, evil };
}
const noStore = {};
(0, node_test_1.test)('unit mcp pins: the files a stdio server runs from the working directories (scripts, ./bin, python -m, npx tsx, a local npx package, ${CLAUDE_PROJECT_DIR})', async () => {
    const proj = path.join(root, 'names');
    const outside = path.join(root, 'names-outside');
    for (const d of [
        proj,
        outside,
        path.join(proj, 'node_modules', 'tsx'),
        path.join(proj, 'node_modules', '.bin'),
        path.join(proj, 'node_modules', '@acme', 'files-server'),
    ])
        await node_fs_1.promises.mkdir(d, { recursive: true });
    await node_fs_1.promises.writeFile(path.join(proj, 'node_modules', '.bin', 'tsx'), '');
    const files = (servers) => (0, protectedPaths_1.mcpServerControlFiles)((0, pins_1.stdioCommands)(servers), proj, [proj], undefined, node_fs_1.existsSync)
        .map((f) => path.relative(proj, f))
        .sort();
    strict_1.default.deepEqual(files({ s: { command: process.execPath, args: ['./server.js'] } }), ['package.json', 'server.js']);
    strict_1.default.deepEqual(files({ s: { command: './bin/mcp', args: ['--port', '0'] } }), ['bin/mcp']);
    strict_1.default.deepEqual(files({ s: { command: 'python3', args: ['-u', '-m', 'local_mcp.server'] } }), [
        'local_mcp',
        'local_mcp.py',
    ]);
    strict_1.default.deepEqual(files({ s: { command: 'npx', args: ['tsx', './src/mcp.ts'] } }), [
        'node_modules/.bin/tsx',
        'node_modules/tsx',
        'package.json',
        'src/mcp.ts',
        'src/package.json',
    ]);
    // A registry package: the local copy npx would run instead, where one is installed.
    strict_1.default.deepEqual(files({ s: { command: 'npx', args: ['-y', '@acme/files-server@1.2.0', '/data'] } }), [
        'node_modules/@acme/files-server',
        'package.json',
    ]);
    strict_1.default.deepEqual(files({ s: { command: 'npx', args: ['-y', 'not-installed-server'] } }), ['package.json'], 'an absent local copy is not denied (node_modules must stay creatable)');
    strict_1.default.deepEqual(files({ s: { command: 'node', args: ['${CLAUDE_PROJECT_DIR}/srv/index.js'] } }), ['package.json', 'srv/index.js', 'srv/package.json'], 'node reads the package.json nearest to the script');
    strict_1.default.deepEqual(files({ s: { command: 'node', args: [path.join(outside, 'build', 'index.js')] } }), [], "a server installed elsewhere: the project's package.json is not its business");
    strict_1.default.ok(files({ s: { command: 'sh', args: ['-c', 'exec ./run.sh --fast'] } }).includes('run.sh'), 'an argument with spaces (a shell line) is split into words too');
    strict_1.default.deepEqual(files({ s: { command: '/usr/bin/env', args: [path.join(outside, 'x.js')] } }), [], 'outside the working directories: not writable, not listed');
    strict_1.default.deepEqual(files({ r: { type: 'http', url: 'http://127.0.0.1:1/mcp' } }), [], 'a remote server runs nothing here');
});
(0, node_test_1.test)("unit mcp pins: a server's script is a protected path for the file tools (ask in default/acceptEdits, deny in dontAsk/plan, written in bypassPermissions)", async () => {
    const { dir, script } = await project('decide');
    const servers = { local: { command: process.execPath, args: ['./server.js'] } };
    const base = {
        mode: 'default',
        rules: { allow: [], ask: [], deny: [] },
        workingDirectories: [dir],
    };
    const decide = async (mode, file, withServers = true) => {
        const permission = (0, tools_1.sessionPermission)({ ...base, mode }, noStore, undefined, dir, withServers ? servers : undefined);
        const ctx = {
            sessionId: 's',
            toolUseId: 't',
            idempotencyKey: 'k',
            agent: { cwd: dir, additionalDirectories: [], readFiles: {} },
            permission,
            abortSignal: new AbortController().signal,
            sandboxHost,
        };
        return (await (0, decide_1.decidePermission)(builtin_1.WriteTool, { file_path: file, content: 'x' }, ctx)).behavior;
    };
    const expected = {
        default: 'ask',
        acceptEdits: 'ask',
        plan: 'deny',
        dontAsk: 'deny',
        bypassPermissions: 'allow',
    };
    for (const [mode, want] of Object.entries(expected))
        strict_1.default.equal(await decide(mode, script), want, mode);
    strict_1.default.equal(await decide('acceptEdits', path.join(dir, 'other.js')), 'allow', 'an ordinary file');
    strict_1.default.equal(await decide('acceptEdits', script, false), 'allow', 'without the server, server.js is an ordinary file');
});
(0, node_test_1.test)('unit mcp pins: sandboxed Bash cannot write the script a server runs, in any mode (real bwrap)', async (t) => {
    const a = await sandboxHost.availability();
    if (!a.available) {
        if ((0, systemPackages_1.isCI)())
            throw new Error(`the sandbox must be available in CI: ${a.reason}`);
        (0, systemPackages_1.reportSkip)(`the sandboxed MCP-script test (sandbox unavailable: ${a.reason})`);
        return t.skip(a.reason);
    }
    const { dir, script } = await project('sandbox');
    const before = (0, node_fs_1.readFileSync)(script, 'utf8');
    const servers = {
        local: { command: process.execPath, args: ['./server.js'] },
        py: { command: 'python3', args: ['-m', 'tool_srv'] },
    };
    for (const mode of ['dontAsk', 'bypassPermissions']) {
        const permission = (0, tools_1.sessionPermission)({ mode, rules: { allow: [], ask: [], deny: [] }, workingDirectories: [dir], sandbox: {} }, noStore, undefined, dir, servers);
        const ctx = {
            sessionId: `pins-${mode}`,
            toolUseId: 't',
            idempotencyKey: 'k',
            agent: { cwd: dir, additionalDirectories: [], readFiles: {} },
            permission,
            abortSignal: new AbortController().signal,
            sandboxHost,
        };
        const r = await bash_1.BashTool.call({
            command: "echo \"require('child_process').exec('id')\" > server.js; mkdir tool_srv; echo pwned > tool_srv.py; echo fine > ordinary.txt",
        }, ctx, () => undefined);
        strict_1.default.ok(r.data.sandbox, `${mode}: the call ran in the sandbox`);
        strict_1.default.equal((0, node_fs_1.readFileSync)(script, 'utf8'), before, `${mode}: server.js is unchanged`);
        strict_1.default.equal((0, node_fs_1.existsSync)(path.join(dir, 'tool_srv.py')) &&
            (0, node_fs_1.readFileSync)(path.join(dir, 'tool_srv.py'), 'utf8').includes('pwned'), false, `${mode}: python -m's module cannot be planted`);
        strict_1.default.equal((0, node_fs_1.existsSync)(path.join(dir, 'tool_srv')) && (await node_fs_1.promises.readdir(path.join(dir, 'tool_srv'))).length > 0, false, `${mode}: nor its package`);
        strict_1.default.equal((0, node_fs_1.readFileSync)(path.join(dir, 'ordinary.txt'), 'utf8'), 'fine\n', `${mode}: an ordinary write works`);
    }
});
(0, node_test_1.test)('unit mcp pins: the manager refuses to (re)start a server whose pinned script changed, and names the file; an unpinned config restarts', async () => {
    const { dir, script, marker, evil } = await project('manager');
    const servers = (0, pins_1.pinMcpServers)({ local: { command: process.execPath, args: ['./server.js'] } }, dir, [dir]);
    const local = servers.local;
    strict_1.default.ok(!('url' in local) && local.pinnedFiles && Object.keys(local.pinnedFiles).includes(script), JSON.stringify(local));
    strict_1.default.equal(local.pinnedFiles[path.join(dir, 'package.json')], 'absent', 'an absent file is pinned as absent');
    const manager = new mcp_1.McpManager({ failedStartMemoryMs: 0 });
    try {
        strict_1.default.ok((await manager.listTools('local', local, dir)).some((t) => t.name === 'ping'));
        await node_fs_1.promises.writeFile(script, evil);
        strict_1.default.deepEqual((0, pins_1.changedPins)(local.pinnedFiles), [{ path: script, change: 'modified' }]);
        // The running server keeps running (it was started from the pinned content); after a crash it is not started again.
        await strict_1.default.rejects(manager.callTool('local', local, dir, 'crash', {}), mcp_1.McpUnavailableError);
        const err = await manager.listTools('local', local, dir).then(() => undefined, (e) => e);
        strict_1.default.ok(err instanceof mcp_1.McpUnavailableError, String(err));
        strict_1.default.match(err.message, new RegExp(`MCP server local was not started: ${script.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} was modified since this session started`));
        strict_1.default.doesNotMatch(err.message, /writeFileSync/, 'the message never quotes the file');
        strict_1.default.equal((0, node_fs_1.existsSync)(marker), false, 'the rewritten script never ran');
        strict_1.default.equal(manager.started, 1);
        // A file created where the session pinned an absent one counts too.
        await node_fs_1.promises.writeFile(script, `require(${JSON.stringify(TEST_SERVER)});\n`);
        await node_fs_1.promises.writeFile(path.join(dir, 'package.json'), '{"type":"commonjs"}');
        strict_1.default.deepEqual((0, pins_1.changedPins)(local.pinnedFiles), [{ path: path.join(dir, 'package.json'), change: 'created' }]);
        await node_fs_1.promises.rm(path.join(dir, 'package.json'));
        strict_1.default.deepEqual((0, pins_1.changedPins)(local.pinnedFiles), [], 'back as it was: startable again');
        strict_1.default.ok((await manager.listTools('local', local, dir)).some((t) => t.name === 'ping'));
    }
    finally {
        await manager.close();
    }
});
(0, node_test_1.test)('unit mcp pins: an npx server with no local copy: a copy planted in node_modules after the start stops its restart', async () => {
    const dir = path.join(root, 'npx');
    await node_fs_1.promises.mkdir(dir, { recursive: true });
    const [server] = Object.values((0, pins_1.pinMcpServers)({ files: { command: 'npx', args: ['-y', '@acme/files-server@1', '/data'] } }, dir, [dir]));
    const pins = server.pinnedFiles ?? {};
    strict_1.default.equal(pins[path.join(dir, 'node_modules', '@acme', 'files-server')], 'absent');
    strict_1.default.equal(pins[path.join(dir, 'node_modules', '.bin', 'files-server')], 'absent');
    await node_fs_1.promises.mkdir(path.join(dir, 'node_modules', '.bin'), { recursive: true });
    await node_fs_1.promises.writeFile(path.join(dir, 'node_modules', '.bin', 'files-server'), '#!/bin/sh\necho planted\n', {
        mode: 0o755,
    });
    strict_1.default.deepEqual((0, pins_1.changedPins)(pins), [
        { path: path.join(dir, 'node_modules', '.bin', 'files-server'), change: 'created' },
    ]);
});
(0, node_test_1.test)("unit mcp pins: in-process session (bypassPermissions): a Write to the server's script is named, the crashed server is not restarted from it, and the next session runs the new file", async () => {
    const { dir, script, marker, evil } = await project('session');
    const store = await (0, tools_harness_1.makeTmpDir)('da-mcp-pins-store-');
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_p1', name: 'mcp__local__ping', input: { message: 'one' } }]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_r', name: 'Read', input: { file_path: script } }]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_w', name: 'Write', input: { file_path: script, content: evil } }]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_crash', name: 'mcp__local__crash', input: {} }]), (0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_p2', name: 'mcp__local__ping', input: { message: 'two' } }]), (0, fakeAnthropic_1.textResponse)('done'));
        const opts = {
            prompt: 'use the server',
            cwd: dir,
            tools: ['Read', 'Write'],
            permissionMode: 'bypassPermissions',
            sandbox: { enabled: false },
            mcpServers: { local: { command: process.execPath, args: ['./server.js'] } },
            model: { model: 'claude-test', maxTokens: 256 },
        };
        const deps = {
            storeDir: store,
            anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }),
        };
        const result = await (0, runSession_1.runLocalSession)(opts, deps);
        strict_1.default.equal(result.status, 'completed', result.endReason);
        const byId = new Map(result.records.map((r) => [r.toolUseId, r]));
        strict_1.default.equal(byId.get('toolu_p1')?.status, 'ok');
        strict_1.default.deepEqual(byId.get('toolu_w')?.controlWrites, [{ path: script, change: 'modified' }], 'the write to the script is named');
        strict_1.default.equal((0, node_fs_1.readFileSync)(script, 'utf8'), evil, 'bypassPermissions wrote it');
        const p2 = byId.get('toolu_p2');
        strict_1.default.equal(p2?.result.is_error, true);
        strict_1.default.match(JSON.stringify(p2?.result.content), /was not started: .*server\.js was modified since this session started/);
        strict_1.default.equal((0, node_fs_1.existsSync)(marker), false, 'the rewritten script never ran in this session');
        // A new session pins what is there now: it runs the new file (the user's next session; `run` names the change first).
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_p3', name: 'mcp__local__ping', input: { message: 'three' } }]), (0, fakeAnthropic_1.textResponse)('done'));
        const next = await (0, runSession_1.runLocalSession)(opts, deps);
        strict_1.default.equal(next.records.find((r) => r.toolUseId === 'toolu_p3')?.status, 'ok');
        strict_1.default.equal((0, node_fs_1.existsSync)(marker), true);
    }
    finally {
        await fake.close();
    }
});
(0, node_test_1.test)("unit mcp pins: in-process session (dontAsk, acceptEdits without an approver): the server's script is not written", async () => {
    const { dir, script } = await project('modes');
    const before = (0, node_fs_1.readFileSync)(script, 'utf8');
    const store = await (0, tools_harness_1.makeTmpDir)('da-mcp-pins-store-');
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)();
    try {
        for (const mode of ['dontAsk', 'acceptEdits']) {
            fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: `toolu_r_${mode}`, name: 'Read', input: { file_path: script } }]), (0, fakeAnthropic_1.toolUseResponse)([
                { id: `toolu_w_${mode}`, name: 'Write', input: { file_path: script, content: 'process.exit(1)' } },
            ]), (0, fakeAnthropic_1.toolUseResponse)([
                { id: `toolu_o_${mode}`, name: 'Write', input: { file_path: path.join(dir, `${mode}.txt`), content: 'ok' } },
            ]), (0, fakeAnthropic_1.textResponse)('done'));
            const result = await (0, runSession_1.runLocalSession)({
                prompt: 'edit',
                cwd: dir,
                tools: ['Read', 'Write'],
                permissionMode: mode,
                mcpServers: { local: { command: process.execPath, args: ['./server.js'] } },
                model: { model: 'claude-test', maxTokens: 256 },
            }, { storeDir: store, anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }) });
            strict_1.default.equal(result.status, 'completed', result.endReason);
            const w = result.records.find((r) => r.toolUseId === `toolu_w_${mode}`);
            strict_1.default.equal(w?.status, 'denied', `${mode}: ${JSON.stringify(w?.result)}`);
            // dontAsk denies by its mode; acceptEdits asked (and, with no approver, was denied).
            if (mode === 'dontAsk')
                strict_1.default.deepEqual([w?.decision?.behavior, w?.decision?.source], ['deny', 'mode']);
            else
                strict_1.default.match(w?.decision?.reason ?? '', /No approver/);
            strict_1.default.equal((0, node_fs_1.readFileSync)(script, 'utf8'), before, `${mode}: server.js unchanged`);
            if (mode === 'dontAsk')
                strict_1.default.equal((0, node_fs_1.existsSync)(path.join(dir, 'dontAsk.txt')), false, 'dontAsk writes nothing unasked');
            else
                strict_1.default.equal((0, node_fs_1.readFileSync)(path.join(dir, 'acceptEdits.txt'), 'utf8'), 'ok', 'acceptEdits writes an ordinary file');
        }
    }
    finally {
        await fake.close();
    }
});
(0, node_test_1.test)('unit mcp pins: the manifest watches the files the servers run: a rewritten script is named at the next run; a file only newly watched is not "created"', async () => {
    const { controlFilesSinceLastSession, recordSessionStart, runFilesOf } = await Promise.resolve().then(() => __importStar(require('../../src/cli/controlManifest')));
    const { dir, script, evil } = await project('manifest');
    const home = await (0, tools_harness_1.makeTmpDir)('da-mcp-pins-home-');
    const servers = { local: { command: process.execPath, args: ['./server.js'] } };
    const runFiles = runFilesOf(dir, [], undefined, servers);
    strict_1.default.ok(runFiles.includes(script), runFiles.join(', '));
    // A first session without the server, then one with it: server.js existed all along, it is not "created".
    const first = await controlFilesSinceLastSession(dir, [], home);
    await recordSessionStart(dir, 's1', first.now, home);
    const second = await controlFilesSinceLastSession(dir, [], home, runFiles);
    strict_1.default.deepEqual(second.changes, []);
    await recordSessionStart(dir, 's2', second.now, home);
    // That session rewrote it; the next run (even one without the server) names it.
    await node_fs_1.promises.writeFile(script, evil);
    const third = await controlFilesSinceLastSession(dir, [], home);
    strict_1.default.deepEqual(third.changes.map((c) => [path.relative(dir, c.path), c.change]), [['server.js', 'modified']]);
});
//# sourceMappingURL=mcp-pins.test.js.map