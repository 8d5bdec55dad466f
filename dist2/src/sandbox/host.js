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
Object.defineProperty(exports, "__esModule", { value: true });
exports.SandboxHost = void 0;
exports.loadSandboxRuntime = loadSandboxRuntime;
exports.currentPlatform = currentPlatform;
exports.sessionTempDir = sessionTempDir;
exports.sessionTempPath = sessionTempPath;
exports.sessionTasksPath = sessionTasksPath;
// The worker's side of the sandbox: @anthropic-ai/sandbox-runtime's SandboxManager (one per
// process, because it owns the filtering proxies), driven by each session's own settings.
//
// The session's settings travel in the session input to every tool activity; nothing about a
// session is worker-global state. The runtime splits its configuration in two, and so do we:
//  - per call (filesystem allow/deny lists, nested namespaces) goes to wrapWithSandbox as
//    `customConfig`, and the session's network allowlist is registered under the call's own
//    unguessable command id — so sessions with different paths and allowlists run side by side;
//  - worker-wide (deniedDomains, Unix sockets, local binding, proxy ports, weaker-sandbox flags,
//    ignoreViolations, bwrap/socat/ripgrep paths) is what initialize() takes. Calls whose
//    worker-wide part is the same share one initialisation; a call that needs another waits until
//    the running sandboxed calls have finished, then the runtime is re-initialised for it.
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const os = __importStar(require("node:os"));
const path = __importStar(require("node:path"));
const node_crypto_2 = require("node:crypto");
const node_child_process_1 = require("node:child_process");
const reaper_1 = require("./reaper");
// A real dynamic import (tsc would turn `import()` into require() under CommonJS output).
const importEsm = new Function('specifier', 'return import(specifier)');
/** The runtime package's SandboxManager: one object per process (the package's module state). */
function loadSandboxRuntime() {
    return importEsm('@anthropic-ai/sandbox-runtime').then((m) => m.SandboxManager);
}
function currentPlatform() {
    if (process.platform === 'darwin')
        return 'macos';
    if (process.platform === 'win32')
        return 'windows';
    if (process.platform === 'linux' && /microsoft/i.test(os.release()))
        return 'wsl';
    return process.platform;
}
const EMPTY_GLOBAL = {
    network: { allowedDomains: [], deniedDomains: [] },
    filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
};
/**
 * The worker-wide initialisation of one runtime, shared by the calls that need the same one (a
 * read/write lock keyed by the initialisation). It belongs to the runtime object, not to a host:
 * the runtime is one per process, so two hosts in one process (a worker and an in-process session)
 * must never re-initialise it under each other's running commands.
 */
class RuntimeLock {
    m;
    currentKey;
    inflight = 0;
    switching;
    waitingForOther = 0;
    idle = [];
    /** Whether a sandboxed `true` ran on this runtime (checked once per process). */
    availability;
    constructor(m) {
        this.m = m;
    }
    async acquire(config, signal) {
        const key = JSON.stringify(config);
        let waitedForOther = false;
        try {
            for (;;) {
                if (this.switching) {
                    await this.switching.catch(() => undefined);
                    continue;
                }
                // Same initialisation: run alongside, unless a call that needs another one waits its turn.
                if (this.currentKey === key && (this.waitingForOther === 0 || this.inflight === 0))
                    return this.join();
                if (this.inflight > 0) {
                    if (this.currentKey !== key && !waitedForOther) {
                        waitedForOther = true;
                        this.waitingForOther++;
                    }
                    // Waits for the running calls of another configuration (an interrupt ends the wait).
                    await new Promise((r) => {
                        this.idle.push(r);
                        signal?.addEventListener('abort', () => r(), { once: true });
                    });
                    signal?.throwIfAborted();
                    continue;
                }
                await this.switchTo(config, key);
            }
        }
        finally {
            if (waitedForOther)
                this.waitingForOther--;
        }
    }
    join() {
        this.inflight++;
        let released = false;
        return () => {
            if (released)
                return;
            released = true;
            this.inflight--;
            if (this.inflight === 0)
                for (const wake of this.idle.splice(0))
                    wake();
        };
    }
    async switchTo(config, key) {
        this.switching = (async () => {
            if (this.currentKey !== undefined) {
                this.currentKey = undefined;
                await this.m.reset();
            }
            // The runtime's host-side socat bridges inherit the owner marker (src/sandbox/reaper.ts).
            await (0, reaper_1.withOwnerMarker)(() => this.m.initialize(config, undefined, true));
            this.currentKey = key;
        })();
        try {
            await this.switching;
        }
        finally {
            this.switching = undefined;
        }
    }
    /** Resets the runtime once no sandboxed command runs. */
    async close() {
        for (;;) {
            if (this.switching) {
                await this.switching.catch(() => undefined);
                continue;
            }
            if (this.inflight > 0) {
                await new Promise((r) => this.idle.push(r));
                continue;
            }
            break;
        }
        if (this.currentKey === undefined)
            return;
        this.currentKey = undefined;
        const done = this.m.reset();
        this.switching = done.then(() => undefined);
        try {
            await done;
        }
        finally {
            this.switching = undefined;
        }
    }
}
const locks = new WeakMap();
function lockOf(m) {
    let lock = locks.get(m);
    if (!lock)
        locks.set(m, (lock = new RuntimeLock(m)));
    return lock;
}
/**
 * Bash's OS sandbox on this host: availability, wrapping one command with a session's plan, and
 * closing the runtime's proxies. The worker's start-up and the in-process runner each own one and
 * pass it to Bash through the tool context (`ToolUseContext.sandboxHost`); Bash has no other way
 * to the sandbox. Hosts of one runtime share its lock (see RuntimeLock).
 */
