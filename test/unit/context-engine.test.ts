// unit: the pure context-management rules — window, thresholds, the model's view, clearing,
// what survives compaction, where cache breakpoints go, and the model step's compaction loop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addUsage,
  apiModelId,
  autoCompactThreshold,
  betasForModel,
  clearToolResultsThreshold,
  contextWindowFor,
  effectiveContextWindow,
  estimateTokens,
  isPromptTooLong,
  promptTooLongTokens,
  usageTotal,
} from '../../src/core/contextWindow';
import {
  buildModelView,
  chooseKeepFrom,
  dropOldestRounds,
  formatSummary,
  INITIAL_VIEW,
  originalTask,
  planClearing,
  recentReadPaths,
  summaryMessage,
  tokensInUse,
  withCompactionRequest,
  type ContextView,
} from '../../src/core/contextView';
import type { Message } from '../../src/core/apiMessages';
import { applyCacheBreakpoints, messageBreakpoints } from '../../src/core/promptCache';
import { ContextOverflowError, runModelStep, type ModelStepExecutor } from '../../src/core/modelStep';

test('unit: window per model — 200k default, 1M for [1m] ids (with the beta, suffix stripped), settings override', () => {
  assert.equal(contextWindowFor('claude-sonnet-4-5'), 200_000);
  assert.equal(contextWindowFor('claude-sonnet-4-5[1m]'), 1_000_000);
  assert.equal(contextWindowFor('claude-sonnet-4-5[1m]', { disable1mContext: true }), 200_000);
  assert.equal(contextWindowFor('custom', { contextWindow: 64_000 }), 64_000);
  assert.equal(apiModelId('claude-opus-4-1[1m]'), 'claude-opus-4-1');
  assert.deepEqual(betasForModel('claude-opus-4-1[1m]'), ['context-1m-2025-08-07']);
  assert.deepEqual(betasForModel('claude-opus-4-1'), []);
});

test('unit: auto-compact threshold — window minus min(max output, 20k) minus 13k; the % override only lowers it; the window env caps it', () => {
  assert.equal(effectiveContextWindow('m', 32_000), 180_000);
  assert.equal(autoCompactThreshold('m', 32_000), 167_000);
  assert.equal(autoCompactThreshold('m', 8_192), 200_000 - 8_192 - 13_000);
  assert.equal(autoCompactThreshold('m', 32_000, { autoCompactPct: 50 }), 90_000);
  assert.equal(autoCompactThreshold('m', 32_000, { autoCompactPct: 99 }), 167_000, 'cannot raise it');
  assert.equal(autoCompactThreshold('m', 1_024, { autoCompactWindow: 30_000 }), 30_000 - 1_024 - 13_000);
  assert.equal(autoCompactThreshold('m[1m]', 32_000), 1_000_000 - 20_000 - 13_000);
  // A tiny window never gives a negative threshold.
  assert.ok(autoCompactThreshold('m', 20_000, { autoCompactWindow: 5_000 }) > 0);
  assert.equal(clearToolResultsThreshold('m', 32_000), 83_500);
  assert.equal(clearToolResultsThreshold('m', 32_000, { clearToolResultsAt: 1234 }), 1234);
});

test('unit: usage and the API error — totals include cache fields; "prompt is too long" is recognised with its numbers', () => {
  assert.equal(
    usageTotal({ input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 }),
    135,
  );
  assert.deepEqual(
    addUsage({ input_tokens: 1, output_tokens: 2 }, { input_tokens: 3, output_tokens: 4, cache_read_input_tokens: 5 }),
    {
      input_tokens: 4,
      output_tokens: 6,
      cache_read_input_tokens: 5,
    },
  );
  const msg =
    '400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 200251 tokens > 200000 maximum"}}';
  assert.ok(isPromptTooLong(msg));
  assert.deepEqual(promptTooLongTokens(msg), { actual: 200251, limit: 200000 });
  assert.ok(!isPromptTooLong('max_tokens: Field required'));
  assert.equal(estimateTokens('x'.repeat(400)), 100);
});

