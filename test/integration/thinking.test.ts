// integration: extended thinking on the real dev server (issue 31 item 8, deliverable 2, invariant
// 16). What the API receives: the `thinking` parameter as decided (by the settings file, by
// MAX_THINKING_TOKENS; absent when alwaysThinkingEnabled is false and in a subagent's requests), no
// temperature, and every thinking and redacted_thinking block the fake sent back byte for byte, in
// the answer's order, through three tool turns, a compaction, a subagent, continue-as-new and a worker
// killed mid-turn. The fake itself answers 400 to an altered or reordered block (validateThinking).
// What the user sees: `transcript` marks the thinking, `audit` counts it per model call.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { join } from 'node:path';
import type { ContentSpec, FakeAnthropicServer, MessageSpec, MessagesRequest } from '../../src/testing/fakeAnthropic';
import { errorResponse } from '../../src/testing/fakeAnthropic';
import { closeTestEnv } from '../support/temporal';
import { withAgent } from '../support/agent';
import { cli } from '../support/cli';
import { waitFor } from '../support/wait';
import { sessionRuns } from '../support/history';
import { killGroup, lines, spawnWorker, type WorkerProc, workerProcessEnv } from '../support/workerProcs';

after(closeTestEnv);

type Json = Record<string, unknown>;
type Block = Json & { type: string };
const MODEL = 'claude-sonnet-4-5'; // a budget model: {type: enabled, budget_tokens}
const COMPACTION_MARK = 'the conversation is about to be compacted';

const think = (text: string): ContentSpec => ({ type: 'thinking', thinking: text });
const redacted = (): ContentSpec => ({ type: 'redacted_thinking' });
const answer = (content: ContentSpec[], stop: 'tool_use' | 'end_turn'): MessageSpec => ({
  content,
  stop_reason: stop,
});
const lastText = (req: MessagesRequest): string => JSON.stringify(req.messages[req.messages.length - 1] ?? '');
const isThinking = (b: Block): boolean => b.type === 'thinking' || b.type === 'redacted_thinking';
const withoutCache = (b: Block): Block => {
  const { cache_control: _c, ...rest } = b;
  return rest as Block;
};

/**
 * Every assistant message a request carries that has thinking is exactly an answer the fake sent
 * (every block, thinking and redacted thinking byte for byte, in its order; cache_control aside).
 * Returns how many such replays it checked.
 */
function assertThinkingReplayed(fake: FakeAnthropicServer): number {
  const sent = fake.requests
    .map((r) => r.response?.message?.content as Block[] | undefined)
    .filter((c): c is Block[] => Array.isArray(c) && c.some(isThinking));
  const key = (b: Block): string => String(b.type === 'thinking' ? b['signature'] : b['data']);
  let checked = 0;
  for (const r of fake.requests.filter((x) => x.valid)) {
    const body = r.body as MessagesRequest;
    for (const [i, m] of body.messages.entries()) {
      if (m.role !== 'assistant' || typeof m.content === 'string') continue;
      const blocks = (m.content as Block[]).map(withoutCache);
      const first = blocks.find(isThinking);
      if (!first) continue;
      const original = sent.find((c) => c.some((b) => isThinking(b) && key(b) === key(first)));
      assert.ok(original, `request ${r.index} message ${i}: a thinking block the fake never sent`);
      assert.equal(JSON.stringify(blocks), JSON.stringify(original), `request ${r.index} message ${i}`);
      checked++;
    }
  }
  return checked;
}

