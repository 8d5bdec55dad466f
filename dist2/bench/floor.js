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
exports.MATRIX = void 0;
exports.eventMs = eventMs;
exports.median = median;
exports.taskTimes = taskTimes;
exports.dynamicConfigFor = dynamicConfigFor;
exports.measureFloor = measureFloor;
exports.describeResult = describeResult;
// The floor: what a Temporal dev server on this machine costs per task with no-op activities,
// read from history timestamps. Used to evaluate server/worker settings one at a time, and by
// `npm run bench` for its floor row.
//   npm run build && node dist/bench/floor.js [--n 40] [--dc key=value]... [--db FILE]
//       [--pollers N] [--no-sticky] [--session TURNS] [--shape 1,0,3,2] [--repeat R] [--matrix]
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const client_1 = require("@temporalio/client");
const worker_1 = require("@temporalio/worker");
const devServer_1 = require("../src/temporal/devServer");
const ET = {
    WFT_SCHEDULED: 5,
    WFT_STARTED: 6,
    WFT_COMPLETED: 7,
    AT_SCHEDULED: 10,
    AT_STARTED: 11,
    AT_COMPLETED: 12,
};
function eventMs(e) {
    const t = e.eventTime;
    if (!t)
        return NaN;
    return Number(t.seconds ?? 0) * 1000 + (t.nanos ?? 0) / 1e6;
}
function median(xs) {
    if (xs.length === 0)
        return NaN;
    const s = [...xs].sort((a, b) => a - b);
    const m = Math.floor(s.length / 2);
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
/** Reads the task timings of one workflow's history. */
function taskTimes(events) {
    const byId = new Map();
    for (const e of events)
        byId.set(Number(e.eventId), e);
    const out = { wftWait: [], wftWork: [], atWait: [], atWork: [], atCycle: [], totalMs: 0 };
    let lastAtScheduled;
    for (const e of events) {
        const type = Number(e.eventType);
        if (type === ET.WFT_STARTED) {
            const s = byId.get(Number(e.workflowTaskStartedEventAttributes?.scheduledEventId));
            if (s)
                out.wftWait.push(eventMs(e) - eventMs(s));
        }
        else if (type === ET.WFT_COMPLETED) {
            const s = byId.get(Number(e.workflowTaskCompletedEventAttributes?.startedEventId));
            if (s)
                out.wftWork.push(eventMs(e) - eventMs(s));
        }
        else if (type === ET.AT_STARTED) {
            const s = byId.get(Number(e.activityTaskStartedEventAttributes?.scheduledEventId));
            if (s)
                out.atWait.push(eventMs(e) - eventMs(s));
        }
        else if (type === ET.AT_COMPLETED) {
            const s = byId.get(Number(e.activityTaskCompletedEventAttributes?.startedEventId));
            if (s)
                out.atWork.push(eventMs(e) - eventMs(s));
        }
        else if (type === ET.AT_SCHEDULED) {
            if (lastAtScheduled !== undefined)
                out.atCycle.push(eventMs(e) - lastAtScheduled);
            lastAtScheduled = eventMs(e);
        }
    }
    if (events.length > 1)
        out.totalMs = eventMs(events[events.length - 1]) - eventMs(events[0]);
    return out;
}
async function sleepy(ms, heartbeatMs) {
    const { Context } = await Promise.resolve().then(() => __importStar(require('@temporalio/activity')));
    const ctx = Context.current();
    const beat = heartbeatMs > 0 ? setInterval(() => ctx.heartbeat(), heartbeatMs) : undefined;
    try {
        await new Promise((r) => setTimeout(r, ms));
    }
    finally {
        if (beat)
            clearInterval(beat);
    }
}
/** A variant's dynamic config relative to the CLI's own defaults (this project's defaults dropped). */
function dynamicConfigFor(v) {
    const none = Object.fromEntries(Object.keys(devServer_1.DEV_SERVER_DYNAMIC_CONFIG).map((k) => [k, null]));
    return { ...none, ...v.dynamicConfig };
}
let floorBundle;
function bundle() {
    const quiet = {
        log: () => undefined,
        trace: () => undefined,
        debug: () => undefined,
        info: () => undefined,
        warn: () => undefined,
        error: (m) => console.error(m),
    };
    floorBundle ??= (0, worker_1.bundleWorkflowCode)({ workflowsPath: require.resolve('./floorWorkflows'), logger: quiet });
    return floorBundle;
}
/** Runs the floor workloads of one variant on its own dev server (or on `server` when given). */
async function measureFloor(v, opts) {
    const server = opts.server ??
        (await (0, devServer_1.startDevServer)({
            dynamicConfig: dynamicConfigFor(v),
            ...(v.dbFile ? { dbFilename: (0, node_path_1.join)((0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-floor-')), 'temporal.db') } : {}),
        }));
    const connection = await worker_1.NativeConnection.connect({ address: server.address });
    const taskQueue = `floor-${Math.random().toString(36).slice(2, 8)}`;
    const worker = await worker_1.Worker.create({
        connection,
        taskQueue,
        workflowBundle: await bundle(),
        activities: { noop: async () => undefined, sleepy },
        maxConcurrentActivityTaskExecutions: 100,
        maxHeartbeatThrottleInterval: '200 ms',
        defaultHeartbeatThrottleInterval: '200 ms',
        ...v.worker,
    });
    const client = new client_1.Client({ connection: await client_1.Connection.connect({ address: server.address }) });
    let result;
    try {
        result = await worker.runUntil(async () => {
            // Warm-up: the first tasks of a fresh queue are not the steady state.
            await client.workflow.execute('noopChain', { taskQueue, workflowId: `${taskQueue}-warm`, args: [5] });
            const t0 = performance.now();
            const h = await client.workflow.start('noopChain', {
                taskQueue,
                workflowId: `${taskQueue}-chain`,
                args: [opts.n],
            });
            await h.result();
            const wall = performance.now() - t0;
            const chain = taskTimes((await h.fetchHistory()).events ?? []);
            const r = { variant: v.name, chain, perActivityMs: wall / opts.n };
            if (opts.sessionTurns) {
                const shape = { steps: opts.shape ?? [1, 0, 3, 2] };
                const t1 = performance.now();
                const s = await client.workflow.start('sessionShape', {
                    taskQueue,
                    workflowId: `${taskQueue}-session`,
                    args: [opts.sessionTurns, shape],
                });
                await s.result();
                r.perTurnMs = (performance.now() - t1) / opts.sessionTurns;
                const last = client.workflow.getHandle(`${taskQueue}-session/turn-${opts.sessionTurns}`);
                r.turn = taskTimes((await last.fetchHistory()).events ?? []);
            }
            if (opts.batch) {
                const { n, ms, heartbeats, repeat } = opts.batch;
                r.batches = [];
                for (let i = 0; i < repeat; i++) {
                    for (const heartbeatMs of heartbeats) {
                        const t = performance.now();
                        const b = await client.workflow.start('parallelSleeps', {
                            taskQueue,
                            workflowId: `${taskQueue}-batch-${heartbeatMs}-${i}`,
                            args: [n, ms, heartbeatMs],
                        });
                        await b.result();
                        const wallMs = performance.now() - t;
                        const ev = (await b.fetchHistory()).events ?? [];
                        const sched = ev.filter((e) => Number(e.eventType) === ET.AT_SCHEDULED).map(eventMs);
                        const done = ev.filter((e) => Number(e.eventType) === ET.AT_COMPLETED).map(eventMs);
                        r.batches.push({ heartbeatMs, wallMs, activitiesMs: Math.max(...done) - Math.min(...sched) });
                    }
                }
            }
            return r;
        });
    }
    finally {
        await client.connection.close();
        await connection.close();
        if (!opts.server)
            await server.stop();
    }
    return result;
}
const f = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
function describeResult(r) {
    const c = r.chain;
    const head = (xs) => xs
        .slice(0, 4)
        .map((x) => x.toFixed(0))
        .join('/');
    const lines = [
        `${r.variant}: ${f(r.perActivityMs)} ms per sequential no-op activity (wall)`,
        `  workflow task  sched→start median ${f(median(c.wftWait))} (first ${head(c.wftWait)}), work median ${f(median(c.wftWork))}`,
        `  activity task  sched→start median ${f(median(c.atWait))} (first ${head(c.atWait)}), work median ${f(median(c.atWork))}, cycle median ${f(median(c.atCycle))}`,
    ];
    for (const hb of [...new Set((r.batches ?? []).map((b) => b.heartbeatMs))]) {
        const bs = (r.batches ?? []).filter((b) => b.heartbeatMs === hb);
        lines.push(`  batch, heartbeat every ${hb || 'never'} ms: wall median ${f(median(bs.map((b) => b.wallMs)))}, first scheduled→last completed median ${f(median(bs.map((b) => b.activitiesMs)))} (${bs.length} runs)`);
    }
    if (r.perTurnMs !== undefined && r.turn) {
        lines.push(`  turn shape: ${f(r.perTurnMs)} ms per turn; in the last turn: wft wait median ${f(median(r.turn.wftWait))}, at wait median ${f(median(r.turn.atWait))}, child first→last event ${f(r.turn.totalMs)}`);
    }
    return lines.join('\n');
}
/** The levers of docs: one variant each, against the CLI's defaults. */
exports.MATRIX = [
    { name: 'cli defaults' },
    {
        name: 'partitions=1',
        dynamicConfig: { 'matching.numTaskqueueReadPartitions': 1, 'matching.numTaskqueueWritePartitions': 1 },
    },
    { name: 'eager activities', dynamicConfig: { 'system.enableActivityEagerExecution': true } },
    { name: 'transfer poll RPS 1000', dynamicConfig: { 'history.transferProcessorMaxPollRPS': 1000 } },
    { name: 'transfer poll RPS 100', dynamicConfig: { 'history.transferProcessorMaxPollRPS': 100 } },
    {
        name: 'transfer RPS 1000 + eager',
        dynamicConfig: { 'history.transferProcessorMaxPollRPS': 1000, 'system.enableActivityEagerExecution': true },
    },
    {
        name: 'transfer RPS 1000 + partitions=1',
        dynamicConfig: {
            'history.transferProcessorMaxPollRPS': 1000,
            'matching.numTaskqueueReadPartitions': 1,
            'matching.numTaskqueueWritePartitions': 1,
        },
    },
    { name: 'sqlite file', dbFile: true },
    {
        name: 'sqlite file + transfer RPS 1000',
        dbFile: true,
        dynamicConfig: { 'history.transferProcessorMaxPollRPS': 1000 },
    },
    { name: 'no sticky (maxCachedWorkflows 0)', worker: { maxCachedWorkflows: 0 } },
    { name: 'pollers 1/2', worker: { maxConcurrentActivityTaskPolls: 1, maxConcurrentWorkflowTaskPolls: 2 } },
    {
        name: 'transfer RPS 1000 + no sticky',
        dynamicConfig: { 'history.transferProcessorMaxPollRPS': 1000 },
        worker: { maxCachedWorkflows: 0 },
    },
    {
        name: 'transfer RPS 1000 + pollers 1/2',
        dynamicConfig: { 'history.transferProcessorMaxPollRPS': 1000 },
        worker: { maxConcurrentActivityTaskPolls: 1, maxConcurrentWorkflowTaskPolls: 2 },
    },
];
function parseArgs(argv) {
    const o = {
        shapes: undefined,
        batch: undefined,
        n: 40,
        repeat: 1,
        matrix: false,
        only: undefined,
        sessionTurns: 0,
        shape: undefined,
        v: {
            name: 'custom',
            dynamicConfig: {},
            worker: {},
        },
    };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const next = () => {
            const v = argv[++i];
            if (v === undefined)
                throw new Error(`${a} needs a value`);
            return v;
        };
        if (a === '--n')
            o.n = Number(next());
        else if (a === '--repeat')
            o.repeat = Number(next());
        else if (a === '--matrix')
            o.matrix = true;
        else if (a === '--only')
            o.only = next().split(',');
        else if (a === '--compare-shapes')
            o.shapes = next()
                .split(';')
                .map((x) => x.split(',').map(Number));
        else if (a === '--session')
            o.sessionTurns = Number(next());
        else if (a === '--shape')
            o.shape = next().split(',').map(Number);
        else if (a === '--db')
            o.v.dbFile = true;
        else if (a === '--batch')
            o.batch = { n: 10, ms: 500, heartbeats: next().split(',').map(Number), repeat: 3 };
        else if (a === '--no-sticky')
            o.v.worker.maxCachedWorkflows = 0;
        else if (a === '--pollers') {
            const p = Number(next());
            o.v.worker.maxConcurrentActivityTaskPolls = p;
            o.v.worker.maxConcurrentWorkflowTaskPolls = Math.max(2, p);
        }
        else if (a === '--dc') {
            const [k, ...rest] = next().split('=');
            const raw = rest.join('=');
            o.v.dynamicConfig[k] =
                raw === 'true' ? true : raw === 'false' ? false : Number.isFinite(Number(raw)) ? Number(raw) : raw;
        }
        else
            throw new Error(`unknown argument ${a}`);
    }
    return o;
}
async function main() {
    worker_1.Runtime.install({ logger: new worker_1.DefaultLogger('ERROR') });
    const o = parseArgs(process.argv.slice(2));
    if (o.shapes) {
        // Turn shapes on ONE server (this project's settings), alternating, medians per shape.
        const server = await (0, devServer_1.startDevServer)({});
        const per = new Map();
        try {
            for (let r = 0; r < o.repeat; r++) {
                for (const shape of o.shapes) {
                    const res = await measureFloor({ name: shape.join(',') }, { n: 3, sessionTurns: o.sessionTurns || 10, shape, server });
                    per.set(shape.join(','), [...(per.get(shape.join(',')) ?? []), res.perTurnMs ?? NaN]);
                }
            }
        }
        finally {
            await server.stop();
        }
        for (const [shape, xs] of per)
            console.log(`shape [${shape}]: median ${f(median(xs))} ms/turn (${xs.map((x) => x.toFixed(0)).join(', ')})`);
        return;
    }
    const variants = o.matrix ? exports.MATRIX.filter((v) => !o.only || o.only.includes(v.name)) : [o.v];
    for (let r = 0; r < o.repeat; r++) {
        for (const v of variants) {
            const res = await measureFloor(v, {
                n: o.n,
                ...(o.sessionTurns ? { sessionTurns: o.sessionTurns } : {}),
                ...(o.shape ? { shape: o.shape } : {}),
                ...(o.batch ? { batch: o.batch } : {}),
            });
            console.log(describeResult(res));
        }
    }
}
if (require.main === module) {
    main().catch((err) => {
        console.error(err);
        process.exit(1);
    });
}
//# sourceMappingURL=floor.js.map