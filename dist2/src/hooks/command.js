"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runShellCommand = runShellCommand;
// Running one command hook: `sh -c` in its own process group, JSON on stdin, killed (group and
// all) at its timeout or when the call is aborted.
const node_child_process_1 = require("node:child_process");
function runShellCommand(command, opts) {
    const started = Date.now();
    const max = opts.maxOutputChars ?? 1_000_000;
    return new Promise((resolve) => {
        let stdout = '';
        let stderr = '';
        let timedOut = false;
        let aborted = false;
        let settled = false;
        let exitCode = null;
        let exitSignal = null;
        let graceTimer;
        const finish = (extra = {}) => {
            if (settled)
                return;
            settled = true;
            clearTimeout(timer); // set below: finish runs only from the child's events, after this function returned
            if (graceTimer)
                clearTimeout(graceTimer);
            opts.signal?.removeEventListener('abort', onAbort);
            child.stdout?.destroy();
            child.stderr?.destroy();
            child.stdin?.destroy();
            resolve({
                exitCode,
                signal: exitSignal,
                stdout,
                stderr,
                timedOut,
                aborted,
                durationMs: Date.now() - started,
                ...extra,
            });
        };
        if (opts.signal?.aborted) {
            resolve({ exitCode: null, signal: null, stdout: '', stderr: '', timedOut: false, aborted: true, durationMs: 0 });
            return;
        }
        const child = (0, node_child_process_1.spawn)(opts.args ? command : (opts.shell ?? 'sh'), opts.args ? [...opts.args] : ['-c', command], {
            cwd: opts.cwd,
            env: opts.env ?? process.env,
            detached: true, // own process group, so that a timeout kills the hook's children too
            stdio: ['pipe', 'pipe', 'pipe'],
        });
        const killGroup = () => {
            if (child.pid === undefined)
                return;
            try {
                process.kill(-child.pid, 'SIGKILL');
            }
            catch {
                try {
                    child.kill('SIGKILL');
                }
                catch {
                    // already gone
                }
            }
        };
        const onAbort = () => {
            aborted = true;
            killGroup();
        };
        child.on('error', (e) => finish({ spawnError: e.message }));
        child.stdout.setEncoding('utf8');
        child.stderr.setEncoding('utf8');
        child.stdout.on('data', (d) => {
            if (stdout.length < max)
                stdout += d.slice(0, max - stdout.length);
        });
        child.stderr.on('data', (d) => {
            if (stderr.length < max)
                stderr += d.slice(0, max - stderr.length);
        });
        child.stdin.on('error', () => undefined); // EPIPE when the hook does not read its input
        child.stdin.end(opts.stdin);
        child.on('exit', (code, sig) => {
            exitCode = code;
            exitSignal = sig;
            // Let the pipes drain; a background grandchild holding them open must not keep us waiting.
            graceTimer = setTimeout(() => finish(), 250);
        });
        child.on('close', () => finish());
        const timer = setTimeout(() => {
            timedOut = true;
            killGroup();
        }, Math.max(1, opts.timeoutMs));
        opts.signal?.addEventListener('abort', onAbort, { once: true });
    });
}
//# sourceMappingURL=command.js.map