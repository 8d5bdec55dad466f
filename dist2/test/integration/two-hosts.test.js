"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// integration: workers on two "hosts" — two workers with DIFFERENT store roots (no directory in
// common), on one task queue. Turn 1 and 2 run on host A; then host B starts, A drains and stops,
// and the rest runs on B, which must find everything A stored: the model's messages (tool inputs
// by reference), tool results by reference, the read-file state (Edit needs A's Read), the ledger.
//  - Both on the shared PostgreSQL store: the session completes; the history's activity-task
//    worker identity per tool call shows the calls ran on both hosts.
//  - Each on its own LOCAL file store (what you get without DURABLE_AGENT_STORE): B cannot read
//    what A stored; the session stops and waits, and its status says why and how to fix it
//    (MissingBlobError) — no tool runs on wrong state, nothing is silently answered.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const promises_2 = require("node:timers/promises");
const worker_1 = require("@temporalio/worker");
const zod_1 = require("zod");
const fakeAnthropic_1 = require("../../src/testing/fakeAnthropic");
const client_1 = require("../../src/client");
const worker_2 = require("../../src/worker");
const postgresBlobStore_1 = require("../../src/stores/postgresBlobStore");
const Tool_1 = require("../../src/tools/Tool");
const temporal_1 = require("../support/temporal");
const agent_1 = require("../support/agent");
const wait_1 = require("../support/wait");
const postgres_1 = require("../support/postgres");
const history_1 = require("../support/history");
const pg = (0, postgres_1.requirePostgres)();
let server;
const stores = [];
(0, node_test_1.after)(async () => {
    await (0, temporal_1.closeTestEnv)();
    await Promise.all(stores.map((s) => s.close().catch(() => undefined)));
    await server?.stop();
});
/** A concurrency-safe tool that marks that it started, and (wait: true) holds until `<dir>/go` exists. */
const GateTool = (0, Tool_1.buildTool)({
    name: 'Gate',
    inputSchema: zod_1.z.strictObject({
        dir: zod_1.z.string(),
        name: zod_1.z.string(),
        wait: zod_1.z.boolean().optional(),
        lines: zod_1.z.number().int().optional(),
    }),
    prompt: () => 'Test tool: marks that it started; optionally waits for a go file; optionally answers with many lines.',
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    // Above this the whole output is saved as a file the model can Read (invariant 7).
    maxResultSizeChars: 2000,
    async call(input, ctx) {
        await (0, promises_1.writeFile)((0, node_path_1.join)(input.dir, `started-${input.name}`), '');
        while (input.wait) {
            if (ctx.abortSignal.aborted)
                throw new Error('aborted');
            try {
                await (0, promises_1.access)((0, node_path_1.join)(input.dir, 'go'));
                break;
            }
            catch {
                await (0, promises_2.setTimeout)(50);
            }
        }
        const more = Array.from({ length: input.lines ?? 0 }, (_, i) => `gate ${input.name} line ${i + 1}`).join('\n');
        return { data: `gate ${input.name} passed${more ? `\n${more}` : ''}` };
    },
    mapToolResultToToolResultBlockParam: (data, id) => ({ type: 'tool_result', tool_use_id: id, content: data }),
});
async function startHost(ctx, identity, storeDir, blobStore) {
    // Its own connection, as on its own host (one process may not register two workers on one connection).
    const connection = await worker_1.NativeConnection.connect({ address: process.env.TEMPORAL_TEST_ADDRESS ?? ctx.env.address });
    const worker = await (0, worker_2.createAgentWorker)({
        connection,
        namespace: ctx.env.namespace ?? 'default',
        taskQueue: ctx.taskQueue,
        storeDir,
        ...(blobStore ? { blobStore } : {}),
        tools: [GateTool],
        anthropic: (0, agent_1.fakeAnthropicFactory)(ctx.fake),
        workflowBundle: await (0, temporal_1.getWorkflowBundle)(worker_2.workflowsPath),
        // A drains its running tool call when it stops (the call completes on A, not on B).
        workerOptions: { identity, stickyQueueScheduleToStartTimeout: '1s', shutdownGraceTime: '60s' },
    });
    return { worker, running: worker.run().finally(() => connection.close()) };
}
/**
 * The scripted session: Read (A), a held Gate (A; with `savedOn`, its large output is saved as a
 * file under A's store root) — switch to B — two Gates, a Read of A's saved output (when given)
 * and an Edit of what A read (B), then text.
 */
