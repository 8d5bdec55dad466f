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
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the pure turn algorithm against a scripted executor (no Temporal, no I/O).
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const context_1 = require("../../src/engine/context");
const partition_1 = require("../../src/engine/partition");
const turn_1 = require("../../src/engine/turn");
const tu = (id, name, input = {}) => ({ type: 'tool_use', id, name, input });
const SAFE = new Set(['Grep', 'Read', 'Glob']);
function fakeExecutor(message, script = {}) {
    const log = [];
    const seenContext = new Map();
    let interrupted = false;
    let inFlight = 0;
    let maxInFlight = 0;
    const exec = {
        async callModel() {
            return { kind: 'message', message, usage: { input_tokens: 1, output_tokens: 1 }, stopReason: 'tool_use' };
        },
        async describe(blocks) {
            return blocks.map((b) => {
                if (b.name === 'Throws')
                    throw new Error('predicate threw');
                return {
                    known: true,
                    concurrencySafe: SAFE.has(b.name),
                    readOnly: SAFE.has(b.name),
                    idempotent: SAFE.has(b.name),
                    summary: b.name,
                };
            });
        },
        async runTool(block, context, _d, approval) {
            if (script.asks?.has(block.id) && !approval)
                return { kind: 'ask', message: 'needs approval' };
            log.push(`start ${block.id}`);
            seenContext.set(block.id, context);
            inFlight++;
            maxInFlight = Math.max(maxInFlight, inFlight);
            await new Promise((r) => setTimeout(r, script.delays?.[block.id] ?? 1));
            inFlight--;
            log.push(`end ${block.id}`);
            if (script.interruptAfter === block.id)
                interrupted = true;
            if (script.throwsOn?.has(block.id))
                throw new Error('boom');
            const denied = approval?.decision === 'deny';
            const record = {
                toolUseId: block.id,
                toolName: block.name,
                input: block.input,
                summary: block.name,
                status: denied ? 'denied' : 'ok',
                result: {
                    type: 'tool_result',
                    tool_use_id: block.id,
                    content: denied ? 'rejected' : `result of ${block.id}`,
                    ...(denied ? { is_error: true } : {}),
                },
                contextModifiers: denied ? [] : (script.modifiers?.[block.id] ?? []),
            };
            return { kind: 'done', record };
        },
        async awaitApproval(block) {
            log.push(`ask ${block.id}`);
            return script.approvals?.[block.id] ?? { decision: 'approve', source: 'human' };
        },
        isInterrupted: () => interrupted,
    };
    return { exec, log, seenContext, maxInFlight: () => maxInFlight, interrupt: () => (interrupted = true) };
}
const assistant = (...blocks) => ({
    role: 'assistant',
    content: [{ type: 'text', text: 'working' }, ...blocks],
});
(0, node_test_1.test)('unit: partition groups adjacent safe calls and isolates the rest', () => {
    const blocks = [
        tu('1', 'Grep'),
        tu('2', 'Read'),
        tu('3', 'Edit'),
        tu('4', 'Grep'),
        tu('5', 'Unknown'),
        tu('6', 'Read'),
        tu('7', 'Glob'),
    ];
    const batches = (0, partition_1.partitionToolCalls)(blocks, (b) => {
        if (b.name === 'Unknown')
            throw new Error('x');
        return SAFE.has(b.name);
    });
    strict_1.default.deepEqual(batches.map((b) => [b.concurrencySafe, b.blocks.map((x) => x.id)]), [
        [true, ['1', '2']],
        [false, ['3']],
        [true, ['4']],
        [false, ['5']],
        [true, ['6', '7']],
    ]);
});
(0, node_test_1.test)('unit: parseMaxConcurrency defaults to 10 and rejects junk', () => {
    strict_1.default.equal((0, partition_1.parseMaxConcurrency)(undefined), 10);
    strict_1.default.equal((0, partition_1.parseMaxConcurrency)('3'), 3);
    strict_1.default.equal((0, partition_1.parseMaxConcurrency)('0'), 10);
    strict_1.default.equal((0, partition_1.parseMaxConcurrency)('abc'), 10);
});
(0, node_test_1.test)('unit: mapWithConcurrency keeps input order and bounds parallelism', async () => {
    let inFlight = 0;
    let max = 0;
    const out = await (0, partition_1.mapWithConcurrency)([30, 5, 20, 1, 10], 2, async (ms, i) => {
        inFlight++;
        max = Math.max(max, inFlight);
        await new Promise((r) => setTimeout(r, ms));
        inFlight--;
        return i;
    });
    strict_1.default.deepEqual(out, [0, 1, 2, 3, 4]);
    strict_1.default.equal(max, 2);
});
(0, node_test_1.test)('unit: [Grep, Read] [Edit] [Grep] runs as 3 batches in order, results in block order', async () => {
    const msg = assistant(tu('g1', 'Grep'), tu('r1', 'Read'), tu('e1', 'Edit'), tu('g2', 'Grep'));
    const f = fakeExecutor(msg, {
        delays: { g1: 30, r1: 5 },
        modifiers: { e1: [{ type: 'fileWritten', path: '/w/a.ts', mtimeMs: 7 }] },
    });
    const out = await (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10 }, f.exec);
    strict_1.default.equal(out.reason, 'tool_use');
    strict_1.default.deepEqual(out.batches, [
        { concurrencySafe: true, toolUseIds: ['g1', 'r1'] },
        { concurrencySafe: false, toolUseIds: ['e1'] },
        { concurrencySafe: true, toolUseIds: ['g2'] },
    ]);
    // g1 and r1 overlap; e1 starts only after both ended; g2 after e1.
    strict_1.default.deepEqual(f.log.slice(0, 2).sort(), ['start g1', 'start r1']);
    strict_1.default.ok(f.log.indexOf('start e1') > f.log.indexOf('end g1'));
    strict_1.default.ok(f.log.indexOf('start g2') > f.log.indexOf('end e1'));
    strict_1.default.equal(f.maxInFlight(), 2);
    // The final Grep sees the edit's context.
    strict_1.default.deepEqual(f.seenContext.get('g2')?.readFiles['/w/a.ts'], { mtimeMs: 7, partial: false });
    strict_1.default.deepEqual(out.records.map((r) => r.toolUseId), ['g1', 'r1', 'e1', 'g2']);
    strict_1.default.ok(out.toolResults && Array.isArray(out.toolResults.content));
    strict_1.default.deepEqual(out.toolResults.content.map((c) => c.tool_use_id), ['g1', 'r1', 'e1', 'g2']);
});
(0, node_test_1.test)('unit: modifiers of a batch finishing in reverse order apply in block order', async () => {
    const msg = assistant(tu('a', 'Read'), tu('b', 'Read'), tu('c', 'Read'));
    const mods = {
        a: [{ type: 'setCwd', cwd: '/a' }],
        b: [{ type: 'setCwd', cwd: '/b' }],
        c: [{ type: 'setCwd', cwd: '/c' }, { type: 'addDirectory', path: '/extra' }],
    };
    const f = fakeExecutor(msg, { delays: { a: 40, b: 20, c: 1 }, modifiers: mods });
    const out = await (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10 }, f.exec);
    strict_1.default.deepEqual(f.log.filter((l) => l.startsWith('end')), ['end c', 'end b', 'end a']);
    // Original order a, b, c: c's setCwd is applied last.
    strict_1.default.equal(out.context.cwd, '/c');
    strict_1.default.deepEqual(out.context.additionalDirectories, ['/extra']);
    // Every call of the batch saw the context from before the batch.
    for (const id of ['a', 'b', 'c'])
        strict_1.default.equal(f.seenContext.get(id)?.cwd, '/w');
});
(0, node_test_1.test)('unit: unknown tool / throwing predicate run alone; a throwing runTool becomes an error result', async () => {
    const msg = assistant(tu('1', 'Read'), tu('2', 'Throws'), tu('3', 'Read'));
    const f = fakeExecutor(msg, { throwsOn: new Set(['3']) });
    const out = await (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10 }, f.exec);
    // describe() threw as a whole: everything is unsafe, one batch each.
    strict_1.default.equal(out.batches.length, 3);
    strict_1.default.ok(out.batches.every((b) => !b.concurrencySafe));
    const r3 = out.records[2];
    strict_1.default.equal(r3?.status, 'error');
    strict_1.default.equal(r3?.result.is_error, true);
    strict_1.default.match(String(r3?.result.content), /^Error calling tool Read: boom/);
});
(0, node_test_1.test)('unit: a recorded tool_use_id is reused from priorRecords, never executed again', async () => {
    const msg = assistant(tu('old', 'Edit'), tu('new', 'Edit'));
    const f = fakeExecutor(msg, { modifiers: { old: [{ type: 'setCwd', cwd: '/twice' }] } });
    const priorRecords = new Map([
        [
            'old',
            {
                toolUseId: 'old',
                toolName: 'Edit',
                input: {},
                summary: 'Edit',
                status: 'ok',
                result: { type: 'tool_result', tool_use_id: 'old', content: 'first run' },
                contextModifiers: [{ type: 'setCwd', cwd: '/twice' }],
            },
        ],
    ]);
    const out = await (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords, maxConcurrency: 10 }, f.exec);
    strict_1.default.ok(!f.log.includes('start old'));
    strict_1.default.ok(f.log.includes('start new'));
    strict_1.default.equal(out.records[0]?.reused, true);
    strict_1.default.equal(out.records[0]?.result.content, 'first run');
    strict_1.default.equal(out.context.cwd, '/w', 'a reused record does not re-apply its modifiers');
});
(0, node_test_1.test)('unit: ask waits for approval; approve runs, deny yields the rejection', async () => {
    const msg = assistant(tu('x', 'Bash'), tu('y', 'Bash'));
    const f = fakeExecutor(msg, {
        asks: new Set(['x', 'y']),
        approvals: { x: { decision: 'approve', source: 'human', by: 'ann' }, y: { decision: 'deny', source: 'human' } },
    });
    const out = await (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10 }, f.exec);
    strict_1.default.deepEqual(f.log, ['ask x', 'start x', 'end x', 'ask y', 'start y', 'end y']);
    strict_1.default.equal(out.records[0]?.status, 'ok');
    strict_1.default.equal(out.records[1]?.status, 'denied');
});
(0, node_test_1.test)('unit: interrupt mid-turn: finished calls keep results, the rest get interruption results', async () => {
    const msg = assistant(tu('r1', 'Read'), tu('b1', 'Bash'), tu('r2', 'Read'));
    const f = fakeExecutor(msg, { interruptAfter: 'r1' });
    const out = await (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10 }, f.exec);
    strict_1.default.equal(out.reason, 'interrupted');
    strict_1.default.equal(out.records.length, 3);
    strict_1.default.equal(out.records[0]?.status, 'ok');
    strict_1.default.equal(out.records[1]?.status, 'interrupted');
    strict_1.default.equal(out.records[2]?.status, 'interrupted');
    strict_1.default.ok(!f.log.includes('start b1'));
    const ids = (out.toolResults?.content).map((c) => [
        c.tool_use_id,
        c.is_error === true,
    ]);
    strict_1.default.deepEqual(ids, [
        ['r1', false],
        ['b1', true],
        ['r2', true],
    ]);
});
(0, node_test_1.test)('unit: interrupt while waiting for approval ends that call as interrupted', async () => {
    const msg = assistant(tu('x', 'Bash'));
    const f = fakeExecutor(msg, { asks: new Set(['x']), approvals: { x: 'interrupted' } });
    const out = await (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10 }, f.exec);
    strict_1.default.equal(out.records[0]?.status, 'interrupted');
    strict_1.default.ok(!f.log.includes('start x'));
});
(0, node_test_1.test)('unit: no tool_use ends the turn with the model stop reason', async () => {
    const f = fakeExecutor({ role: 'assistant', content: [{ type: 'text', text: 'done' }] });
    f.exec.callModel = async () => ({
        kind: 'message',
        message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
        usage: { input_tokens: 3, output_tokens: 4 },
        stopReason: 'end_turn',
    });
    const out = await (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10 }, f.exec);
    strict_1.default.equal(out.reason, 'end_turn');
    strict_1.default.equal(out.toolResults, undefined);
});
(0, node_test_1.test)('unit: in a concurrent batch, a call that will ask holds back the calls after it (not those before it)', async () => {
    const msg = assistant(tu('r1', 'Read'), tu('r2', 'Read'), tu('r3', 'Read'));
    const f = fakeExecutor(msg, { asks: new Set(['r2']), delays: { r1: 30 } });
    const describe = f.exec.describe.bind(f.exec);
    f.exec.describe = async (blocks, ctx) => (await describe(blocks, ctx)).map((d, i) => (blocks[i]?.id === 'r2' ? { ...d, mayAsk: true } : d));
    const out = await (0, turn_1.executeTurn)({ context: (0, context_1.initialContext)('/w'), priorRecords: new Map(), maxConcurrency: 10 }, f.exec);
    strict_1.default.deepEqual(out.batches, [{ concurrencySafe: true, toolUseIds: ['r1', 'r2', 'r3'] }]);
    // r1 runs alongside r2's ask; r3 starts only after r2 was approved and ran.
    strict_1.default.ok(f.log.indexOf('ask r2') < f.log.indexOf('end r1'), JSON.stringify(f.log));
    strict_1.default.ok(f.log.indexOf('start r3') > f.log.indexOf('end r2'), JSON.stringify(f.log));
    strict_1.default.deepEqual(out.records.map((r) => r.status), ['ok', 'ok', 'ok']);
});
(0, node_test_1.test)('unit: askSegments splits after each asking call', async () => {
    const { askSegments } = await Promise.resolve().then(() => __importStar(require('../../src/engine/turn')));
    strict_1.default.deepEqual(askSegments([1, 2, 3, 4, 5], (n) => n === 2 || n === 5), [
        [1, 2],
        [3, 4, 5],
    ]);
    strict_1.default.deepEqual(askSegments([1, 2], () => false), [[1, 2]]);
    strict_1.default.deepEqual(askSegments([], () => true), []);
});
//# sourceMappingURL=engine-turn.test.js.map