"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.offlineDirs = offlineDirs;
exports.offlineEnv = offlineEnv;
exports.runToExit = runToExit;
exports.exitError = exitError;
// The reference binary (Claude Code) run offline against the fake Messages API, as the
// test/reference cases and captures run it: a scratch project and home under one temp root, the
// environment that points it at the fake (and nowhere else), and one process run to its exit.
const node_child_process_1 = require("node:child_process");
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
/** A scratch project and home (`home/.claude/`, with an empty `settings.json` when `settings`). */
async function offlineDirs(prefix, opts = {}) {
    const root = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), prefix));
    const dir = (0, node_path_1.join)(root, 'project');
    const home = (0, node_path_1.join)(root, 'home');
    await (0, promises_1.mkdir)(dir, { recursive: true });
    await (0, promises_1.mkdir)((0, node_path_1.join)(home, '.claude'), { recursive: true });
    if (opts.settings)
        await (0, promises_1.writeFile)((0, node_path_1.join)(home, '.claude', 'settings.json'), '{}');
    return { root, dir, home };
}
/**
 * The whole environment of an offline reference run: PATH, its own home and config directory, the
 * fake API's address and a test key, no nonessential traffic, and IS_SANDBOX (it runs as root here).
 */
function offlineEnv(home, baseURL, extra = {}, configDir = (0, node_path_1.join)(home, '.claude')) {
    return {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        CLAUDE_CONFIG_DIR: configDir,
        ANTHROPIC_BASE_URL: baseURL,
        ANTHROPIC_API_KEY: 'test-key',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        IS_SANDBOX: '1',
        ...extra,
    };
}
/** Runs a command to its exit (SIGKILL after `timeoutMs`, default 120 s) and collects its output. */
function runToExit(cmd, args, opts) {
    return new Promise((resolve) => {
        const child = (0, node_child_process_1.spawn)(cmd, args, {
            cwd: opts.cwd,
            env: opts.env,
            stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        });
        if (opts.stdin !== undefined)
            child.stdin?.end(opts.stdin);
        let stdout = '';
        let stderr = '';
        child.stdout?.on('data', (d) => (stdout += d.toString()));
        child.stderr?.on('data', (d) => (stderr += d.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
        child.on('close', (code) => {
            clearTimeout(timer);
            resolve({ code, stdout, stderr });
        });
    });
}
/** `claude exited N: <stderr>` for a run that did not exit 0; undefined when it did. */
function exitError(r) {
    return r.code === 0 ? undefined : `claude exited ${r.code}: ${r.stderr.trim().slice(0, 300)}`;
}
//# sourceMappingURL=claudeOffline.js.map