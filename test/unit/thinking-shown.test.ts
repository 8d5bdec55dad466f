// unit: extended thinking shown and counted (issue 31 deliverable 2): `transcript` prints each
// thinking block's text marked as thinking and a redacted one as "[redacted thinking]"; the audit
// line of a model call counts its thinking blocks; `-p --output-format stream-json --verbose` has an
// assistant line per thinking block, signature and data as the API sent them, in the answer's order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { transcriptLines } from '../../src/cli/commands/sessions';
import { messageEvents } from '../../src/cli/printFormat';
import { formatAuditText, type AuditReport } from '../../src/audit';
import type { Message } from '../../src/core/apiMessages';

const messages: Message[] = [
  { role: 'user', content: 'do it' },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'Let me look\nat the file.', signature: 'c2ln+/==' },
      { type: 'redacted_thinking', data: 'ZW5j/+==' },
      { type: 'tool_use', id: 'toolu_a', name: 'Read', input: { file_path: '/x' } },
    ],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_a', content: 'x' }] },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'Done then.', signature: 'c2lnMg==' },
      { type: 'text', text: 'Done.' },
    ],
  },
];

test('unit thinking-shown: transcript marks thinking with its text and redacted thinking as such, in order', () => {
  assert.deepEqual(transcriptLines(messages, []), [
    'user: do it',
    'assistant: [thinking] Let me look\nat the file.',
    'assistant: [redacted thinking]',
    'assistant: [tool_use toolu_a] Read {"file_path":"/x"}',
    'user: [tool_result toolu_a] x',
    'assistant: [thinking] Done then.',
    'assistant: Done.',
  ]);
});

test('unit thinking-shown: stream-json has an assistant line per thinking block, as the API sent it', () => {
  const lines = messageEvents(
    messages,
    0,
    's1',
    (n) => ({ messageId: `msg_${n}` }),
    'm',
    () => 'T',
  );
  const content = lines.map((l) => (l['message'] as { content: unknown[] }).content[0]);
  assert.deepEqual(content.slice(0, 2), [
    { type: 'thinking', thinking: 'Let me look\nat the file.', signature: 'c2ln+/==' },
    { type: 'redacted_thinking', data: 'ZW5j/+==' },
  ]);
  assert.deepEqual(
    lines.map((l) => `${String(l['type'])}:${(l['message'] as { id?: string }).id ?? ''}`),
    ['assistant:msg_0', 'assistant:msg_0', 'assistant:msg_0', 'user:', 'assistant:msg_1', 'assistant:msg_1'],
  );
  assert.deepEqual(content[4], { type: 'thinking', thinking: 'Done then.', signature: 'c2lnMg==' });
});

test('unit thinking-shown: the audit line of a model call counts its thinking blocks', () => {
  const at = (s: number): string => new Date(Date.UTC(2026, 0, 2, 10, 0, s)).toISOString();
  const report: AuditReport = {
    session: {
      kind: 'session',
      sessionId: 's1',
      prompt: 'do it',
      model: 'claude-sonnet-4-5',
      permissionMode: 'default',
      status: 'completed',
      runs: 1,
      runIds: ['r1'],
      turns: 2,
      startedAt: at(0),
      endedAt: at(9),
      usage: { input_tokens: 3, output_tokens: 3 },
      toolCalls: 0,
      modelCalls: 2,
      messages: [],
      interrupts: [],
    },
    toolCalls: [],
    modelCalls: [
      {
        kind: 'model_call',
        turn: 1,
        run: 0,
        activityId: 'model-1',
        model: 'claude-sonnet-4-5',
        startedAt: at(1),
        endedAt: at(2),
        attempts: 1,
        status: 'ok',
        stopReason: 'tool_use',
        fallback: false,
        tombstones: [],
        failures: [],
        toolUseIds: ['toolu_a'],
        thinkingBlocks: 2,
        redactedThinkingBlocks: 1,
      },
      {
        kind: 'model_call',
        turn: 2,
        run: 0,
        activityId: 'model-2',
        model: 'claude-sonnet-4-5',
        startedAt: at(3),
        endedAt: at(4),
        attempts: 1,
        status: 'ok',
        stopReason: 'end_turn',
        fallback: false,
        tombstones: [],
        failures: [],
        toolUseIds: [],
      },
    ],
  };
  const text = formatAuditText(report);
  const line = (id: string): string => text.split('\n').find((l) => l.includes(id)) ?? '';
  assert.match(line('model-1'), /2 thinking \(1 redacted\)/);
  assert.doesNotMatch(line('model-2'), /thinking/);
});
