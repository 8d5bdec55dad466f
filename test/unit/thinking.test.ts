// unit: extended thinking the reference's way (issue 31 item 8): which models think how
// (src/core/thinking.ts), the session's setting from flags, env and settings, what the edge
// refuses (src/sessionInput.ts), and the request a model call sends (src/runtime/modelRequest.ts):
// the `thinking` parameter, budget below max_tokens, no temperature with it, thinking blocks as
// stored, byte for byte and in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bindsThinkingPrefix,
  resolveThinkingSetting,
  THINKING_BINDING_BETA,
  thinkingModeFor,
  thinkingRequest,
} from '../../src/core/thinking';
import { prepareModelRequest } from '../../src/runtime/modelRequest';
import { LocalBlobStore, TranscriptStore } from '../../src/stores/messageStore';
import { sessionInput, sessionInputProblems, thinkingFromEnv } from '../../src/sessionInput';
import type { Message } from '../../src/core/apiMessages';

test('unit thinking: models think as the reference decides (none before Claude 4, a budget to 4.5, adaptive from 4.6 and for names it cannot place)', () => {
  const cases: Array<[string, string]> = [
    ['claude-3-7-sonnet-20250219', 'none'],
    ['claude-3-5-haiku-latest', 'none'],
    ['claude-opus-4-20250514', 'budget'],
    ['claude-opus-4-1', 'budget'],
    ['claude-sonnet-4-5-20250929', 'budget'],
    ['claude-haiku-4-5', 'budget'],
    ['claude-opus-4-5-20251101', 'budget'],
    ['claude-opus-4-6', 'adaptive'],
    ['claude-sonnet-4-6[1m]', 'adaptive'],
    ['claude-opus-4-7', 'adaptive'],
    ['claude-sonnet-5-5', 'adaptive'],
    ['claude-fable-5-1', 'adaptive'],
    ['fake-model', 'adaptive'],
  ];
  for (const [model, mode] of cases) assert.equal(thinkingModeFor(model), mode, model);
  assert.equal(bindsThinkingPrefix('claude-fable-5-1'), true);
  assert.equal(bindsThinkingPrefix('claude-fable-5'), false);
  assert.equal(bindsThinkingPrefix('claude-sonnet-5-5'), false);
});

test('unit thinking: the request parameter — adaptive, or a budget below max_tokens and at least 1024; off sends nothing', () => {
  assert.deepEqual(thinkingRequest('claude-sonnet-5-5', 8192, { type: 'adaptive' }), {
    thinking: { type: 'adaptive' },
    betas: [],
  });
  // MAX_THINKING_TOKENS on an adaptive model: still adaptive (the reference sends no budget there).
  assert.deepEqual(thinkingRequest('claude-opus-4-6', 8192, { type: 'enabled', budgetTokens: 4000 }).thinking, {
    type: 'adaptive',
  });
  // A budget model: the given budget, else the model's output limit - 1, never ≥ max_tokens.
  assert.deepEqual(thinkingRequest('claude-sonnet-4-5', 8192, { type: 'enabled', budgetTokens: 4000 }).thinking, {
    type: 'enabled',
    budget_tokens: 4000,
  });
  assert.deepEqual(thinkingRequest('claude-sonnet-4-5', 8192, { type: 'adaptive' }).thinking, {
    type: 'enabled',
    budget_tokens: 8191,
  });
  assert.deepEqual(thinkingRequest('claude-opus-4-1', 64_000, { type: 'adaptive' }).thinking, {
    type: 'enabled',
    budget_tokens: 31_999,
  });
  assert.deepEqual(thinkingRequest('claude-sonnet-4-5', 100_000, { type: 'enabled', budgetTokens: 200_000 }).thinking, {
    type: 'enabled',
    budget_tokens: 99_999,
  });
  // No budget of at least 1024 fits below max_tokens 1024: none (the API would refuse it).
  assert.deepEqual(thinkingRequest('claude-sonnet-4-5', 1024, { type: 'adaptive' }), { betas: [] });
  assert.deepEqual(thinkingRequest('claude-sonnet-5-5', 8192, { type: 'disabled' }), { betas: [] });
  assert.deepEqual(thinkingRequest('claude-sonnet-5-5', 8192, undefined), { betas: [] }, 'a session from before');
  assert.deepEqual(thinkingRequest('claude-3-7-sonnet', 8192, { type: 'adaptive' }), { betas: [] });
  // Preserved thinking: a prefix that changed (compaction) drops the block instead of a 400.
  assert.deepEqual(thinkingRequest('claude-fable-5-1', 8192, { type: 'adaptive' }), {
    thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } },
    betas: [THINKING_BINDING_BETA],
  });
});

