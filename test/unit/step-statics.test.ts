// unit: a turn child's static step inputs by reference (issue 33, core/stepStatics.ts): what the turn
// sends a model call and a tool call once it knows the key of the stored inputs, and when it must
// send them inline again. And the tool record's input left out of history and put back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StepStaticsMemo, splitStatics } from '../../src/core/stepStatics';
import {
  modelAnswerForHistory,
  modelAnswerFromHistory,
  recordWithoutSentBlock,
  turnResultForHistory,
  turnResultFromHistory,
  withSentBlock,
} from '../../src/core/payloads';
import type { ToolCallRecord } from '../../src/core/toolRecords';
import type { ToolUseBlock } from '../../src/core/apiMessages';

const session = { sessionId: 's', settingsRef: 'toolsettings-1', mode: 'default', workingDirectories: ['/w'] };
const context = { cwd: '/w', additionalDirectories: [], readFiles: {}, timeZone: 'UTC' };
const call = (head: string, ctx: object = context) => ({
  sessionId: 's',
  turn: 2,
  head,
  settings: { model: 'm', maxTokens: 10 },
  settingsRef: 'toolsettings-1',
  denyRules: [],
  streamToolUses: true,
  describeWith: { session, context: ctx },
});

test('unit step-statics: split keeps the dynamic fields and the model settings out of the blob', () => {
  const { statics, rest } = splitStatics(call('h1'));
  assert.deepEqual(Object.keys(statics).sort(), ['denyRules', 'describeWith', 'settingsRef', 'streamToolUses']);
  assert.deepEqual(Object.keys(rest).sort(), ['head', 'sessionId', 'settings', 'turn']);
});

test('unit step-statics: inline until a key is learnt, then the key for the same statics only', () => {
  const memo = new StepStaticsMemo();
  assert.deepEqual(memo.modelInput(call('h1')), call('h1'));
  assert.equal(memo.toolRef(session, context), undefined, 'no key before the call answers');
  memo.learn('stepstatics-a');
  const second = memo.modelInput(call('h2')) as Record<string, unknown>;
  assert.equal(second.staticsRef, 'stepstatics-a');
  assert.equal(second.head, 'h2');
  assert.equal(second.describeWith, undefined);
  assert.equal(second.settingsRef, undefined);
  assert.deepEqual(second.settings, { model: 'm', maxTokens: 10 });
  // A tool call with the blob's session and context (equal, not the same object) gets the key.
  assert.equal(memo.toolRef({ ...session }, { ...context }), 'stepstatics-a');
  // A context an earlier batch changed is sent inline.
  assert.equal(memo.toolRef(session, { ...context, cwd: '/w/sub' }), undefined);
  // Statics that changed (a new cwd for the next step) go inline again, and their new key is learnt.
  const moved = { ...context, cwd: '/w/sub' };
  assert.deepEqual(memo.modelInput(call('h3', moved)), call('h3', moved));
  assert.equal(memo.toolRef(session, moved), undefined);
  memo.learn('stepstatics-b');
  assert.equal(memo.toolRef(session, moved), 'stepstatics-b');
  assert.equal((memo.modelInput(call('h4', moved)) as { staticsRef?: string }).staticsRef, 'stepstatics-b');
  // An answer without a key (an older worker) leaves the turn sending them inline.
  const old = new StepStaticsMemo();
  old.modelInput(call('h1'));
  old.learn(undefined);
  assert.deepEqual(old.modelInput(call('h2')), call('h2'));
});

