"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// Prints the event timeline of one turn (and the session events around it) of a Reads session on
// a fresh dev server: where a turn's time goes, event by event. Diagnostic, not part of the table.
//   node dist/bench/timeline.js [turns=8] [turn=5]
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const client_1 = require("@temporalio/client");
const worker_1 = require("@temporalio/worker");
const proto_1 = require("@temporalio/proto");
const fakeAnthropic_1 = require("../src/testing/fakeAnthropic");
const client_2 = require("../src/client");
const devServer_1 = require("../src/temporal/devServer");
const worker_2 = require("../src/worker");
const floor_1 = require("./floor");
const scenarios_1 = require("./scenarios");
const ET = proto_1.temporal.api.enums.v1.EventType;
async function main() {
    worker_1.Runtime.install({ logger: new worker_1.DefaultLogger('ERROR') });
    const turns = Number(process.argv[2] ?? 8);
    const which = Number(process.argv[3] ?? 5);
    const work = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-timeline-'));
    const files = [0, 1, 2].map((i) => {
        const f = (0, node_path_1.join)(work, `f${i}.txt`);
        (0, node_fs_1.writeFileSync)(f, 'x'.repeat(2000));
        return f;
    });
    const book = new scenarios_1.ScriptBook();
    book.add('t', (0, scenarios_1.readsScript)(turns, files));
    const fake = await (0, fakeAnthropic_1.startFakeAnthropic)({ script: (r) => book.answer(r) });
    const server = await (0, devServer_1.startDevServer)({});
    const connection = await worker_1.NativeConnection.connect({ address: server.address });
    const worker = await (0, worker_2.createAgentWorker)({
        connection,
        taskQueue: 'tl',
        anthropic: () => new sdk_1.default({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }),
        storeDir: (0, node_fs_1.mkdtempSync)((0, node_path_1.join)(work, 's-')),
        workflowBundle: await (0, worker_2.bundleAgentWorkflows)(),
    });
    await worker.runUntil(async () => {
        const client = new client_1.Client({ connection: await client_1.Connection.connect({ address: server.address }) });
        const h = await (0, client_2.startSession)(client, {
            prompt: 'bench:t',
            cwd: work,
            permissionMode: 'bypassPermissions',
            model: { model: 'b', maxTokens: 100 },
            taskQueue: 'tl',
            useSearchAttributes: false,
            id: 'tl',
        });
        await h.result();
        const turn = (await client.workflow.getHandle(`tl/turn-${which}`).fetchHistory()).events ?? [];
        const session = (await client.workflow.getHandle('tl').fetchHistory()).events ?? [];
        const t0 = (0, floor_1.eventMs)(turn[0]);
        const name = (e) => {
            const n = ET[Number(e.eventType)]?.replace('EVENT_TYPE_', '') ?? String(e.eventType);
            const a = e.activityTaskScheduledEventAttributes?.activityType?.name ?? e.markerRecordedEventAttributes?.markerName ?? '';
            let extra = '';
            const data = e.markerRecordedEventAttributes?.details?.data?.payloads?.[0]?.data;
            if (data) {
                try {
                    const d = JSON.parse(Buffer.from(data).toString());
                    const ms = (t) => typeof t === 'string'
                        ? Date.parse(t)
                        : t && typeof t === 'object'
                            ? Number(t.seconds ?? 0) * 1000 +
                                Number(t.nanos ?? 0) / 1e6
                            : NaN;
                    extra = ` ${d.activity_type ?? ''} scheduled ${(ms(d.original_schedule_time) - t0).toFixed(1)} completed ${(ms(d.complete_time) - t0).toFixed(1)}`;
                }
                catch {
                    extra = '';
                }
            }
            return `${n} ${a}${extra}`;
        };
        // Session events from the start of the previous turn's completion to the next child initiation.
        const initIdx = session.findIndex((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId === `tl/turn-${which}`);
        const nextIdx = session.findIndex((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId === `tl/turn-${which + 1}`);
        console.log(`session events around turn ${which} (ms relative to the turn's first event):`);
        for (const e of session.slice(Math.max(0, initIdx - 6), nextIdx + 1))
            console.log(`  ${((0, floor_1.eventMs)(e) - t0).toFixed(1).padStart(8)}  ${name(e)}`);
        console.log(`turn ${which}:`);
        for (const e of turn)
            console.log(`  ${((0, floor_1.eventMs)(e) - t0).toFixed(1).padStart(8)}  ${name(e)}`);
        await client.connection.close();
    });
    await server.stop();
    await fake.close();
}
main().catch((err) => {
    console.error(err);
    process.exit(1);
});
//# sourceMappingURL=timeline.js.map