test('unit thinking: the session setting — --thinking, then MAX_THINKING_TOKENS, then --max-thinking-tokens, then alwaysThinkingEnabled, on by default', () => {
  assert.deepEqual(resolveThinkingSetting({}), { type: 'adaptive' });
  assert.deepEqual(resolveThinkingSetting({ alwaysThinkingEnabled: false }), { type: 'disabled' });
  assert.deepEqual(resolveThinkingSetting({ alwaysThinkingEnabled: true }), { type: 'adaptive' });
  assert.deepEqual(resolveThinkingSetting({ envMaxThinkingTokens: 5000, alwaysThinkingEnabled: false }), {
    type: 'enabled',
    budgetTokens: 5000,
  });
  assert.deepEqual(resolveThinkingSetting({ envMaxThinkingTokens: 0 }), { type: 'disabled' });
  assert.deepEqual(resolveThinkingSetting({ envMaxThinkingTokens: 3000, flagMaxThinkingTokens: 9000 }), {
    type: 'enabled',
    budgetTokens: 3000,
  });
  assert.deepEqual(resolveThinkingSetting({ flagMaxThinkingTokens: 9000 }), { type: 'enabled', budgetTokens: 9000 });
  assert.deepEqual(resolveThinkingSetting({ flag: 'enabled', envMaxThinkingTokens: 0 }), { type: 'adaptive' });
  assert.deepEqual(resolveThinkingSetting({ flag: 'disabled' }), { type: 'disabled' });
  assert.deepEqual(resolveThinkingSetting({ disableThinking: true, flag: 'adaptive' }), { type: 'disabled' });
  assert.deepEqual(thinkingFromEnv({ MAX_THINKING_TOKENS: '2048' }), { type: 'enabled', budgetTokens: 2048 });
  assert.deepEqual(thinkingFromEnv({ CLAUDE_CODE_DISABLE_THINKING: '1' }), { type: 'disabled' });
  assert.throws(() => thinkingFromEnv({ MAX_THINKING_TOKENS: 'lots' }), /MAX_THINKING_TOKENS "lots"/);
});

test('unit thinking: the edge fills the setting and refuses what the API would (a budget below 1024, temperature with thinking)', () => {
  const input = sessionInput({ prompt: 'hi', cwd: '/tmp' });
  assert.deepEqual(input.model.thinking, process.env.MAX_THINKING_TOKENS ? input.model.thinking : { type: 'adaptive' });
  const bad = (model: Record<string, unknown>) =>
    sessionInputProblems({ ...input, model: { ...input.model, ...model } }).join('\n');
  assert.match(bad({ thinking: { type: 'enabled', budgetTokens: 500 } }), /at least 1024/);
  assert.match(bad({ thinking: { type: 'sometimes' } }), /model\.thinking must be/);
  assert.match(
    bad({ thinking: { type: 'adaptive' }, temperature: 0.2 }),
    /temperature cannot be set while thinking is on/,
  );
  assert.equal(bad({ thinking: { type: 'disabled' }, temperature: 0.2 }), '');
  assert.equal(bad({ thinking: { type: 'enabled', budgetTokens: 1024 } }), '');
});

