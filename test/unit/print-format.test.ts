// unit: the objects `run -p --output-format …` prints (src/cli/printFormat.ts): an assistant line
// per content block, a user line per tool_result, the reference's num_turns, a model error read from
// a failed session's reason, the result's subtype per ending, what text mode prints; the -p alias.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  apiError,
  apiErrorEvent,
  initEvent,
  messageEvents,
  numTurns,
  resultEvent,
  textOutput,
  type Ending,
} from '../../src/cli/printFormat';
import { withPrintAlias } from '../../src/cli/main';
import type { Message } from '../../src/core/apiMessages';
import { MEMORY_REMINDER_HEAD, MEMORY_REMINDER_TAIL } from '../../src/core/memoryReminder';

const messages: Message[] = [
  { role: 'user', content: `${MEMORY_REMINDER_HEAD}memory${MEMORY_REMINDER_TAIL}` },
  { role: 'user', content: 'do it' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Looking.' },
      { type: 'tool_use', id: 'toolu_a', name: 'Read', input: { file_path: '/x' } },
      { type: 'tool_use', id: 'toolu_b', name: 'Bash', input: { command: 'ls' } },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: 'toolu_a', content: 'x' },
      { type: 'tool_result', tool_use_id: 'toolu_b', content: 'y', is_error: true },
    ],
  },
  { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
];

const ending = (over: Partial<Ending>): Ending => ({
  sessionId: 's1',
  status: 'completed',
  reason: 'the model ended its turn',
  lastText: 'Done.',
  turns: 2,
  usage: { input_tokens: 10, output_tokens: 5 },
  durationMs: 1234.4,
  calls: [
    {
      model: 'm',
      usage: { input_tokens: 4, output_tokens: 2 },
      stopReason: 'tool_use',
      startedAt: '2026-01-01T00:00:00.000Z',
      endedAt: '2026-01-01T00:00:00.300Z',
    },
    {
      model: 'm',
      usage: { input_tokens: 6, output_tokens: 3 },
      stopReason: 'end_turn',
      startedAt: '2026-01-01T00:00:01.000Z',
      endedAt: '2026-01-01T00:00:01.200Z',
    },
  ],
  denials: [],
  ...over,
});

test('unit print-format: an assistant line per block (one message id), a user line per tool_result, the prompt not printed', () => {
  const lines = messageEvents(
    messages,
    0,
    's1',
    (n) => (n === 0 ? { messageId: 'msg_1', requestId: 'req_1', model: 'm' } : undefined),
    'fallback',
    () => 'T',
  );
  assert.deepEqual(
    lines.map((l) => `${String(l['type'])}:${JSON.stringify((l['message'] as { content: unknown[] }).content[0])}`),
    [
      'assistant:{"type":"text","text":"Looking."}',
      'assistant:{"type":"tool_use","id":"toolu_a","name":"Read","input":{"file_path":"/x"}}',
      'assistant:{"type":"tool_use","id":"toolu_b","name":"Bash","input":{"command":"ls"}}',
      'user:{"type":"tool_result","tool_use_id":"toolu_a","content":"x"}',
      'user:{"type":"tool_result","tool_use_id":"toolu_b","content":"y","is_error":true}',
      'assistant:{"type":"text","text":"Done."}',
    ],
  );
  assert.equal((lines[0]!['message'] as { id: string }).id, 'msg_1');
  assert.equal((lines[2]!['message'] as { id: string }).id, 'msg_1');
  assert.equal(lines[0]!['request_id'], 'req_1');
  assert.equal((lines[5]!['message'] as { model: string }).model, 'fallback');
  assert.equal(new Set(lines.map((l) => l['uuid'])).size, lines.length, 'one uuid per line');
  // From an index: only what is new (the assistant count before it keeps the audit's order).
  const later = messageEvents(messages, 4, 's1', (n) => (n === 1 ? { messageId: 'msg_2' } : undefined), 'f');
  assert.equal(later.length, 1);
  assert.equal((later[0]!['message'] as { id: string }).id, 'msg_2');
});

