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
exports.BashTool = exports.bashSpoolCapBytes = exports.BASH_DEFAULT_SPOOL_CAP_BYTES = exports.BASH_MAX_OUTPUT_BYTES = exports.BASH_BACKGROUND_MAX_TIMEOUT_MS = exports.BASH_BACKGROUND_DEFAULT_TIMEOUT_MS = exports.BASH_KILL_GRACE_MS = exports.BASH_PROGRESS_TAIL_BYTES = exports.BASH_PROGRESS_INTERVAL_MS = exports.BASH_MAX_TIMEOUT_MS = exports.BASH_DEFAULT_TIMEOUT_MS = void 0;
exports.clampTimeout = clampTimeout;
exports.sandboxPermission = sandboxPermission;
exports.backgroundTaskId = backgroundTaskId;
exports.sessionTasksDir = sessionTasksDir;
exports.backgroundTimeout = backgroundTimeout;
exports.runBackgroundCommand = runBackgroundCommand;
// Bash: runs a command with `bash -c` in the session's cwd, in its own process group — inside the
// OS sandbox (src/sandbox) when the session's sandbox settings say so, which is the default.
const node_child_process_1 = require("node:child_process");
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const os = __importStar(require("node:os"));
const path = __importStar(require("node:path"));
const zod_1 = require("zod");
const autonomy_1 = require("../../engine/autonomy");
const host_1 = require("../../sandbox/host");
const reaper_1 = require("../../sandbox/reaper");
const policy_1 = require("../../sandbox/policy");
const protect_1 = require("../../sandbox/protect");
const environment_1 = require("../../sandbox/environment");
const Tool_1 = require("../Tool");
const worktree_1 = require("../worktree");
const bashCommand_1 = require("./bashCommand");
const paths_1 = require("./paths");
const bashProcess_1 = require("./bashProcess");
exports.BASH_DEFAULT_TIMEOUT_MS = 120_000;
exports.BASH_MAX_TIMEOUT_MS = 600_000;
exports.BASH_PROGRESS_INTERVAL_MS = 500;
exports.BASH_PROGRESS_TAIL_BYTES = 4096;
/** A Monitor's stdout may outlive its shell (a process left behind holds it): read at most this long after the exit. */
const STDOUT_CLOSE_GRACE_MS = 1000;
/** Grace between SIGTERM and SIGKILL of the process group. */
exports.BASH_KILL_GRACE_MS = 1000;
/** A background command's default limit (Bash `timeout` sets another, up to BASH_BACKGROUND_MAX_TIMEOUT_MS). */
exports.BASH_BACKGROUND_DEFAULT_TIMEOUT_MS = 30 * 60_000;
/** The reference's cap on a background command: 2 hours. */
exports.BASH_BACKGROUND_MAX_TIMEOUT_MS = 2 * 3600_000;
var bashProcess_2 = require("./bashProcess");
Object.defineProperty(exports, "BASH_MAX_OUTPUT_BYTES", { enumerable: true, get: function () { return bashProcess_2.BASH_MAX_OUTPUT_BYTES; } });
Object.defineProperty(exports, "BASH_DEFAULT_SPOOL_CAP_BYTES", { enumerable: true, get: function () { return bashProcess_2.BASH_DEFAULT_SPOOL_CAP_BYTES; } });
Object.defineProperty(exports, "bashSpoolCapBytes", { enumerable: true, get: function () { return bashProcess_2.bashSpoolCapBytes; } });
const inputSchema = zod_1.z.strictObject({
    command: zod_1.z.string().describe('The bash command to run.'),
    timeout: zod_1.z
        .number()
        .optional()
        .describe(`Optional timeout in milliseconds (default ${exports.BASH_DEFAULT_TIMEOUT_MS}, max ${exports.BASH_MAX_TIMEOUT_MS}; larger values are clamped).`),
    description: zod_1.z
        .string()
        .optional()
        .describe('A short description of what the command does, in 5-10 words, e.g. "Run the unit tests" or "List files in src".'),
    run_in_background: zod_1.z
        .boolean()
        .optional()
        .describe('Run the command in the background: the call returns at once with a task id and the file its output goes to (Read it to check progress); you are notified when it ends. TaskStop stops it.'),
    dangerouslyDisableSandbox: zod_1.z
        .boolean()
        .optional()
        .describe('Run this command outside the OS sandbox. Only when a command failed because the sandbox blocked it (see <sandbox_violations>) and it truly needs more access; a human must approve it.'),
});
const PROMPT = `Executes a bash command and returns its output (stdout and stderr merged, in order) and exit code.

Usage:
- Each command runs in a fresh \`bash -c\` process in the session's working directory; shell state (variables, \`cd\` inside a compound command) does not carry over to the next call. A command that is exactly \`cd DIR\` changes the session's working directory (within the working directories only).
- Quote paths that contain spaces: cd "path with spaces/file.txt".
- timeout is in milliseconds: default ${exports.BASH_DEFAULT_TIMEOUT_MS} (2 minutes), at most ${exports.BASH_MAX_TIMEOUT_MS} (10 minutes). On timeout or interruption the whole process group is killed and you get the output so far.
- run_in_background: true starts the command as a background task and returns at once with its task id and output file (stdout and stderr); it runs on (default 30 minutes, \`timeout\` up to 2 hours) while you do other things, and a notification arrives when it ends. Read the output file to check on it; TaskStop stops it. Do not poll it in a loop. Do not use a trailing & in a foreground command for this.
- Output longer than 30000 characters is saved to a file and you get a preview with the file's path.
- Exit code 1 is not treated as a failure for grep, rg, find, diff, cmp, test/[ and git diff; other non-zero exit codes are errors.
- Do not use Bash for what the dedicated tools do: Read (not cat/head/tail), Edit (not sed/awk), Write (not echo >), Glob (not find/ls), Grep (not grep/rg).
- Chain dependent commands with &&; independent ones can be separate calls in the same turn. Commands that only read (ls, cat, grep, git status/log/diff, …) run concurrently with other read-only calls.
- Stdin is /dev/null: interactive commands fail. Pagers are disabled (PAGER=cat).
- Commands usually run in an OS sandbox: they can write only in the working directories and $TMPDIR, cannot read credentials (~/.ssh, ~/.aws, …) and reach only allowed network hosts. What the sandbox blocked is listed in <sandbox_violations>. Work within it; set dangerouslyDisableSandbox only when a command cannot work otherwise (a human must approve it).`;
function formatBytes(n) {
    if (n % 1024 ** 3 === 0)
        return `${n / 1024 ** 3} GiB`;
    if (n % 1024 ** 2 === 0)
        return `${n / 1024 ** 2} MiB`;
    if (n % 1024 === 0)
        return `${n / 1024} KiB`;
    return `${n} bytes`;
}
function clampTimeout(timeout) {
    if (timeout === undefined || !Number.isFinite(timeout) || timeout <= 0)
        return exports.BASH_DEFAULT_TIMEOUT_MS;
    return Math.min(Math.ceil(timeout), exports.BASH_MAX_TIMEOUT_MS);
}
function isStandaloneCd(command) {
    return (0, bashCommand_1.standaloneCd)(command) !== undefined;
}
function withinDirectories(dir, roots) {
    return roots.some((r) => {
        const rel = path.relative(r, dir);
        return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
    });
}
async function runCd(input, target, ctx, started, timeoutMs) {
    const base = {
        command: input.command,
        output: '',
        exitCode: 0,
        signal: null,
        timedOut: false,
        interrupted: false,
        benignExitCode: false,
        durationMs: 0,
        timeoutMs,
    };
    const dir = (0, paths_1.resolvePath)(ctx.agent.cwd, target ?? os.homedir());
    let isDir;
    try {
        isDir = (await node_fs_1.promises.stat(dir)).isDirectory();
    }
    catch {
        isDir = false;
    }
    if (!isDir) {
        return {
            data: {
                ...base,
                exitCode: 1,
                output: `bash: cd: ${target ?? '~'}: No such file or directory`,
                durationMs: Date.now() - started,
            },
        };
    }
    const roots = [ctx.agent.cwd, ...ctx.agent.additionalDirectories, ...ctx.permission.workingDirectories];
    if (!withinDirectories(dir, roots)) {
        return {
            data: {
                ...base,
                exitCode: 1,
                output: `cd to ${dir} was refused: it is outside the session's working directories (${[...new Set(roots)].join(', ')}). Use absolute paths instead.`,
                durationMs: Date.now() - started,
            },
        };
    }
    const modifiers = [{ type: 'setCwd', cwd: dir }];
    return { data: { ...base, newCwd: dir, durationMs: Date.now() - started }, contextModifiers: modifiers };
}
/** How this call runs, from the session's sandbox settings (none outside a session: no sandbox). */
function planFor(input, ctx) {
    const settings = ctx.permission.sandbox;
    if (!settings)
        return undefined;
    return (0, policy_1.planCall)(settings, (0, host_1.currentPlatform)(), input.command, input.dangerouslyDisableSandbox);
}
/** The sandbox as this call's host sees it; no host in the context: not available (nothing sandboxed runs). */
function availabilityFor(ctx) {
    return ctx.sandboxHost
        ? ctx.sandboxHost.availability()
        : Promise.resolve({ available: false, reason: 'no sandbox host was given to this tool call' });
}
/**
 * The sandbox's part of the permission decision (the reference's meaning): a call leaving the
 * sandbox always asks (decide.ts step 7b); a sandboxed call runs without asking when
 * autoAllowBashIfSandboxed (default true); with the sandbox unavailable and failIfUnavailable set,
 * nothing runs.
 */
