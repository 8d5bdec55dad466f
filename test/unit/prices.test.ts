// unit: the price list (src/core/prices.ts) and usage by model (src/core/modelUsage.ts), issue 31:
// ids matched by family and date without landing on a neighbour, each token kind at its price (1h
// cache writes, long context, web searches), exact sums, and an unknown model's cost unknown — never 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callCostUsd, priceKey, PRICES } from '../../src/core/prices';
import {
  addModelUsage,
  callModelUsage,
  costText,
  modelUsageTotals,
  sumModelUsage,
  totalCostUsd,
  turnModelUsage,
  unpricedModels,
} from '../../src/core/modelUsage';

test('unit prices: model ids resolve to their family, dates and suffixes dropped, neighbours kept apart', () => {
  const cases: Array<[string, string | undefined]> = [
    ['claude-opus-4-5-20251101', 'claude-opus-4-5'],
    ['claude-opus-4-1-20250805', 'claude-opus-4-1'],
    ['claude-opus-4-20250514', 'claude-opus-4'],
    ['claude-opus-4-0', 'claude-opus-4'],
    ['claude-opus-4-6', 'claude-opus-4-6'],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
    ['claude-sonnet-4-5[1m]', 'claude-sonnet-4-5'],
    ['claude-sonnet-4-20250514', 'claude-sonnet-4'],
    ['claude-sonnet-4-6', 'claude-sonnet-4-6'],
    ['claude-haiku-4-5-20251001', 'claude-haiku-4-5'],
    ['claude-haiku-4-5', 'claude-haiku-4-5'],
    ['claude-3-5-haiku-20241022', 'claude-3-5-haiku'],
    ['claude-3-5-haiku-latest', 'claude-3-5-haiku'],
    ['claude-3-7-sonnet-20250219', 'claude-3-7-sonnet'],
    ['claude-3-haiku-20240307', 'claude-3-haiku'],
    ['claude-3-opus-20240229', 'claude-3-opus'],
    ['anthropic.claude-sonnet-4-5-20250929-v1:0', 'claude-sonnet-4-5'],
    ['us.anthropic.claude-opus-4-1-20250805-v1:0', 'claude-opus-4-1'],
    ['claude-sonnet-4-5@20250929', 'claude-sonnet-4-5'],
    // Not known: never a neighbour's price.
    ['claude-sonnet-4-7', undefined],
    ['claude-opus-4-9', undefined],
    ['claude-haiku-4', undefined],
    ['claude-test', undefined],
    ['gpt-4o', undefined],
    ['claude-opus-4-5-extra', undefined],
  ];
  for (const [id, key] of cases) assert.equal(priceKey(id), key, id);
  // Every price is a multiple of $0.001 per million tokens: counted exactly in nano-dollars.
  for (const [k, p] of Object.entries(PRICES))
    for (const v of [p.input, p.output, p.cacheRead, p.cacheWrite5m, p.cacheWrite1h])
      assert.equal(Math.abs(v * 1000 - Math.round(v * 1000)) < 1e-9, true, `${k} ${v}`);
});

