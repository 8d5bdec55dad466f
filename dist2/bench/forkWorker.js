"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startWorker = startWorker;
// Forks the bench's Temporal worker (bench/worker.ts) in its own process, as in a deployment, so
// that its RSS is its own; shared by bench/run.ts and bench/cluster.ts.
const node_child_process_1 = require("node:child_process");
const node_path_1 = require("node:path");
function startWorker(env) {
    return new Promise((resolveStart, reject) => {
        const child = (0, node_child_process_1.fork)((0, node_path_1.join)(__dirname, 'worker.js'), [], {
            env: { ...process.env, ...env },
            stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        });
        const exited = new Promise((r) => child.once('exit', () => r()));
        child.once('exit', (code) => reject(new Error(`bench worker exited (${code}) before it was ready`)));
        child.on('message', (m) => {
            if (m?.type !== 'ready')
                return;
            resolveStart({
                child,
                rss: () => new Promise((r) => {
                    const on = (msg) => {
                        if (msg?.type === 'rss') {
                            child.off('message', on);
                            r(msg.rss ?? NaN);
                        }
                    };
                    child.on('message', on);
                    child.send({ type: 'rss' });
                }),
                stop: async () => {
                    child.send({ type: 'stop' });
                    const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
                    await exited;
                    clearTimeout(t);
                },
            });
        });
    });
}
//# sourceMappingURL=forkWorker.js.map