test('unit step-statics: a tool record leaves out what the turn sent and described; the turn puts it back', () => {
  const block: ToolUseBlock = { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/w/a' } };
  const record: ToolCallRecord = {
    toolUseId: 'toolu_1',
    toolName: 'Read',
    input: { file_path: '/w/a' },
    summary: 'Read /w/a',
    status: 'ok',
    result: { type: 'tool_result', tool_use_id: 'toolu_1', content: 'preview' },
    contextModifiers: [
      { type: 'fileRead', path: '/w/a', mtimeMs: 5, partial: false },
      { type: 'fileRead', path: '/w/other', mtimeMs: 6, partial: true },
    ],
    attempts: 1,
    resultRef: 'toolresult-1',
  };
  const slim = recordWithoutSentBlock(record, block);
  assert.deepEqual(Object.keys(slim).sort(), ['contextModifiers', 'result', 'resultRef', 'status']);
  assert.deepEqual(slim.result, { content: 'preview' });
  // One attempt, the block's own path and a whole read are left out (issue 33); another read is kept whole.
  assert.deepEqual(slim.contextModifiers, [
    { type: 'fileRead', mtimeMs: 5 },
    { type: 'fileRead', path: '/w/other', mtimeMs: 6, partial: true },
  ]);
  assert.equal(recordWithoutSentBlock({ ...record, attempts: 2 }, block).attempts, 2);
  assert.deepEqual(withSentBlock(slim, block, 'Read /w/a'), record);
  // A different input (the pipeline changed it) or tool name stays; so does an inline result's id.
  const other = recordWithoutSentBlock(record, { ...block, input: { file_path: '/w/b' } });
  assert.deepEqual(other.input, { file_path: '/w/a' });
  assert.equal(recordWithoutSentBlock(record, { ...block, name: 'Other' }).toolName, 'Read');
  const inline = recordWithoutSentBlock({ ...record, resultRef: undefined }, block);
  assert.equal(inline.result.tool_use_id, 'toolu_1');
  assert.equal(inline.result.type, 'tool_result');
  // A record of another block passes through whole.
  assert.equal(recordWithoutSentBlock(record, { ...block, id: 'toolu_2' }), record);
  // A record recorded before passes through whole; one of the first lean records (no input, no preview id) is completed.
  assert.equal(withSentBlock(record, block, 'other summary'), record);
  const { input: _i, ...earlier } = record;
  const first = { ...earlier, result: { type: 'tool_result', content: 'preview' } } as unknown as ToolCallRecord;
  const restored = withSentBlock(first, block, 'x');
  assert.deepEqual(restored, record);
});

test('unit step-statics: a model answer leaves out the usage its modelUsage holds and empty fallback fields; the turn puts them back', () => {
  const whole = {
    kind: 'message' as const,
    usage: { input_tokens: 3, output_tokens: 5, cache_creation_input_tokens: 7, cache_read_input_tokens: 11 },
    modelUsage: {
      m: {
        inputTokens: 3,
        outputTokens: 5,
        cacheReadInputTokens: 11,
        cacheCreationInputTokens: 7,
        webSearchRequests: 0,
        costUSD: null,
        calls: 1,
      },
    },
    fallback: false,
    tombstones: [] as unknown[],
    head: 'h',
  };
  const lean = modelAnswerForHistory(whole);
  assert.deepEqual(Object.keys(lean).sort(), ['head', 'kind', 'modelUsage']);
  assert.deepEqual(modelAnswerFromHistory(lean), whole);
  // Usage that modelUsage does not give back exactly (a field the API left out, continuations summed) stays.
  const partial = { ...whole, usage: { input_tokens: 3, output_tokens: 5 } };
  assert.deepEqual(modelAnswerForHistory(partial).usage, partial.usage);
  const summed = { ...whole, usage: { ...whole.usage, output_tokens: 9 } };
  assert.deepEqual(modelAnswerFromHistory(modelAnswerForHistory(summed)), summed);
  // A fallback and its tombstones stay; an answer recorded whole passes through.
  const fell = { ...whole, fallback: true, tombstones: [{ attempt: 1 }] };
  assert.deepEqual(modelAnswerForHistory(fell).tombstones, [{ attempt: 1 }]);
  assert.equal(modelAnswerForHistory(fell).fallback, true);
  assert.equal(modelAnswerFromHistory(whole), whole);
});

test('unit step-statics: an answer leaves out its view and usage start values, true description flags, positional ids, cache breakpoints and sent head; the turn puts back what it reads', () => {
  const d = (id: string, safe = true) => ({
    known: true,
    concurrencySafe: safe,
    readOnly: true,
    idempotent: true,
    summary: `Read ${id}`,
    toolUseId: id,
  });
  const whole = {
    kind: 'message' as const,
    message: {
      role: 'assistant' as const,
      content: [
        { type: 'tool_use' as const, id: 'a', name: 'Read', input: {} },
        { type: 'tool_use' as const, id: 'b', name: 'Read', input: {} },
      ],
    },
    usage: { input_tokens: 0, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 11 },
    modelUsage: {
      m: {
        inputTokens: 0,
        outputTokens: 5,
        cacheReadInputTokens: 11,
        cacheCreationInputTokens: 0,
        webSearchRequests: 0,
        costUSD: null,
        calls: 1,
      },
    },
    view: { fromIndex: 0, summaryHead: null, clearedBefore: 0, baseline: { tokens: 9, messages: 2 }, compactions: 0 },
    descriptions: [d('a'), d('b', false)],
    fallback: false,
    tombstones: [] as unknown[],
    head: 'h',
  };
  const lean = modelAnswerForHistory({ ...whole, cacheBreakpoints: ['tools'], sentHead: 's' });
  assert.deepEqual(lean.view, { baseline: { tokens: 9, messages: 2 } });
  assert.deepEqual(lean.modelUsage, { m: { outputTokens: 5, cacheReadInputTokens: 11 } });
  assert.deepEqual(lean.descriptions, [{ summary: 'Read a' }, { concurrencySafe: false, summary: 'Read b' }]);
  assert.ok(!('cacheBreakpoints' in lean) && !('sentHead' in lean));
  assert.deepEqual(modelAnswerFromHistory(lean), whole);
  // Descriptions of only some blocks (others handed over while streaming) keep their ids.
  const some = modelAnswerForHistory({ ...whole, descriptions: [d('b')] });
  assert.deepEqual(some.descriptions, [{ summary: 'Read b', toolUseId: 'b' }]);
  assert.deepEqual(modelAnswerFromHistory(some).descriptions, [d('b')]);
});

test('unit step-statics: a turn result leaves out the records that only say ok of a batched call; the session puts them back', () => {
  const result = {
    records: [
      { toolUseId: 'a', status: 'ok' },
      { toolUseId: 'b', status: 'ok', early: true },
      { toolUseId: 'c', status: 'error', toolName: 'Read' },
      { toolUseId: 'x', status: 'ok' },
    ],
    batches: [
      { concurrencySafe: true, toolUseIds: ['a', 'b'] },
      { concurrencySafe: false, toolUseIds: ['c'] },
    ],
  };
  const lean = turnResultForHistory(result);
  assert.deepEqual(
    lean.records.map((r) => r.toolUseId),
    ['b', 'c', 'x'],
  );
  assert.equal((lean as { plainOk?: true }).plainOk, true);
  assert.deepEqual(turnResultFromHistory(lean), result);
  // Nothing to leave out: the result as it was; one recorded whole passes through.
  const none = { records: [{ toolUseId: 'c', status: 'error' }], batches: [{ toolUseIds: ['c'] }] };
  assert.equal(turnResultForHistory(none), none);
  assert.equal(turnResultFromHistory(result), result);
});

test("unit step-statics: a decision by the session's mode leaves out the mode's name; the turn and the audit put it back", () => {
  const block: ToolUseBlock = { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/w/a' } };
  const record: ToolCallRecord = {
    toolUseId: 'toolu_1',
    toolName: 'Read',
    input: { file_path: '/w/a' },
    summary: 'Read /w/a',
    status: 'ok',
    result: { type: 'tool_result', tool_use_id: 'toolu_1', content: 'preview' },
    contextModifiers: [],
    attempts: 1,
    decision: { behavior: 'allow', source: 'mode', detail: 'bypassPermissions' },
  };
  const slim = recordWithoutSentBlock(record, block, 'bypassPermissions');
  assert.deepEqual(slim.decision, { behavior: 'allow', source: 'mode' });
  assert.deepEqual(withSentBlock(slim, block, 'Read /w/a', 'bypassPermissions'), record);
  // Another mode's decision, or one by a rule, keeps its detail.
  assert.deepEqual(recordWithoutSentBlock(record, block, 'default').decision, record.decision);
  const byRule = { ...record, decision: { behavior: 'allow' as const, source: 'rule' as const, detail: 'Read' } };
  assert.deepEqual(recordWithoutSentBlock(byRule, block, 'bypassPermissions').decision, byRule.decision);
});

test('unit step-statics: a model call leaves out the read-file entries its base holds from the call before', () => {
  const memo = new StepStaticsMemo().readFiles;
  const delta = { '/w/a': { mtimeMs: 5, partial: false }, '/w/b': { mtimeMs: 6, partial: true } };
  const first = { readFiles: { base: null, delta } };
  assert.equal(memo.wire(first), first, 'nothing known yet');
  memo.learn(first, 'readfiles-1');
  // The next step re-read both files unchanged and a third: only the third goes.
  const next = { readFiles: { base: 'readfiles-1', delta: { ...delta, '/w/c': { mtimeMs: 7, partial: false } } } };
  assert.deepEqual(memo.wire(next), {
    readFiles: { base: 'readfiles-1', delta: { '/w/c': { mtimeMs: 7, partial: false } } },
  });
  // All known: the base alone; a changed entry goes.
  assert.deepEqual(memo.wire({ readFiles: { base: 'readfiles-1', delta } }), { readFiles: { base: 'readfiles-1' } });
  const changed = { readFiles: { base: 'readfiles-1', delta: { '/w/a': { mtimeMs: 9, partial: false } } } };
  assert.equal(memo.wire(changed), changed);
  // Over another base nothing is known; what the earlier key held is known of the next.
  const other = { readFiles: { base: 'readfiles-0', delta } };
  assert.equal(memo.wire(other), other);
  memo.learn(next, 'readfiles-2');
  assert.deepEqual(
    memo.wire({ readFiles: { base: 'readfiles-2', delta: { ...delta, '/w/c': { mtimeMs: 7, partial: false } } } }),
    {
      readFiles: { base: 'readfiles-2' },
    },
  );
});