test('unit prices: each kind of token at its price; 1h cache writes, long context and web searches', () => {
  // Sonnet 4.5: $3 in, $15 out, $3.75 5m write, $6 1h write, $0.30 read.
  assert.equal(
    callCostUsd('claude-sonnet-4-5-20250929', {
      input_tokens: 1000,
      output_tokens: 500,
      cache_creation_input_tokens: 2000,
      cache_read_input_tokens: 10000,
    }),
    // 1000*3 + 500*15 + 2000*3.75 + 10000*0.3 = 3000 + 7500 + 7500 + 3000 = 21000 $/M = 0.021
    0.021,
  );
  // The 1h part of the writes at the 1h price.
  assert.equal(
    callCostUsd('claude-sonnet-4-5', {
      input_tokens: 0,
      output_tokens: 0,
      cache_creation_input_tokens: 2000,
      cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 1000 },
    }),
    (1000 * 3.75 + 1000 * 6) / 1e6,
  );
  // Past 200K prompt tokens, Sonnet 4.5's long-context prices apply to the whole request.
  assert.equal(
    callCostUsd('claude-sonnet-4-5[1m]', {
      input_tokens: 150_000,
      output_tokens: 1000,
      cache_read_input_tokens: 60_000,
    }),
    (150_000 * 6 + 1000 * 22.5 + 60_000 * 0.6) / 1e6,
  );
  // Web searches: $10 per 1,000 on top of the tokens (Haiku 4.5: $1 in, $5 out).
  assert.equal(
    callCostUsd('claude-haiku-4-5', {
      input_tokens: 2000,
      output_tokens: 300,
      server_tool_use: { web_search_requests: 3 },
    }),
    (2000 * 1 + 300 * 5) / 1e6 + 0.03,
  );
  // Haiku 3.5 and Opus 4 (the older tiers).
  assert.equal(callCostUsd('claude-3-5-haiku-20241022', { input_tokens: 1_000_000, output_tokens: 0 }), 0.8);
  assert.equal(callCostUsd('claude-opus-4-1', { input_tokens: 0, output_tokens: 1_000_000 }), 75);
  assert.equal(callCostUsd('claude-opus-4-5', { input_tokens: 0, output_tokens: 1_000_000 }), 25);
  // Unknown: null, never 0.
  assert.equal(callCostUsd('claude-test', { input_tokens: 1, output_tokens: 1 }), null);
});

test('unit modelUsage: per-model sums are exact; an unknown model makes the total unknown, its tokens kept', () => {
  const a = callModelUsage('claude-sonnet-4-5', {
    input_tokens: 1234,
    output_tokens: 567,
    cache_read_input_tokens: 89,
  });
  const b = callModelUsage('claude-haiku-4-5', {
    input_tokens: 700,
    output_tokens: 70,
    server_tool_use: { web_search_requests: 2 },
  });
  const c = callModelUsage('claude-sonnet-4-5', { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 3 });
  const sum = sumModelUsage([a, b, c]);
  assert.deepEqual(Object.keys(sum), ['claude-sonnet-4-5', 'claude-haiku-4-5']);
  assert.deepEqual(sum['claude-sonnet-4-5'], {
    inputTokens: 1235,
    outputTokens: 568,
    cacheReadInputTokens: 89,
    cacheCreationInputTokens: 3,
    webSearchRequests: 0,
    // (1234*3 + 567*15 + 89*0.3 + 1*3 + 1*15 + 3*3.75) / 1e6
    costUSD: 0.01226295,
    calls: 2,
  });
  assert.equal(sum['claude-haiku-4-5']!.webSearchRequests, 2);
  assert.equal(sum['claude-haiku-4-5']!.costUSD, 0.02105);
  // 0.01226295 + 0.02105 exactly, as a person adds them.
  assert.equal(totalCostUsd(sum), 0.03331295);
  assert.equal(costText(sum), '$0.033313');
  assert.deepEqual(modelUsageTotals(sum), {
    input_tokens: 1935,
    output_tokens: 638,
    cache_creation_input_tokens: 3,
    cache_read_input_tokens: 89,
    web_search_requests: 2,
  });
  // Many small calls add up exactly.
  let many = {};
  for (let i = 0; i < 1000; i++)
    many = addModelUsage(many, callModelUsage('claude-haiku-4-5', { input_tokens: 1, output_tokens: 1 }));
  assert.equal(totalCostUsd(many), 0.006);

  const unknown = addModelUsage(sum, callModelUsage('claude-test', { input_tokens: 5, output_tokens: 6 }));
  assert.equal(unknown['claude-test']!.costUSD, null);
  assert.equal(unknown['claude-test']!.inputTokens, 5);
  assert.equal(totalCostUsd(unknown), null);
  assert.deepEqual(unpricedModels(unknown), ['claude-test']);
  assert.match(costText(unknown), /^unknown \(no price for claude-test; the priced models: \$0\.033313\)$/);
  assert.equal(totalCostUsd({}), 0);

  // A turn: its call, its compactions, its tool calls' spend; nothing when none carried any (old results).
  assert.equal(turnModelUsage(undefined, undefined, [{}, {}]), undefined);
  assert.deepEqual(turnModelUsage(a, undefined, [{ modelUsage: b }, {}, { modelUsage: c }]), sum);
});
