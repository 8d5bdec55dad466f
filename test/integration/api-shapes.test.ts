// integration: the shapes the real Messages API sends that our fake did not (issue 31, DESIGN
// invariant 16), each on the real dev server with a real worker, the real SDK against the fake
// (which now speaks them: src/testing/fakeAnthropic), and — where a person reads the outcome — the
// CLI as a user runs it. Each test asserts what the API received next (the fake records every
// request body) and what the user sees (exit code, is_error, status).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import {
  lastToolResults,
  pausedContent,
  pausedTurn,
  refusalResponse,
  toolUseResponse,
  type FakeAnthropicServer,
  spendLimitError,
  textResponse,
  type MessagesRequest,
} from '../../src/testing/fakeAnthropic';
import { sendMessage, sessionStatus } from '../../src/temporal/client';
import { MAX_PAUSE_CONTINUATIONS } from '../../src/runtime/model';
import { waitFor } from '../support/wait';
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

test('api shapes: model_context_window_exceeded inside a tool_use never runs it (the model is told why); on plain text -p says so, exit 1', async () => {
  await withAgent({}, async ({ fake, start, workDir, taskQueue, storeDir }) => {
    const target = join(workDir, 'big.txt');
    fake.enqueue(
      {
        content: [
          { type: 'text', text: 'Writing it.' },
          {
            type: 'tool_use',
            id: 'toolu_cw',
            name: 'Write',
            input: {},
            rawJson: `{"file_path": ${JSON.stringify(target)}, "content": "the first part of a long`,
          },
        ],
        stop_reason: 'model_context_window_exceeded',
      },
      textResponse('Understood, not written.'),
    );
    const result = await (await start({ prompt: 'write big.txt', tools: ['Write'] })).result();
    assert.equal(result.status, 'completed', result.endReason);
    await assert.rejects(access(target), 'the cut Write never ran');
    const next = fake.messageRequests()[1]!;
    const [answer] = lastToolResults(next);
    assert.equal(answer?.tool_use_id, 'toolu_cw');
    assert.equal(answer?.is_error, true);
    assert.match(JSON.stringify(answer?.content), /not run: the response reached the model's context window/);

    // Plain text cut by the window: an error result that says so, not a success.
    fake.enqueue(textResponse('The summary of the whole rep', { stop_reason: 'model_context_window_exceeded' }));
    const { code, result: r } = await printJson('summarise', envOf(taskQueue, storeDir), workDir);
    assert.equal(code, 1);
    assert.equal(r['is_error'], true);
    assert.equal(r['stop_reason'], 'model_context_window_exceeded');
    assert.match(JSON.stringify(r['errors']), /context window limit/);
    assert.equal(r['status'], 'failed');
  });
});

test('api shapes: a refusal (stop_details) with a tool_use in it: the call never runs, -p is an error result, exit 1, status refused', async () => {
  await withAgent({}, async ({ fake, client, workDir, taskQueue, storeDir }) => {
    const target = join(workDir, 'payload.sh');
    fake.enqueue(
      refusalResponse(
        [
          { type: 'text', text: 'Sure, writing the' },
          { type: 'tool_use', id: 'toolu_refused', name: 'Write', input: { file_path: target, content: 'x' } },
        ],
        { category: 'cyber', explanation: 'This request was declined because it could enable cyber harm.' },
      ),
    );
    const env = envOf(taskQueue, storeDir);
    const { code, result: r } = await printJson('write the payload', env, workDir, [
      '--permission-mode',
      'bypassPermissions',
    ]);
    assert.equal(code, 1);
    assert.equal(r['is_error'], true);
    assert.equal(r['stop_reason'], 'refusal');
    assert.equal(r['terminal_reason'], 'refusal');
    assert.equal(r['status'], 'refused');
    assert.match(
      String(r['result']),
      /^The model refused to respond \(stop_reason refusal, category cyber\): This request was declined/,
    );
    await assert.rejects(access(target), 'the refused Write never ran');
    assert.equal(fake.messageRequests().length, 1);
    // `status` shows it; text output prints the reason, exit 1.
    const id = String(r['session_id']);
    const s = await sessionStatus(client, id);
    assert.equal(s.status, 'refused');
    const shown = await cli(['status', id], env);
    assert.match(shown.stdout, /status +refused \(ended\) — the model refused to respond/);
    fake.enqueue(refusalResponse([]));
    const text = await cli(['-p', 'again', '--cwd', workDir, '--model', 'claude-test'], env, 90_000);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /^The model refused to respond \(stop_reason refusal\); the refused turn was dropped/);
  });
});

test('api shapes: after a refusal the refused turn is not sent back — a follow-up goes on from the prompt', async () => {
  await withAgent({}, async ({ fake, start, client }) => {
    fake.enqueue(
      refusalResponse([{ type: 'text', text: 'REFUSED-PARTIAL' }], {}, { latencyMs: 1_500 }),
      textResponse('Happy to help with the rephrased request.'),
    );
    const handle = await start({ prompt: 'first request' });
    const id = handle.workflowId;
    await waitFor('the refused call to start', async () => (fake.messageRequests().length >= 1 ? true : undefined));
    await sendMessage(client, id, 'rephrased request');
    const result = await handle.result();
    assert.equal(result.status, 'completed', result.endReason);
    const calls = fake.messageRequests();
    assert.equal(calls.length, 2);
    const sent = messagesOf(calls[1]!);
    assert.doesNotMatch(sent, /REFUSED-PARTIAL/, 'the refused answer is not sent back');
    assert.match(sent, /first request/);
    assert.match(sent, /rephrased request/);
    assert.ok(
      calls[1]!.messages.every((m) => m.role === 'user'),
      `only user turns: ${sent}`,
    );
  });
});

