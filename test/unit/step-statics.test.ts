// unit: a turn child's static step inputs by reference (issue 33, core/stepStatics.ts): what the turn
// sends a model call and a tool call once it knows the key of the stored inputs, and when it must
// send them inline again. And the tool record's input left out of history and put back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StepStaticsMemo, splitStatics } from '../../src/core/stepStatics';
import { recordWithoutSentBlock, withSentBlock } from '../../src/core/payloads';
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

test("unit step-statics: a tool record leaves out the block's input and a stored preview's id; the turn puts them back", () => {
  const block: ToolUseBlock = { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/w/a' } };
  const record: ToolCallRecord = {
    toolUseId: 'toolu_1',
    toolName: 'Read',
    input: { file_path: '/w/a' },
    summary: 'Read /w/a',
    status: 'ok',
    result: { type: 'tool_result', tool_use_id: 'toolu_1', content: 'preview' },
    contextModifiers: [],
    resultRef: 'toolresult-1',
  };
  const slim = recordWithoutSentBlock(record, block);
  assert.equal(slim.input, undefined);
  assert.equal(slim.result.tool_use_id, undefined);
  assert.deepEqual(withSentBlock(slim, block), record);
  // A different input (the pipeline changed it) stays; so does an inline result's id.
  const other = recordWithoutSentBlock(record, { ...block, input: { file_path: '/w/b' } });
  assert.deepEqual(other.input, { file_path: '/w/a' });
  const inline = recordWithoutSentBlock({ ...record, resultRef: undefined }, block);
  assert.equal(inline.result.tool_use_id, 'toolu_1');
  // A record recorded before passes through whole.
  assert.equal(withSentBlock(record, block), record);
});
