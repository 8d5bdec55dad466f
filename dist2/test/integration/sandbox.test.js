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
// integration: Bash in the OS sandbox in real sessions on the dev server — writes inside work,
// writes outside / credential reads / connections to hosts not allowed fail inside the sandbox
// (the session runs in bypassPermissions, so the rules let everything through: only the wall
// stops them), the audit says per call that it was sandboxed; and a settings-strict-style project
// settings file used through the CLI. Needs bwrap, socat, ripgrep (fatal under CI=true).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const http = __importStar(require("node:http"));
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const audit_1 = require("../../src/audit");
const host_1 = require("../../src/sandbox/host");
const systemPackages_1 = require("../support/systemPackages");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const cli_1 = require("../support/cli");
const wait_1 = require("../support/wait");
const client_1 = require("../../src/client");
/** Bash's sandbox in these tests (the worker's start-up owns one: src/workerDeps.ts). */
const sandboxHost = new host_1.SandboxHost();
let skip = false;
let server;
let port = 0;
let hits = 0;
(0, node_test_1.before)(async () => {
    const a = await sandboxHost.availability();
    if (!a.available) {
        if ((0, systemPackages_1.isCI)())
            throw new Error(`the sandbox must be available in CI: ${a.reason}`);
        skip = `sandbox unavailable here: ${a.reason}`;
        (0, systemPackages_1.reportSkip)(`the sandbox integration tests (sandbox unavailable: ${a.reason}; apt-get install -y bubblewrap socat ripgrep)`);
    }
    server = http.createServer((_req, res) => {
        hits++;
        res.end('SERVER-SECRET\n');
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', () => r()));
    port = server.address().port;
});
(0, node_test_1.after)(async () => {
    server?.close();
    await sandboxHost.close();
    await (0, temporal_1.closeTestEnv)();
});
function byId(calls, id) {
    const c = calls.find((x) => x.toolUseId === id);
    strict_1.default.ok(c, `audit entry ${id}`);
    return c;
}
(0, node_test_1.test)('integration: with the sandbox on, writes inside work; writes outside, credential reads and other hosts fail inside the sandbox; the audit says so', async (t) => {
    if (skip)
        return t.skip(skip);
    await (0, agent_1.withAgent)({}, async ({ fake, start, workDir, client }) => {
        const outsideDir = await node_fs_1.promises.mkdtemp((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-outside-'));
        const secretDir = await node_fs_1.promises.mkdtemp((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-secret-'));
        await node_fs_1.promises.writeFile((0, node_path_1.join)(secretDir, 'id_rsa'), 'FAKE-KEY-MATERIAL\n');
        const outside = (0, node_path_1.join)(outsideDir, 'escaped.txt');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_in', name: 'Bash', input: { command: 'echo inside > made.txt && cat made.txt' } },
            { id: 'toolu_out', name: 'Bash', input: { command: `echo pwned > ${outside}` } },
            { id: 'toolu_key', name: 'Bash', input: { command: `cat ${(0, node_path_1.join)(secretDir, 'id_rsa')}` } },
            {
                id: 'toolu_net',
                name: 'Bash',
                input: { command: `curl -fsS --max-time 5 --noproxy '' http://127.0.0.1:${port}/` },
            },
            { id: 'toolu_direct', name: 'Bash', input: { command: `curl -fsS --max-time 5 http://127.0.0.1:${port}/` } },
            {
                id: 'toolu_ok_net',
                name: 'Bash',
                input: { command: `curl -fsS --max-time 5 --noproxy '' http://localhost:${port}/` },
            },
        ]), (0, fakeAnthropic_1.textResponse)('done'));
        const handle = await start({
            prompt: 'try the walls',
            permissionMode: 'bypassPermissions',
            sandbox: { filesystem: { denyRead: [secretDir] }, network: { allowedDomains: ['localhost'] } },
        });
        const result = await handle.result();
        strict_1.default.equal(result.status, 'completed');
        strict_1.default.equal(await node_fs_1.promises.readFile((0, node_path_1.join)(workDir, 'made.txt'), 'utf8'), 'inside\n');
        strict_1.default.equal((0, node_fs_1.existsSync)(outside), false, 'nothing was written outside the working directory');
        strict_1.default.equal(hits, 1, 'only the allowed host (localhost) reached the server');
        const audit = await (0, audit_1.buildAudit)(client, handle.workflowId);
        strict_1.default.match(audit.session.sandbox ?? '', /^on — Bash writes only in /);
        strict_1.default.deepEqual(audit.session.sandboxSettings?.filesystem?.denyRead, [secretDir]);
        const calls = audit.toolCalls;
        for (const c of calls) {
            strict_1.default.equal(c.sandbox?.sandboxed, true, `${c.toolUseId} ran sandboxed`);
            strict_1.default.equal(c.decision?.source, 'mode', `${c.toolUseId}: the rules (bypassPermissions) let it through`);
        }
        strict_1.default.equal(byId(calls, 'toolu_in').status, 'ok');
        const out = byId(calls, 'toolu_out');
        strict_1.default.equal(out.status, 'error');
        strict_1.default.match(out.resultPreview, /Read-only file system/);
        strict_1.default.ok(out.sandbox?.violations?.some((v) => v.includes(outside)), JSON.stringify(out.sandbox));
        const key = byId(calls, 'toolu_key');
        strict_1.default.equal(key.status, 'error');
        strict_1.default.doesNotMatch(key.resultPreview, /FAKE-KEY-MATERIAL/);
        const net = byId(calls, 'toolu_net');
        strict_1.default.equal(net.status, 'error');
        strict_1.default.doesNotMatch(net.resultPreview, /SERVER-SECRET/);
        strict_1.default.ok(net.sandbox?.violations?.some((v) => /deny network-outbound 127\.0\.0\.1:\d+ \(host is not on the allow list\)/.test(v)), JSON.stringify(net.sandbox));
        strict_1.default.equal(byId(calls, 'toolu_direct').status, 'error', 'no network namespace: a direct connection has nowhere to go');
        strict_1.default.equal(byId(calls, 'toolu_ok_net').status, 'ok');
        strict_1.default.match(byId(calls, 'toolu_ok_net').resultPreview, /SERVER-SECRET/);
        const text = (0, audit_1.formatAuditText)(audit);
        strict_1.default.match(text, /sandbox: on — /);
        strict_1.default.match(text, /sandboxed, sandbox blocked: deny network-outbound 127\.0\.0\.1/);
        // Control: the same calls with the sandbox off do what the wall prevented.
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_out2', name: 'Bash', input: { command: `echo pwned > ${outside}` } },
            { id: 'toolu_net2', name: 'Bash', input: { command: `curl -fsS --max-time 5 http://127.0.0.1:${port}/` } },
        ]), (0, fakeAnthropic_1.textResponse)('done'));
        const open = await start({ prompt: 'no walls', permissionMode: 'bypassPermissions', sandbox: { enabled: false } });
        strict_1.default.equal((await open.result()).status, 'completed');
        strict_1.default.equal((0, node_fs_1.existsSync)(outside), true);
        strict_1.default.equal(hits, 2);
        const openAudit = await (0, audit_1.buildAudit)(client, open.workflowId);
        strict_1.default.match(openAudit.session.sandbox ?? '', /^off — /);
        strict_1.default.deepEqual(openAudit.toolCalls.map((c) => [c.toolUseId, c.status, c.sandbox?.sandboxed]), [
            ['toolu_out2', 'ok', false],
            ['toolu_net2', 'ok', false],
        ]);
    });
});
(0, node_test_1.test)('integration: a settings-strict-style project settings file through the CLI: bypass refused, deny/ask rules, sandbox auto-allow in dontAsk, no escape hatch', async (t) => {
    if (skip)
        return t.skip(skip);
    await (0, agent_1.withAgent)({}, async ({ fake, taskQueue, workDir, client }) => {
        const userHome = await node_fs_1.promises.mkdtemp((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-userhome-'));
        const env = {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
            DURABLE_AGENT_HOME: userHome,
        };
        const settingsPath = (0, node_path_1.join)(workDir, '.durable-agent', 'settings.json');
        await node_fs_1.promises.mkdir((0, node_path_1.join)(workDir, '.durable-agent'));
        // After the reference's examples/settings/settings-strict.json, in durable-agent's settings file.
        const strict = {
            $schema: 'https://json.schemastore.org/claude-code-settings.json',
            permissions: {
                disableBypassPermissionsMode: 'disable',
                defaultMode: 'dontAsk',
                ask: ['Bash(git push:*)'],
                deny: ['Bash(curl:*)', 'Read(./.env)', 'WebFetch', 'WebSearch'],
            },
            allowManagedHooksOnly: true,
            sandbox: {
                enabled: true,
                failIfUnavailable: true,
                autoAllowBashIfSandboxed: true,
                allowUnsandboxedCommands: false,
                excludedCommands: [],
                network: { allowedDomains: [], allowLocalBinding: false, allowAllUnixSockets: false },
                enableWeakerNestedSandbox: false,
            },
        };
        await node_fs_1.promises.writeFile(settingsPath, JSON.stringify(strict, null, 2));
        await node_fs_1.promises.writeFile((0, node_path_1.join)(workDir, '.env'), 'DOTENV-SECRET=1\n');
        const refused = await (0, cli_1.cli)(['run', '--detach', '--cwd', workDir, '--permission-mode', 'bypassPermissions', 'x'], env);
        strict_1.default.notEqual(refused.code, 0);
        strict_1.default.match(refused.stderr, /bypassPermissions mode is disabled by permissions\.disableBypassPermissionsMode/);
        strict_1.default.ok(refused.stderr.includes(settingsPath), refused.stderr);
        const outside = (0, node_path_1.join)(await node_fs_1.promises.mkdtemp((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-strict-out-')), 'x.txt');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([
            { id: 'toolu_s_write', name: 'Bash', input: { command: 'echo built > build.txt' } },
            { id: 'toolu_s_push', name: 'Bash', input: { command: 'git push origin main' } },
            { id: 'toolu_s_curl', name: 'Bash', input: { command: `curl -s http://127.0.0.1:${port}/` } },
            { id: 'toolu_s_env', name: 'Bash', input: { command: 'cat .env' } },
            {
                id: 'toolu_s_escape',
                name: 'Bash',
                input: { command: `echo out > ${outside}`, dangerouslyDisableSandbox: true },
            },
        ]), (0, fakeAnthropic_1.textResponse)('strict done'));
        const run = await (0, cli_1.cli)(['run', '--cwd', workDir, '--model', 'claude-test', 'build', 'it'], env, 90_000);
        strict_1.default.equal(run.code, 0, run.stderr);
        strict_1.default.match(run.stdout, /sandbox: on — Bash writes only in /);
        strict_1.default.match(run.stderr, /warning: .*settings\.json: allowManagedHooksOnly is honoured only in the managed settings/);
        const id = /session (\S+) started/.exec(run.stdout)?.[1];
        strict_1.default.ok(id, run.stdout);
        strict_1.default.equal(await node_fs_1.promises.readFile((0, node_path_1.join)(workDir, 'build.txt'), 'utf8'), 'built\n', 'a sandboxed write ran without asking in dontAsk');
        strict_1.default.equal((0, node_fs_1.existsSync)(outside), false, 'allowUnsandboxedCommands: false — the escape request was ignored, the call stayed inside');
        const audit = await (0, audit_1.buildAudit)(client, id);
        const calls = audit.toolCalls;
        const write = byId(calls, 'toolu_s_write');
        strict_1.default.deepEqual([write.status, write.decision?.source, write.sandbox?.sandboxed], ['ok', 'sandbox', true]);
        const push = byId(calls, 'toolu_s_push');
        strict_1.default.deepEqual([push.status, push.decision?.behavior], ['denied', 'deny'], 'the ask rule asks; dontAsk denies');
        const curl = byId(calls, 'toolu_s_curl');
        strict_1.default.deepEqual([curl.status, curl.decision?.source, curl.decision?.detail], ['denied', 'rule', 'Bash(curl:*)']);
        const dotenv = byId(calls, 'toolu_s_env');
        strict_1.default.doesNotMatch(dotenv.resultPreview, /DOTENV-SECRET/, 'Read(./.env) holds for Bash too');
        const escape = byId(calls, 'toolu_s_escape');
        strict_1.default.equal(escape.sandbox?.sandboxed, true);
        strict_1.default.equal(hits, 2, 'the denied curl never ran');
        const status = await (0, cli_1.cli)(['status', id], env);
        strict_1.default.equal(status.code, 0, status.stderr);
        strict_1.default.match(status.stdout, /sandbox {3}on — /);
        // A malformed rule: one line naming the file and the key, nothing started.
        await node_fs_1.promises.writeFile(settingsPath, JSON.stringify({ permissions: { deny: ['Bash(rm -rf *'] } }));
        const bad = await (0, cli_1.cli)(['run', '--detach', '--cwd', workDir, 'x'], env);
        strict_1.default.notEqual(bad.code, 0);
        strict_1.default.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr);
        strict_1.default.ok(bad.stderr.includes(`${settingsPath}: permissions.deny[0] is malformed`), bad.stderr);
    });
});
(0, node_test_1.test)('integration: where the sandbox cannot start, `run` says why; with failIfUnavailable it refuses to start the session', async (t) => {
    if (skip)
        return t.skip(skip);
    await (0, agent_1.withAgent)({}, async ({ fake, taskQueue, workDir, client }) => {
        const userHome = await node_fs_1.promises.mkdtemp((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-userhome-'));
        // The CLI's host without bubblewrap (nothing on PATH); the worker of this test keeps its own.
        const env = {
            TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
            DURABLE_AGENT_TASK_QUEUE: taskQueue,
            DURABLE_AGENT_HOME: userHome,
            PATH: '/nonexistent',
        };
        await node_fs_1.promises.mkdir((0, node_path_1.join)(workDir, '.durable-agent'));
        await node_fs_1.promises.writeFile((0, node_path_1.join)(workDir, '.durable-agent', 'settings.json'), JSON.stringify({ sandbox: { failIfUnavailable: true } }));
        const refused = await (0, cli_1.cli)(['run', '--detach', '--cwd', workDir, 'x'], env);
        strict_1.default.notEqual(refused.code, 0);
        const lines = refused.stderr.trim().split('\n');
        strict_1.default.equal(lines.length, 1, refused.stderr);
        strict_1.default.match(lines[0], /The sandbox is unavailable here \(.*bubblewrap.*\) and sandbox\.failIfUnavailable is set: the session was not started/);
        await node_fs_1.promises.writeFile((0, node_path_1.join)(workDir, '.durable-agent', 'settings.json'), JSON.stringify({}));
        fake.enqueue((0, fakeAnthropic_1.textResponse)('nothing to do'));
        const warned = await (0, cli_1.cli)(['run', '--cwd', workDir, '--model', 'claude-test', 'x'], env, 60_000);
        strict_1.default.equal(warned.code, 0, warned.stderr);
        strict_1.default.match(warned.stdout, /sandbox: unavailable — .*bubblewrap.*; Bash runs unsandboxed/);
        const id = /session (\S+) started/.exec(warned.stdout)?.[1];
        strict_1.default.match((await (0, audit_1.buildAudit)(client, id)).session.sandbox ?? '', /^unavailable — /);
        // --no-sandbox: off, explicitly, and said so (no probe needed).
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_nosb', name: 'Bash', input: { command: 'echo plain' } }]), (0, fakeAnthropic_1.textResponse)('ok'));
        const off = await (0, cli_1.cli)([
            'run',
            '--no-sandbox',
            '--permission-mode',
            'bypassPermissions',
            '--cwd',
            workDir,
            '--model',
            'claude-test',
            'x',
        ], env, 60_000);
        strict_1.default.equal(off.code, 0, off.stderr);
        strict_1.default.match(off.stdout, /sandbox: off — .*--no-sandbox/);
        const offId = /session (\S+) started/.exec(off.stdout)?.[1];
        const offCall = byId((await (0, audit_1.buildAudit)(client, offId)).toolCalls, 'toolu_nosb');
        strict_1.default.deepEqual([offCall.status, offCall.sandbox?.sandboxed], ['ok', false]);
    });
});
(0, node_test_1.test)('integration: an excluded command leaves the sandbox only after a human approves it, even with an allow rule; the audit says it ran unsandboxed', async (t) => {
    if (skip)
        return t.skip(skip);
    await (0, agent_1.withAgent)({}, async ({ fake, start, client }) => {
        const outsideDir = await node_fs_1.promises.mkdtemp((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-excluded-'));
        const target = (0, node_path_1.join)(outsideDir, 'excluded.txt');
        fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_excl', name: 'Bash', input: { command: `touch ${target}` } }]), (0, fakeAnthropic_1.textResponse)('done'));
        const handle = await start({
            prompt: 'touch it',
            permissionMode: 'acceptEdits',
            rules: { allow: ['Bash(touch:*)'], ask: [], deny: [] },
            sandbox: { excludedCommands: ['touch'] },
        });
        const pending = await (0, wait_1.waitFor)('the approval request', async () => (await (0, client_1.sessionStatus)(client, handle.workflowId)).pendingApprovals[0]);
        strict_1.default.equal(pending.toolUseId, 'toolu_excl');
        strict_1.default.match(pending.message, /outside the sandbox: "touch" is in sandbox\.excludedCommands/);
        strict_1.default.equal((0, node_fs_1.existsSync)(target), false, 'nothing ran before the approval');
        await (0, client_1.approveToolUse)(client, handle.workflowId, 'toolu_excl', 'alice');
        strict_1.default.equal((await handle.result()).status, 'completed');
        strict_1.default.equal((0, node_fs_1.existsSync)(target), true, 'approved: it ran outside the sandbox');
        const call = byId((await (0, audit_1.buildAudit)(client, handle.workflowId)).toolCalls, 'toolu_excl');
        strict_1.default.equal(call.approval?.asked.source, 'sandbox');
        strict_1.default.deepEqual([call.decision?.source, call.decision?.by], ['human', 'alice']);
        strict_1.default.equal(call.sandbox?.sandboxed, false);
        strict_1.default.match(call.sandbox?.reason ?? '', /excludedCommands/);
    });
});
//# sourceMappingURL=sandbox.test.js.map