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
// unit: Bash inside the real OS sandbox (@anthropic-ai/sandbox-runtime: bubblewrap + proxy on
// Linux), called through the tool and the permission decision, no Temporal. Needs bwrap, socat
// and ripgrep; under CI=true their absence fails the test, elsewhere it is skipped with the reason.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const http = __importStar(require("node:http"));
const path = __importStar(require("node:path"));
const bash_1 = require("../../src/tools/builtin/bash");
const host_1 = require("../../src/sandbox/host");
const systemPackages_1 = require("../support/systemPackages");
const decide_1 = require("../../src/permissions/decide");
const tools_harness_1 = require("./tools-harness");
/** Bash's sandbox in these tests (the worker's start-up owns one: src/workerDeps.ts). */
const sandboxHost = new host_1.SandboxHost();
let skip = false;
let root = '';
let server;
let port = 0;
let requests = 0;
const savedHome = process.env.HOME;
(0, node_test_1.before)(async () => {
    const a = await sandboxHost.availability();
    if (!a.available) {
        if ((0, systemPackages_1.isCI)())
            throw new Error(`the sandbox must be available in CI: ${a.reason}`);
        skip = `sandbox unavailable here: ${a.reason}`;
        (0, systemPackages_1.reportSkip)(`the sandboxed Bash unit tests (sandbox unavailable: ${a.reason}; apt-get install -y bubblewrap socat ripgrep)`);
        return;
    }
    root = await (0, tools_harness_1.makeTmpDir)('da-sbx-');
    await node_fs_1.promises.mkdir(path.join(root, 'home', '.ssh'), { recursive: true });
    await node_fs_1.promises.writeFile(path.join(root, 'home', '.ssh', 'id_rsa'), 'FAKE-PRIVATE-KEY\n');
    await node_fs_1.promises.mkdir(path.join(root, 'work'));
    await node_fs_1.promises.mkdir(path.join(root, 'other'));
    await node_fs_1.promises.mkdir(path.join(root, 'outside'));
    process.env.HOME = path.join(root, 'home'); // the worker's home: its ~/.ssh is a default credential path
    server = http.createServer((_req, res) => {
        requests++;
        res.end('HOST-SECRET\n');
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', () => r()));
    port = server.address().port;
});
(0, node_test_1.after)(async () => {
    process.env.HOME = savedHome;
    server?.close();
    await sandboxHost.close();
    if (root)
        await (0, tools_harness_1.removeDir)(root);
});
function ctx(sandbox, cwd = path.join(root, 'work'), mode = 'bypassPermissions', allow = []) {
    return {
        sessionId: `sbx-${cwd}`,
        toolUseId: 'toolu_x',
        idempotencyKey: 'k',
        agent: { cwd, additionalDirectories: [], readFiles: {} },
        permission: {
            mode,
            rules: { allow, ask: [], deny: [] },
            workingDirectories: [cwd],
            ...(sandbox ? { sandbox } : {}),
        },
        abortSignal: new AbortController().signal,
        sandboxHost,
    };
}
async function bash(command, sandbox, cwd, extra = {}) {
    return bash_1.BashTool.call({ command, ...extra }, ctx(sandbox, cwd), () => undefined);
}
(0, node_test_1.test)('unit: sandboxed Bash writes inside the working directory and its temp dir, nowhere else', async (t) => {
    if (skip)
        return t.skip(skip);
    const inside = await bash('echo inside > made.txt && echo tmp > "$TMPDIR/t" && cat made.txt "$TMPDIR/t"', {});
    strict_1.default.equal(inside.data.exitCode, 0, inside.data.output);
    strict_1.default.equal(inside.data.output, 'inside\ntmp\n');
    strict_1.default.deepEqual(inside.sandbox, { sandboxed: true, reason: 'sandboxed' }, 'no violation reported for allowed writes');
    strict_1.default.equal(await node_fs_1.promises.readFile(path.join(root, 'work', 'made.txt'), 'utf8'), 'inside\n');
    const outside = path.join(root, 'outside', 'x.txt');
    const out = await bash(`echo pwned > ${outside}`, {});
    strict_1.default.notEqual(out.data.exitCode, 0);
    strict_1.default.match(out.data.output, /Read-only file system|Permission denied/);
    strict_1.default.equal((0, node_fs_1.existsSync)(outside), false);
    strict_1.default.equal(out.sandbox?.sandboxed, true);
    strict_1.default.ok(out.sandbox?.violations?.some((v) => v.includes(outside)), JSON.stringify(out.sandbox));
    strict_1.default.match(bash_1.BashTool.mapToolResultToToolResultBlockParam(out.data, 'toolu_x').content, /<sandbox_violations>[\s\S]*x\.txt[\s\S]*<\/sandbox_violations>/);
    // The same command with the sandbox off for the session does write: the sandbox is what stopped it.
    const off = await bash(`echo written > ${outside}`, { enabled: false });
    strict_1.default.equal(off.data.exitCode, 0);
    strict_1.default.deepEqual([off.sandbox?.sandboxed, (0, node_fs_1.existsSync)(outside)], [false, true]);
});
(0, node_test_1.test)("unit: credentials are unreadable: ~/.ssh by default, filesystem.denyRead, and the worker's API keys", async (t) => {
    if (skip)
        return t.skip(skip);
    const key = await bash('cat ~/.ssh/id_rsa', {});
    strict_1.default.notEqual(key.data.exitCode, 0);
    strict_1.default.doesNotMatch(key.data.output, /FAKE-PRIVATE-KEY/);
    await node_fs_1.promises.writeFile(path.join(root, 'other', 'token'), 'TOKEN-TEXT\n');
    const denied = await bash(`cat ${path.join(root, 'other', 'token')}`, {
        filesystem: { denyRead: [path.join(root, 'other')] },
    });
    strict_1.default.doesNotMatch(denied.data.output, /TOKEN-TEXT/);
    const readable = await bash(`cat ${path.join(root, 'other', 'token')}`, {});
    strict_1.default.match(readable.data.output, /TOKEN-TEXT/, 'not a credential path: readable');
    process.env.ANTHROPIC_API_KEY = 'sk-ant-FAKE';
    try {
        const env = await bash('echo "key=[${ANTHROPIC_API_KEY:-}]"', {});
        strict_1.default.equal(env.data.output, 'key=[]\n');
    }
    finally {
        delete process.env.ANTHROPIC_API_KEY;
    }
});
(0, node_test_1.test)('unit: network only to allowed hosts; a denied host is reported as a violation', async (t) => {
    if (skip)
        return t.skip(skip);
    const before = requests;
    const direct = await bash(`curl -fsS --max-time 5 http://127.0.0.1:${port}/`, {});
    strict_1.default.notEqual(direct.data.exitCode, 0, direct.data.output);
    const proxied = await bash(`curl -fsS --max-time 5 --noproxy '' http://127.0.0.1:${port}/`, {});
    strict_1.default.notEqual(proxied.data.exitCode, 0, proxied.data.output);
    strict_1.default.doesNotMatch(direct.data.output + proxied.data.output, /HOST-SECRET/);
    strict_1.default.ok(proxied.sandbox?.violations?.some((v) => /deny network-outbound 127\.0\.0\.1:\d+/.test(v)), JSON.stringify(proxied.sandbox));
    strict_1.default.equal(requests, before, 'nothing reached the server');
    const allowed = await bash(`curl -fsS --max-time 5 --noproxy '' http://localhost:${port}/`, {
        network: { allowedDomains: ['localhost'] },
    });
    strict_1.default.equal(allowed.data.output, 'HOST-SECRET\n', 'an allowed host is reached through the sandbox proxy');
    strict_1.default.equal(requests, before + 1);
});
(0, node_test_1.test)('unit: sessions with different sandbox settings run side by side on one worker', async (t) => {
    if (skip)
        return t.skip(skip);
    const a = path.join(root, 'work');
    const b = path.join(root, 'other');
    const [ra, rb, rc] = await Promise.all([
        bash(`sleep 0.3; echo a > ${b}/from-a.txt; echo a > ${a}/from-a.txt`, {}, a),
        bash(`sleep 0.3; echo b > ${a}/from-b.txt; echo b > ${b}/from-b.txt`, {}, b),
        // A different worker-wide part (local binding): waits its turn, then runs with its own.
        bash('echo c', { network: { allowLocalBinding: true } }, b),
    ]);
    strict_1.default.deepEqual([(0, node_fs_1.existsSync)(`${b}/from-a.txt`), (0, node_fs_1.existsSync)(`${a}/from-a.txt`)], [false, true], ra.data.output);
    strict_1.default.deepEqual([(0, node_fs_1.existsSync)(`${a}/from-b.txt`), (0, node_fs_1.existsSync)(`${b}/from-b.txt`)], [false, true], rb.data.output);
    strict_1.default.equal(rc.data.output, 'c\n');
});
(0, node_test_1.test)('unit: the permission decision with the sandbox: auto-allow, escapes always ask, dontAsk denies them', async (t) => {
    if (skip)
        return t.skip(skip);
    const cwd = path.join(root, 'work');
    const decide = (command, sandbox, mode, allow = [], extra = {}) => (0, decide_1.decidePermission)(bash_1.BashTool, { command, ...extra }, ctx(sandbox, cwd, mode, allow));
    const auto = await decide('rm -f build.log', {}, 'dontAsk');
    strict_1.default.deepEqual([auto.behavior, auto.decisionReason?.type], ['allow', 'sandbox']);
    strict_1.default.equal((await decide('rm -f build.log', { autoAllowBashIfSandboxed: false }, 'default')).behavior, 'ask');
    strict_1.default.equal((await decide('rm -f build.log', { autoAllowBashIfSandboxed: false }, 'dontAsk')).behavior, 'deny');
    strict_1.default.equal((await decide('rm -f build.log', undefined, 'default')).behavior, 'ask', 'no sandbox outside a session: the modes decide');
    const excluded = await decide('docker ps', { excludedCommands: ['docker'] }, 'default', ['Bash(docker:*)']);
    strict_1.default.deepEqual([excluded.behavior, excluded.decisionReason?.type], ['ask', 'sandbox'], 'an allow rule does not lift an escape');
    strict_1.default.equal((await decide('docker ps', { excludedCommands: ['docker'] }, 'dontAsk', ['Bash(docker:*)'])).behavior, 'deny');
    strict_1.default.equal((await decide('ls', {}, 'dontAsk', [], { dangerouslyDisableSandbox: true })).behavior, 'deny');
    strict_1.default.equal((await decide('ls', { allowUnsandboxedCommands: false }, 'dontAsk', [], { dangerouslyDisableSandbox: true }))
        .behavior, 'allow', 'the request is ignored: it runs sandboxed');
    strict_1.default.equal((await decide('docker ps', { excludedCommands: ['docker'] }, 'bypassPermissions')).behavior, 'allow', 'bypassPermissions asks nobody');
    const requested = await decide('ls', {}, 'bypassPermissions', [], { dangerouslyDisableSandbox: true });
    strict_1.default.deepEqual([requested.behavior, requested.decisionReason?.type], ['ask', 'sandbox'], 'bypassPermissions never lifts the wall the model asked to leave');
    strict_1.default.equal((await decide('ls', { allowUnsandboxedCommands: false }, 'bypassPermissions', [], {
        dangerouslyDisableSandbox: true,
    })).behavior, 'allow', 'ignored request: runs sandboxed');
    const plan = await decide('echo x > f', {}, 'plan');
    strict_1.default.equal(plan.behavior, 'deny', 'plan mode still denies what is not read-only');
    // dangerouslyDisableSandbox, when allowed and approved, really runs outside (and says so).
    const outside = path.join(root, 'outside', 'escape.txt');
    const escaped = await bash(`echo out > ${outside}`, {}, cwd, { dangerouslyDisableSandbox: true });
    strict_1.default.deepEqual([escaped.sandbox?.sandboxed, (0, node_fs_1.existsSync)(outside)], [false, true]);
    strict_1.default.match(escaped.sandbox?.reason ?? '', /dangerouslyDisableSandbox/);
});
/** Host pids whose command line contains `marker` (the sandbox's pid namespace hides them from `$$`). */
async function pidsWith(marker) {
    const out = [];
    for (const name of await node_fs_1.promises.readdir('/proc')) {
        if (!/^\d+$/.test(name))
            continue;
        const cmd = await node_fs_1.promises.readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
        if (cmd.includes(marker) && Number(name) !== process.pid)
            out.push(Number(name));
    }
    return out;
}
(0, node_test_1.test)('unit: an aborted sandboxed command dies with everything it started', async (t) => {
    if (skip)
        return t.skip(skip);
    if (process.platform !== 'linux')
        return t.skip('reads /proc');
    const marker = `${Date.now() % 100000}.5`; // a sleep duration no other process uses
    const controller = new AbortController();
    const c = { ...ctx({}), abortSignal: controller.signal };
    const running = bash_1.BashTool.call({ command: `sleep ${marker} & sleep ${marker}; echo never` }, c, () => undefined);
    const deadline = Date.now() + 10_000;
    while ((await pidsWith(`sleep\0${marker}`)).length < 2 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
    strict_1.default.equal((await pidsWith(`sleep\0${marker}`)).length, 2, 'both sleeps started inside the sandbox');
    controller.abort();
    const r = await running;
    strict_1.default.equal(r.data.interrupted, true);
    strict_1.default.equal(r.data.sandbox?.sandboxed, true);
    const gone = Date.now() + 5_000;
    while ((await pidsWith(`sleep\0${marker}`)).length > 0 && Date.now() < gone)
        await new Promise((r2) => setTimeout(r2, 50));
    strict_1.default.deepEqual(await pidsWith(`sleep\0${marker}`), [], 'no sandboxed process survives the abort');
});
//# sourceMappingURL=sandbox-bash.test.js.map