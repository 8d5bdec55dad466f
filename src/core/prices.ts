// The price list: what one model call costs, in US dollars, from the usage the API reported for it.
// The ONLY place prices live (issue 31, invariant 17 "Spend is state"): change them here, nowhere else.
//
// Source: Anthropic's published prices, https://platform.claude.com/docs/en/about-claude/pricing
// ("Model pricing": base input, 5m cache writes, 1h cache writes, cache hits and refreshes, output,
// per million tokens; "Long context pricing": Sonnet 4 and 4.5 past 200K input tokens with the 1M
// context beta, input $6 and output $22.50, the cache prices at the same multipliers of input; no
// long-context row was found for the 4.6+ models, so none is applied to them), and the web search
// tool's $10 per 1,000 searches on top of the tokens (Anthropic's web search tool documentation; the
// figure was read from secondary pages quoting it, not from Anthropic's own page — check it there).
// Read on 2026-12-05. Batch, fast-mode, data-residency and third-party platforms' prices are not
// modelled: durable-agent sends neither batches nor those options.
//
// A model this list does not know is not priced at 0: its cost is null (unknown) and every total
// that includes it says so (core/modelUsage.ts). Ids are matched exactly after normalising: the
// `[1m]` suffix, a `-YYYYMMDD` or `@YYYYMMDD` date, `-latest`, a Bedrock `anthropic.`/`<region>.anthropic.`
// prefix and `-v1:0` suffix are dropped, and `-0` aliases (`claude-opus-4-0`) are the bare family; so
// `claude-opus-4-5-20251101` is Opus 4.5, never Opus 4, and `claude-sonnet-4-7` is unknown.
//
// Costs are counted in whole nano-dollars (1e-9 USD): every price here is a multiple of $0.001 per
// million tokens, so a call's cost and any sum of calls are exact integers, and the dollars printed
// are the decimal a person would compute by hand.

/** USD per million tokens, and per web search request. */
export interface ModelPrice {
  input: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  cacheRead: number;
  output: number;
  /** Prices past `threshold` input tokens (input + cache reads + cache writes) in one request, when they differ. */
  longContext?: { threshold: number } & Omit<ModelPrice, 'longContext'>;
}

/** The web search tool: $10 per 1,000 searches. */
export const WEB_SEARCH_USD_PER_REQUEST = 10 / 1000;
/** When the prices were read from the source above. */
export const PRICES_AS_OF = '2026-12-05';

const OPUS_4_5: ModelPrice = { input: 5, cacheWrite5m: 6.25, cacheWrite1h: 10, cacheRead: 0.5, output: 25 };
const OPUS_4: ModelPrice = { input: 15, cacheWrite5m: 18.75, cacheWrite1h: 30, cacheRead: 1.5, output: 75 };
const SONNET: ModelPrice = { input: 3, cacheWrite5m: 3.75, cacheWrite1h: 6, cacheRead: 0.3, output: 15 };
const SONNET_LONG: ModelPrice = {
  ...SONNET,
  longContext: { threshold: 200_000, input: 6, cacheWrite5m: 7.5, cacheWrite1h: 12, cacheRead: 0.6, output: 22.5 },
};
const HAIKU_4_5: ModelPrice = { input: 1, cacheWrite5m: 1.25, cacheWrite1h: 2, cacheRead: 0.1, output: 5 };
const HAIKU_3_5: ModelPrice = { input: 0.8, cacheWrite5m: 1, cacheWrite1h: 1.6, cacheRead: 0.08, output: 4 };
const HAIKU_3: ModelPrice = { input: 0.25, cacheWrite5m: 0.3, cacheWrite1h: 0.5, cacheRead: 0.03, output: 1.25 };

/** By normalised model id (see `priceKey`). */
export const PRICES: Readonly<Record<string, ModelPrice>> = {
  'claude-opus-5': OPUS_4_5,
  'claude-opus-4-8': OPUS_4_5,
  'claude-opus-4-7': OPUS_4_5,
  'claude-opus-4-6': OPUS_4_5,
  'claude-opus-4-5': OPUS_4_5,
  'claude-opus-4-1': OPUS_4,
  'claude-opus-4': OPUS_4,
  'claude-sonnet-4-6': SONNET,
  'claude-sonnet-4-5': SONNET_LONG,
  'claude-sonnet-4': SONNET_LONG,
  'claude-3-7-sonnet': SONNET,
  'claude-3-5-sonnet': SONNET,
  'claude-haiku-4-5': HAIKU_4_5,
  'claude-3-5-haiku': HAIKU_3_5,
  'claude-3-opus': OPUS_4,
  'claude-3-haiku': HAIKU_3,
};

/** The key a model id is priced under (see the header); undefined if nothing matches. */
export function priceKey(model: string): string | undefined {
  let id = model.trim().toLowerCase();
  id = id.replace(/\[1m\]$/, '');
  id = id.replace(/^(?:[a-z]{2,4}\.)?anthropic\./, '').replace(/-v\d+(?::\d+)?$/, '');
  id = id.replace(/[-@]\d{8}$/, '').replace(/-latest$/, '');
  if (PRICES[id]) return id;
  const bare = id.replace(/-0$/, '');
  return PRICES[bare] ? bare : undefined;
}

export function priceOf(model: string): ModelPrice | undefined {
  const k = priceKey(model);
  return k ? PRICES[k] : undefined;
}

/** What the API reports of one call, as far as the price depends on it (the SDK's Usage fits; nulls are 0). */
export interface BilledUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  /** The split of `cache_creation_input_tokens` by TTL; absent: all of it at the 5-minute price. */
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null;
  server_tool_use?: { web_search_requests?: number | null } | null;
}

/** USD per million tokens → nano-dollars per token (exact for prices in steps of $0.001). */
const perToken = (usdPerMTok: number): number => Math.round(usdPerMTok * 1000);

/** One call's cost in nano-dollars, or null when the model has no price here. */
export function callCostNanos(model: string, u: BilledUsage): number | null {
  const base = priceOf(model);
  if (!base) return null;
  const write = u.cache_creation_input_tokens ?? 0;
  const read = u.cache_read_input_tokens ?? 0;
  const prompt = u.input_tokens + write + read;
  const p = base.longContext && prompt > base.longContext.threshold ? base.longContext : base;
  const w1h = Math.min(write, u.cache_creation?.ephemeral_1h_input_tokens ?? 0);
  const w5m = write - w1h;
  const searches = u.server_tool_use?.web_search_requests ?? 0;
  return (
    u.input_tokens * perToken(p.input) +
    w5m * perToken(p.cacheWrite5m) +
    w1h * perToken(p.cacheWrite1h) +
    read * perToken(p.cacheRead) +
    u.output_tokens * perToken(p.output) +
    searches * Math.round(WEB_SEARCH_USD_PER_REQUEST * 1e9)
  );
}

/** Nano-dollars → dollars (the decimal a person computes by hand). */
export const nanosToUsd = (n: number): number => n / 1e9;
/** Dollars (a sum of nanosToUsd values) → nano-dollars. */
export const usdToNanos = (usd: number): number => Math.round(usd * 1e9);

/** One call's cost in US dollars, or null when the model has no price here. */
export function callCostUsd(model: string, u: BilledUsage): number | null {
  const n = callCostNanos(model, u);
  return n === null ? null : nanosToUsd(n);
}