test(
  'integration thinking: by the settings file, three tool turns, a compaction and a subagent: the budget param on every main request, none in the child, no temperature, every block back byte for byte; transcript and audit show it',
  { timeout: 180_000 },
  async () => {
    await withAgent({}, async ({ fake, taskQueue, workDir, storeDir }) => {
      const env = {
        TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS as string,
        DURABLE_AGENT_TASK_QUEUE: taskQueue,
        DURABLE_AGENT_STORE_DIR: storeDir,
        MAX_THINKING_TOKENS: undefined,
      };
      await mkdir(join(workDir, '.claude'), { recursive: true });
      await writeFile(join(workDir, '.claude', 'settings.json'), JSON.stringify({ alwaysThinkingEnabled: true }));
      await writeFile(join(workDir, 'notes.txt'), 'the answer is 42\n');
      let main = 0;
      fake.script((req) => {
        if (lastText(req).includes(COMPACTION_MARK))
          return answer([{ type: 'text', text: '<summary>1. Primary request: read, run, ask.</summary>' }], 'end_turn');
        if (req.system && JSON.stringify(req.system).includes('Say you are done'))
          return answer([{ type: 'text', text: 'Child done.' }], 'end_turn');
        if (lastText(req).includes('Say you are done'))
          return answer([{ type: 'text', text: 'Child done.' }], 'end_turn');
        main++;
        if (main === 1)
          return answer(
            [
              think('I should read the notes first.'),
              { type: 'tool_use', id: 'toolu_t_read', name: 'Read', input: { file_path: join(workDir, 'notes.txt') } },
            ],
            'tool_use',
          );
        if (main === 2)
          return answer(
            [
              think('Now run something: + / = are in signatures.'),
              redacted(),
              think('And a second thought after the redacted one.'),
              { type: 'tool_use', id: 'toolu_t_bash', name: 'Bash', input: { command: 'echo ran' } },
            ],
            'tool_use',
          );
        if (main === 3)
          return answer(
            [
              think('Ask a child.'),
              {
                type: 'tool_use',
                id: 'toolu_t_agent',
                name: 'Agent',
                input: {
                  description: 'ask a child',
                  prompt: 'Say you are done.',
                  subagent_type: 'general-purpose',
                  run_in_background: false,
                },
              },
            ],
            'tool_use',
          );
        // The next request is refused as too long: the session compacts, then asks again.
        if (main === 4)
          return errorResponse(400, {
            type: 'invalid_request_error',
            message: 'prompt is too long: 250000 tokens > 200000 maximum',
          });
        return answer([think('All three done; summarise.'), { type: 'text', text: 'All done.' }], 'end_turn');
      });

      const r = await cli(
        ['-p', 'read, run, ask', '--output-format', 'json', '--cwd', workDir, '--model', MODEL].concat([
          '--allow',
          'Read',
          '--allow',
          'Bash',
          '--allow',
          'Agent',
          '--no-sandbox',
        ]),
        env,
        150_000,
      );
      assert.equal(r.code, 0, r.stderr + r.stdout);
      const out = JSON.parse(r.stdout.trim()) as Json;
      assert.equal(out['result'], 'All done.', r.stdout);

      const requests = fake.requests.filter((x) => x.valid).map((x) => x.body as MessagesRequest & Json);
      const summaries = requests.filter((q) => lastText(q).includes(COMPACTION_MARK));
      const children = requests.filter((q) => lastText(q).includes('Say you are done') && q.messages.length <= 2);
      const mains = requests.filter((q) => !summaries.includes(q) && !children.includes(q));
      assert.equal(summaries.length, 1, 'one compaction');
      assert.ok(children.length >= 1, 'the subagent asked');
      assert.equal(mains.length, 5, 'four main answers and the refused request');
      for (const q of mains) {
        assert.deepEqual(q['thinking'], { type: 'enabled', budget_tokens: 8191 }, 'min(max_tokens - 1, 63999)');
        assert.equal(q['temperature'], undefined);
      }
      for (const q of children) assert.equal(q['thinking'], undefined, 'a subagent does not think');
      assert.ok(!requests.some((q) => q['temperature'] !== undefined), 'no temperature anywhere');
      // The tool loop's assistant turns come back whole: turn 1 in main 2, turns 1-2 in main 3, …
      assert.ok(assertThinkingReplayed(fake) >= 6, 'replays checked');
      const last = mains[mains.length - 1]!;
      const lastAssistant = [...last.messages].reverse().find((m) => m.role === 'assistant');
      assert.equal(
        (lastAssistant?.content as Block[] | undefined)?.[0]?.type,
        'thinking',
        'after the compaction the tool loop goes on with its thinking',
      );

      const id = String(out['session_id']);
      const cliEnv = env;
      const t = await cli(['transcript', id], cliEnv, 30_000);
      assert.equal(t.code, 0, t.stderr);
      const thinkingLines = t.stdout.split('\n').filter((l) => /^assistant: \[(redacted )?thinking\]/.test(l));
      assert.deepEqual(thinkingLines, [
        'assistant: [thinking] I should read the notes first.',
        'assistant: [thinking] Now run something: + / = are in signatures.',
        'assistant: [redacted thinking]',
        'assistant: [thinking] And a second thought after the redacted one.',
        'assistant: [thinking] Ask a child.',
        'assistant: [thinking] All three done; summarise.',
      ]);
      const a = await cli(['audit', id, '--json'], cliEnv, 60_000);
      assert.equal(a.code, 0, a.stderr);
      const entries = a.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Json);
      const childAt = entries.findIndex((l, i) => i > 0 && l['kind'] === 'session');
      const own = (childAt > 0 ? entries.slice(0, childAt) : entries).filter((l) => l['kind'] === 'model_call');
      assert.deepEqual(
        own.map((c) => [c['thinkingBlocks'] ?? 0, c['redactedThinkingBlocks'] ?? 0]),
        [
          [1, 0],
          [3, 1],
          [1, 0],
          [1, 0],
        ],
      );
      const text = await cli(['audit', id], cliEnv, 60_000);
      assert.match(text.stdout, /3 thinking \(1 redacted\)/);

      // alwaysThinkingEnabled false: no thinking param (and the same tool loop works without it).
      await writeFile(join(workDir, '.claude', 'settings.json'), JSON.stringify({ alwaysThinkingEnabled: false }));
      const before = fake.requests.length;
      fake.script(() => answer([{ type: 'text', text: 'Plain.' }], 'end_turn'));
      const off = await cli(['-p', 'hi', '--output-format', 'json', '--cwd', workDir, '--model', MODEL], env, 60_000);
      assert.equal(off.code, 0, off.stderr + off.stdout);
      const offReq = fake.requests.slice(before).filter((x) => x.valid);
      assert.equal(offReq.length, 1);
      assert.equal((offReq[0]!.body as Json)['thinking'], undefined);
    });
  },
);

