// integration: the shapes the real Messages API sends that our fake did not (issue 31, DESIGN
// invariant 16), each on the real dev server with a real worker, the real SDK against the fake
// (which now speaks them: src/testing/fakeAnthropic), and — where a person reads the outcome — the
// CLI as a user runs it. Each test asserts what the API received next (the fake records every
// request body) and what the user sees (exit code, is_error, status).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { spendLimitError, textResponse, type MessagesRequest } from '../../src/testing/fakeAnthropic';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';

after(closeTestEnv);

type Json = Record<string, unknown>;

function envOf(taskQueue: string, storeDir: string): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
    DURABLE_AGENT_TASK_QUEUE: taskQueue,
    DURABLE_AGENT_STORE_DIR: storeDir,
  };
}

/** `-p <prompt> --output-format json` as a user runs it; the one result line. */
async function printJson(
  prompt: string,
  env: Record<string, string>,
  workDir: string,
  extra: string[] = [],
): Promise<{ code: number | null; result: Json; stderr: string }> {
  const r = await cli(
    ['-p', prompt, '--output-format', 'json', '--cwd', workDir, '--model', 'claude-test', ...extra],
    env,
    90_000,
  );
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 1, `one result line: ${r.stdout} ${r.stderr}`);
  return { code: r.code, result: JSON.parse(lines[0] as string) as Json, stderr: r.stderr };
}

const messagesOf = (r: MessagesRequest): string => JSON.stringify(r.messages);

test('api shapes: an overload that is the only event of an HTTP 200 stream is waited out, not a dead session', async () => {
  await withAgent({}, async ({ fake, start }) => {
    fake.enqueue(
      // HTTP 200, then `event: error` {"type":"overloaded_error"} as the first and only event.
      { content: [{ type: 'text', text: 'never sent' }], streamError: { afterEvents: 0, type: 'overloaded_error' } },
      textResponse('Answered after the overload.'),
    );
    const result = await (await start({ prompt: 'say hi', retryCapMs: 200 })).result();
    assert.equal(result.status, 'completed', result.endReason);
    assert.equal(result.lastText, 'Answered after the overload.');
    const calls = fake.messageRequests();
    assert.equal(calls.length, 2, 'the overloaded call was made again');
    assert.equal(fake.requests[0]?.response?.status, 200, 'the overload came in a 200 stream');
    assert.equal(messagesOf(calls[1]!), messagesOf(calls[0]!), 'the retry sends what the overloaded call sent');
    fake.assertDone();
  });
});

test('api shapes: a spend-limit 429 (enforced_spend_limit_reached, no retry-after) ends the session at once with the reason', async () => {
  await withAgent({}, async ({ fake, taskQueue, storeDir, workDir }) => {
    fake.enqueue(spendLimitError());
    const { code, result } = await printJson('say hi', envOf(taskQueue, storeDir), workDir);
    assert.equal(code, 1);
    assert.equal(result['is_error'], true);
    assert.equal(result['api_error_status'], 429);
    assert.match(String(result['result']), /^API Error: 429 Your organization has reached its monthly API usage limit/);
    assert.match(String(result['end_reason']), /spend limit was reached \(enforced_spend_limit_reached\)/);
    assert.equal(fake.messageRequests().length, 1, 'a spend limit is not retried');
  });
});

test('api shapes: a clean EOF inside a tool_use (no content_block_stop, no message_stop) never runs the truncated call', async () => {
  await withAgent({}, async ({ fake, start, workDir }) => {
    const target = join(workDir, 'notes.txt');
    fake.enqueue(
      {
        content: [
          { type: 'text', text: 'Writing the notes.' },
          // The stream stops politely in the middle of this block's JSON: the SDK's partial parse
          // would make it {"file_path": …, "content": "first half"}.
          {
            type: 'tool_use',
            id: 'toolu_eof',
            name: 'Write',
            input: {},
            rawJson: `{"file_path": ${JSON.stringify(target)}, "content": "first half`,
          },
        ],
        endInsideBlock: 2,
      },
      // The non-streamed fallback that replaces the abandoned stream.
      textResponse('I will not write anything after all.'),
    );
    const result = await (await start({ prompt: 'write notes', tools: ['Write'] })).result();
    assert.equal(result.status, 'completed', result.endReason);
    assert.equal(result.lastText, 'I will not write anything after all.');
    await assert.rejects(access(target), 'the truncated Write never ran');
    const [first, second] = fake.requests;
    assert.equal(first?.stream, true);
    assert.equal(second?.stream, false, 'the cut stream fell back to a non-streamed request');
    assert.equal(fake.messageRequests().length, 2);
    assert.equal(messagesOf(fake.messageRequests()[1]!), messagesOf(fake.messageRequests()[0]!));
    assert.doesNotMatch(messagesOf(fake.messageRequests()[1]!), /toolu_eof/);
    fake.assertDone();
  });
});
