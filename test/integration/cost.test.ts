// integration: usage and cost that add up (issue 31 item 5, deliverable 3) on the real dev server,
// a worker in this process, the fake Messages API with each response's usage scripted: a session on
// claude-sonnet-4-5 whose WebSearch side call (the worker's small model, the API reports 3 searches
// for one server_tool_use block), foreground subagent (on haiku) and reactive compaction (the API
// refuses one prompt as too long) each spend; `-p --output-format json` prints total_cost_usd equal
// to the sum computed by hand from the published prices over every call of the tree, the usage per
// model and the API's web search count; `status --json` and the audit say the same. A model the price
// list does not know shows its tokens and an unknown cost (null and a note), never 0.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { MessageSpec, MessagesRequest } from '../../src/testing/fakeAnthropic';
import { errorResponse, textResponse, toolUseResponse } from '../../src/testing/fakeAnthropic';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';

after(closeTestEnv);

type Json = Record<string, unknown>;
const COMPACTION_MARK = 'the conversation is about to be compacted';
const MAIN_MODEL = 'claude-sonnet-4-5';
const SIDE_MODEL = 'claude-haiku-4-5'; // the worker's small, fast model (SMALL_FAST_MODEL_DEFAULT)
const CHILD_MODEL = 'claude-haiku-4-5-20251001'; // the Agent tool's `model: "haiku"`

function envOf(taskQueue: string, storeDir: string): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
    DURABLE_AGENT_TASK_QUEUE: taskQueue,
    DURABLE_AGENT_STORE_DIR: storeDir,
  };
}

const lastUserText = (req: MessagesRequest): string => JSON.stringify(req.messages[req.messages.length - 1] ?? '');
const usage = (u: Partial<NonNullable<MessageSpec['usage']>>): MessageSpec['usage'] => ({
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  ...u,
});

