// unit: what history carries instead of tool inputs, tool results and model output (invariant 11).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  INLINE_INPUT_MAX_CHARS,
  RESULT_PREVIEW_CHARS,
  TEXT_PREVIEW_CHARS,
  findToolUse,
  isStoredInput,
  messageForHistory,
  recordForHistory,
  resolveMessages,
  toolResultsByRef,
} from '../../src/core/payloads';
import { syntheticRecord, type ToolCallRecord } from '../../src/core/toolRecords';
import type { AssistantMessage, ToolResultBlockParam } from '../../src/core/apiMessages';
import { MAX_MESSAGE_CHARS, sessionInput } from '../../src/temporal/client';

const big = 'x'.repeat(100_000);

test('unit: messageForHistory keeps ids and names, small inputs whole, large inputs/text/thinking as previews', () => {
  const message: AssistantMessage = {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: big, signature: 'sig'.repeat(1000) },
      { type: 'text', text: big },
      { type: 'tool_use', id: 'a', name: 'Read', input: { file_path: '/x' } },
      { type: 'tool_use', id: 'b', name: 'Write', input: { file_path: '/y', content: big } },
    ],
  };
  const light = messageForHistory(message);
  assert.ok(JSON.stringify(light).length < 5000, `${JSON.stringify(light).length}`);
  const [thinking, text, small, large] = light.content;
  assert.equal(thinking?.type, 'thinking');
  assert.equal(text?.type === 'text' && text.text.length, TEXT_PREVIEW_CHARS);
  assert.deepEqual(small, { type: 'tool_use', id: 'a', name: 'Read', input: { file_path: '/x' } });
  assert.ok(large?.type === 'tool_use' && large.id === 'b' && large.name === 'Write');
  assert.ok(large.type === 'tool_use' && isStoredInput(large.input));
  assert.equal((large.input as { chars: number }).chars, JSON.stringify({ file_path: '/y', content: big }).length);
  // An input exactly at the limit stays inline.
  const edge = { s: 'y'.repeat(INLINE_INPUT_MAX_CHARS - 8) };
  assert.equal(JSON.stringify(edge).length, INLINE_INPUT_MAX_CHARS);
  assert.deepEqual(
    messageForHistory({ role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'T', input: edge }] })
      .content[0],
    { type: 'tool_use', id: 'c', name: 'T', input: edge },
  );
  // The message itself is not changed.
  assert.equal((message.content[1] as { text: string }).text.length, big.length);
  assert.deepEqual(findToolUse([message], 'b'), message.content[3]);
  assert.equal(findToolUse([message], 'zz'), undefined);
});

test('unit: recordForHistory keeps a preview and the reference; toolResultsByRef refers to stored results, keeps synthetic ones inline', async () => {
  const record: ToolCallRecord = {
    toolUseId: 'a',
    toolName: 'Read',
    input: { file_path: '/x', pad: big },
    summary: 'Read /x',
    status: 'ok',
    result: { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: big }] },
    contextModifiers: [{ type: 'fileRead', path: '/x', mtimeMs: 1, partial: false }],
    newMessages: [{ role: 'user', content: big }],
  };
  const light = recordForHistory(record, 'toolresult-abc');
  assert.ok(JSON.stringify(light).length < RESULT_PREVIEW_CHARS + 1500, `${JSON.stringify(light).length}`);
  assert.equal(light.resultRef, 'toolresult-abc');
  assert.equal(light.resultChars, big.length);
  assert.deepEqual(light.contextModifiers, record.contextModifiers);
  assert.equal(light.newMessages, undefined);
  assert.ok(isStoredInput(light.input));

  const synthetic = syntheticRecord(
    { type: 'tool_use', id: 'b', name: 'Bash', input: {} },
    'interrupted',
    'Interrupted',
  );
  const msg = toolResultsByRef([light, synthetic]);
  // The reference alone (issue 33): the stored block names its tool_use.
  assert.deepEqual(msg.content, [{ ref: 'toolresult-abc' }, synthetic.result]);

  const stored: Record<string, ToolResultBlockParam> = { 'toolresult-abc': record.result };
  const [resolved] = await resolveMessages([msg], async (ref) => stored[ref] as ToolResultBlockParam);
  assert.deepEqual(resolved, { role: 'user', content: [record.result, synthetic.result] });
  // A reference recorded with its tool_use id (before issue 33) that answers another tool_use is refused, not silently misplaced.
  await assert.rejects(
    resolveMessages(
      [{ role: 'user', content: [{ type: 'tool_result_ref', tool_use_id: 'zz', ref: 'toolresult-abc' }] }],
      async (ref) => stored[ref] as ToolResultBlockParam,
    ),
    /answers a, not zz/,
  );
});

test('unit: a prompt longer than MAX_MESSAGE_CHARS is refused with what to do instead (user messages travel inline)', () => {
  assert.throws(
    () => sessionInput({ prompt: 'x'.repeat(MAX_MESSAGE_CHARS + 1), cwd: '/tmp' }),
    /the prompt is 262145 characters; the limit is 262144: put the material in a file/,
  );
  assert.equal(sessionInput({ prompt: 'x'.repeat(MAX_MESSAGE_CHARS), cwd: '/tmp' }).prompt.length, MAX_MESSAGE_CHARS);
});

test("unit: a stored result's preview in history is exactly what the audit and the turn's compact record show of it (200 characters, one line)", async () => {
  const { preview } = await import('../../src/audit/history');
  const { oneLinePreview } = await import('../../src/core/apiMessages');
  const text = `line one\n\n   line two\t${'word '.repeat(400)}\nend`;
  const record: ToolCallRecord = {
    toolUseId: 'a',
    toolName: 'Read',
    input: { file_path: '/x' },
    summary: 'Read /x',
    status: 'ok',
    result: { type: 'tool_result', tool_use_id: 'a', content: text },
    contextModifiers: [],
    decision: { behavior: 'allow', source: 'rule', reason: 'r'.repeat(1500) },
  };
  const light = recordForHistory(record, 'toolresult-abc');
  const kept = light.result.content as string;
  assert.equal(kept, oneLinePreview(text, RESULT_PREVIEW_CHARS));
  assert.ok(kept.length <= RESULT_PREVIEW_CHARS);
  // The audit shows preview() of it, and the turn's record oneLinePreview() of it: both as of the whole result.
  assert.equal(preview(kept), preview(text));
  assert.equal(oneLinePreview(kept), oneLinePreview(text));
  // A decision's reason is shown whole to a person: it keeps its 1,000 characters.
  assert.equal(light.decision?.reason?.length, 1000);
});
