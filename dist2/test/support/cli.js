"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.cli = cli;
// Runs the built durable-agent program as a user would: a real process, its exit code and output.
const node_child_process_1 = require("node:child_process");
const node_path_1 = require("node:path");
require("./isolatedHome");
const MAIN = (0, node_path_1.join)(__dirname, '..', '..', 'src', 'cli', 'main.js');
function cli(args, env = {}, timeoutMs = 30_000, 
/** Standard input (default: none, as /dev/null). */
input) {
    return new Promise((resolve, reject) => {
        const merged = { ...process.env, ...env };
        for (const [k, v] of Object.entries(merged))
            if (v === undefined)
                delete merged[k]; // unset, not "undefined"
        const child = (0, node_child_process_1.spawn)(process.execPath, [MAIN, ...args], {
            env: merged,
            stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
        });
        if (input !== undefined)
            child.stdin?.end(input);
        // Output can still be in the pipe at 'exit': wait for its end (not for a detached grandchild holding it).
        const stdoutEnded = new Promise((r) => child.stdout.on('end', () => r()));
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d.toString()));
        child.stderr.on('data', (d) => (stderr += d.toString()));
        const timer = setTimeout(() => {
            child.kill('SIGKILL');
            reject(new Error(`durable-agent ${args.join(' ')} timed out; stdout: ${stdout} stderr: ${stderr}`));
        }, timeoutMs);
        child.on('exit', (code) => {
            clearTimeout(timer);
            void Promise.race([stdoutEnded, new Promise((r) => setTimeout(r, 2000))]).then(() => resolve({ code, stdout, stderr }));
        });
    });
}
//# sourceMappingURL=cli.js.map