const THINKING_A = {
  type: 'thinking' as const,
  thinking: 'Let me look at the file first.\n',
  signature: 'c2lnLUEK/+==',
};
const REDACTED = { type: 'redacted_thinking' as const, data: 'RW5jcnlwdGVkIHRoaW5raW5n+/==' };
const THINKING_B = { type: 'thinking' as const, thinking: 'Now the \u00e9dit — "quoted"', signature: 'c2lnLUIK==' };

test('unit thinking: the request carries the thinking parameter, no temperature, and the stored thinking blocks byte for byte, in order', async () => {
  const transcripts = new TranscriptStore(new LocalBlobStore(await mkdtemp(join(tmpdir(), 'thinking-'))));
  const conversation: Message[] = [
    { role: 'user', content: 'fix it' },
    {
      role: 'assistant',
      content: [THINKING_A, REDACTED, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/a' } }],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] },
    {
      role: 'assistant',
      content: [
        THINKING_B,
        { type: 'text', text: 'editing' },
        { type: 'tool_use', id: 'toolu_2', name: 'Read', input: {} },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'y' }] },
  ];
  const head = await transcripts.append(null, conversation);
  const deps = { transcripts, toolDefinitions: () => Promise.resolve([]) };
  const prepared = await prepareModelRequest(deps, {
    sessionId: 's',
    head,
    settings: { model: 'claude-sonnet-4-5', maxTokens: 8192, temperature: 0.3, thinking: { type: 'adaptive' } },
    toolNames: [],
  });
  assert.equal(prepared.kind, 'request');
  if (prepared.kind !== 'request') return;
  assert.deepEqual(prepared.params.thinking, { type: 'enabled', budget_tokens: 8191 });
  assert.equal('temperature' in prepared.params, false);
  const sent = JSON.stringify(prepared.params.messages);
  const blocks = prepared.params.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
  const thinkingBlocks = blocks.filter((b) => b.type === 'thinking' || b.type === 'redacted_thinking');
  assert.deepEqual(thinkingBlocks, [THINKING_A, REDACTED, THINKING_B]);
  for (const b of [THINKING_A, REDACTED, THINKING_B]) assert.ok(sent.includes(JSON.stringify(b)), 'byte-identical');
  // Without thinking the temperature goes as set, and nothing asks for thinking.
  const off = await prepareModelRequest(deps, {
    sessionId: 's',
    head,
    settings: { model: 'claude-sonnet-4-5', maxTokens: 8192, temperature: 0.3, thinking: { type: 'disabled' } },
    toolNames: [],
  });
  assert.ok(off.kind === 'request');
  assert.equal((off.params as { temperature?: number }).temperature, 0.3);
  assert.equal(off.params.thinking, undefined);
  // A binding model gets its beta.
  const fable = await prepareModelRequest(deps, {
    sessionId: 's',
    head,
    settings: { model: 'claude-fable-5-1', maxTokens: 8192, thinking: { type: 'adaptive' } },
    toolNames: [],
  });
  assert.ok(fable.kind === 'request' && fable.betas.includes(THINKING_BINDING_BETA));
});

test('unit thinking: a session with thinking on — three answers with thinking, redacted thinking and tool use; the fake (which checks blocks as the API does) gets each back exactly, in order', async () => {
  const { startFakeAnthropic } = await import('../../src/testing/fakeAnthropic');
  const { runLocalSession } = await import('../../src/inprocess/runSession');
  const { TEST_TOOLS } = await import('../support/testTools');
  const Anthropic = (await import('@anthropic-ai/sdk')).default;
  const { writeFile } = await import('node:fs/promises');
  const work = await mkdtemp(join(tmpdir(), 'da-think-'));
  const store = await mkdtemp(join(tmpdir(), 'da-think-store-'));
  await writeFile(join(work, 'a.txt'), 'alpha\n');
  const fake = await startFakeAnthropic({
    responses: [
      {
        content: [
          { type: 'thinking', thinking: 'First I read a.txt — "carefully".' },
          { type: 'redacted_thinking' },
          { type: 'tool_use', name: 'Read', input: { file_path: join(work, 'a.txt') } },
        ],
      },
      {
        content: [
          { type: 'thinking', thinking: 'It says alpha. Read it again.' },
          { type: 'text', text: 'Once more.' },
          { type: 'tool_use', name: 'Read', input: { file_path: join(work, 'a.txt') } },
          { type: 'thinking', thinking: 'Interleaved: after the tool call.' },
        ],
      },
      {
        content: [
          { type: 'thinking', thinking: 'Done.' },
          { type: 'text', text: 'alpha, twice' },
        ],
      },
    ],
  });
  try {
    const result = await runLocalSession(
      {
        prompt: 'read a.txt',
        cwd: work,
        permissionMode: 'bypassPermissions',
        model: { model: 'claude-sonnet-4-5', maxTokens: 4096, thinking: { type: 'enabled', budgetTokens: 2048 } },
      },
      {
        tools: TEST_TOOLS,
        storeDir: store,
        anthropic: () => new Anthropic({ apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 }),
      },
    );
    assert.equal(result.status, 'completed', result.endReason);
    fake.assertDone();
    const bodies = fake.messageRequests() as unknown as Array<Record<string, unknown>>;
    assert.equal(bodies.length, 3);
    for (const b of bodies) {
      assert.deepEqual(b.thinking, { type: 'enabled', budget_tokens: 2048 });
      assert.equal('temperature' in b, false);
    }
    // What the fake sent, as the SDK read it off the wire, comes back byte for byte in every later request.
    const sent = fake.requests.map((r) => r.response?.message).filter((m) => m !== undefined);
    const assistantOf = (body: Record<string, unknown>) =>
      (body.messages as Array<{ role: string; content: unknown }>).filter((m) => m.role === 'assistant');
    assert.equal(
      JSON.stringify(assistantOf(bodies[1] as Record<string, unknown>)[0]?.content),
      JSON.stringify(sent[0]?.content),
    );
    const third = assistantOf(bodies[2] as Record<string, unknown>);
    assert.equal(JSON.stringify(third[0]?.content), JSON.stringify(sent[0]?.content));
    assert.equal(JSON.stringify(third[1]?.content), JSON.stringify(sent[1]?.content));
  } finally {
    await fake.close();
  }
});

test('unit thinking: the fake refuses a changed signature, changed text, a reordered or dropped block, like the API', async () => {
  const { ThinkingLedger, fakeSignature } = await import('../../src/testing/fakeAnthropic');
  const ledger = new ThinkingLedger();
  const a = { type: 'thinking', thinking: 'one', signature: fakeSignature('one') };
  const r = { type: 'redacted_thinking', data: 'ZGF0YQ==' };
  const use = { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} };
  ledger.record({
    id: 'm',
    type: 'message',
    role: 'assistant',
    model: 'x',
    content: [a as never, r as never, use as never],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  });
  const req = (content: unknown[], extra: Record<string, unknown> = {}) =>
    ({
      model: 'x',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] },
      ],
      ...extra,
    }) as never;
  assert.equal(ledger.check(req([a, r, use])), undefined);
  assert.match(ledger.check(req([{ ...a, signature: `${a.signature}x` }, r, use])) ?? '', /Invalid `signature`/);
  assert.match(ledger.check(req([{ ...a, thinking: 'one ' }, r, use])) ?? '', /Invalid `signature`/);
  assert.match(ledger.check(req([r, a, use])) ?? '', /in the order the model produced them/);
  assert.match(ledger.check(req([a, use])) ?? '', /complete, unmodified/);
  assert.match(ledger.check(req([use])) ?? '', /must start with a thinking block/);
  assert.match(ledger.check(req([a, r, use], { temperature: 0.5 })) ?? '', /temperature/);
  assert.match(
    ledger.check(req([a, r, use], { thinking: { type: 'enabled', budget_tokens: 5000 } })) ?? '',
    /`max_tokens` must be greater/,
  );
});