test('unit print-format: num_turns counts the prompt and each tool_result (not a memory-only message)', () => {
  assert.equal(numTurns(messages), 3);
  assert.equal(numTurns([{ role: 'user', content: 'hi' }]), 1);
});

test('unit print-format: a model error in the reason, the result per ending, and what text prints', () => {
  const reason =
    'session failed: turn 1 failed: model call failed: model API error 400: 400 {"type":"error","error":{"type":"invalid_request_error","message":"bad \\"request\\""},"request_id":"req_9"}';
  assert.deepEqual(apiError(reason), {
    status: 400,
    type: 'invalid_request_error',
    requestId: 'req_9',
    message: 'bad "request"',
  });
  assert.equal(apiError('turn 1 failed: tool crashed'), undefined);

  const ok = resultEvent(ending({}));
  assert.equal(ok['subtype'], 'success');
  assert.equal(ok['is_error'], false);
  assert.equal(ok['result'], 'Done.');
  assert.equal(ok['stop_reason'], 'end_turn');
  assert.equal(ok['duration_ms'], 1234);
  assert.equal(ok['duration_api_ms'], 500);
  assert.equal(ok['api_error_status'], null);
  assert.deepEqual((ok['modelUsage'] as Record<string, { inputTokens: number }>)['m']!.inputTokens, 10);
  assert.deepEqual(textOutput(ok), { text: 'Done.\n', exitCode: 0 });

  const failed = resultEvent(ending({ status: 'failed', reason }));
  assert.equal(failed['subtype'], 'success');
  assert.equal(failed['is_error'], true);
  assert.equal(failed['result'], 'API Error: 400 bad "request"');
  assert.equal(failed['terminal_reason'], 'api_error');
  assert.deepEqual(textOutput(failed), { text: 'API Error: 400 bad "request"\n', exitCode: 1 });
  const synthetic = apiErrorEvent(failed)!;
  assert.equal(synthetic['type'], 'assistant');
  assert.equal(synthetic['is_api_error_message'], true);
  assert.equal(synthetic['request_id'], 'req_9');

  const max = resultEvent(ending({ status: 'max_turns', reason: 'reached the limit of 3 turns', maxTurns: 3 }));
  assert.equal(max['subtype'], 'error_max_turns');
  assert.deepEqual(max['errors'], ['Reached maximum number of turns (3)']);
  assert.equal('result' in max, false);
  assert.equal('api_error_status' in max, false);
  assert.deepEqual(textOutput(max), { text: 'Error: Reached max turns (3)', exitCode: 1 });

  const stopped = resultEvent(ending({ status: 'cancelled', reason: 'cancelled' }));
  assert.equal(stopped['subtype'], 'error_during_execution');
  assert.equal(stopped['is_error'], true);
  assert.deepEqual(textOutput(stopped), { text: 'Error: cancelled', exitCode: 1 });
  assert.equal(apiErrorEvent(stopped), undefined);
});

test('unit print-format: the init line and the -p alias', () => {
  const init = initEvent({
    sessionId: 's1',
    cwd: '/w',
    tools: ['Read'],
    mcpServers: ['fs'],
    model: 'm',
    permissionMode: 'default',
    agents: ['general-purpose'],
    skills: ['deploy'],
    additionalDirectories: [],
    apiKeySource: 'none',
    version: '0.1.0',
  });
  assert.equal(init['type'], 'system');
  assert.equal(init['subtype'], 'init');
  assert.equal(init['session_id'], 's1');
  assert.deepEqual(init['mcp_servers'], [{ name: 'fs', status: 'pending' }]);
  assert.equal(init['durable_agent_version'], '0.1.0');
  assert.deepEqual(init['skills'], ['deploy']);
  assert.deepEqual(withPrintAlias(['node', 'da', '-p', 'x']), ['node', 'da', 'run', '-p', 'x']);
  assert.deepEqual(withPrintAlias(['node', 'da', '--output-format=json', 'x']), [
    'node',
    'da',
    'run',
    '--output-format=json',
    'x',
  ]);
  assert.deepEqual(withPrintAlias(['node', 'da', 'status', '-p']), ['node', 'da', 'status', '-p']);
});
