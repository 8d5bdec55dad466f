"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Cluster = void 0;
// The fault suite's cluster: a Temporal dev server on a SQLite file (so that it can be killed and
// started again on the same port and file), worker processes that can be SIGKILLed and replaced,
// and the fake Messages API they all talk to.
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const client_1 = require("@temporalio/client");
const worker_1 = require("@temporalio/worker");
const devServer_1 = require("../../src/temporal/devServer");
const worker_2 = require("../../src/worker");
const workerProcs_1 = require("../support/workerProcs");
class Cluster {
    opts;
    server;
    client;
    connection;
    workers = [];
    all = [];
    port = 0;
    bundlePath = '';
    started = 0;
    serverRestarts = 0;
    constructor(opts) {
        this.opts = opts;
    }
    get dbFile() {
        return (0, node_path_1.join)(this.opts.dir, 'temporal.db');
    }
    async start(workers) {
        await (0, promises_1.mkdir)(this.opts.dir, { recursive: true });
        this.port = await (0, devServer_1.freePort)();
        this.server = await (0, devServer_1.startDevServer)({ port: this.port, dbFilename: this.dbFile, logLevel: 'error' });
        this.connection = await client_1.Connection.connect({ address: this.server.address });
        this.client = new client_1.Client({ connection: this.connection });
        // One webpack run for every worker of the run (each new worker would bundle again otherwise).
        this.bundlePath = (0, node_path_1.join)(this.opts.dir, 'workflow-bundle.js');
        await (0, promises_1.writeFile)(this.bundlePath, (await (0, worker_1.bundleWorkflowCode)({ workflowsPath: worker_2.workflowsPath, logger: new worker_1.DefaultLogger('WARN') })).code);
        for (let i = 0; i < workers; i++)
            await this.addWorker();
    }
    workerEnv() {
        return {
            TEMPORAL_TEST_ADDRESS: this.server.address,
            TEMPORAL_TEST_NAMESPACE: 'default',
            TASK_QUEUE: this.opts.taskQueue,
            STORE_DIR: this.opts.storeDir,
            FAKE_ANTHROPIC_URL: this.opts.fakeURL,
            WORKFLOW_BUNDLE_PATH: this.bundlePath,
            // The worker's output would drown the suite's: errors only.
            TEMPORAL_TEST_LOG_LEVEL: process.env.TEMPORAL_TEST_LOG_LEVEL ?? 'ERROR',
            ...this.opts.workerEnv,
        };
    }
    /** Starts one more worker process and waits until it polls. */
    async addWorker() {
        const proc = await (0, workerProcs_1.spawnWorker)(`worker-${++this.started}`, this.workerEnv(), this.all);
        this.workers.push(proc);
        void proc.exited.then(() => {
            const i = this.workers.indexOf(proc);
            if (i >= 0)
                this.workers.splice(i, 1);
        });
        return proc;
    }
    /**
     * SIGKILLs the worker process alone — what the OOM killer or `kill -9 <pid>` does — and waits
     * until it is gone. What it had started (Bash calls, sandboxes, the sandbox's host bridges) is
     * the product's to clean up; run.ts counts what is left at the end.
     */
    async killWorker(proc) {
        try {
            proc.child.kill('SIGKILL');
        }
        catch {
            // already gone
        }
        await proc.exited;
    }
    /** The worker identity Temporal records for this process (the SDK's default `pid@host`). */
    static identityPid(identity) {
        const m = /^(\d+)@/.exec(identity ?? '');
        return m ? Number(m[1]) : undefined;
    }
    /** SIGKILL of the dev server, then a new one on the same port and SQLite file. */
    async restartServer(downMs) {
        if (this.server.pid !== undefined) {
            try {
                process.kill(-this.server.pid, 'SIGKILL');
            }
            catch {
                // already gone
            }
        }
        await this.server.stop(0);
        await new Promise((r) => setTimeout(r, downMs));
        this.server = await (0, devServer_1.startDevServer)({ port: this.port, dbFilename: this.dbFile, logLevel: 'error' });
        this.serverRestarts++;
    }
    /** Workers that died on their own (not killed by the suite) are replaced; returns how many. */
    async replaceDead(want) {
        let n = 0;
        while (this.workers.length < want) {
            await this.addWorker();
            n++;
        }
        return n;
    }
    async stop() {
        for (const p of this.all)
            (0, workerProcs_1.killGroup)(p);
        await Promise.all(this.all.map((p) => p.exited));
        await this.connection?.close().catch(() => undefined);
        await this.server?.stop(2_000);
    }
}
exports.Cluster = Cluster;
//# sourceMappingURL=cluster.js.map