// A conversation: task, then rounds of (assistant Read + text, user tool_result of `size` chars).
function conversation(rounds: number, size = 2000): Message[] {
  const m: Message[] = [{ role: 'user', content: 'Read all the files and report.' }];
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

test('unit: clearing keeps the N most recent results whole, stubs older ones (once, in one step) and names where they are stored', () => {
  const full = conversation(10);
  const tokens = tokensInUse(full, [], INITIAL_VIEW, 500);
  assert.ok(tokens > 5_000);
  assert.equal(
    planClearing(full, INITIAL_VIEW, { tokens, clearAt: tokens + 1, keep: 3, minFree: 0 }),
    undefined,
    'below the threshold nothing is cleared',
  );
  const plan = planClearing(full, INITIAL_VIEW, { tokens, clearAt: 1000, keep: 3, minFree: 100 });
  assert.ok(plan);
  assert.deepEqual(plan.toolUseIds, ['t1', 't2', 't3', 't4', 't5', 't6', 't7']);
  assert.equal(plan.clearedBefore, 15, 'results up to t7 (message 14) are cleared; t8 (message 16) stays');
  const view: ContextView = { ...INITIAL_VIEW, clearedBefore: plan.clearedBefore };
  const sent = buildModelView(full, [], view, (id) => `/store/results/${id}.txt`);
  assert.equal(sent.length, full.length);
  const text = JSON.stringify(sent);
  assert.match(
    text,
    /Old tool result content cleared.*this Read call \(tool_use_id t1\).*stored at \/store\/results\/t1\.txt/,
  );
  assert.ok(!text.includes('content of f1 '));
  assert.ok(text.includes('content of f8 ') && text.includes('content of f10 '));
  assert.deepEqual(full[2], conversation(10)[2], 'the full transcript is not modified');
  // Already cleared: nothing more until more results pile up; too little to free: no cache break.
  assert.equal(planClearing(full, view, { tokens, clearAt: 1000, keep: 3, minFree: 100 }), undefined);
  assert.equal(
    planClearing(conversation(4, 700), INITIAL_VIEW, { tokens, clearAt: 1000, keep: 3, minFree: 10_000 }),
    undefined,
  );
  // Short results are left alone (a stub would not be shorter).
  const small = planClearing(conversation(10, 100), INITIAL_VIEW, { tokens, clearAt: 1000, keep: 3, minFree: 0 });
  assert.equal(small, undefined);
});

test('unit: tokens in use = last usage + estimate of what was added since; without usage, an estimate of all', () => {
  const full = conversation(4);
  const view: ContextView = { ...INITIAL_VIEW, baseline: { tokens: 10_000, messages: 7 } };
  assert.equal(tokensInUse(full, [], view, 500), 10_000 + estimateTokens(full.slice(7)));
  assert.equal(tokensInUse(full, [], INITIAL_VIEW, 500), 500 + estimateTokens(full));
});

test('unit: compaction view — summary first, kept rounds start at an assistant message, nothing kept after a failed attempt', () => {
  const full = conversation(12);
  const from = chooseKeepFrom(full, INITIAL_VIEW, 1_200);
  assert.equal((full[from] as Message).role, 'assistant');
  assert.ok(from > 1 && from < full.length);
  assert.ok(estimateTokens(full.slice(from)) <= 1_200);
  assert.equal(chooseKeepFrom(full, INITIAL_VIEW, 0), full.length);
  assert.ok(chooseKeepFrom(full, INITIAL_VIEW, 1e9) > 1, 'the first round is always summarised');
  const summary = summaryMessage({
    task: originalTask(full),
    summary: '<analysis>x</analysis><summary>did things</summary>',
    files: [{ path: '/w/f12.txt', content: 'abc' }],
    keptRecent: true,
    taskBudget: 100,
    perFileBudget: 100,
  });
  const view: ContextView = { ...INITIAL_VIEW, fromIndex: from, summaryHead: 'h' };
  const sent = buildModelView(full, [summary], view);
  assert.equal(sent[0], summary);
  assert.equal((sent[1] as Message).role, 'assistant');
  const s = summary.content as string;
  assert.match(s, /The original task:\nRead all the files and report\./);
  assert.match(s, /Summary:\ndid things/);
  assert.ok(!s.includes('<analysis>'));
  assert.match(s, /Recently read file \/w\/f12\.txt/);
  assert.deepEqual(recentReadPaths(full, 3), ['/w/f12.txt', '/w/f11.txt', '/w/f10.txt']);
  assert.equal(formatSummary('plain'), 'plain');
});

test('unit: the summarizing request merges into a trailing user message; oldest rounds drop when even it is too long', () => {
  const full = conversation(5);
  const req = withCompactionRequest(full, 'SUMMARISE');
  assert.equal(req.length, full.length);
  const last = req[req.length - 1] as Message;
  assert.equal(last.role, 'user');
  assert.deepEqual(
    (last.content as Array<{ type: string }>).map((b) => b.type),
    ['tool_result', 'text'],
  );
  const shorter = dropOldestRounds(full);
  assert.ok(shorter && shorter.length < full.length);
  assert.equal((shorter[0] as Message).role, 'user');
  assert.equal((shorter[1] as Message).role, 'assistant');
  assert.equal(dropOldestRounds(conversation(1)), undefined);
});

test("unit: cache breakpoints — last tool, system, last message and the previous request's last message; at most 4; input untouched", () => {
  const messages = conversation(3);
  const tools = [{ name: 'Read' }, { name: 'Grep' }];
  const shaped = applyCacheBreakpoints({ system: 'SYS', tools, messages });
  assert.deepEqual(shaped.breakpoints, ['tools', 'system', 'message:4', 'message:6']);
  assert.deepEqual(shaped.tools[1], { name: 'Grep', cache_control: { type: 'ephemeral' } });
  assert.equal(shaped.tools[0]?.cache_control, undefined);
  assert.deepEqual(shaped.system, [{ type: 'text', text: 'SYS', cache_control: { type: 'ephemeral' } }]);
  const lastBlock = (shaped.messages[6]?.content as Array<Record<string, unknown>>)[0];
  assert.deepEqual(lastBlock?.['cache_control'], { type: 'ephemeral' });
  assert.equal(JSON.stringify(messages).includes('cache_control'), false);
  const count = JSON.stringify(shaped).match(/cache_control/g)?.length;
  assert.equal(count, 4);
  // A first request (one string message): it becomes a text block with the breakpoint.
  const first = applyCacheBreakpoints({ tools: [], messages: [{ role: 'user', content: 'hi' }] });
  assert.deepEqual(first.messages[0]?.content, [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }]);
  assert.deepEqual(
    messageBreakpoints([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: [] },
      { role: 'user', content: 'b' },
      { role: 'user', content: 'c' },
    ]),
    [0, 3],
  );
  // Thinking blocks never carry one.
  const t = applyCacheBreakpoints({
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
  assert.deepEqual(
    (t.messages[1]?.content as Array<Record<string, unknown>>).map((b) => 'cache_control' in b),
    [true, false],
  );
  assert.deepEqual(applyCacheBreakpoints({ system: 'S', tools, messages }, false).breakpoints, []);
});

function stepExec(script: Array<'message' | 'auto' | 'reactive'>, opts: { block?: boolean } = {}) {
  const log: string[] = [];
  const exec: ModelStepExecutor<string> = {
    async callModel(view, attempt, o) {
      const next = script.shift();
      log.push(`call#${attempt} auto=${o.autoCompact} compactions=${view.compactions}`);
      if (next === 'message' || next === undefined) return { kind: 'message', result: 'answer', view };
      return { kind: 'compact', trigger: next, tokens: 999, view };
    },
    async compact(view, trigger, n, attempt) {
      log.push(`compact-${n} ${trigger} attempt=${attempt}`);
      if (opts.block && trigger === 'auto') return { kind: 'blocked', reason: 'not now' };
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

test('unit: model step — auto compaction then the call; a 400 too-long compacts and retries; a blocked auto compaction sends anyway', async () => {
  const a = stepExec(['auto', 'message']);
  const r = await runModelStep(a.exec, INITIAL_VIEW);
  assert.equal(r.kind, 'message');
  assert.deepEqual(a.log, [
    'call#0 auto=true compactions=0',
    'compact-1 auto attempt=0',
    'call#1 auto=true compactions=1',
  ]);
  assert.equal(r.kind === 'message' && r.compactions.length, 1);

  const b = stepExec(['reactive', 'reactive', 'message']);
  const rb = await runModelStep(b.exec, { ...INITIAL_VIEW, compactions: 4 });
  assert.deepEqual(b.log, [
    'call#0 auto=true compactions=4',
    'compact-5 reactive attempt=0',
    'call#1 auto=true compactions=5',
    'compact-6 reactive attempt=1',
    'call#2 auto=true compactions=6',
  ]);
  assert.equal(rb.view.compactions, 6);

  const c = stepExec(['auto', 'message'], { block: true });
  const rc = await runModelStep(c.exec, INITIAL_VIEW);
  assert.deepEqual(c.log, [
    'call#0 auto=true compactions=0',
    'compact-1 auto attempt=0',
    'call#1 auto=false compactions=0',
  ]);
  assert.match(rc.notices.join(), /blocked auto-compaction: not now/);

  const d = stepExec(['reactive', 'reactive', 'reactive', 'reactive', 'reactive']);
  await assert.rejects(runModelStep(d.exec, INITIAL_VIEW), ContextOverflowError);
});
