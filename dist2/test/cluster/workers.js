"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.WorkerPool = void 0;
// durable-agent worker processes for test:cluster (test/support/workerProcess.ts, one process
// group each): started against the cluster's frontend with the shared PostgreSQL store, replaced
// one by one as a rolling deploy does (a new one first, then SIGTERM to the old one, which drains).
const workerProcs_1 = require("../support/workerProcs");
class WorkerPool {
    opts;
    live = [];
    all = [];
    n = 0;
    /** Workers replaced by the rolling deploy. */
    rolled = 0;
    /** Workers that exited on their own and were replaced. */
    replaced = 0;
    constructor(opts) {
        this.opts = opts;
    }
    async add(extra = {}) {
        const proc = await (0, workerProcs_1.spawnWorker)(`${this.opts.prefix ?? 'worker'}-${++this.n}`, { ...this.opts.env, ...extra }, this.all);
        this.live.push(proc);
        void proc.exited.then(() => {
            const i = this.live.indexOf(proc);
            if (i >= 0)
                this.live.splice(i, 1);
        });
        return proc;
    }
    /** Starts workers until `want` are alive (one that died on its own is replaced); returns how many it started. */
    async fill(want) {
        let k = 0;
        while (this.live.length < want) {
            await this.add();
            k++;
        }
        this.replaced += k;
        return k;
    }
    /**
     * A rolling deploy: for each worker alive now, start its replacement, then SIGTERM it and wait
     * until it has drained and exited (`graceMs` more, then SIGKILL — reported by the caller).
     */
    async roll(graceMs, log) {
        let forced = 0;
        let rolled = 0;
        for (const old of [...this.live]) {
            const next = await this.add();
            const t = Date.now();
            old.child.kill('SIGTERM');
            const timedOut = await Promise.race([
                old.exited.then(() => false),
                new Promise((r) => setTimeout(() => r(true), graceMs)),
            ]);
            if (timedOut) {
                forced++;
                (0, workerProcs_1.killGroup)(old);
                await old.exited;
            }
            rolled++;
            this.rolled++;
            log(`rolling deploy: ${next.name} started, ${old.name} drained and exited in ${Date.now() - t} ms${timedOut ? ' (SIGKILL after the grace time)' : ''}`);
        }
        return { rolled, forced };
    }
    async stop() {
        for (const p of this.all)
            (0, workerProcs_1.killGroup)(p);
        await Promise.all(this.all.map((p) => p.exited));
    }
}
exports.WorkerPool = WorkerPool;
//# sourceMappingURL=workers.js.map