function script(ctx, notes, saved) {
    const dir = ctx.workDir;
    ctx.fake.enqueue((0, fakeAnthropic_1.toolUseResponse)([{ id: 'toolu_read_a', name: 'Read', input: { file_path: notes } }]), (0, fakeAnthropic_1.toolUseResponse)([
        { id: 'toolu_hold_a', name: 'Gate', input: { dir, name: 'hold', wait: true, ...(saved ? { lines: 500 } : {}) } },
    ]), (0, fakeAnthropic_1.toolUseResponse)([
        { id: 'toolu_gate_b1', name: 'Gate', input: { dir, name: 'b1' } },
        { id: 'toolu_gate_b2', name: 'Gate', input: { dir, name: 'b2' } },
        ...(saved ? [{ id: 'toolu_read_saved_b', name: 'Read', input: { file_path: saved } }] : []),
        {
            id: 'toolu_edit_b',
            name: 'Edit',
            input: {
                file_path: notes,
                old_string: 'written on no host yet',
                new_string: 'edited on host B after a read on host A',
            },
        },
    ]), (0, fakeAnthropic_1.textResponse)('Done on two hosts.'));
}
/** Runs turns 1-2 on A, then starts B and stops A (A drains the held call); returns B. */
async function switchHosts(ctx, a, startB) {
    await (0, wait_1.waitFor)('the held call to start on host A', async () => (0, promises_1.access)((0, node_path_1.join)(ctx.workDir, 'started-hold')).then(() => true, () => false), 60_000);
    const b = await startB();
    a.worker.shutdown();
    await (0, promises_1.writeFile)((0, node_path_1.join)(ctx.workDir, 'go'), '');
    await a.running;
    return b;
}
async function allToolResults(ctx) {
    const last = ctx.fake.messageRequests().at(-1);
    const out = [];
    for (const m of last?.messages ?? []) {
        if (m.role !== 'user' || typeof m.content === 'string')
            continue;
        for (const b of m.content) {
            if (b.type === 'tool_result')
                out.push({ id: b.tool_use_id, isError: b.is_error === true, text: JSON.stringify(b.content) });
        }
    }
    return out;
}
async function identitiesOf(client, sessionId, turns) {
    const out = {};
    for (let n = 1; n <= turns; n++)
        Object.assign(out, await (0, history_1.toolCallIdentities)(client, `${sessionId}/turn-${n}`));
    return out;
}
(0, node_test_1.test)('integration: two hosts on the shared PostgreSQL store (different store roots) complete a session whose tool calls ran on both', { skip: pg.skip, timeout: 180_000 }, async () => {
    pg.assert();
    server = await (0, postgres_1.startPostgres)();
    const table = `two_hosts_${process.pid}`;
    await (0, agent_1.withAgent)({ noWorker: true }, async (ctx) => {
        const rootA = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-host-a-'));
        const rootB = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-host-b-'));
        const notes = (0, node_path_1.join)(ctx.workDir, 'notes.txt');
        await (0, promises_1.writeFile)(notes, 'written on no host yet\n');
        const sessionId = (0, temporal_1.uniqueWorkflowId)('two-hosts');
        // Where A saves the held call's large output — the path the model is told to Read.
        const saved = (0, node_path_1.join)(rootA, 'results', (0, worker_2.sessionDirName)(sessionId), 'toolu_hold_a.txt');
        script(ctx, notes, saved);
        const shared = () => {
            const s = new postgresBlobStore_1.PostgresBlobStore({ connectionString: server.url, table });
            stores.push(s);
            return s;
        };
        const a = await startHost(ctx, 'host-a', rootA, shared());
        let b;
        try {
            const handle = await ctx.start({
                id: sessionId,
                prompt: 'edit the notes on two hosts',
                tools: ['Read', 'Edit', 'Gate'],
            });
            b = await switchHosts(ctx, a, () => startHost(ctx, 'host-b', rootB, shared()));
            // Host A is gone, and its disk with it: B has only the shared store.
            strict_1.default.match(await (0, promises_1.readFile)(saved, 'utf8'), /^gate hold passed\ngate hold line 1\n/, 'A saved the large output under its own root');
            await (0, promises_1.rm)(rootA, { recursive: true, force: true });
            const result = await handle.result();
            strict_1.default.equal(result.status, 'completed', JSON.stringify(result));
            strict_1.default.equal(result.lastText, 'Done on two hosts.');
            // Every call answered without error — B's Edit found A's Read in the shared read-file state.
            const results = await allToolResults(ctx);
            strict_1.default.deepEqual(results.map((r) => r.id).sort(), [
                'toolu_edit_b',
                'toolu_gate_b1',
                'toolu_gate_b2',
                'toolu_hold_a',
                'toolu_read_a',
                'toolu_read_saved_b',
            ]);
            for (const r of results)
                strict_1.default.equal(r.isError, false, `${r.id}: ${r.text}`);
            // The held call's result reached the model as a preview naming the saved file…
            strict_1.default.match(results.find((r) => r.id === 'toolu_hold_a')?.text ?? '', new RegExp(saved.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
            // …and B's Read of that file found the whole output: recreated from the shared store.
            const readSaved = results.find((r) => r.id === 'toolu_read_saved_b')?.text ?? '';
            strict_1.default.match(readSaved, /gate hold line 1\b/);
            strict_1.default.match(readSaved, /gate hold line 500\b/);
            strict_1.default.equal(await (0, promises_1.readFile)(notes, 'utf8'), 'edited on host B after a read on host A\n');
            // The proof from history: the worker identity that ran each tool call's activity task.
            const who = await identitiesOf(ctx.client, handle.workflowId, 3);
            console.log(`[two-hosts] tool call → worker: ${JSON.stringify(who)}`);
            strict_1.default.equal(who.toolu_read_a, 'host-a');
            strict_1.default.equal(who.toolu_hold_a, 'host-a');
            strict_1.default.equal(who.toolu_gate_b1, 'host-b');
            strict_1.default.equal(who.toolu_gate_b2, 'host-b');
            strict_1.default.equal(who.toolu_edit_b, 'host-b');
            strict_1.default.equal(who.toolu_read_saved_b, 'host-b');
            // Nothing of the session's state went to either host's disk.
            await strict_1.default.rejects((0, promises_1.access)((0, node_path_1.join)(rootB, 'blobs')), `no blobs under ${rootB}`);
        }
        finally {
            if (b) {
                b.worker.shutdown();
                await b.running;
            }
            if (a.worker.getState() === 'RUNNING')
                a.worker.shutdown();
            await a.running.catch(() => undefined);
        }
    });
});
(0, node_test_1.test)('integration: two hosts on their own LOCAL file stores — B cannot read what A stored: the session waits and says why (no tool runs on missing state)', { timeout: 180_000 }, async () => {
    await (0, agent_1.withAgent)({ noWorker: true }, async (ctx) => {
        const rootA = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-host-a-'));
        const rootB = await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-host-b-'));
        const notes = (0, node_path_1.join)(ctx.workDir, 'notes.txt');
        await (0, promises_1.writeFile)(notes, 'written on no host yet\n');
        script(ctx, notes);
        const a = await startHost(ctx, 'host-a', rootA);
        let b;
        const handle = await ctx.start({ prompt: 'edit the notes on two hosts', tools: ['Read', 'Edit', 'Gate'] });
        try {
            b = await switchHosts(ctx, a, () => startHost(ctx, 'host-b', rootB));
            // B misses what A stored (the held call's result, the model's message): the turn waits out a
            // "store outage" whose message names the missing blob, B's local store and the fix.
            const outage = await (0, wait_1.waitFor)('the session to report the missing blob', async () => {
                const s = await (0, client_1.sessionStatus)(ctx.client, handle.workflowId);
                return s.outage && /is missing from the store/.test(s.outage.lastError) ? s.outage : undefined;
            }, 90_000);
            console.log(`[two-hosts] local stores: ${outage.what} outage: ${outage.lastError.slice(0, 400)}`);
            strict_1.default.match(outage.lastError, new RegExp(`files under ${rootB.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/blobs, this host only`));
            strict_1.default.match(outage.lastError, /workers on more than one host need one shared store \(DURABLE_AGENT_STORE=postgres:/);
            // Nothing ran on B on the strength of state it does not have: the Edit never happened.
            await strict_1.default.rejects((0, promises_1.access)((0, node_path_1.join)(ctx.workDir, 'started-b1')));
            strict_1.default.equal(await (0, promises_1.readFile)(notes, 'utf8'), 'written on no host yet\n');
            strict_1.default.ok(ctx.fake.messageRequests().length <= 2, 'no model call after the switch');
        }
        finally {
            await handle.terminate('test over').catch(() => undefined);
            if (b) {
                b.worker.shutdown();
                await b.running;
            }
            if (a.worker.getState() === 'RUNNING')
                a.worker.shutdown();
            await a.running.catch(() => undefined);
        }
    });
});
//# sourceMappingURL=two-hosts.test.js.map