class SandboxHost {
    load;
    runtimePromise;
    availabilityPromise;
    /** `load`: the runtime (default: the package's SandboxManager, loaded on first use). */
    constructor(load = loadSandboxRuntime) {
        this.load = load;
    }
    runtime() {
        this.runtimePromise ??= this.load();
        return this.runtimePromise;
    }
    /**
     * Can Bash be sandboxed here? Checks the platform and the dependencies, then runs `true` in a
     * real sandbox once (that is what catches a kernel without user namespaces, a missing
     * capability, a seccomp helper that does not run). Cached for the life of the runtime.
     */
    availability() {
        this.availabilityPromise ??= (async () => {
            let m;
            try {
                m = await this.runtime();
            }
            catch (err) {
                return {
                    available: false,
                    reason: `@anthropic-ai/sandbox-runtime could not be loaded: ${err.message}`,
                };
            }
            const lock = lockOf(m);
            lock.availability ??= probeAvailability(m, lock);
            return lock.availability;
        })();
        return this.availabilityPromise;
    }
    /** Wraps one command for the sandbox with this session's plan. The caller spawns it and calls finish(). */
    async prepare(command, plan, tmpDir, abortSignal) {
        const m = await this.runtime();
        return prepareSandboxedCommand(m, lockOf(m), command, plan, tmpDir, abortSignal);
    }
    /**
     * Stops the runtime's proxies once no sandboxed command runs (they keep a process alive). The next
     * sandboxed command starts them again. For embedders that want their process to exit; the CLI exits anyway.
     */
    async close() {
        let m;
        try {
            m = await this.runtime();
        }
        catch {
            return; // never loaded: nothing runs
        }
        await locks.get(m)?.close();
    }
}
exports.SandboxHost = SandboxHost;
async function probeAvailability(m, lock) {
    if (!m.isSupportedPlatform())
        return { available: false, reason: `the sandbox does not support this platform (${currentPlatform()})` };
    const deps = m.checkDependencies();
    if (deps.errors.length > 0)
        return {
            available: false,
            reason: `${deps.errors.join('; ')} (on Debian/Ubuntu: apt-get install bubblewrap socat ripgrep)`,
        };
    try {
        const release = await lock.acquire(EMPTY_GLOBAL);
        try {
            const wrapped = await m.wrapWithSandbox('true', 'bash', {
                filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
            });
            const probe = await new Promise((resolve, reject) => {
                // Marked as this worker's sandbox machinery: a worker killed during the probe leaves nothing.
                const child = (0, node_child_process_1.spawn)('bash', ['-c', wrapped], {
                    stdio: ['ignore', 'ignore', 'pipe'],
                    env: { ...process.env, [reaper_1.OWNER_MARKER_ENV]: (0, reaper_1.ownerId)() },
                });
                let stderr = '';
                child.stderr.on('data', (d) => (stderr += d.toString('utf8')));
                child.once('error', reject);
                child.once('close', (code) => resolve({ code, stderr }));
            });
            if (probe.code !== 0)
                return {
                    available: false,
                    reason: `a test command failed in the sandbox (exit ${probe.code}): ${probe.stderr.trim().split('\n').slice(-2).join(' ').slice(0, 300)}`,
                };
        }
        finally {
            release();
            await lock.close();
        }
    }
    catch (err) {
        return { available: false, reason: `the sandbox could not start: ${err.message.split('\n')[0]}` };
    }
    return { available: true };
}
// --- one sandboxed command ----------------------------------------------------------------------------
/** The session's temp directory on this worker: writable inside the sandbox, TMPDIR of its commands. */
async function sessionTempDir(sessionId) {
    const dir = sessionTempPath(sessionId);
    await node_fs_1.promises.mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
}
/** The path of the session's temp directory on this worker (sessionTempDir creates it). */
function sessionTempPath(sessionId) {
    return path.join(os.tmpdir(), 'durable-agent-sandbox', (0, node_crypto_2.createHash)('sha256').update(sessionId).digest('hex').slice(0, 16));
}
/** Where the session's background tasks write their output on this worker (Read may read it). */
function sessionTasksPath(sessionId) {
    return path.join(sessionTempPath(sessionId), 'tasks');
}
function shellQuote(s) {
    return `'${s.replace(/'/g, `'\\''`)}'`;
}
const under = (p, dir) => p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
/**
 * The Linux monitor reports write *attempts* and classifies them against the worker-wide write
 * list only; this call's own list (passed per call) is applied here, so that a write the call was
 * allowed to make is not reported as a violation.
 */
function allowedWrite(line, plan) {
    const m = /^deny \S+ (\/.*)$/.exec(line);
    if (!m || line.startsWith('deny network'))
        return false;
    const p = path.normalize(m[1]);
    const fsCfg = plan.call.filesystem;
    if (fsCfg.denyWrite.some((d) => under(p, d)))
        return false;
    return fsCfg.allowWrite.some((a) => under(p, a) || under(p, safeRealpath(a)));
}
function safeRealpath(p) {
    try {
        return (0, node_fs_1.realpathSync)(p);
    }
    catch {
        return p;
    }
}
async function prepareSandboxedCommand(m, lock, command, plan, tmpDir, abortSignal) {
    const release = await lock.acquire(plan.global, abortSignal);
    const commandId = (0, node_crypto_1.randomBytes)(16).toString('base64url');
    let registered = false;
    // The runtime counts each wrap it hands out and removes the mount points it created for absent
    // denied paths (empty .bashrc, .mcp.json, .claude…) only when every wrap has been given back:
    // exactly one cleanupAfterCommand() per returned wrap — fewer leaves placeholders in the project
    // for good, more removes them under a sandbox still running (its deny rule would stop applying).
    let wrapped = false;
    let cleaned = false;
    const cleanup = () => {
        if (!wrapped || cleaned)
            return;
        cleaned = true;
        try {
            m.cleanupAfterCommand();
        }
        catch {
            // best effort: leftover mount points of denied paths that did not exist
        }
    };
    try {
        // TMPDIR: the runtime sets its own shared one; the session's is set inside, before the command.
        const inner = `export TMPDIR=${shellQuote(tmpDir)}; ${command}`;
        const shellCommand = await m.wrapWithSandbox(inner, 'bash', plan.call, abortSignal, {
            commandId,
            commandText: command,
        });
        wrapped = true;
        if (plan.allowedDomains.length > 0) {
            m.registerCommandNetworkLists(commandId, { allowedDomains: plan.allowedDomains });
            registered = true;
        }
        let finished = false;
        return {
            shellCommand,
            commandId,
            finish: () => {
                if (finished)
                    return [];
                finished = true;
                if (registered)
                    m.unregisterCommandNetworkLists(commandId);
                let lines;
                try {
                    lines = m
                        .getSandboxViolationStore()
                        .getViolationsForCommand(commandId)
                        .map((v) => v.line);
                }
                catch {
                    lines = [];
                }
                cleanup();
                release();
                return [...new Set(lines)].filter((line) => !allowedWrite(line, plan));
            },
        };
    }
    catch (err) {
        if (registered)
            m.unregisterCommandNetworkLists(commandId);
        cleanup();
        release();
        throw err;
    }
}
//# sourceMappingURL=host.js.map