test(
  'integration thinking: by MAX_THINKING_TOKENS, continue-as-new between turns and a worker SIGKILLed mid-tool: the budget on every request, every block back byte for byte',
  { timeout: 180_000 },
  async () => {
    await withAgent({ noWorker: true }, async ({ env, fake, start, workDir, storeDir, taskQueue, client }) => {
      const workerEnv = await workerProcessEnv({ env, fake, storeDir, taskQueue });
      const slowLog = join(workDir, 'slow.log');
      const turns: MessageSpec[] = [
        answer(
          [
            think('First turn: write one line.'),
            {
              type: 'tool_use',
              id: 'toolu_k_1',
              name: 'AppendSlow',
              input: { file: join(workDir, 'a.log'), text: 'a' },
            },
          ],
          'tool_use',
        ),
        answer(
          [
            redacted(),
            think('Second turn: a slow append the crash will catch.'),
            {
              type: 'tool_use',
              id: 'toolu_k_2',
              name: 'AppendSlow',
              input: { file: slowLog, text: 'slow', delayMs: 4000, idempotent: true },
            },
          ],
          'tool_use',
        ),
        answer(
          [
            think('Third turn, after the crash.'),
            {
              type: 'tool_use',
              id: 'toolu_k_3',
              name: 'AppendSlow',
              input: { file: join(workDir, 'c.log'), text: 'c' },
            },
          ],
          'tool_use',
        ),
        answer([think('Done.'), { type: 'text', text: 'Three appends.' }], 'end_turn'),
      ];
      fake.enqueue(...turns);
      const procs: WorkerProc[] = [];
      const saved = process.env.MAX_THINKING_TOKENS;
      try {
        let worker = await spawnWorker('worker-1', workerEnv, procs);
        process.env.MAX_THINKING_TOKENS = '3000';
        const handle = await start({
          prompt: 'append three times',
          tools: ['AppendSlow'],
          permissionMode: 'bypassPermissions',
          toolHeartbeatTimeoutMs: 2000,
          maxHistoryBytesPerRun: 1,
          // A turn child per model step: the session continues-as-new between the steps (the point here).
          maxStepsPerTurn: 1,
          model: { model: MODEL, maxTokens: 8192 },
        });
        if (saved === undefined) delete process.env.MAX_THINKING_TOKENS;
        else process.env.MAX_THINKING_TOKENS = saved;
        await waitFor('the slow call to start', async () => (await lines(slowLog)).length >= 1);
        killGroup(worker);
        await worker.exited;
        worker = await spawnWorker('worker-2', workerEnv, procs);
        const result = await handle.result();
        assert.equal(result.status, 'completed', result.endReason);
        assert.equal(result.turns, 4);
        const runs = await sessionRuns(
          client,
          handle.workflowId,
          (handle as unknown as WorkflowHandleWithFirstExecutionRunId).firstExecutionRunId,
        );
        assert.ok(runs.length >= 2, `continued as new (${runs.length} runs)`);

        const requests = fake.messageRequests() as Array<MessagesRequest & Json>;
        assert.equal(requests.length, 4);
        for (const q of requests) {
          assert.deepEqual(q['thinking'], { type: 'enabled', budget_tokens: 3000 });
          assert.equal(q['temperature'], undefined);
        }
        assert.equal(assertThinkingReplayed(fake), 1 + 2 + 3);
        assert.deepEqual(
          requests[3]!.messages
            .filter((m) => m.role === 'assistant')
            .map((m) => (m.content as Block[]).map((b) => b.type)),
          [
            ['thinking', 'tool_use'],
            ['redacted_thinking', 'thinking', 'tool_use'],
            ['thinking', 'tool_use'],
          ],
        );
        fake.assertDone();
      } finally {
        if (saved === undefined) delete process.env.MAX_THINKING_TOKENS;
        else process.env.MAX_THINKING_TOKENS = saved;
        for (const p of procs) killGroup(p);
        await Promise.all(procs.map((p) => p.exited));
      }
    });
  },
);