test(
  'integration cost: -p json total_cost_usd = the hand-computed sum over every call of the tree (main, WebSearch side call, subagent, compaction); status and audit agree',
  { timeout: 180_000 },
  async () => {
    await withAgent({}, async ({ fake, taskQueue, workDir, storeDir }) => {
      const env = envOf(taskQueue, storeDir);
      let main = 0;
      let summaries = 0;
      fake.script((req: MessagesRequest) => {
        const tools = (req.tools ?? []) as Array<{ type?: string }>;
        if (tools.length > 0 && tools.every((t) => t.type?.startsWith('web_search_')))
          return {
            content: [
              { type: 'server_tool_use', input: { query: 'durable execution' } },
              { type: 'web_search_tool_result', results: [{ url: 'https://temporal.io/', title: 'Temporal' }] },
              { type: 'text', text: 'Temporal runs durable workflows.' },
            ],
            // What the API reported: 3 searches (the count is its, not the blocks').
            usage: usage({ input_tokens: 2000, output_tokens: 300, server_tool_use: { web_search_requests: 3 } }),
          };
        if (lastUserText(req).includes(COMPACTION_MARK)) {
          summaries++;
          return {
            ...textResponse('<summary>1. Primary request: look it up and ask an agent.</summary>'),
            usage: usage({ input_tokens: 3000, output_tokens: 400 }),
          };
        }
        if (req.model === CHILD_MODEL)
          return {
            ...textResponse('Child done.'),
            usage: usage({ input_tokens: 500, output_tokens: 50, cache_read_input_tokens: 1000 }),
          };
        main++;
        if (main === 1)
          return {
            ...toolUseResponse([{ id: 'toolu_c_search', name: 'WebSearch', input: { query: 'durable execution' } }]),
            usage: usage({ input_tokens: 1000, output_tokens: 100 }),
          };
        if (main === 2)
          return {
            ...toolUseResponse([
              {
                id: 'toolu_c_agent',
                name: 'Agent',
                input: {
                  description: 'ask a child',
                  prompt: 'Say you are done.',
                  subagent_type: 'general-purpose',
                  model: 'haiku',
                  run_in_background: false,
                },
              },
            ]),
            usage: usage({ input_tokens: 1100, output_tokens: 120, cache_read_input_tokens: 900 }),
          };
        // The next request is refused as too long (no usage: not billed): the session compacts, then asks again.
        if (main === 3)
          return errorResponse(400, {
            type: 'invalid_request_error',
            message: 'prompt is too long: 250000 tokens > 200000 maximum',
          });
        return {
          ...textResponse('All done.'),
          usage: usage({ input_tokens: 800, output_tokens: 80, cache_creation_input_tokens: 200 }),
        };
      });

      const r = await cli(
        [
          '-p',
          'look it up, then ask an agent',
          '--output-format',
          'json',
          '--cwd',
          workDir,
          '--model',
          MAIN_MODEL,
          '--allow',
          'WebSearch',
          '--allow',
          'Agent',
        ],
        env,
        150_000,
      );
      assert.equal(r.code, 0, r.stderr + r.stdout);
      const out = JSON.parse(r.stdout.trim()) as Json;
      assert.equal(out['result'], 'All done.');
      assert.equal(summaries, 1, 'one compaction');

      // By hand, $ per million tokens (src/core/prices.ts): Sonnet 4.5 in 3, out 15, cache write 3.75,
      // cache read 0.30; Haiku 4.5 in 1, out 5, cache read 0.10; web search $10 / 1,000.
      const sonnet =
        1000 * 3 +
        100 * 15 + // turn 1
        (1100 * 3 + 120 * 15 + 900 * 0.3) + // turn 2
        (3000 * 3 + 400 * 15) + // the compaction's summary (the session's model)
        (800 * 3 + 80 * 15 + 200 * 3.75); // turn 3, asked again after the compaction
      const side = 2000 * 1 + 300 * 5; // + 3 searches
      const child = 500 * 1 + 50 * 5 + 1000 * 0.1;
      const expected = {
        [MAIN_MODEL]: { in: 5900, out: 700, read: 900, write: 200, searches: 0, cost: 0.02922 },
        [SIDE_MODEL]: { in: 2000, out: 300, read: 0, write: 0, searches: 3, cost: 0.0335 },
        [CHILD_MODEL]: { in: 500, out: 50, read: 1000, write: 0, searches: 0, cost: 0.00085 },
      };
      const usd = (perMillion: number): number => Math.round(perMillion * 1000) / 1e9;
      assert.equal(usd(sonnet), 0.02922);
      assert.equal(usd(side + 3 * 10_000), 0.0335);
      assert.equal(usd(child), 0.00085);
      assert.equal(out['total_cost_usd'], 0.06357, JSON.stringify(out['modelUsage']));
      const mu = out['modelUsage'] as Record<string, Json>;
      assert.deepEqual(Object.keys(mu).sort(), Object.keys(expected).sort());
      for (const [model, e] of Object.entries(expected)) {
        const u = mu[model]!;
        assert.deepEqual(
          [
            u['inputTokens'],
            u['outputTokens'],
            u['cacheReadInputTokens'],
            u['cacheCreationInputTokens'],
            u['webSearchRequests'],
            u['costUSD'],
          ],
          [e.in, e.out, e.read, e.write, e.searches, e.cost],
          model,
        );
      }
      assert.deepEqual((out['usage'] as Json)['server_tool_use'], { web_search_requests: 3, web_fetch_requests: 0 });

      // status --json: the same per-model usage and total.
      const id = String(out['session_id']);
      const st = await cli(['status', id, '--json'], env, 30_000);
      assert.equal(st.code, 0, st.stderr);
      const status = JSON.parse(st.stdout) as Json;
      assert.equal(status['total_cost_usd'], 0.06357);
      const smu = status['modelUsage'] as Record<string, Json>;
      for (const [model, u] of Object.entries(mu)) assert.equal(smu[model]!['costUSD'], u['costUSD'], model);
      const human = await cli(['status', id], env, 30_000);
      assert.match(human.stdout, /cost {6}\$0\.063570 — every model call of the session's tree/);

      // The audit: each call's cost, the side call and the subagent on their tool calls, the total.
      const audit = await cli(['audit', id, '--json'], env, 60_000);
      assert.equal(audit.code, 0, audit.stderr);
      // JSON lines: the session's line, its calls, then each subagent's lines (its session line first).
      const lines = audit.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Json & { kind: string; modelUsage?: Record<string, Json> });
      const childAt = lines.findIndex((l, i) => i > 0 && l.kind === 'session');
      const own = childAt > 0 ? lines.slice(0, childAt) : lines;
      const report = {
        session: own[0] as unknown as { costUSD: number | null },
        modelCalls: own.filter((l) => l.kind === 'model_call'),
        compactions: own.filter((l) => l.kind === 'compaction'),
        toolCalls: own.filter((l) => l.kind === 'tool_call') as unknown as Array<
          Json & { tool: string; modelUsage?: Record<string, Json> }
        >,
      };
      assert.equal(report.session.costUSD, 0.06357);
      assert.deepEqual(
        report.modelCalls.filter((c) => c.modelUsage).map((c) => c.modelUsage?.[MAIN_MODEL]?.['costUSD']),
        [0.0045, 0.00537, 0.00435],
      );
      assert.equal(report.compactions[0]?.modelUsage?.[MAIN_MODEL]?.['costUSD'], 0.015);
      const byTool = Object.fromEntries(report.toolCalls.map((t) => [t.tool, t.modelUsage]));
      assert.equal(byTool['WebSearch']?.[SIDE_MODEL]?.['webSearchRequests'], 3);
      assert.equal(byTool['WebSearch']?.[SIDE_MODEL]?.['costUSD'], 0.0335);
      assert.equal(byTool['Agent']?.[CHILD_MODEL]?.['costUSD'], 0.00085);
      const text = await cli(['audit', id], env, 60_000);
      assert.match(text.stdout, /cost \$0\.063570/);
    });
  },
);

test(
  'integration cost: a model the price list does not know shows its tokens and an unknown cost, never 0',
  { timeout: 90_000 },
  async () => {
    await withAgent({}, async ({ fake, taskQueue, workDir, storeDir }) => {
      const env = envOf(taskQueue, storeDir);
      fake.enqueue({ ...textResponse('Hi.'), usage: usage({ input_tokens: 42, output_tokens: 7 }) });
      const r = await cli(
        ['-p', 'hi', '--output-format', 'json', '--cwd', workDir, '--model', 'claude-mystery-9'],
        env,
        60_000,
      );
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout.trim()) as Json;
      assert.equal(out['total_cost_usd'], null);
      assert.match(String(out['cost_note']), /no price for claude-mystery-9/);
      const u = (out['modelUsage'] as Record<string, Json>)['claude-mystery-9']!;
      assert.equal(u['inputTokens'], 42);
      assert.equal(u['outputTokens'], 7);
      assert.equal(u['costUSD'], null);
      const st = await cli(['status', String(out['session_id'])], env, 30_000);
      assert.match(st.stdout, /cost {6}unknown \(no price for claude-mystery-9/);
    });
  },
);