async function sandboxPermission(input, ctx) {
    const passthrough = { behavior: 'passthrough' };
    if (!ctx?.permission?.sandbox || typeof input?.command !== 'string')
        return passthrough; // no sandbox outside a session
    if ((0, bashCommand_1.standaloneCd)(input.command))
        return passthrough; // handled without a shell
    const plan = planFor(input, ctx);
    if (!plan)
        return passthrough;
    if (plan.escapes) {
        return {
            behavior: 'ask',
            message: `Bash needs approval to run outside the sandbox: ${plan.reason}.`,
            decisionReason: {
                type: 'sandbox',
                reason: plan.reason,
                ...(input.dangerouslyDisableSandbox === true ? { requested: true } : {}),
            },
        };
    }
    if (!plan.sandboxed)
        return passthrough;
    const available = await availabilityFor(ctx);
    if (!available.available) {
        if (ctx.permission.sandbox?.failIfUnavailable) {
            const reason = `the sandbox is unavailable on this worker (${available.reason}) and sandbox.failIfUnavailable is set`;
            return { behavior: 'deny', message: `Bash did not run: ${reason}.`, decisionReason: { type: 'sandbox', reason } };
        }
        return passthrough;
    }
    if (ctx.permission.sandbox?.autoAllowBashIfSandboxed === false)
        return passthrough;
    return {
        behavior: 'allow',
        decisionReason: { type: 'sandbox', reason: 'runs in the OS sandbox (autoAllowBashIfSandboxed)' },
    };
}
function realOrSelf(p) {
    try {
        return node_fs_1.realpathSync.native(p);
    }
    catch {
        return path.resolve(p);
    }
}
/** Wraps the command for the sandbox when the plan says so; says why when it does not. */
async function containment(input, ctx) {
    const plan = planFor(input, ctx);
    if (!plan)
        return {};
    if (!plan.sandboxed)
        return { record: { sandboxed: false, reason: plan.reason } };
    const host = ctx.sandboxHost;
    // The settings say sandboxed and this call was given no host: it does not run (never unsandboxed by omission).
    if (!host)
        throw new Error('Bash did not run: the session runs Bash in the OS sandbox, and this call was given no sandbox host.');
    const available = await host.availability();
    if (!available.available) {
        if (ctx.permission.sandbox?.failIfUnavailable) {
            throw new Error(`Bash did not run: the sandbox is unavailable on this worker (${available.reason}) and sandbox.failIfUnavailable is set.`);
        }
        return { record: { sandboxed: false, reason: `the sandbox is unavailable on this worker: ${available.reason}` } };
    }
    const tmpDir = await (0, host_1.sessionTempDir)(ctx.sessionId);
    // In a worktree (EnterWorktree) the worktree is the working directory: a directory holding it (the
    // main checkout) is not writable from there, and git gets what it needs of the main repository's
    // git directory (worktreeGitAccess).
    const worktree = ctx.agent.worktree;
    const workingDirectories = [
        ...new Set([ctx.agent.cwd, ...ctx.agent.additionalDirectories, ...ctx.permission.workingDirectories]),
    ].filter((d) => !worktree || d === worktree.path || !withinDirectories(worktree.path, [d]));
    const settings = sandboxInWorktree(ctx.permission.sandbox, worktree);
    // The protected paths of THIS session's directories, as they are now (never the worker's cwd).
    let protection;
    if (!ctx.permission.sandbox?.filesystem?.disabled) {
        const roots = [...new Set(workingDirectories.map(realOrSelf))];
        const extra = ctx.permission.controlFiles ?? [];
        const scan = (0, protect_1.scanProtected)(roots, extra);
        const writable = (settings?.filesystem?.allowWrite ?? []).map((p) => realOrSelf((0, policy_1.expandTilde)(p, os.homedir())));
        protection = { scan, denyWrite: (0, protect_1.protectedDenyWrite)(scan, roots, writable), roots, extra };
    }
    // This session's large results (the pipeline points the model at them): readable, not writable.
    const resultDir = ctx.resultStore?.dir;
    const ownResults = typeof resultDir === 'string' ? [resultDir] : [];
    // The worker's private state is read- and write-denied: a writable directory inside it would be
    // unusable (every write refused). Say so instead of running a command that cannot work.
    for (const dir of [tmpDir, ...workingDirectories.filter((d) => !ownResults.includes(d))]) {
        const holder = (ctx.privatePaths ?? []).find((p) => dir === p || dir.startsWith(p.endsWith('/') ? p : `${p}/`));
        if (holder) {
            const what = dir === tmpDir
                ? `the session's temp directory ${dir} (under the worker's TMPDIR)`
                : `the working directory ${dir}`;
            throw new Error(`Bash did not run: ${what} is inside ${holder}, the worker's own state (store or data directory), which sandboxed commands may neither read nor write. Use a directory outside it.`);
        }
    }
    const runtime = (0, policy_1.runtimePlan)(settings, workingDirectories, {
        home: os.homedir(),
        sessionTmpDir: tmpDir,
        platform: (0, host_1.currentPlatform)(),
        ...(protection ? { protectedDenyWrite: protection.denyWrite } : {}),
        env: process.env,
        cwd: process.cwd(),
        privatePaths: ctx.privatePaths ?? [],
        ownResults,
    });
    const prepared = await host.prepare(input.command, runtime, tmpDir, ctx.abortSignal);
    return { record: { sandboxed: true, reason: plan.reason }, prepared, ...(protection ? { protection } : {}) };
}
/** The worker's variables this call's command gets: the allowlist and the session's `sandbox.passEnv`. */
function commandEnvironment(ctx) {
    const passEnv = (ctx.permission?.sandbox?.passEnv ?? []).filter((e) => typeof e === 'string' && environment_1.PASS_ENV_ENTRY.test(e));
    return (0, environment_1.bashEnvironment)(process.env, passEnv);
}
async function checkWorkingDirectory(cwd) {
    try {
        if (!(await node_fs_1.promises.stat(cwd)).isDirectory())
            throw new Error('not a directory');
    }
    catch {
        throw new Error(`The working directory ${cwd} does not exist (any more); cd to an existing directory first.`);
    }
}
/** An interrupt that came before the command started: nothing ran. */
function notStarted(command, timeoutMs) {
    return {
        command,
        output: '',
        exitCode: null,
        signal: null,
        timedOut: false,
        interrupted: true,
        benignExitCode: false,
        durationMs: 0,
        timeoutMs,
    };
}
function undoProtected(protection) {
    const after = (0, protect_1.scanProtected)(protection.roots, protection.extra);
    return (0, protect_1.undoProtectedWrites)(protection.scan, after, protection.denyWrite, protection.roots);
}
/**
 * One command's process and what happens to it. stdout and stderr share one socket (one open file
 * description): their writes arrive in the order they happen; the worker copies them into a file in
 * its temp directory up to the cap and stops the command past it; progress reads the file's tail;
 * background children that keep it do not hold the call open (bashProcess.ts, OutputSpool).
 */
