"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.clusterUnavailable = clusterUnavailable;
exports.startClusterBench = startClusterBench;
exports.clusterSession = clusterSession;
exports.dynamicConfigWith = dynamicConfigWith;
// The bench on a production-shaped Temporal (test/cluster/cluster.ts: the release server as one
// process per service on PostgreSQL, deploy/'s shard count and dynamic config).
//  - `clusterSession()`: the bench's sessions against it, for `npm run bench`'s cluster row.
//  - `npm run bench:cluster [-- --values 20,50,100,200,1000]`: the transfer-queue reader's rate
//    (`history.transferProcessorMaxPollRPS`, deploy/temporal/dynamicconfig.yaml) measured with
//    the shard count — per-turn time of one session alone, throughput and database and history CPU
//    cost per turn of concurrent sessions, and the cost of an idle cluster — one fresh cluster per value.
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const worker_1 = require("@temporalio/worker");
const client_1 = require("../src/client");
const fakeAnthropic_1 = require("../src/testing/fakeAnthropic");
const cluster_1 = require("../test/cluster/cluster");
const server_1 = require("../test/cluster/server");
const floor_1 = require("./floor");
const forkWorker_1 = require("./forkWorker");
const scenarios_1 = require("./scenarios");
/** Why the cluster row cannot run (the server is not built), or undefined. */
function clusterUnavailable() {
    const c = (0, server_1.cachedServer)();
    return c.ok ? undefined : c.why;
}
/** A cluster and a bench worker on it (the same worker settings as the dev server's rows: a local file store). */
async function startClusterBench(opts) {
    const bin = opts.bin ?? (await (0, server_1.ensureServer)());
    const cluster = await cluster_1.TemporalCluster.start({
        dir: (0, node_fs_1.mkdtempSync)((0, node_path_1.join)(opts.work, 'cluster-')),
        bin,
        ...(opts.dynamicConfigFile ? { dynamicConfigFile: opts.dynamicConfigFile } : {}),
        ...(opts.log ? { log: opts.log } : {}),
    });
    const taskQueue = 'bench-cluster';
    try {
        const worker = await (0, forkWorker_1.startWorker)({
            BENCH_ADDRESS: cluster.address,
            BENCH_TASK_QUEUE: taskQueue,
            BENCH_FAKE_URL: opts.fakeURL,
            BENCH_STORE_DIR: (0, node_fs_1.mkdtempSync)((0, node_path_1.join)(opts.work, 'cluster-store-')),
        });
        return {
            cluster,
            worker,
            taskQueue,
            async stop() {
                await worker.stop();
                await cluster.stop();
            },
        };
    }
    catch (err) {
        await cluster.stop();
        throw err;
    }
}
const COMMON = {
    permissionMode: 'bypassPermissions',
    model: { model: 'bench', maxTokens: 1024 },
    maxTurns: 500,
    useSearchAttributes: false,
};
/** One bench session on the cluster; its wall time. */
async function clusterSession(b, key, cwd) {
    const t0 = performance.now();
    const h = await (0, client_1.startSession)(b.cluster.client, {
        ...COMMON,
        cwd,
        prompt: `bench:${key}`,
        taskQueue: b.taskQueue,
        id: `bench-${key}`,
    });
    const r = await h.result();
    return { ms: performance.now() - t0, status: r.status, workflowId: h.workflowId };
}
// --- the transfer-queue measurement ---------------------------------------------------------
const clockTicks = 100; // USER_HZ on Linux
function cpuMs(pid) {
    if (pid === undefined)
        return 0;
    try {
        const stat = (0, node_fs_1.readFileSync)(`/proc/${pid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks;
    }
    catch {
        return 0;
    }
}
async function dbTransactions(b) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pg = require('pg');
    const c = new pg.Client({ connectionString: b.cluster.pg.url });
    await c.connect();
    try {
        // Statistics reach the view after a short delay: read them after a pause.
        const r = await c.query("SELECT sum(xact_commit + xact_rollback)::text AS n FROM pg_stat_database WHERE datname LIKE 'temporal%'");
        return Number(r.rows[0]?.n ?? 0);
    }
    finally {
        await c.end();
    }
}
const historyCpu = (b) => b.cluster.services.filter((s) => s.role === 'history').reduce((n, s) => n + cpuMs(s.child?.pid), 0);
/** deploy/temporal/dynamicconfig.yaml with transferProcessorMaxPollRPS set to `rps` (everything else as deployed). */
function dynamicConfigWith(rps) {
    const text = (0, node_fs_1.readFileSync)(cluster_1.DYNAMIC_CONFIG_FILE, 'utf8');
    const re = /(history\.transferProcessorMaxPollRPS:\n\s*- value: )\d+/;
    if (!re.test(text))
        throw new Error(`${cluster_1.DYNAMIC_CONFIG_FILE} has no history.transferProcessorMaxPollRPS value to vary`);
    return text.replace(re, `$1${rps}`);
}
async function measure(rps, ctx) {
    const dyn = (0, node_path_1.join)(ctx.work, `dynamicconfig-${rps}.yaml`);
    (0, node_fs_1.writeFileSync)(dyn, dynamicConfigWith(rps));
    const b = await startClusterBench({ bin: ctx.bin, work: ctx.work, fakeURL: ctx.fakeURL, dynamicConfigFile: dyn });
    try {
        const key = (k) => `t${rps}-${k}`;
        ctx.book.add(key('warm'), (0, scenarios_1.readsScript)(5, ctx.files));
        await clusterSession(b, key('warm'), ctx.work);
        // One session alone: the latency the setting is about.
        const perTurn = [];
        const wft = [];
        const at = [];
        for (let r = 0; r < 3; r++) {
            ctx.book.add(key(`seq${r}`), (0, scenarios_1.readsScript)(ctx.turns, ctx.files));
            const s = await clusterSession(b, key(`seq${r}`), ctx.work);
            if (s.status !== 'completed')
                throw new Error(`bench session ended ${s.status}`);
            perTurn.push(s.ms / (ctx.turns + 1));
            if (r === 0) {
                for (let t = 1; t <= ctx.turns; t++) {
                    const tt = (0, floor_1.taskTimes)((await b.cluster.client.workflow.getHandle(`${s.workflowId}/turn-${t}`).fetchHistory()).events ?? []);
                    wft.push(...tt.wftWait);
                    at.push(...tt.atWait);
                }
            }
        }
        // Many at once: what a turn costs the database and the history nodes.
        const tx0 = await dbTransactions(b);
        const cpu0 = historyCpu(b);
        const t0 = performance.now();
        await Promise.all(Array.from({ length: ctx.concurrent }, async (_, i) => {
            ctx.book.add(key(`conc${i}`), (0, scenarios_1.readsScript)(ctx.turns, ctx.files));
            const s = await clusterSession(b, key(`conc${i}`), ctx.work);
            if (s.status !== 'completed')
                throw new Error(`bench session ended ${s.status}`);
        }));
        const wall = (performance.now() - t0) / 1000;
        const turns = ctx.concurrent * (ctx.turns + 1);
        const cpu1 = historyCpu(b);
        await new Promise((r) => setTimeout(r, 1500));
        const tx1 = await dbTransactions(b);
        // Idle: nothing running, what the readers cost by themselves.
        const idleS = 10;
        const cpuI = historyCpu(b);
        const txI = await dbTransactions(b);
        await new Promise((r) => setTimeout(r, idleS * 1000));
        const cpuJ = historyCpu(b);
        const txJ = await dbTransactions(b);
        const row = {
            rps,
            perTurnMs: (0, floor_1.median)(perTurn),
            wftWaitMs: (0, floor_1.median)(wft),
            atWaitMs: (0, floor_1.median)(at),
            turnsPerSec: turns / wall,
            dbTxPerTurn: (tx1 - tx0) / turns,
            historyCpuPerTurnMs: (cpu1 - cpu0) / turns,
            idleDbTxPerSec: (txJ - txI) / idleS,
            idleHistoryCpuMsPerSec: (cpuJ - cpuI) / idleS,
        };
        ctx.log(`rps ${rps}: ${JSON.stringify(row)}`);
        return row;
    }
    finally {
        await b.stop();
    }
}
async function main() {
    const argv = process.argv.slice(2);
    const valuesArg = argv.find((a) => a.startsWith('--values='))?.slice('--values='.length) ??
        (argv.includes('--values') ? argv[argv.indexOf('--values') + 1] : undefined);
    const values = (valuesArg ?? '20,50,100,200,1000').split(',').map(Number);
    if (values.some((v) => !Number.isFinite(v) || v <= 0))
        throw new Error(`--values: positive numbers, comma-separated (got ${valuesArg})`);
    const turns = Number(argv.find((a) => a.startsWith('--turns='))?.slice(8) ?? 20);
    const concurrent = Number(argv.find((a) => a.startsWith('--concurrent='))?.slice(13) ?? 10);
    worker_1.Runtime.install({ logger: new worker_1.DefaultLogger('ERROR') });
    const log = (l) => void process.stderr.write(`bench:cluster: ${l}\n`);
    const bin = await (0, server_1.ensureServer)({ log });
    const work = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-bench-cluster-'));
    const book = new scenarios_1.ScriptBook();
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)({ script: (req) => book.answer(req) });
    const files = [0, 1, 2].map((i) => {
        const f = (0, node_path_1.join)(work, `f${i}.txt`);
        (0, node_fs_1.writeFileSync)(f, 'x'.repeat(2000) + '\n');
        return f;
    });
    const started = performance.now();
    const load0 = (0, node_os_1.loadavg)()[0].toFixed(1);
    const rows = [];
    try {
        for (const v of values)
            rows.push(await measure(v, { bin, work, fakeURL: fake.baseURL, book, files, turns, concurrent, log }));
    }
    finally {
        await fake.close();
        (0, node_fs_1.rmSync)(work, { recursive: true, force: true });
    }
    const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '-');
    const shards = (0, cluster_1.readEnvFile)(cluster_1.SERVER_ENV_FILE).NUM_HISTORY_SHARDS;
    console.log([
        `Command: \`npm run bench:cluster -- --values ${values.join(',')}\` (${((performance.now() - started) / 1000).toFixed(0)} s; ${turns} turns of 3 parallel Reads per session; ${concurrent} concurrent sessions; load average ${load0} → ${(0, node_os_1.loadavg)()[0].toFixed(1)}). Cluster: ${shards} history shards on 2 history nodes, deploy/temporal/dynamicconfig.yaml with the value varied.`,
        '',
        '| transferProcessorMaxPollRPS | per turn, one session | task Scheduled→Started (workflow / activity, median) | turns/s, concurrent | DB transactions per turn | history CPU per turn | idle: DB transactions/s, history CPU |',
        '|---|---|---|---|---|---|---|',
        ...rows.map((r) => `| ${r.rps} | ${f(r.perTurnMs, 0)} ms | ${f(r.wftWaitMs)} / ${f(r.atWaitMs)} ms | ${f(r.turnsPerSec)} | ${f(r.dbTxPerTurn)} | ${f(r.historyCpuPerTurnMs)} ms | ${f(r.idleDbTxPerSec)}/s, ${f(r.idleHistoryCpuMsPerSec)} ms/s |`),
    ].join('\n'));
}
if (require.main === module) {
    main().then(() => process.exit(0), (err) => {
        console.error(err);
        process.exit(1);
    });
}
//# sourceMappingURL=cluster.js.map