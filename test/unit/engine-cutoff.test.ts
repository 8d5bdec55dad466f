// unit: a tool_use cut off by max_tokens is answered without running (src/core/cutOff.ts).
// Found by `npm run test:faults` (model faults): the cut block ran with whatever the SDK's partial
// JSON parse kept, and the model was told "The required parameter `command` is missing".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialContext } from '../../src/core/context';
import type { AssistantMessage, ToolUseBlock } from '../../src/core/apiMessages';
import { executeTurn, type ToolRunResult, type TurnExecutor } from '../../src/core/turn';
import { cutOffToolUse } from '../../src/core/cutOff';

const tu = (id: string, input: unknown): ToolUseBlock => ({ type: 'tool_use', id, name: 'Bash', input });

function executor(message: AssistantMessage, stopReason: string, skip?: boolean) {
  const ran: string[] = [];
  const exec: TurnExecutor = {
    callModel: async () => ({ kind: 'message', message, usage: { input_tokens: 1, output_tokens: 1 }, stopReason }),
    describe: async (blocks) =>
      blocks.map(() => ({ known: true, concurrencySafe: false, readOnly: false, idempotent: false, summary: 'Bash' })),
    async runTool(block): Promise<ToolRunResult> {
      ran.push(block.id);
      return {
        kind: 'done',
        record: {
          toolUseId: block.id,
          toolName: 'Bash',
          input: block.input,
          summary: 'Bash',
          status: 'ok',
          result: { type: 'tool_result', tool_use_id: block.id, content: 'ran' },
          contextModifiers: [],
        },
      };
    },
    awaitApproval: async () => 'interrupted',
    isInterrupted: () => false,
    ...(skip === undefined ? {} : { skipCutOffToolUse: () => skip }),
  };
  return { exec, ran };
}

const message: AssistantMessage = {
  role: 'assistant',
  content: [
    { type: 'text', text: 'two calls' },
    tu('toolu_a', { command: 'echo a' }),
    tu('toolu_b', { command: 'rm -rf build' }),
  ],
};
const input = { context: initialContext('/w'), priorRecords: new Map(), maxConcurrency: 10 };

test('unit: max_tokens inside the last tool_use — the complete calls before it run, the cut one is answered without running', async () => {
  const { exec, ran } = executor(message, 'max_tokens');
  const out = await executeTurn(input, exec);
  assert.deepEqual(ran, ['toolu_a']);
  assert.equal(out.reason, 'tool_use', 'the session goes on: the model sees why');
  const [a, b] = out.records;
  assert.equal(a?.status, 'ok');
  assert.equal(b?.status, 'error');
  assert.equal(b?.result.is_error, true);
  assert.match(
    String(b?.result.content),
    /not run: the response reached max_tokens while this tool_use was being written/,
  );
  assert.match(String(b?.result.content), /rm -rf build/);
});

test('unit: max_tokens — nothing is cut when the message ends with text, or the stop reason is tool_use; a workflow turn recorded before the patch still runs it', async () => {
  assert.equal(
    cutOffToolUse({ role: 'assistant', content: [tu('x', {}), { type: 'text', text: 'then' }] }, 'max_tokens'),
    undefined,
  );
  assert.equal(cutOffToolUse(message, 'tool_use'), undefined);
  assert.equal(cutOffToolUse(message, 'max_tokens')?.id, 'toolu_b');
  const normal = executor(message, 'tool_use');
  await executeTurn(input, normal.exec);
  assert.deepEqual(normal.ran, ['toolu_a', 'toolu_b']);
  const old = executor(message, 'max_tokens', false);
  await executeTurn(input, old.exec);
  assert.deepEqual(old.ran, ['toolu_a', 'toolu_b']);
});

test('unit: model_context_window_exceeded inside the last tool_use is a cut-off too (its own patch); on plain text the turn says so', async () => {
  const asked: string[] = [];
  const { exec, ran } = executor(message, 'model_context_window_exceeded');
  exec.skipCutOffToolUse = (stopReason) => {
    asked.push(stopReason);
    return true;
  };
  const out = await executeTurn(input, exec);
  assert.deepEqual(ran, ['toolu_a']);
  assert.deepEqual(
    asked,
    ['model_context_window_exceeded'],
    'the workflow is asked with the stop reason (its own patch id)',
  );
  assert.equal(out.reason, 'tool_use');
  assert.match(
    String(out.records[1]?.result.content),
    /not run: the response reached the model's context window while this tool_use was being written/,
  );
  // A turn recorded before the patch still runs it.
  const old = executor(message, 'model_context_window_exceeded', false);
  await executeTurn(input, old.exec);
  assert.deepEqual(old.ran, ['toolu_a', 'toolu_b']);
  // Plain text: not a plain end of turn.
  const text = executor(
    { role: 'assistant', content: [{ type: 'text', text: 'cut' }] },
    'model_context_window_exceeded',
  );
  assert.equal((await executeTurn(input, text.exec)).reason, 'context_window');
  const refused = executor({ role: 'assistant', content: [] }, 'refusal');
  assert.equal((await executeTurn(input, refused.exec)).reason, 'refusal');
});
