"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: streaming tool execution (engine/streaming.ts) against a scripted executor: which blocks
// start while the message streams, barriers, approvals, the concurrency cap, and the fallback's
// reuse-or-discard by tool_use_id, through the same executeTurn both schedulers run.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const context_1 = require("../../src/engine/context");
const streaming_1 = require("../../src/engine/streaming");
const turn_1 = require("../../src/engine/turn");
const tu = (id, name, input = {}) => ({ type: 'tool_use', id, name, input });
const SAFE = new Set(['Read', 'Grep', 'Glob', 'Count']);
const tick = (ms = 1) => new Promise((r) => setTimeout(r, ms));
/** Waits (polling) until cond holds; fails after 10 s so a broken cap cannot hang the test. */
async function until(cond) {
    const deadline = Date.now() + 10_000;
    while (!cond()) {
        if (Date.now() > deadline)
            throw new Error('condition not reached within 10 s');
        await tick(2);
    }
}
function describeOne(b, asks) {
    const known = b.name !== 'Unknown';
    // Bash is safe for some inputs only (safety is decided per input, as the reference does).
    const safe = SAFE.has(b.name) || (b.name === 'Bash' && b.input.command === 'ls');
    return {
        known,
        concurrencySafe: known && safe,
        readOnly: safe,
        idempotent: safe,
        summary: `${b.name} ${b.id}`,
        ...(asks.has(b.id) ? { mayAsk: true } : {}),
    };
}
function harness(opts = {}) {
    const log = [];
    const runs = new Map();
    const cancelled = [];
    const asks = opts.asks ?? new Set();
    let interrupted = false;
    let answer = () => undefined;
    const answered = new Promise((r) => (answer = r));
    const call = (block, signal, approval) => (async () => {
        if (opts.hookAsks?.has(block.id) && !approval)
            return { kind: 'ask', message: 'a hook asks' };
        runs.set(block.id, (runs.get(block.id) ?? 0) + 1);
        log.push(`start ${block.id}`);
        const until = Date.now() + (opts.delays?.[block.id] ?? 1);
        let open = opts.gates?.[block.id] === undefined;
        void opts.gates?.[block.id]?.then(() => (open = true));
        while (Date.now() < until || !open) {
            if (signal.aborted) {
                log.push(`cancelled ${block.id}`);
                cancelled.push(block.id);
                throw new Error('cancelled');
            }
            await tick(2);
        }
        log.push(`end ${block.id}`);
        const record = {
            toolUseId: block.id,
            toolName: block.name,
            input: block.input,
            summary: block.name,
            status: 'ok',
            result: { type: 'tool_result', tool_use_id: block.id, content: `result of ${block.id}` },
            contextModifiers: opts.modifiers?.[block.id] ?? [],
        };
        return { kind: 'done', record };
    })();
    const streamingExec = {
        async describeStreamed(items) {
            log.push(`describe ${items.map((i) => i.block.id).join(',')}`);
            return items.map((i) => describeOne(i.block, asks));
        },
        startStreamed(item) {
            const signal = { aborted: false };
            return { result: call(item.block, signal), cancel: () => (signal.aborted = true) };
        },
        isInterrupted: () => interrupted,
    };
    const streaming = new streaming_1.StreamingToolExecution({
        context: (0, context_1.initialContext)('/w'),
        maxConcurrency: opts.max ?? 10,
        ...(opts.ledger ? { priorRecords: opts.ledger } : {}),
    }, streamingExec);
    const exec = {
        callModel: () => answered,
        async describe(blocks) {
            log.push(`describe-final ${blocks.map((b) => b.id).join(',')}`);
            return blocks.map((b) => describeOne(b, asks));
        },
        runTool: (block, _ctx, _d, approval) => call(block, { aborted: false }, approval),
        async awaitApproval(block) {
            log.push(`ask ${block.id}`);
            return { decision: 'approve', source: 'human' };
        },
        isInterrupted: () => interrupted,
    };
    return {
        exec,
        streaming,
        log,
        runs,
        cancelled,
        stream: (s, index, block) => streaming.add({ stream: s, index, block, messageRef: null }),
        answer: (r) => answer(r),
        interrupt: () => {
            interrupted = true;
            answer({ kind: 'interrupted' });
        },
    };
}
const message = (...blocks) => ({
    kind: 'message',
    message: { role: 'assistant', content: [{ type: 'text', text: 'x' }, ...blocks] },
    usage: { input_tokens: 1, output_tokens: 1 },
    stopReason: 'tool_use',
});
(0, node_test_1.test)('unit: earlyStartable — a safe prefix starts, an unsafe, undecided or asking block is a barrier, the cap holds', () => {
    const d = (safe, extra = {}) => ({
        known: true,
        concurrencySafe: safe,
        readOnly: safe,
        idempotent: safe,
        summary: '',
        ...extra,
    });
    strict_1.default.deepEqual((0, streaming_1.earlyStartable)([
        { id: 'a', description: d(true), started: false },
        { id: 'b', description: d(true), started: false },
    ], 0, 10), [0, 1]);
    strict_1.default.deepEqual((0, streaming_1.earlyStartable)([
        { id: 'a', description: d(true), started: false },
        { id: 'w', description: d(false), started: false },
        { id: 'c', description: d(true), started: false },
    ], 0, 10), [0]);
    strict_1.default.deepEqual((0, streaming_1.earlyStartable)([
        { id: 'a', started: false },
        { id: 'b', description: d(true), started: false },
    ], 0, 10), [], 'an undescribed block holds back the rest');
    strict_1.default.deepEqual((0, streaming_1.earlyStartable)([
        { id: 'a', description: d(true, { mayAsk: true }), started: false },
        { id: 'b', description: d(true), started: false },
    ], 0, 10), [], 'a call that asks does not start early, nor anything after it');
    strict_1.default.deepEqual((0, streaming_1.earlyStartable)([
        { id: 'a', description: d(true), started: true },
        { id: 'b', description: d(true), started: false },
    ], 0, 10), [1]);
    strict_1.default.deepEqual((0, streaming_1.earlyStartable)([
        { id: 'a', description: d(true), started: false },
        { id: 'b', description: d(true), started: false },
    ], 1, 2), [0], 'the concurrency cap counts running early calls');
    strict_1.default.deepEqual((0, streaming_1.earlyStartable)([{ id: 'a', description: { ...d(true), known: false }, started: false }], 0, 10), [], 'an unknown tool never starts early');
    strict_1.default.deepEqual((0, streaming_1.earlyStartable)([
        { id: 'g', description: d(true), started: false, deferred: true },
        { id: 'b', description: d(true), started: false },
    ], 0, 10), [1], 'a deferred safe call is not a barrier');
});
(0, node_test_1.test)('unit: a safe block starts while the message streams; an unsafe block after it waits for the message', async () => {
    const h = harness({ delays: { r1: 30 } });
    const turn = (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming }, h.exec);
    h.stream('model-1#1', 1, tu('r1', 'Read', { file_path: '/a' }));
    await tick(10);
    strict_1.default.ok(h.log.includes('start r1'), `Read started before the message was complete: ${h.log.join(' | ')}`);
    h.stream('model-1#1', 2, tu('w1', 'Write'));
    h.stream('model-1#1', 3, tu('g1', 'Grep'));
    await tick(10);
    strict_1.default.ok(!h.log.includes('start w1') && !h.log.includes('start g1'), `nothing after the unsafe Write starts early: ${h.log.join(' | ')}`);
    h.answer(message(tu('r1', 'Read', { file_path: '/a' }), tu('w1', 'Write'), tu('g1', 'Grep')));
    const out = await turn;
    strict_1.default.deepEqual(out.records.map((r) => [r.toolUseId, r.status, r.early ?? false]), [
        ['r1', 'ok', true],
        ['w1', 'ok', false],
        ['g1', 'ok', false],
    ]);
    strict_1.default.equal(h.runs.get('r1'), 1, 'the early Read ran once');
    strict_1.default.ok(h.log.indexOf('end r1') < h.log.indexOf('start w1'), 'the Write runs alone, after the Read');
    strict_1.default.ok(!h.log.some((l) => l.startsWith('describe-final')), `every block was described while streaming: ${h.log.join(' | ')}`);
    strict_1.default.equal(out.discarded, undefined);
});
(0, node_test_1.test)('unit: safety is per input — Bash "ls" starts early, another command is a barrier', async () => {
    const h = harness();
    const turn = (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming }, h.exec);
    h.stream('s#1', 0, tu('b1', 'Bash', { command: 'ls' }));
    h.stream('s#1', 1, tu('b2', 'Bash', { command: 'rm -rf x' }));
    h.stream('s#1', 2, tu('r1', 'Read'));
    await tick(15);
    strict_1.default.deepEqual(h.streaming.startedIds(), ['b1']);
    h.answer(message(tu('b1', 'Bash', { command: 'ls' }), tu('b2', 'Bash', { command: 'rm -rf x' }), tu('r1', 'Read')));
    const out = await turn;
    strict_1.default.deepEqual(out.records.map((r) => r.early ?? false), [true, false, false]);
});
(0, node_test_1.test)('unit: a call that will ask does not start early and holds back the calls after it; approvals work as without streaming', async () => {
    const h = harness({ asks: new Set(['r2']), hookAsks: new Set(['r2']) });
    const turn = (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming }, h.exec);
    h.stream('s#1', 0, tu('r1', 'Read'));
    h.stream('s#1', 1, tu('r2', 'Read'));
    h.stream('s#1', 2, tu('r3', 'Read'));
    await tick(15);
    strict_1.default.deepEqual(h.streaming.startedIds(), ['r1']);
    strict_1.default.ok(!h.log.some((l) => l.startsWith('ask')), 'no approval is asked for while streaming');
    h.answer(message(tu('r1', 'Read'), tu('r2', 'Read'), tu('r3', 'Read')));
    const out = await turn;
    strict_1.default.deepEqual(out.records.map((r) => r.status), ['ok', 'ok', 'ok']);
    strict_1.default.equal(h.log.filter((l) => l === 'ask r2').length, 1);
});
(0, node_test_1.test)('unit: an early call a hook turns into an ask waits for its approval in the tool phase', async () => {
    const h = harness({ hookAsks: new Set(['r1']) });
    const turn = (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming }, h.exec);
    h.stream('s#1', 0, tu('r1', 'Read'));
    await tick(10);
    strict_1.default.ok(!h.log.includes('ask r1'), 'no approval while streaming');
    h.answer(message(tu('r1', 'Read')));
    const out = await turn;
    strict_1.default.ok(h.log.includes('ask r1'));
    strict_1.default.equal(out.records[0]?.status, 'ok');
    strict_1.default.equal(h.runs.get('r1'), 1);
});
(0, node_test_1.test)('unit: the concurrency cap bounds early starts; queued safe calls start as slots free up', async () => {
    // Gates, not delays: a and b run until the test lets them end, so a loaded machine cannot end them early.
    let releaseA = () => undefined;
    let releaseB = () => undefined;
    const gates = { a: new Promise((r) => (releaseA = r)), b: new Promise((r) => (releaseB = r)) };
    const h = harness({ max: 2, gates });
    const turn = (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 2, streaming: h.streaming }, h.exec);
    for (const [i, id] of ['a', 'b', 'c'].entries())
        h.stream('s#1', i, tu(id, 'Read'));
    await until(() => h.streaming.startedIds().length >= 2);
    await tick(20);
    strict_1.default.deepEqual(h.streaming.startedIds(), ['a', 'b'], 'the cap holds c back while a and b run');
    releaseA();
    await until(() => h.streaming.startedIds().length >= 3);
    strict_1.default.deepEqual(h.streaming.startedIds(), ['a', 'b', 'c'], 'c started early once a slot freed');
    releaseB();
    h.answer(message(tu('a', 'Read'), tu('b', 'Read'), tu('c', 'Read')));
    const out = await turn;
    strict_1.default.deepEqual(out.records.map((r) => r.early), [true, true, true]);
});
(0, node_test_1.test)('unit: fallback — an early call whose id the final message repeats is reused, one it dropped is discarded (cancelled, never sent)', async () => {
    const h = harness({ delays: { keep: 5, gone: 200 } });
    const turn = (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming }, h.exec);
    h.stream('model-1#1', 0, tu('keep', 'Count'));
    h.stream('model-1#1', 1, tu('gone', 'Count'));
    await tick(20);
    // The stream failed; the non-streamed retry answers with `keep` and a new block.
    h.answer(message(tu('keep', 'Count'), tu('new', 'Read')));
    const out = await turn;
    strict_1.default.equal(h.runs.get('keep'), 1, 'the repeated id was not run again');
    strict_1.default.deepEqual(out.records.map((r) => r.toolUseId), ['keep', 'new']);
    strict_1.default.equal(out.records[0]?.early, true);
    strict_1.default.deepEqual(out.discarded?.map((d) => [d.toolUseId, d.state]), [['gone', 'cancelled']]);
    strict_1.default.match(out.discarded?.[0]?.reason ?? '', /not in the final message/);
    strict_1.default.ok(!out.toolResults?.content.some((b) => b.tool_use_id === 'gone'), 'the discarded result never reaches the model');
    strict_1.default.deepEqual(h.cancelled, ['gone']);
    strict_1.default.ok(h.log.indexOf('cancelled gone') < h.log.indexOf('start new'), 'the discarded call stopped before the tool phase ran');
});
(0, node_test_1.test)('unit: a completed discarded call is reported as completed; a retried stream does not start the same id twice', async () => {
    const h = harness();
    const turn = (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming }, h.exec);
    h.stream('model-1#1', 0, tu('x', 'Count'));
    h.stream('model-1#1', 0, tu('x', 'Count')); // a repeated signal
    await tick(15);
    // An outage: the next model activity streams the same id again.
    h.stream('model-1-attempt-2#1', 0, tu('x', 'Count'));
    h.stream('model-1-attempt-2#1', 1, tu('y', 'Count'));
    await tick(15);
    h.answer(message(tu('y', 'Count')));
    const out = await turn;
    strict_1.default.equal(h.runs.get('x'), 1);
    strict_1.default.equal(h.runs.get('y'), 1);
    strict_1.default.deepEqual(out.discarded?.map((d) => [d.toolUseId, d.state, d.stream]), [['x', 'completed', 'model-1#1']]);
    strict_1.default.equal(out.records[0]?.early, true);
});
(0, node_test_1.test)('unit: modifiers of early calls apply in block order, whatever finished first', async () => {
    // a ends only after b has ended (a gate, not a race of delays: under load a delay proves nothing).
    let releaseA = () => undefined;
    const aGate = new Promise((r) => (releaseA = r));
    const h = harness({
        gates: { a: aGate },
        modifiers: {
            a: [{ type: 'setCwd', cwd: '/w/a' }],
            b: [{ type: 'setCwd', cwd: '/w/b' }],
        },
    });
    const poll = setInterval(() => {
        if (h.log.includes('end b')) {
            clearInterval(poll);
            releaseA();
        }
    }, 1);
    const turn = (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming }, h.exec);
    h.stream('s#1', 0, tu('a', 'Read'));
    h.stream('s#1', 1, tu('b', 'Read'));
    await tick(5);
    h.answer(message(tu('a', 'Read'), tu('b', 'Read')));
    const out = await turn;
    strict_1.default.ok(h.log.indexOf('end b') < h.log.indexOf('end a'), 'b finished first');
    strict_1.default.equal(out.context.cwd, '/w/b', 'b applies last because it comes last');
});
(0, node_test_1.test)('unit: an interrupt while streaming discards the early calls; nothing else runs', async () => {
    const h = harness({ delays: { a: 300 } });
    const turn = (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming }, h.exec);
    h.stream('s#1', 0, tu('a', 'Read'));
    await tick(10);
    h.interrupt();
    const out = await turn;
    strict_1.default.equal(out.reason, 'interrupted');
    strict_1.default.deepEqual(out.discarded?.map((d) => [d.toolUseId, d.state]), [['a', 'cancelled']]);
    h.stream('s#1', 1, tu('late', 'Read'));
    strict_1.default.deepEqual(h.streaming.late.map((l) => l.block.id), ['late'], 'a block after the end is never started');
});
(0, node_test_1.test)('unit: an id the ledger holds is not started early (it is reused from the ledger)', async () => {
    const rec = {
        toolUseId: 'old',
        toolName: 'Read',
        input: {},
        summary: 'Read',
        status: 'ok',
        result: { type: 'tool_result', tool_use_id: 'old', content: 'before' },
        contextModifiers: [],
    };
    const h = harness({ ledger: new Map([['old', rec]]) });
    const turn = (0, turn_1.executeTurn)({
        context: (0, context_1.initialContext)('/w'),
        priorRecords: new Map([['old', rec]]),
        maxConcurrency: 10,
        streaming: h.streaming,
    }, h.exec);
    h.stream('s#1', 0, tu('old', 'Read'));
    h.stream('s#1', 1, tu('r', 'Read'));
    await tick(15);
    strict_1.default.deepEqual(h.streaming.startedIds(), ['r']);
    h.answer(message(tu('old', 'Read'), tu('r', 'Read')));
    const out = await turn;
    strict_1.default.equal(out.records[0]?.reused, true);
    strict_1.default.equal(h.runs.get('old'), undefined);
});
(0, node_test_1.test)('unit: signals after the answer (any order relative to the completion) change nothing', async () => {
    const h = harness();
    const turn = (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10, streaming: h.streaming }, h.exec);
    h.answer(message(tu('a', 'Read'), tu('b', 'Read')));
    await tick(1);
    h.stream('s#1', 0, tu('a', 'Read'));
    const out = await turn;
    strict_1.default.deepEqual(out.records.map((r) => [r.toolUseId, r.early ?? false]), [
        ['a', false],
        ['b', false],
    ]);
    strict_1.default.equal(h.runs.get('a'), 1);
});
//# sourceMappingURL=engine-streaming.test.js.map