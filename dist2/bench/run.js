"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.renderTable = renderTable;
// `npm run bench`: what durability costs, side by side in one run, as ONE table — printed and
// written to BENCHMARKS.md (between the bench markers) with the machine and the command.
//   npm run bench [-- --quick]     (--quick: fewer turns and repeats, for a smoke run)
// Not a test: numbers vary with the machine's load (shown with the table). Ratios are taken
// within this run; repeated rows report medians.
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const client_1 = require("@temporalio/client");
const worker_1 = require("@temporalio/worker");
const fakeAnthropic_1 = require("../src/testing/fakeAnthropic");
const runSession_1 = require("../src/local/runSession");
const client_2 = require("../src/client");
const devServer_1 = require("../src/temporal/devServer");
const floor_1 = require("./floor");
const scenarios_1 = require("./scenarios");
const sleepTool_1 = require("./sleepTool");
const host_1 = require("../src/sandbox/host");
const forkWorker_1 = require("./forkWorker");
const cluster_1 = require("./cluster");
const cluster_2 = require("../test/cluster/cluster");
const server_1 = require("../test/cluster/server");
const QUICK = process.argv.includes('--quick');
const ROOT = (0, node_path_1.resolve)(__dirname, '..', '..');
const N = {
    overheadTurns: QUICK ? 10 : 40,
    overheadRepeats: QUICK ? 1 : 3,
    writeTurns: QUICK ? 4 : 10,
    realisticTurns: 20,
    realisticRepeats: QUICK ? 1 : 2,
    streamingTurns: QUICK ? 1 : 3,
    batchRepeats: QUICK ? 1 : 3,
    historyTurns: 100,
    floorTurns: QUICK ? 5 : 20,
};
const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(x < 10 ? 1 : 0)} ms` : '-');
const verdict = (ok) => (ok ? 'PASS' : 'MISS');
function renderTable(rows) {
    const head = {
        measure: 'Measure',
        inProcess: 'In-process',
        temporal: 'Temporal',
        result: 'Result',
        target: 'Target',
        verdict: 'info',
    };
    const cells = (r) => [
        r.measure,
        r.inProcess,
        r.temporal,
        r.result,
        r.target,
        r === head ? 'Verdict' : r.verdict,
    ];
    const lines = [cells(head), cells(head).map(() => '---'), ...rows.map(cells)];
    return lines.map((c) => `| ${c.join(' | ')} |`).join('\n');
}
const COMMON = {
    permissionMode: 'bypassPermissions',
    model: { model: 'bench', maxTokens: 1024 },
    maxTurns: 500,
};
async function local(ctx, key, opts) {
    const t0 = performance.now();
    const r = await (0, runSession_1.runLocalSession)({ ...COMMON, ...opts, prompt: `bench:${key}` }, {
        anthropic: () => new sdk_1.default({ apiKey: 'bench', baseURL: ctx.fakeURL, maxRetries: 0 }),
        storeDir: (0, node_fs_1.mkdtempSync)((0, node_path_1.join)(ctx.work, 'store-')),
        tools: [sleepTool_1.SleepTool],
    });
    return { ms: performance.now() - t0, status: r.status };
}
async function temporal(ctx, key, opts) {
    const t0 = performance.now();
    const h = await (0, client_2.startSession)(ctx.client, {
        ...COMMON,
        ...opts,
        prompt: `bench:${key}`,
        taskQueue: ctx.taskQueue,
        useSearchAttributes: false,
        id: `bench-${key}`,
    });
    const r = await h.result();
    return { ms: performance.now() - t0, status: r.status, workflowId: h.workflowId };
}
async function history(ctx, workflowId) {
    return (await ctx.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
}
function checkStatus(what, ...statuses) {
    const bad = statuses.filter((s) => s !== 'completed');
    if (bad.length > 0)
        throw new Error(`bench: ${what} ended ${bad.join(', ')}`);
}
async function floorRows(ctx) {
    const shape = [1, 0, 3, -2];
    const ours = await (0, floor_1.measureFloor)({ name: 'ours' }, { n: 20, sessionTurns: N.floorTurns, shape, server: ctx.server });
    const cli = await (0, floor_1.measureFloor)({ name: 'cli defaults' }, { n: 20, sessionTurns: N.floorTurns, shape });
    const rpsOurs = devServer_1.DEV_SERVER_DYNAMIC_CONFIG['history.transferProcessorMaxPollRPS'];
    return [
        {
            measure: 'Floor: bare turn (child workflow + model + describe LA + 3 parallel tools + 2 store LAs, no-op activities)',
            inProcess: '—',
            temporal: `${ms(ours.perTurnMs ?? NaN)}/turn`,
            result: `no-op activity ${ms(ours.perActivityMs)}; task Scheduled→Started median wft ${ms((0, floor_1.median)(ours.chain.wftWait))}, activity ${ms((0, floor_1.median)(ours.chain.atWait))}`,
            target: 'what the machine allows',
            verdict: 'info',
        },
        {
            measure: "Floor with the CLI's default server settings (transfer-queue reader 20 loads/s, no eager activities)",
            inProcess: '—',
            temporal: `${ms(cli.perTurnMs ?? NaN)}/turn`,
            result: `no-op activity ${ms(cli.perActivityMs)}; Scheduled→Started median wft ${ms((0, floor_1.median)(cli.chain.wftWait))}, activity ${ms((0, floor_1.median)(cli.chain.atWait))} (ours: transferProcessorMaxPollRPS=${rpsOurs}, eager activities)`,
            target: 'the lever',
            verdict: 'info',
        },
    ];
}
async function overheadRows(ctx) {
    const files = [0, 1, 2].map((i) => {
        const f = (0, node_path_1.join)(ctx.work, `f${i}.txt`);
        (0, node_fs_1.writeFileSync)(f, 'x'.repeat(2000) + '\n');
        return f;
    });
    const turns = N.overheadTurns + 1;
    const perTurn = [];
    const locals = [];
    const temps = [];
    for (let r = 0; r < N.overheadRepeats; r++) {
        const key = `reads-${r}`;
        ctx.book.add(key, (0, scenarios_1.readsScript)(N.overheadTurns, files));
        const l = await local(ctx, key, { cwd: ctx.work });
        const t = await temporal(ctx, key, { cwd: ctx.work });
        checkStatus('the reads session', l.status, t.status);
        locals.push(l.ms / turns);
        temps.push(t.ms / turns);
        perTurn.push((t.ms - l.ms) / turns);
    }
    // Per sequential tool call: turns of 1 Write vs turns of 4 Writes (each Write is its own batch).
    const perCall = [];
    const dir = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)(ctx.work, 'writes-'));
    for (let r = 0; r < Math.max(1, N.overheadRepeats - 1); r++) {
        const ovh = {};
        for (const k of [1, 4]) {
            const key = `writes${k}-${r}`;
            ctx.book.add(key, (0, scenarios_1.writesScript)(N.writeTurns, k, (0, node_path_1.join)(dir, key)));
            const l = await local(ctx, key, { cwd: dir });
            ctx.book.add(`${key}-t`, (0, scenarios_1.writesScript)(N.writeTurns, k, (0, node_path_1.join)(dir, `${key}-t`)));
            const t = await temporal(ctx, `${key}-t`, { cwd: dir });
            checkStatus('the writes session', l.status, t.status);
            ovh[k] = (t.ms - l.ms) / N.writeTurns;
        }
        perCall.push((ovh[4] - ovh[1]) / 3);
    }
    const o = (0, floor_1.median)(perTurn);
    return {
        rows: [
            {
                measure: `Durability overhead per turn (${N.overheadTurns} turns of 3 parallel Reads + a final answer; median of ${N.overheadRepeats})`,
                inProcess: `${ms((0, floor_1.median)(locals))}/turn`,
                temporal: `${ms((0, floor_1.median)(temps))}/turn`,
                result: `+${ms(o)}/turn`,
                target: '≤ 50 ms',
                verdict: verdict(o <= 50),
            },
            {
                measure: 'Durability overhead per sequential tool call ((turns of 4 Writes − turns of 1 Write) / 3)',
                inProcess: '—',
                temporal: '—',
                result: `+${ms((0, floor_1.median)(perCall))}/call`,
                target: 'none set',
                verdict: 'info',
            },
        ],
    };
}
/**
 * The overhead row again on a production-shaped cluster (test/cluster/cluster.ts: the release
 * server as one process per service on PostgreSQL, deploy/'s shards and dynamic config), with the
 * same sessions and the same worker settings; skipped, saying why, when the server is not built.
 */
async function clusterRows(ctx) {
    const shards = (0, cluster_2.readEnvFile)(cluster_2.SERVER_ENV_FILE).NUM_HISTORY_SHARDS;
    const measure = `Durability overhead per turn on a production-shaped cluster (temporal-server ${server_1.TEMPORAL_SERVER_VERSION}: frontend, 2 history, matching, worker processes on PostgreSQL, ${shards} shards, deploy/temporal/dynamicconfig.yaml; the sessions of the row above; median of ${N.overheadRepeats})`;
    const why = (0, cluster_1.clusterUnavailable)();
    if (why) {
        process.stderr.write(`\nbench: the cluster row is skipped: ${why}\n`);
        return [
            {
                measure,
                inProcess: '—',
                temporal: '—',
                result: 'skipped: the server is not built (node dist/test/cluster/server.js --ensure)',
                target: "beside the dev server's",
                verdict: 'n/a',
            },
        ];
    }
    const files = [0, 1, 2].map((i) => (0, node_path_1.join)(ctx.work, `f${i}.txt`));
    const b = await (0, cluster_1.startClusterBench)({ work: ctx.work, fakeURL: ctx.fakeURL });
    const turns = N.overheadTurns + 1;
    const perTurn = [];
    const locals = [];
    const temps = [];
    try {
        const warm = 'cluster-warm';
        ctx.book.add(warm, (0, scenarios_1.readsScript)(3, files));
        await (0, cluster_1.clusterSession)(b, warm, ctx.work);
        for (let r = 0; r < N.overheadRepeats; r++) {
            const key = `cluster-reads-${r}`;
            ctx.book.add(key, (0, scenarios_1.readsScript)(N.overheadTurns, files));
            const l = await local(ctx, key, { cwd: ctx.work });
            const t = await (0, cluster_1.clusterSession)(b, key, ctx.work);
            checkStatus('the reads session on the cluster', l.status, t.status);
            locals.push(l.ms / turns);
            temps.push(t.ms / turns);
            perTurn.push((t.ms - l.ms) / turns);
        }
    }
    finally {
        await b.stop();
    }
    const o = (0, floor_1.median)(perTurn);
    return [
        {
            measure,
            inProcess: `${ms((0, floor_1.median)(locals))}/turn`,
            temporal: `${ms((0, floor_1.median)(temps))}/turn`,
            result: `+${ms(o)}/turn`,
            target: "beside the dev server's",
            verdict: 'info',
        },
    ];
}
async function realisticRow(ctx) {
    const ratios = [];
    const locals = [];
    const temps = [];
    for (let r = 0; r < N.realisticRepeats; r++) {
        const lt = (0, scenarios_1.copyTree)((0, node_path_1.join)(ROOT, 'src'), (0, node_fs_1.mkdtempSync)((0, node_path_1.join)(ctx.work, 'tree-l-')));
        const tt = (0, scenarios_1.copyTree)((0, node_path_1.join)(ROOT, 'src'), (0, node_fs_1.mkdtempSync)((0, node_path_1.join)(ctx.work, 'tree-t-')));
        ctx.book.add(`real-l-${r}`, (0, scenarios_1.realisticScript)(lt, scenarios_1.REALISTIC_PACE, 7 + r, N.realisticTurns));
        ctx.book.add(`real-t-${r}`, (0, scenarios_1.realisticScript)(tt, scenarios_1.REALISTIC_PACE, 7 + r, N.realisticTurns));
        const l = await local(ctx, `real-l-${r}`, { cwd: lt });
        const t = await temporal(ctx, `real-t-${r}`, { cwd: tt });
        checkStatus('the realistic session', l.status, t.status);
        locals.push(l.ms);
        temps.push(t.ms);
        ratios.push(t.ms / l.ms);
    }
    const ratio = (0, floor_1.median)(ratios);
    return {
        measure: `Realistic session: ${N.realisticTurns} turns of Read/Grep/Glob/Edit/Bash on a copy of src/, model at ~60 tokens/s, 300–600 ms to first token (median of ${N.realisticRepeats})`,
        inProcess: ms((0, floor_1.median)(locals)),
        temporal: ms((0, floor_1.median)(temps)),
        result: `${ratio.toFixed(3)}×`,
        target: '≤ 1.05×',
        verdict: verdict(ratio <= 1.05),
    };
}
/** Did a tool activity of this turn start before its model activity completed? (streaming execution at work) */
function startedEarly(events) {
    const modelDone = events.find((e) => Number(e.eventType) === 12 &&
        events.some((s) => Number(s.eventId) === Number(e.activityTaskCompletedEventAttributes?.scheduledEventId) &&
            s.activityTaskScheduledEventAttributes?.activityType?.name === 'callModel'));
    const toolSched = events.find((e) => Number(e.eventType) === 10 && e.activityTaskScheduledEventAttributes?.activityType?.name === 'runToolUse');
    return !!modelDone && !!toolSched && Number(toolSched.eventId) < Number(modelDone.eventId);
}
async function streamingRow(ctx) {
    const res = {};
    let early = false;
    for (const on of [true, false]) {
        const key = `stream-${on ? 'on' : 'off'}`;
        ctx.book.add(key, (0, scenarios_1.streamingScript)(N.streamingTurns));
        const t = await temporal(ctx, key, {
            cwd: ctx.work,
            tools: ['Read', sleepTool_1.SLEEP_TOOL_NAME],
            ...{ streamingToolExecution: on },
        });
        checkStatus('the streaming session', t.status);
        res[key] = t.ms;
        if (on)
            early = startedEarly(await history(ctx, `${t.workflowId}/turn-1`));
    }
    const less = 1 - res['stream-on'] / res['stream-off'];
    if (!early) {
        return {
            measure: 'Streaming execution on vs off (turns streaming 5 safe calls over ~2.5 s)',
            inProcess: '—',
            temporal: `off ${ms(res['stream-off'])}`,
            result: 'n/a: streaming execution not landed',
            target: '≥ 30 % less',
            verdict: 'n/a',
        };
    }
    return {
        measure: `Streaming execution on vs off (${N.streamingTurns} turns, each streaming 5 safe calls over ~2.5 s)`,
        inProcess: '—',
        temporal: `on ${ms(res['stream-on'])}, off ${ms(res['stream-off'])}`,
        result: `${(less * 100).toFixed(0)} % less`,
        target: '≥ 30 % less',
        verdict: verdict(less >= 0.3),
    };
}
async function batchRow(ctx) {
    const spans = [];
    const locals = [];
    for (let r = 0; r < N.batchRepeats; r++) {
        const key = `batch-${r}`;
        ctx.book.add(key, (0, scenarios_1.batchScript)(10, 500));
        const tools = ['Read', sleepTool_1.SLEEP_TOOL_NAME];
        const l = await local(ctx, key, { cwd: ctx.work, tools });
        locals.push(l.ms);
        const t = await temporal(ctx, key, { cwd: ctx.work, tools });
        checkStatus('the batch session', l.status, t.status);
        const ev = await history(ctx, `${t.workflowId}/turn-1`);
        const sched = new Map(ev
            .filter((e) => Number(e.eventType) === 10)
            .map((e) => [Number(e.eventId), e.activityTaskScheduledEventAttributes?.activityType?.name]));
        const done = ev.filter((e) => Number(e.eventType) === 12);
        const modelDone = done.find((e) => sched.get(Number(e.activityTaskCompletedEventAttributes?.scheduledEventId)) === 'callModel');
        const toolDone = done.filter((e) => sched.get(Number(e.activityTaskCompletedEventAttributes?.scheduledEventId)) === 'runToolUse');
        const lastTool = toolDone[toolDone.length - 1];
        // The batch as the turn sees it: model answer recorded → the workflow task that has every result.
        const wftAfter = ev.find((e) => Number(e.eventType) === 6 && lastTool && Number(e.eventId) > Number(lastTool.eventId));
        if (modelDone && wftAfter && toolDone.length === 10)
            spans.push((0, floor_1.eventMs)(wftAfter) - (0, floor_1.eventMs)(modelDone));
    }
    const span = (0, floor_1.median)(spans);
    return {
        measure: `A batch of ten 500 ms safe calls (model answer recorded → the workflow task holding all ten results; median of ${N.batchRepeats})`,
        inProcess: `whole session ${ms((0, floor_1.median)(locals))}`,
        temporal: ms(span),
        result: ms(span),
        target: '≤ 650 ms',
        verdict: verdict(span <= 650),
    };
}
async function historyRows(ctx, rssOf) {
    const files = [(0, node_path_1.join)(ctx.work, 'f0.txt')];
    const key = 'history';
    ctx.book.add(key, (0, scenarios_1.readsScript)(N.historyTurns, files));
    const t = await temporal(ctx, key, { cwd: ctx.work });
    checkStatus('the 100-turn session', t.status);
    const size = async (turn) => {
        const d = await ctx.client.workflow.getHandle(`${t.workflowId}/turn-${turn}`).describe();
        return Number(d.raw.workflowExecutionInfo?.historySizeBytes ?? NaN);
    };
    const [b5, b100] = [await size(5), await size(N.historyTurns)];
    const rss = await rssOf();
    return [
        {
            measure: `History bytes of a turn (1 Read per turn) at turn 5 and turn ${N.historyTurns}`,
            inProcess: '—',
            temporal: `${b5} B / ${b100} B`,
            result: `turn ${N.historyTurns} = ${(b100 / b5).toFixed(2)}× turn 5`,
            target: 'no growth with the session (≤ 1.2×)',
            verdict: verdict(b100 <= 1.2 * b5),
        },
        {
            measure: 'Worker RSS (its own process, after every Temporal row)',
            inProcess: '—',
            temporal: `${(rss / 1024 / 1024).toFixed(0)} MiB`,
            result: `${(rss / 1024 / 1024).toFixed(0)} MiB`,
            target: 'none set',
            verdict: 'info',
        },
    ];
}
function machine() {
    const load = (0, node_os_1.loadavg)()
        .map((x) => x.toFixed(2))
        .join(', ');
    return `${(0, node_os_1.cpus)().length} CPUs (nproc), ${((0, node_os_1.totalmem)() / 1024 ** 3).toFixed(1)} GiB RAM, Node ${process.version}, ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}; load average ${load}`;
}
function writeBenchmarks(table, header) {
    const file = (0, node_path_1.join)(ROOT, 'BENCHMARKS.md');
    const block = `<!-- bench:start (written by npm run bench) -->\n${header}\n\n${table}\n<!-- bench:end -->`;
    const old = (0, node_fs_1.existsSync)(file)
        ? (0, node_fs_1.readFileSync)(file, 'utf8')
        : '# Benchmarks\n\n<!-- bench:start -->\n<!-- bench:end -->\n';
    const re = /<!-- bench:start[^>]*-->[\s\S]*?<!-- bench:end -->/;
    (0, node_fs_1.writeFileSync)(file, re.test(old) ? old.replace(re, block) : `${old.trimEnd()}\n\n${block}\n`);
}
async function main() {
    worker_1.Runtime.install({ logger: new worker_1.DefaultLogger('ERROR') });
    const started = performance.now();
    const before = machine();
    const work = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-bench-'));
    const book = new scenarios_1.ScriptBook();
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)({ script: (req) => book.answer(req) });
    const server = await (0, devServer_1.startDevServer)({});
    const taskQueue = 'bench';
    const worker = await (0, forkWorker_1.startWorker)({
        BENCH_ADDRESS: server.address,
        BENCH_TASK_QUEUE: taskQueue,
        BENCH_FAKE_URL: fake.baseURL,
        BENCH_STORE_DIR: (0, node_fs_1.mkdtempSync)((0, node_path_1.join)(work, 'worker-store-')),
    });
    const connection = await client_1.Connection.connect({ address: server.address });
    const ctx = { server, client: new client_1.Client({ connection }), taskQueue, book, fakeURL: fake.baseURL, work };
    const rows = [];
    const step = async (name, f) => {
        const t = performance.now();
        process.stderr.write(`bench: ${name}…`);
        rows.push(...(await f()));
        process.stderr.write(` ${((performance.now() - t) / 1000).toFixed(0)} s\n`);
    };
    try {
        await step('floor', () => floorRows(ctx));
        await step('overhead', async () => (await overheadRows(ctx)).rows);
        await step('overhead on the cluster', async () => {
            // Shown right under the dev server's overhead row.
            const cluster = await clusterRows(ctx);
            const at = rows.findIndex((r) => r.measure.startsWith('Durability overhead per turn ('));
            rows.splice(at + 1, 0, ...cluster);
            return [];
        });
        await step('realistic session', async () => [await realisticRow(ctx)]);
        await step('streaming execution', async () => [await streamingRow(ctx)]);
        await step('batch', async () => [await batchRow(ctx)]);
        await step('history and RSS', () => historyRows(ctx, worker.rss));
    }
    finally {
        await worker.stop();
        await connection.close();
        await server.stop();
        await fake.close();
        (0, node_fs_1.rmSync)(work, { recursive: true, force: true });
    }
    const totalS = (performance.now() - started) / 1000;
    const table = renderTable(rows);
    const header = [
        `Command: \`npm run bench${QUICK ? ' -- --quick' : ''}\` (${totalS.toFixed(0)} s).`,
        `Machine at the start: ${before}.`,
        `At the end: load average ${(0, node_os_1.loadavg)()
            .map((x) => x.toFixed(2))
            .join(', ')}.`,
    ].join('\n');
    console.log(`${header}\n\n${table}`);
    if (!QUICK)
        writeBenchmarks(table, header);
    // The in-process sessions ran sandboxed Bash: the runtime's proxies would keep this process alive.
    await new host_1.SandboxHost().close();
}
main().catch((err) => {
    console.error(err);
    process.exit(1);
});
//# sourceMappingURL=run.js.map