class BashRun {
    input;
    ctx;
    started;
    timeoutMs;
    capBytes;
    tmpDir;
    spool;
    prepared;
    timedOut = false;
    outputCapped = false;
    interrupted = false;
    killing;
    exited = false;
    // The call's processes carry its marker; the worker's guardian kills them if the worker dies
    // while the call runs (src/sandbox/reaper.ts).
    callId = (0, node_crypto_1.randomBytes)(12).toString('base64url');
    announced = false;
    pgid;
    constructor(input, ctx, started, timeoutMs, capBytes, tmpDir, spool) {
        this.input = input;
        this.ctx = ctx;
        this.started = started;
        this.timeoutMs = timeoutMs;
        this.capBytes = capBytes;
        this.tmpDir = tmpDir;
        this.spool = spool;
    }
    static async open(input, ctx, started, timeoutMs, outputFile) {
        const capBytes = (0, bashProcess_1.bashSpoolCapBytes)();
        const tmpDir = await node_fs_1.promises.mkdtemp(path.join(os.tmpdir(), 'durable-agent-bash-'));
        try {
            const spool = await (0, bashProcess_1.openOutputSpool)(tmpDir, capBytes, outputFile);
            return new BashRun(input, ctx, started, timeoutMs, capBytes, tmpDir, spool);
        }
        catch (err) {
            await node_fs_1.promises.rm(tmpDir, { recursive: true, force: true }).catch(() => undefined);
            throw err;
        }
    }
    /**
     * Starts `bash -c` in its own process group; resolves when the shell exits. With `onStdout` (a
     * Monitor), stdout comes through a pipe: each chunk goes to the output file (the spool, beside
     * stderr) and to `onStdout`; the promise then also waits for stdout to close (at most
     * STDOUT_CLOSE_GRACE_MS after the exit: a process left behind may hold it).
     */
    spawn(baseEnv, onStdout) {
        const marker = (0, reaper_1.callStarting)(this.callId);
        this.announced = true;
        const child = (0, node_child_process_1.spawn)('bash', ['-c', this.prepared ? this.prepared.shellCommand : this.input.command], {
            cwd: this.ctx.agent.cwd,
            detached: true, // own process group: kill(-pid) reaches every descendant
            stdio: ['ignore', onStdout ? 'pipe' : this.spool.writeEnd, this.spool.writeEnd],
            // Sandboxed or not, the command sees only allowlisted variables of the worker (src/sandbox/environment.ts).
            env: { ...baseEnv, PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0', ...marker },
        });
        const stdoutClosed = onStdout && child.stdout ? this.tapStdout(child.stdout, onStdout) : undefined;
        if (!stdoutClosed)
            this.spool.closeWriteEnd();
        this.pgid = child.pid;
        (0, reaper_1.callSpawned)(this.callId, child.pid);
        return new Promise((resolve, reject) => {
            child.once('error', reject);
            child.once('exit', (code, signal) => {
                this.exited = true;
                if (!stdoutClosed)
                    return resolve({ code, signal });
                const grace = setTimeout(() => child.stdout?.destroy(), STDOUT_CLOSE_GRACE_MS);
                void stdoutClosed.then(() => {
                    clearTimeout(grace);
                    resolve({ code, signal });
                });
            });
        });
    }
    /** Stdout through our hands: into the spool's write end (with its back-pressure) and to `onStdout`. */
    tapStdout(stdout, onStdout) {
        const out = this.spool.writeEnd;
        stdout.on('data', (chunk) => {
            if (!out.destroyed && !out.write(chunk)) {
                stdout.pause();
                out.once('drain', () => stdout.resume());
            }
            onStdout(chunk);
        });
        return new Promise((resolve) => stdout.once('close', () => {
            // Our write end closes once what we wrote has reached the spool (end(), not destroy()).
            out.end(() => this.spool.closeWriteEnd());
            resolve();
        }));
    }
    killGroup() {
        const pid = this.pgid;
        if (this.killing || pid === undefined)
            return this.killing ?? Promise.resolve();
        this.killing = (async () => {
            (0, bashProcess_1.signalGroup)(pid, 'SIGTERM');
            const deadline = Date.now() + exports.BASH_KILL_GRACE_MS;
            while (Date.now() < deadline && ((0, bashProcess_1.groupAlive)(pid) || !this.exited))
                await (0, bashProcess_1.sleep)(25);
            if ((0, bashProcess_1.groupAlive)(pid))
                (0, bashProcess_1.signalGroup)(pid, 'SIGKILL');
            const hardDeadline = Date.now() + exports.BASH_KILL_GRACE_MS;
            while (Date.now() < hardDeadline && (0, bashProcess_1.groupAlive)(pid))
                await (0, bashProcess_1.sleep)(25);
        })();
        return this.killing;
    }
    /** Waits for the exit; an interrupt, the timeout or the output cap kills the process group. */
    async watch(exit, onProgress) {
        const onAbort = () => {
            this.interrupted = true;
            void this.killGroup();
        };
        this.ctx.abortSignal.addEventListener('abort', onAbort, { once: true });
        const timer = setTimeout(() => {
            this.timedOut = true;
            void this.killGroup();
        }, this.timeoutMs);
        this.spool.onCap(() => {
            this.outputCapped = true;
            void this.killGroup();
        });
        const progress = this.reportProgress(onProgress);
        try {
            return await exit;
        }
        finally {
            clearTimeout(timer);
            clearInterval(progress);
            this.ctx.abortSignal.removeEventListener('abort', onAbort);
        }
    }
    reportProgress(onProgress) {
        const fh = this.spool.file;
        let lastSize = -1;
        let tail = '';
        let reading = false;
        return setInterval(() => {
            if (reading)
                return;
            reading = true;
            // The report is stamped when its tick fires (ticks are >= the interval apart); the stat and
            // read that follow may be delayed by a loaded machine and must not bunch reports together.
            const elapsedMs = Date.now() - this.started;
            void (async () => {
                try {
                    const { size } = await fh.stat();
                    // The tail is read again only when the output grew; every report carries the latest one,
                    // because the activity heartbeats the last report (a report without it would hide it).
                    if (size !== lastSize)
                        tail = await (0, bashProcess_1.readTail)(fh, size, exports.BASH_PROGRESS_TAIL_BYTES);
                    lastSize = size;
                    onProgress({ ...(tail !== '' ? { output: tail } : {}), elapsedMs, totalBytes: size });
                }
                catch {
                    // progress is best effort
                }
                finally {
                    reading = false;
                }
            })();
        }, exports.BASH_PROGRESS_INTERVAL_MS);
    }
    /** After the exit: the output drained and, after a kill, every process of the call gone. */
    async settle() {
        await this.spool.drain();
        if (this.killing) {
            await this.killing;
            // The sandbox's own session (bwrap --new-session) is not the call's process group.
            if (this.prepared)
                await (0, reaper_1.killCallProcesses)(this.callId).catch(() => 0);
        }
    }
    async output(result, sandbox, violations, undone) {
        const { output, omittedBytes } = await (0, bashProcess_1.readOutput)(this.spool.file);
        const command = this.input.command;
        return {
            command,
            output,
            exitCode: result.code,
            signal: result.signal,
            timedOut: this.timedOut,
            interrupted: this.interrupted,
            benignExitCode: result.code === 1 && (0, bashCommand_1.exitCodeOneIsBenign)(command),
            durationMs: Date.now() - this.started,
            timeoutMs: this.timeoutMs,
            ...(omittedBytes > 0 ? { omittedBytes } : {}),
            ...(this.outputCapped ? { outputCapped: { capBytes: this.capBytes, keptBytes: this.spool.spooled() } } : {}),
            ...(sandbox ? { sandbox: violations.length > 0 ? { ...sandbox, violations } : sandbox } : {}),
            ...(undone.length > 0 ? { protectedUndone: undone } : {}),
        };
    }
    backgroundResult(result, sandbox, violations, undone) {
        return {
            exitCode: result.code,
            signal: result.signal,
            timedOut: this.timedOut,
            interrupted: this.interrupted,
            outputBytes: this.spool.spooled(),
            ...(this.outputCapped ? { outputCapped: { capBytes: this.capBytes, keptBytes: this.spool.spooled() } } : {}),
            ...(sandbox ? { sandbox: violations.length > 0 ? { ...sandbox, violations } : sandbox } : {}),
            ...(undone.length > 0 ? { protectedUndone: undone } : {}),
        };
    }
    async close() {
        this.spool.closeWriteEnd();
        if (this.announced)
            (0, reaper_1.callEnded)(this.callId, this.pgid);
        this.prepared?.finish();
        await this.spool.file.close().catch(() => undefined);
        await node_fs_1.promises.rm(this.tmpDir, { recursive: true, force: true }).catch(() => undefined);
    }
}
exports.BashTool = (0, Tool_1.buildTool)({
    name: 'Bash',
    inputSchema,
    maxResultSizeChars: 30_000,
    prompt: () => PROMPT,
    summary: (input) => {
        const first = input.command.split('\n')[0] ?? '';
        const text = first.length > 100 || input.command.includes('\n') ? `${first.slice(0, 99)}…` : first;
        return `Bash: ${text}`;
    },
    isReadOnly: (input) => (0, bashCommand_1.isReadOnlyCommand)(input.command),
    // A standalone `cd` is read-only but changes the session's cwd: later calls depend on it.
    isConcurrencySafe: (input) => (0, bashCommand_1.isReadOnlyCommand)(input.command) && !isStandaloneCd(input.command),
    isIdempotent: (input) => (0, bashCommand_1.isReadOnlyCommand)(input.command),
    getRuleContent: (input) => input.command,
    checkPermissions: sandboxPermission,
    async validateInput(input, ctx) {
        if (input.command === '')
            return { result: false, message: 'command must not be empty', errorCode: 2 };
        if (input.run_in_background === true && !ctx.backgroundTasks) {
            return {
                result: false,
                message: 'run_in_background needs a session to run the task: this call runs outside one, where nothing would run it. ' +
                    'Run the command in the foreground (timeout up to 600000 ms).',
                errorCode: 4,
            };
        }
        if (input.timeout !== undefined && !(input.timeout > 0)) {
            return {
                result: false,
                message: `timeout must be a positive number of milliseconds (got ${input.timeout})`,
                errorCode: 3,
            };
        }
        return { result: true };
    },
    // The sequence: a standalone `cd` runs without a shell; else check the cwd, open the output spool,
    // contain the command (sandbox plan, protected paths), spawn it in its own process group, watch it
    // (interrupt, timeout, output cap, progress), then collect: violations, undone protected writes, output.
    async call(input, ctx, onProgress) {
        const started = Date.now();
        const timeoutMs = clampTimeout(input.timeout);
        const cd = (0, bashCommand_1.standaloneCd)(input.command);
        if (cd)
            return runCd(input, cd.target, ctx, started, timeoutMs);
        await checkWorkingDirectory(ctx.agent.cwd);
        if (input.run_in_background)
            return startBackground(input, ctx, started);
        if (ctx.abortSignal.aborted)
            return { data: notStarted(input.command, timeoutMs) };
        const run = await BashRun.open(input, ctx, started, timeoutMs);
        try {
            const contained = await containment(input, ctx);
            run.prepared = contained.prepared;
            const result = await run.watch(run.spawn(commandEnvironment(ctx)), onProgress);
            await run.settle();
            const violations = run.prepared ? run.prepared.finish() : [];
            // What the deny list fixed at the start could not stop (a repository the call created): undone now.
            const undone = contained.protection ? undoProtected(contained.protection) : [];
            const data = await run.output(result, contained.record, violations, undone);
            return { data, ...(data.sandbox ? { sandbox: data.sandbox } : {}) };
        }
        finally {
            await run.close();
        }
    },
    mapToolResultToToolResultBlockParam(data, toolUseId) {
        if (data.background) {
            const { taskId, outputPath } = data.background;
            return {
                type: 'tool_result',
                tool_use_id: toolUseId,
                content: `Command running in background with ID: ${taskId}. Output is being written to: ${outputPath}. You will be notified when it completes. To check interim output, use Read on that file path.`,
            };
        }
        let text = data.output.replace(/\s+$/, '');
        const notes = [];
        if (data.newCwd)
            notes.push(`Working directory is now ${data.newCwd}`);
        if (data.outputCapped) {
            notes.push(`Command was stopped: its output passed the ${formatBytes(data.outputCapped.capBytes)} limit (${bashProcess_1.BASH_SPOOL_CAP_ENV}); its process group was killed. ` +
                `${data.outputCapped.keptBytes} bytes were kept; the output above is from them. Redirect large output to a file (cmd > out.log) and read parts of it.`);
        }
        else if (data.timedOut)
            notes.push(`Command timed out after ${data.timeoutMs} ms; its process group was killed. Output so far is above.`);
        else if (data.interrupted)
            notes.push('Command was aborted (interrupted); its process group was killed. Output so far is above.');
        else if (data.exitCode === null && data.signal)
            notes.push(`Command was killed by signal ${data.signal}`);
        if (!data.timedOut && !data.interrupted && data.exitCode !== null && data.exitCode !== 0)
            notes.push(`Exit code ${data.exitCode}`);
        if (data.sandbox?.violations?.length)
            notes.push(`<sandbox_violations>\n${data.sandbox.violations.join('\n')}\n</sandbox_violations>`);
        if (data.protectedUndone?.length) {
            notes.push(`<protected_paths_restored>\nThis command wrote protected paths (settings, hooks, git config or hooks, editor or shell start-up files), which Bash may not change; they were undone:\n${data.protectedUndone.join('\n')}\n</protected_paths_restored>`);
        }
        if (text === '' && notes.length === 0)
            text = '(Bash completed with no output)';
        const content = [text, ...notes].filter((s) => s !== '').join('\n');
        const isError = Boolean(data.outputCapped) || data.timedOut || data.interrupted || (data.exitCode !== 0 && !data.benignExitCode);
        return { type: 'tool_result', tool_use_id: toolUseId, content, ...(isError ? { is_error: true } : {}) };
    },
});
/** A background task's id: `b` + 8 lowercase letters and digits, derived from the call (a retried call names the same task). */
function backgroundTaskId(sessionId, toolUseId) {
    const digest = (0, node_crypto_1.createHash)('sha256').update(`${sessionId}/${toolUseId}`).digest();
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    let id = 'b';
    for (let i = 0; i < 8; i++)
        id += alphabet[digest[i] % alphabet.length];
    return id;
}
/** Where a session's background tasks write their output on this worker: `<session temp dir>/tasks`. */
async function sessionTasksDir(sessionId) {
    await (0, host_1.sessionTempDir)(sessionId);
    const dir = (0, host_1.sessionTasksPath)(sessionId);
    await node_fs_1.promises.mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
}
function backgroundTimeout(timeout) {
    if (timeout === undefined || !Number.isFinite(timeout) || timeout <= 0)
        return exports.BASH_BACKGROUND_DEFAULT_TIMEOUT_MS;
    return Math.min(Math.ceil(timeout), exports.BASH_BACKGROUND_MAX_TIMEOUT_MS);
}
/**
 * `run_in_background`: nothing runs here. The call names the task and its output file (created
 * empty, so a Read finds it at once) and records it with a `taskStarted` modifier; the session then
 * runs it as its own long-lived activity (src/calls/backgroundTask.ts), sandboxed like this call.
 */
async function startBackground(input, ctx, started) {
    const taskId = backgroundTaskId(ctx.sessionId, ctx.toolUseId);
    const outputPath = path.join(await sessionTasksDir(ctx.sessionId), `${taskId}.output`);
    await node_fs_1.promises.writeFile(outputPath, '', { flag: 'a', mode: 0o600 });
    const task = {
        id: taskId,
        kind: 'local_bash',
        toolUseId: ctx.toolUseId,
        description: (input.description?.trim() || input.command).slice(0, autonomy_1.MAX_TASK_TEXT),
        startedAt: started,
        timeoutMs: backgroundTimeout(input.timeout),
        outputPath,
        state: 'running',
        // A preview (the context travels with every call); the task's activity reads the whole command
        // from the call's record in the execution ledger.
        command: input.command.slice(0, autonomy_1.MAX_TASK_TEXT),
        cwd: ctx.agent.cwd,
        ...(input.dangerouslyDisableSandbox === true ? { unsandboxed: true } : {}),
    };
    const data = {
        command: input.command,
        output: '',
        exitCode: null,
        signal: null,
        timedOut: false,
        interrupted: false,
        benignExitCode: false,
        durationMs: Date.now() - started,
        timeoutMs: task.timeoutMs,
        background: { taskId, outputPath },
    };
    const modifiers = [{ type: 'taskStarted', task }];
    return { data, contextModifiers: modifiers };
}
/**
 * Runs a background task's command the way a foreground call runs (the same sandbox plan and
 * containment, its own process group, the reaper's marker, the output cap), its stdout and stderr
 * going to `outputPath`; `ctx.agent.cwd` is where it runs. `onProgress` gets the output's size.
 */
async function runBackgroundCommand(spec, ctx, onProgress, 
/** A Monitor's tap: each stdout chunk as it arrives (it still goes to the output file too). */
onStdout) {
    const started = Date.now();
    const input = { command: spec.command, ...(spec.unsandboxed ? { dangerouslyDisableSandbox: true } : {}) };
    await checkWorkingDirectory(ctx.agent.cwd);
    await node_fs_1.promises.mkdir(path.dirname(spec.outputPath), { recursive: true, mode: 0o700 });
    const run = await BashRun.open(input, ctx, started, spec.timeoutMs, spec.outputPath);
    try {
        const contained = await containment(input, ctx);
        run.prepared = contained.prepared;
        const result = await run.watch(run.spawn(commandEnvironment(ctx), onStdout), (p) => onProgress(typeof p.totalBytes === 'number' ? p.totalBytes : 0));
        await run.settle();
        const violations = run.prepared ? run.prepared.finish() : [];
        const undone = contained.protection ? undoProtected(contained.protection) : [];
        return run.backgroundResult(result, contained.record, violations, undone);
    }
    finally {
        await run.close();
    }
}
/** The session's sandbox settings with a worktree's git access added (none outside a worktree). */
function sandboxInWorktree(s, worktree) {
    if (!s || !worktree?.gitDir || !worktree.commonDir)
        return s;
    const access = (0, worktree_1.worktreeGitAccess)(worktree.commonDir, worktree.gitDir);
    return {
        ...s,
        filesystem: {
            ...s.filesystem,
            allowWrite: [...(s.filesystem?.allowWrite ?? []), ...access.allowWrite],
            denyWrite: [...(s.filesystem?.denyWrite ?? []), ...access.denyWrite],
        },
    };
}
//# sourceMappingURL=bash.js.map