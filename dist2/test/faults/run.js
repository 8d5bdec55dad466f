"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SIZES = void 0;
// `npm run test:faults [-- --size reduced|full] [--only kills,restart,model,disk]`: what a
// durable-agent fleet survives, counted. A real Temporal dev server on a SQLite file, worker
// processes, the real Anthropic SDK against the fake Messages API, real tools writing real ledger
// files. Prints its counts and exits non-zero when an invariant fails. Sizes (env
// DURABLE_AGENT_FAULTS_SIZE): `reduced` (CI, ~3 min) and `full` (≥ 20 kills; docs/deployment.md).
const args_1 = require("./args");
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const node_crypto_1 = require("node:crypto");
const worker_1 = require("@temporalio/worker");
require("../support/isolatedHome");
const fakeAnthropic_1 = require("../support/fakeAnthropic");
const cluster_1 = require("./cluster");
const plan_1 = require("./plan");
/** The start of the summarizing request's instruction (src/engine/contextView.ts compactionPrompt). */
const COMPACTION_MARK = 'the conversation is about to be compacted';
const scenarios_1 = require("./scenarios");
const report_1 = require("./report");
const disk_1 = require("./disk");
const leftovers_1 = require("../support/leftovers");
/** How long the processes of killed and stopped workers get to go away before they count as left. */
const LEFTOVER_WAIT_MS = 20_000;
exports.SIZES = {
    reduced: { sessions: 5, kills: 6, restarts: 1, minTurns: 6, restartSessions: 5, diskSessions: 3, diskHoldMs: 6_000 },
    full: { sessions: 6, kills: 24, restarts: 2, minTurns: 10, restartSessions: 5, diskSessions: 4, diskHoldMs: 15_000 },
};
async function main() {
    const { size, only } = (0, args_1.parseSuiteArgs)(process.argv.slice(2), {
        sizeEnv: 'DURABLE_AGENT_FAULTS_SIZE',
        parts: scenarios_1.SCENARIOS,
        partName: 'scenario',
        usage: 'usage: npm run test:faults -- [--size reduced|full] [--only kills,restart,model,disk]',
    });
    worker_1.Runtime.install({ logger: new worker_1.DefaultLogger('WARN') });
    const t0 = Date.now();
    const root = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-faults-'));
    const log = (line) => console.log(`[faults ${((Date.now() - t0) / 1000).toFixed(1).padStart(6)}s] ${line}`);
    let store;
    let fake;
    let cluster;
    let cleaned;
    const cleanup = () => (cleaned ??= (async () => {
        await cluster?.stop().catch((err) => console.error(`stopping the cluster: ${String(err)}`));
        await fake?.close().catch(() => undefined);
        await store?.release().catch((err) => console.error(`releasing the store: ${String(err)}`));
        if (!process.env.DURABLE_AGENT_FAULTS_KEEP)
            await (0, promises_1.rm)(root, { recursive: true, force: true }).catch(() => undefined);
        else
            console.log(`kept ${root}`);
    })());
    // Ctrl-C or a CI timeout: no dev server, worker or tmpfs mount is left behind.
    for (const signal of ['SIGINT', 'SIGTERM']) {
        process.once(signal, () => {
            console.error(`test:faults: ${signal}, stopping the workers and the dev server`);
            void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
        });
    }
    try {
        store = await (0, disk_1.prepareStore)((0, node_path_1.join)(root, 'store'), only.includes('disk'));
        log(`store: ${store.description}`);
        // Each session's answers come from the handler registered under its name.
        const handlers = new Map();
        // A session's turn only moves forward: after a compaction (the 1 MB input fills the window)
        // the model's view restarts, but the plan goes on from the last turn whose results came back.
        const completed = new Map();
        fake = await (0, fakeAnthropic_1.startFakeAnthropic)({
            script: (req) => {
                const name = (0, plan_1.sessionNameOf)(req);
                const h = name ? handlers.get(name) : undefined;
                if (!name || !h)
                    return undefined;
                const seen = (0, plan_1.turnOf)(req);
                completed.set(name, Math.max(completed.get(name) ?? -1, seen - 1));
                if ((0, fakeAnthropic_1.lastUserText)(req).includes(COMPACTION_MARK)) {
                    return {
                        content: [
                            {
                                type: 'text',
                                text: `<summary>[${plan_1.SESSION_MARK} ${name}] The calls so far are recorded; continue with the plan.</summary>`,
                            },
                        ],
                    };
                }
                const turn = Math.max(seen, (completed.get(name) ?? -1) + 1);
                if (process.env.DURABLE_AGENT_FAULTS_DEBUG)
                    log(`model request for ${name}: stream=${req.stream === true} turn=${turn} (view ${seen})`);
                return h(turn, req.stream === true);
            },
        });
        // Every process below a worker inherits the run's tag: what is left at the end is counted.
        const tag = (0, leftovers_1.newTag)();
        cluster = new cluster_1.Cluster({
            dir: (0, node_path_1.join)(root, 'cluster'),
            taskQueue: `faults-${(0, node_crypto_1.randomUUID)()}`,
            storeDir: store.dir,
            fakeURL: fake.baseURL,
            workerEnv: { [leftovers_1.TAG_ENV]: tag },
        });
        await cluster.start(2);
        log(`dev server ${cluster.server.address} (SQLite ${cluster.dbFile}), 2 workers`);
        const pacing = { eventDelayMs: 45, toolMs: 1200 };
        const ctx = {
            size,
            sizes: exports.SIZES[size],
            cluster,
            fake,
            store,
            workRoot: (0, node_path_1.join)(root, 'work'),
            log,
            pacing,
            settings: {
                taskQueue: cluster.opts.taskQueue,
                maxHistoryBytesPerRun: 12_000,
                toolHeartbeatTimeoutMs: 2_000,
                retryCapMs: 2_000,
            },
            crashHandler: (name, finish) => (turn) => (0, plan_1.crashTurn)({ name, dir: (0, node_path_1.join)(root, 'work', name) }, turn, finish(turn), pacing),
            handlers,
        };
        const results = await (0, scenarios_1.runScenarios)(ctx, only);
        const serverRestarts = cluster.serverRestarts;
        await cluster.stop();
        cluster = undefined;
        // Bash calls, sandboxes (bwrap, its socat relays), the sandbox's host bridges: none may outlive
        // the workers, killed or stopped (src/sandbox/reaper.ts).
        const left = await (0, leftovers_1.waitUntilNoneTagged)(tag, LEFTOVER_WAIT_MS);
        if (left.length > 0) {
            console.error(`processes left by the workers:\n${(0, leftovers_1.describe)(left)}`);
            (0, leftovers_1.killAll)(left);
        }
        const ok = (0, report_1.printReport)(size, results, {
            serverRestarts,
            seconds: (Date.now() - t0) / 1000,
            fake,
            leftovers: left.length === 0 ? 'none' : (0, leftovers_1.countByName)(left),
        });
        return ok ? 0 : 1;
    }
    finally {
        await cleanup();
    }
}
main().then((code) => process.exit(code), (err) => {
    console.error(`test:faults: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(2);
});
//# sourceMappingURL=run.js.map