// pause_turn (issue 31 item 4): a long turn the API paused (its server tools' loop) goes on when the
// client sends the paused content back as is — the same request plus that assistant message, no
// user message — until another stop reason. The paused part is a web search, as the API sends it.
const PAUSED_PART: Parameters<typeof pausedTurn>[0] = [
  { type: 'text', text: 'Let me search for that.' },
  { type: 'server_tool_use', id: 'srvtoolu_paused', input: { query: 'durable execution' } },
  {
    type: 'web_search_tool_result',
    results: [{ url: 'https://temporal.io/', title: 'Temporal', page_age: '2 days ago' }],
  },
];

/** The wire content the fake sent in answer to a request: what must come back unchanged. */
function sentContent(fake: FakeAnthropicServer, request: MessagesRequest): unknown {
  return fake.requests.find((r) => r.body === request)?.response?.message?.content;
}

test('api shapes: pause_turn in the main loop is continued within the model call: the paused content goes back unchanged, the rest is the answer, usage adds up', async () => {
  await withAgent({}, async ({ fake, start }) => {
    fake.enqueue(
      ...pausedTurn(
        PAUSED_PART,
        textResponse('Temporal runs durable workflows.', { usage: { input_tokens: 300, output_tokens: 20 } }),
        { usage: { input_tokens: 100, output_tokens: 10 } },
      ),
    );
    const handle = await start({ prompt: 'what is durable execution?' });
    const result = await handle.result();
    assert.equal(result.status, 'completed', result.endReason);
    assert.match(result.lastText, /Temporal runs durable workflows\.$/);
    assert.doesNotMatch(result.lastText, /^Let me search for that\.$/, 'the paused part is not the result');
    const [paused, continued] = fake.messageRequests();
    assert.equal(fake.messageRequests().length, 2);
    assert.ok(paused && continued);
    // The same request, plus the paused answer as is as the last (assistant) message: no user message added.
    assert.deepEqual(continued.messages.slice(0, -1), paused.messages);
    assert.deepEqual(pausedContent(continued), sentContent(fake, paused));
    assert.deepEqual(
      (pausedContent(continued) ?? []).map((b) => b.type),
      ['text', 'server_tool_use', 'web_search_tool_result'],
    );
    assert.deepEqual(continued.tools, paused.tools);
    assert.equal(
      continued.system === undefined ? undefined : JSON.stringify(continued.system),
      JSON.stringify(paused.system),
    );
    // Both requests are paid for.
    assert.equal(result.usage.input_tokens, 400);
    assert.equal(result.usage.output_tokens, 30);
    fake.assertDone();
  });
});

test('api shapes: a turn paused again and again ends the session with a clear error after the bound, not a loop', async () => {
  await withAgent({}, async ({ fake, start }) => {
    fake.script(() => pausedTurn(PAUSED_PART, textResponse('never'))[0]);
    const handle = await start({ prompt: 'search forever' });
    // A failed session fails its workflow, with the reason.
    await assert.rejects(handle.result(), (err: Error & { cause?: Error }) => {
      assert.match(String(err.cause?.message), /paused the turn 9 times \(stop_reason pause_turn\)/);
      return true;
    });
    assert.equal(fake.messageRequests().length, MAX_PAUSE_CONTINUATIONS + 1, 'a permanent error: not retried');
  });
});

test("api shapes: pause_turn in WebSearch's own call is continued too: the search result is the whole turn", async () => {
  await withAgent({}, async ({ fake, start }) => {
    const side = (r: MessagesRequest) =>
      ((r.tools ?? []) as Array<{ type?: string }>).some((t) => t.type?.startsWith('web_search_'));
    let main = 0;
    const [pausedSearch, restOfSearch] = pausedTurn(PAUSED_PART, {
      content: [
        { type: 'server_tool_use', id: 'srvtoolu_second', input: { query: 'temporal workflows' } },
        { type: 'web_search_tool_result', results: [{ url: 'https://docs.temporal.io/', title: 'Docs' }] },
        { type: 'text', text: 'Temporal runs durable workflows.' },
      ],
    });
    let searches = 0;
    fake.script((req) => {
      if (side(req)) return searches++ === 0 ? pausedSearch : restOfSearch;
      main++;
      if (main === 1)
        return toolUseResponse([{ id: 'toolu_search', name: 'WebSearch', input: { query: 'durable execution' } }]);
      return textResponse('Done.');
    });
    const result = await (
      await start({ prompt: 'look it up', tools: ['WebSearch'], rules: { allow: ['WebSearch'], ask: [], deny: [] } })
    ).result();
    assert.equal(result.status, 'completed', result.endReason);
    const sides = fake.messageRequests().filter(side);
    assert.equal(sides.length, 2, 'the paused search was continued once');
    assert.deepEqual(sides[1]!.messages.slice(0, -1), sides[0]!.messages);
    assert.deepEqual(pausedContent(sides[1]!), sentContent(fake, sides[0]!));
    const [toolResult] = lastToolResults(fake.messageRequests().filter((r) => !side(r))[1]!);
    assert.equal(toolResult?.tool_use_id, 'toolu_search');
    assert.notEqual(toolResult?.is_error, true, JSON.stringify(toolResult));
    const text = JSON.stringify(toolResult?.content);
    // Both parts of the search: the paused one's hits and the rest's.
    assert.match(text, /temporal\.io\//);
    assert.match(text, /docs\.temporal\.io/);
    assert.match(text, /Temporal runs durable workflows/);
  });
});
