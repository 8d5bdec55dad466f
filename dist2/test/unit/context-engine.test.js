"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the pure context-management rules — window, thresholds, the model's view, clearing,
// what survives compaction, where cache breakpoints go, and the model step's compaction loop.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const contextWindow_1 = require("../../src/engine/contextWindow");
const contextView_1 = require("../../src/engine/contextView");
const promptCache_1 = require("../../src/engine/promptCache");
const modelStep_1 = require("../../src/engine/modelStep");
(0, node_test_1.test)('unit: window per model — 200k default, 1M for [1m] ids (with the beta, suffix stripped), settings override', () => {
    strict_1.default.equal((0, contextWindow_1.contextWindowFor)('claude-sonnet-4-5'), 200_000);
    strict_1.default.equal((0, contextWindow_1.contextWindowFor)('claude-sonnet-4-5[1m]'), 1_000_000);
    strict_1.default.equal((0, contextWindow_1.contextWindowFor)('claude-sonnet-4-5[1m]', { disable1mContext: true }), 200_000);
    strict_1.default.equal((0, contextWindow_1.contextWindowFor)('custom', { contextWindow: 64_000 }), 64_000);
    strict_1.default.equal((0, contextWindow_1.apiModelId)('claude-opus-4-1[1m]'), 'claude-opus-4-1');
    strict_1.default.deepEqual((0, contextWindow_1.betasForModel)('claude-opus-4-1[1m]'), ['context-1m-2025-08-07']);
    strict_1.default.deepEqual((0, contextWindow_1.betasForModel)('claude-opus-4-1'), []);
});
(0, node_test_1.test)('unit: auto-compact threshold — window minus min(max output, 20k) minus 13k; the % override only lowers it; the window env caps it', () => {
    strict_1.default.equal((0, contextWindow_1.effectiveContextWindow)('m', 32_000), 180_000);
    strict_1.default.equal((0, contextWindow_1.autoCompactThreshold)('m', 32_000), 167_000);
    strict_1.default.equal((0, contextWindow_1.autoCompactThreshold)('m', 8_192), 200_000 - 8_192 - 13_000);
    strict_1.default.equal((0, contextWindow_1.autoCompactThreshold)('m', 32_000, { autoCompactPct: 50 }), 90_000);
    strict_1.default.equal((0, contextWindow_1.autoCompactThreshold)('m', 32_000, { autoCompactPct: 99 }), 167_000, 'cannot raise it');
    strict_1.default.equal((0, contextWindow_1.autoCompactThreshold)('m', 1_024, { autoCompactWindow: 30_000 }), 30_000 - 1_024 - 13_000);
    strict_1.default.equal((0, contextWindow_1.autoCompactThreshold)('m[1m]', 32_000), 1_000_000 - 20_000 - 13_000);
    // A tiny window never gives a negative threshold.
    strict_1.default.ok((0, contextWindow_1.autoCompactThreshold)('m', 20_000, { autoCompactWindow: 5_000 }) > 0);
    strict_1.default.equal((0, contextWindow_1.clearToolResultsThreshold)('m', 32_000), 83_500);
    strict_1.default.equal((0, contextWindow_1.clearToolResultsThreshold)('m', 32_000, { clearToolResultsAt: 1234 }), 1234);
});
(0, node_test_1.test)('unit: usage and the API error — totals include cache fields; "prompt is too long" is recognised with its numbers', () => {
    strict_1.default.equal((0, contextWindow_1.usageTotal)({ input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 }), 135);
    strict_1.default.deepEqual((0, contextWindow_1.addUsage)({ input_tokens: 1, output_tokens: 2 }, { input_tokens: 3, output_tokens: 4, cache_read_input_tokens: 5 }), {
        input_tokens: 4,
        output_tokens: 6,
        cache_read_input_tokens: 5,
    });
    const msg = '400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 200251 tokens > 200000 maximum"}}';
    strict_1.default.ok((0, contextWindow_1.isPromptTooLong)(msg));
    strict_1.default.deepEqual((0, contextWindow_1.promptTooLongTokens)(msg), { actual: 200251, limit: 200000 });
    strict_1.default.ok(!(0, contextWindow_1.isPromptTooLong)('max_tokens: Field required'));
    strict_1.default.equal((0, contextWindow_1.estimateTokens)('x'.repeat(400)), 100);
});
// A conversation: task, then rounds of (assistant Read + text, user tool_result of `size` chars).
function conversation(rounds, size = 2000) {
    const m = [{ role: 'user', content: 'Read all the files and report.' }];
    for (let i = 1; i <= rounds; i++) {
        m.push({
            role: 'assistant',
            content: [
                { type: 'text', text: `reading ${i}` },
                { type: 'tool_use', id: `t${i}`, name: 'Read', input: { file_path: `/w/f${i}.txt` } },
            ],
        });
        m.push({
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `content of f${i} `.padEnd(size, '.') }],
        });
    }
    return m;
}
(0, node_test_1.test)('unit: clearing keeps the N most recent results whole, stubs older ones (once, in one step) and names where they are stored', () => {
    const full = conversation(10);
    const tokens = (0, contextView_1.tokensInUse)(full, [], contextView_1.INITIAL_VIEW, 500);
    strict_1.default.ok(tokens > 5_000);
    strict_1.default.equal((0, contextView_1.planClearing)(full, contextView_1.INITIAL_VIEW, { tokens, clearAt: tokens + 1, keep: 3, minFree: 0 }), undefined, 'below the threshold nothing is cleared');
    const plan = (0, contextView_1.planClearing)(full, contextView_1.INITIAL_VIEW, { tokens, clearAt: 1000, keep: 3, minFree: 100 });
    strict_1.default.ok(plan);
    strict_1.default.deepEqual(plan.toolUseIds, ['t1', 't2', 't3', 't4', 't5', 't6', 't7']);
    strict_1.default.equal(plan.clearedBefore, 15, 'results up to t7 (message 14) are cleared; t8 (message 16) stays');
    const view = { ...contextView_1.INITIAL_VIEW, clearedBefore: plan.clearedBefore };
    const sent = (0, contextView_1.buildModelView)(full, [], view, (id) => `/store/results/${id}.txt`);
    strict_1.default.equal(sent.length, full.length);
    const text = JSON.stringify(sent);
    strict_1.default.match(text, /Old tool result content cleared.*this Read call \(tool_use_id t1\).*stored at \/store\/results\/t1\.txt/);
    strict_1.default.ok(!text.includes('content of f1 '));
    strict_1.default.ok(text.includes('content of f8 ') && text.includes('content of f10 '));
    strict_1.default.deepEqual(full[2], conversation(10)[2], 'the full transcript is not modified');
    // Already cleared: nothing more until more results pile up; too little to free: no cache break.
    strict_1.default.equal((0, contextView_1.planClearing)(full, view, { tokens, clearAt: 1000, keep: 3, minFree: 100 }), undefined);
    strict_1.default.equal((0, contextView_1.planClearing)(conversation(4, 700), contextView_1.INITIAL_VIEW, { tokens, clearAt: 1000, keep: 3, minFree: 10_000 }), undefined);
    // Short results are left alone (a stub would not be shorter).
    const small = (0, contextView_1.planClearing)(conversation(10, 100), contextView_1.INITIAL_VIEW, { tokens, clearAt: 1000, keep: 3, minFree: 0 });
    strict_1.default.equal(small, undefined);
});
(0, node_test_1.test)('unit: tokens in use = last usage + estimate of what was added since; without usage, an estimate of all', () => {
    const full = conversation(4);
    const view = { ...contextView_1.INITIAL_VIEW, baseline: { tokens: 10_000, messages: 7 } };
    strict_1.default.equal((0, contextView_1.tokensInUse)(full, [], view, 500), 10_000 + (0, contextWindow_1.estimateTokens)(full.slice(7)));
    strict_1.default.equal((0, contextView_1.tokensInUse)(full, [], contextView_1.INITIAL_VIEW, 500), 500 + (0, contextWindow_1.estimateTokens)(full));
});
(0, node_test_1.test)('unit: compaction view — summary first, kept rounds start at an assistant message, nothing kept after a failed attempt', () => {
    const full = conversation(12);
    const from = (0, contextView_1.chooseKeepFrom)(full, contextView_1.INITIAL_VIEW, 1_200);
    strict_1.default.equal(full[from].role, 'assistant');
    strict_1.default.ok(from > 1 && from < full.length);
    strict_1.default.ok((0, contextWindow_1.estimateTokens)(full.slice(from)) <= 1_200);
    strict_1.default.equal((0, contextView_1.chooseKeepFrom)(full, contextView_1.INITIAL_VIEW, 0), full.length);
    strict_1.default.ok((0, contextView_1.chooseKeepFrom)(full, contextView_1.INITIAL_VIEW, 1e9) > 1, 'the first round is always summarised');
    const summary = (0, contextView_1.summaryMessage)({
        task: (0, contextView_1.originalTask)(full),
        summary: '<analysis>x</analysis><summary>did things</summary>',
        files: [{ path: '/w/f12.txt', content: 'abc' }],
        keptRecent: true,
        taskBudget: 100,
        perFileBudget: 100,
    });
    const view = { ...contextView_1.INITIAL_VIEW, fromIndex: from, summaryHead: 'h' };
    const sent = (0, contextView_1.buildModelView)(full, [summary], view);
    strict_1.default.equal(sent[0], summary);
    strict_1.default.equal(sent[1].role, 'assistant');
    const s = summary.content;
    strict_1.default.match(s, /The original task:\nRead all the files and report\./);
    strict_1.default.match(s, /Summary:\ndid things/);
    strict_1.default.ok(!s.includes('<analysis>'));
    strict_1.default.match(s, /Recently read file \/w\/f12\.txt/);
    strict_1.default.deepEqual((0, contextView_1.recentReadPaths)(full, 3), ['/w/f12.txt', '/w/f11.txt', '/w/f10.txt']);
    strict_1.default.equal((0, contextView_1.formatSummary)('plain'), 'plain');
});
(0, node_test_1.test)('unit: the summarizing request merges into a trailing user message; oldest rounds drop when even it is too long', () => {
    const full = conversation(5);
    const req = (0, contextView_1.withCompactionRequest)(full, 'SUMMARISE');
    strict_1.default.equal(req.length, full.length);
    const last = req[req.length - 1];
    strict_1.default.equal(last.role, 'user');
    strict_1.default.deepEqual(last.content.map((b) => b.type), ['tool_result', 'text']);
    const shorter = (0, contextView_1.dropOldestRounds)(full);
    strict_1.default.ok(shorter && shorter.length < full.length);
    strict_1.default.equal(shorter[0].role, 'user');
    strict_1.default.equal(shorter[1].role, 'assistant');
    strict_1.default.equal((0, contextView_1.dropOldestRounds)(conversation(1)), undefined);
});
(0, node_test_1.test)("unit: cache breakpoints — last tool, system, last message and the previous request's last message; at most 4; input untouched", () => {
    const messages = conversation(3);
    const tools = [{ name: 'Read' }, { name: 'Grep' }];
    const shaped = (0, promptCache_1.applyCacheBreakpoints)({ system: 'SYS', tools, messages });
    strict_1.default.deepEqual(shaped.breakpoints, ['tools', 'system', 'message:4', 'message:6']);
    strict_1.default.deepEqual(shaped.tools[1], { name: 'Grep', cache_control: { type: 'ephemeral' } });
    strict_1.default.equal(shaped.tools[0]?.cache_control, undefined);
    strict_1.default.deepEqual(shaped.system, [{ type: 'text', text: 'SYS', cache_control: { type: 'ephemeral' } }]);
    const lastBlock = (shaped.messages[6]?.content)[0];
    strict_1.default.deepEqual(lastBlock?.['cache_control'], { type: 'ephemeral' });
    strict_1.default.equal(JSON.stringify(messages).includes('cache_control'), false);
    const count = JSON.stringify(shaped).match(/cache_control/g)?.length;
    strict_1.default.equal(count, 4);
    // A first request (one string message): it becomes a text block with the breakpoint.
    const first = (0, promptCache_1.applyCacheBreakpoints)({ tools: [], messages: [{ role: 'user', content: 'hi' }] });
    strict_1.default.deepEqual(first.messages[0]?.content, [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }]);
    strict_1.default.deepEqual((0, promptCache_1.messageBreakpoints)([
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [] },
        { role: 'user', content: 'b' },
        { role: 'user', content: 'c' },
    ]), [0, 3]);
    // Thinking blocks never carry one.
    const t = (0, promptCache_1.applyCacheBreakpoints)({
        tools: [],
        messages: [
            { role: 'user', content: 'q' },
            {
                role: 'assistant',
                content: [
                    { type: 'text', text: 'a' },
                    { type: 'thinking', thinking: 'x', signature: 's' },
                ],
            },
        ],
    });
    strict_1.default.deepEqual((t.messages[1]?.content).map((b) => 'cache_control' in b), [true, false]);
    strict_1.default.deepEqual((0, promptCache_1.applyCacheBreakpoints)({ system: 'S', tools, messages }, false).breakpoints, []);
});
function stepExec(script, opts = {}) {
    const log = [];
    const exec = {
        async callModel(view, attempt, o) {
            const next = script.shift();
            log.push(`call#${attempt} auto=${o.autoCompact} compactions=${view.compactions}`);
            if (next === 'message' || next === undefined)
                return { kind: 'message', result: 'answer', view };
            return { kind: 'compact', trigger: next, tokens: 999, view };
        },
        async compact(view, trigger, n, attempt) {
            log.push(`compact-${n} ${trigger} attempt=${attempt}`);
            if (opts.block && trigger === 'auto')
                return { kind: 'blocked', reason: 'not now' };
            const next = { ...view, compactions: n };
            return {
                kind: 'compacted',
                view: next,
                record: {
                    n,
                    turn: 1,
                    trigger,
                    tokensBefore: 999,
                    tokensAfter: 100,
                    summarizedThrough: 3,
                    transcriptLength: 5,
                    summaryPreview: '',
                    restoredFiles: [],
                },
            };
        },
    };
    return { exec, log };
}
(0, node_test_1.test)('unit: model step — auto compaction then the call; a 400 too-long compacts and retries; a blocked auto compaction sends anyway', async () => {
    const a = stepExec(['auto', 'message']);
    const r = await (0, modelStep_1.runModelStep)(a.exec, contextView_1.INITIAL_VIEW);
    strict_1.default.equal(r.kind, 'message');
    strict_1.default.deepEqual(a.log, [
        'call#0 auto=true compactions=0',
        'compact-1 auto attempt=0',
        'call#1 auto=true compactions=1',
    ]);
    strict_1.default.equal(r.kind === 'message' && r.compactions.length, 1);
    const b = stepExec(['reactive', 'reactive', 'message']);
    const rb = await (0, modelStep_1.runModelStep)(b.exec, { ...contextView_1.INITIAL_VIEW, compactions: 4 });
    strict_1.default.deepEqual(b.log, [
        'call#0 auto=true compactions=4',
        'compact-5 reactive attempt=0',
        'call#1 auto=true compactions=5',
        'compact-6 reactive attempt=1',
        'call#2 auto=true compactions=6',
    ]);
    strict_1.default.equal(rb.view.compactions, 6);
    const c = stepExec(['auto', 'message'], { block: true });
    const rc = await (0, modelStep_1.runModelStep)(c.exec, contextView_1.INITIAL_VIEW);
    strict_1.default.deepEqual(c.log, [
        'call#0 auto=true compactions=0',
        'compact-1 auto attempt=0',
        'call#1 auto=false compactions=0',
    ]);
    strict_1.default.match(rc.notices.join(), /blocked auto-compaction: not now/);
    const d = stepExec(['reactive', 'reactive', 'reactive', 'reactive', 'reactive']);
    await strict_1.default.rejects((0, modelStep_1.runModelStep)(d.exec, contextView_1.INITIAL_VIEW), modelStep_1.ContextOverflowError);
});
//# sourceMappingURL=context-engine.test.js.map