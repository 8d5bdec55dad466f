// The context window, the reference's way: the window per model, the auto-compact threshold below
// it, and the estimate of tokens in use (last response's usage + what was added since).
// Pure: no clocks, no env — the client reads settings and env once and passes them in.
import type { Usage } from './apiMessages';

export const DEFAULT_CONTEXT_WINDOW = 200_000;
export const ONE_MILLION_CONTEXT_WINDOW = 1_000_000;
/** The beta that gives a model its 1M window; the reference's `[1m]` model suffix asks for it. */
export const CONTEXT_1M_BETA = 'context-1m-2025-08-07';
/** Output reserved for the summary of a compaction (the reference: p99.99 of summaries ~17k). */
export const MAX_OUTPUT_TOKENS_FOR_SUMMARY = 20_000;
/** How far below the effective window auto-compaction starts (the reference's buffer). */
export const AUTOCOMPACT_BUFFER_TOKENS = 13_000;

/** Context management settings of a session (each has a reference setting or env var, see README). */
export interface ContextSettings {
  /** `autoCompactEnabled` / DISABLE_AUTO_COMPACT, DISABLE_COMPACT. Default true. */
  autoCompact?: boolean;
  /** CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: compact at this % of the effective window (can only lower the threshold). */
  autoCompactPct?: number;
  /** CLAUDE_CODE_AUTO_COMPACT_WINDOW: the window compaction works against (min with the model's). */
  autoCompactWindow?: number;
  /** The model's window when it is not the default (a custom endpoint). */
  contextWindow?: number;
  /** CLAUDE_CODE_DISABLE_1M_CONTEXT: a `[1m]` model gets the default window and no beta. */
  disable1mContext?: boolean;
  /** Tool results kept whole when older ones are cleared. Default 5. */
  keepToolResults?: number;
  /** Clear old tool results once this many tokens are in use. Default: half the auto-compact threshold. */
  clearToolResultsAt?: number;
  /** DISABLE_PROMPT_CACHING: send no cache_control breakpoints. Default: caching on. */
  promptCaching?: boolean;
  /**
   * ENABLE_TOOL_SEARCH: deferred tools behind ToolSearch (docs/tools.md). `auto` (the edge's
   * default): once the deferrable tools' schemas reach `toolSearchPct` of the window; `on`: always;
   * `off` or absent (sessions started before tool search): every schema up front.
   */
  toolSearch?: 'on' | 'off' | 'auto';
  /** auto's threshold, % of the context window (ENABLE_TOOL_SEARCH=auto:N). Default 10. */
  toolSearchPct?: number;
}

export const DEFAULT_KEEP_TOOL_RESULTS = 5;

/** A model id the API knows: the reference's `[1m]` suffix is ours, not the API's. */
export function apiModelId(model: string): string {
  return model.replace(/\[1m\]$/i, '');
}

export function wants1mContext(model: string, settings: ContextSettings = {}): boolean {
  return /\[1m\]$/i.test(model) && !settings.disable1mContext;
}

/** Betas a request for this model needs (`anthropic-beta`). */
export function betasForModel(model: string, settings: ContextSettings = {}): string[] {
  return wants1mContext(model, settings) ? [CONTEXT_1M_BETA] : [];
}

/** The model's window: 1M for `[1m]` ids, an explicit setting, else 200k. */
export function contextWindowFor(model: string, settings: ContextSettings = {}): number {
  if (settings.contextWindow !== undefined && settings.contextWindow > 0) return settings.contextWindow;
  return wants1mContext(model, settings) ? ONE_MILLION_CONTEXT_WINDOW : DEFAULT_CONTEXT_WINDOW;
}

/** The window minus the summary's output reserve (never so small that the threshold goes negative). */
export function effectiveContextWindow(model: string, maxOutputTokens: number, settings: ContextSettings = {}): number {
  const reserved = Math.min(maxOutputTokens, MAX_OUTPUT_TOKENS_FOR_SUMMARY);
  let window = contextWindowFor(model, settings);
  if (settings.autoCompactWindow !== undefined && settings.autoCompactWindow > 0)
    window = Math.min(window, settings.autoCompactWindow);
  return Math.max(window - reserved, reserved + AUTOCOMPACT_BUFFER_TOKENS);
}

/** Tokens in use at which the next request compacts first. */
export function autoCompactThreshold(model: string, maxOutputTokens: number, settings: ContextSettings = {}): number {
  const effective = effectiveContextWindow(model, maxOutputTokens, settings);
  const threshold = effective - AUTOCOMPACT_BUFFER_TOKENS;
  const pct = settings.autoCompactPct;
  if (pct !== undefined && pct > 0 && pct <= 100) return Math.min(Math.floor(effective * (pct / 100)), threshold);
  return threshold;
}

/** Tokens in use at which old tool results are cleared (before compaction is needed). */
export function clearToolResultsThreshold(
  model: string,
  maxOutputTokens: number,
  settings: ContextSettings = {},
): number {
  if (settings.clearToolResultsAt !== undefined && settings.clearToolResultsAt > 0) return settings.clearToolResultsAt;
  return Math.floor(autoCompactThreshold(model, maxOutputTokens, settings) / 2);
}

/** Rough token count of anything sent to the API: characters of its JSON / 4 (the reference's rough estimate). */
export function estimateTokens(value: unknown): number {
  if (value === undefined || value === null) return 0;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return Math.ceil(text.length / 4);
}

/** Everything a response says the prompt and answer took: input + cache read + cache creation + output. */
export function usageTotal(usage: Usage): number {
  return (
    usage.input_tokens +
    (usage.cache_read_input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0) +
    usage.output_tokens
  );
}

/** Sums usages, cache counters included (absent counters stay absent); the session's totals use it too. */
export function addUsage(a: Usage, b: Usage | undefined): Usage {
  if (!b) return a;
  const out: Usage = {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
  };
  for (const k of ['cache_creation_input_tokens', 'cache_read_input_tokens'] as const) {
    if (a[k] !== undefined || b[k] !== undefined) out[k] = (a[k] ?? 0) + (b[k] ?? 0);
  }
  return out;
}

/** The API's answer to a prompt over the window: `400 prompt is too long: 200251 tokens > 200000 maximum`. */
export function isPromptTooLong(message: string): boolean {
  return /prompt is too long/i.test(message);
}

/** The two numbers of a "prompt is too long" message, when present. */
export function promptTooLongTokens(message: string): { actual: number; limit: number } | undefined {
  const m = /(\d+)\s*tokens\s*>\s*(\d+)/i.exec(message);
  return m ? { actual: Number(m[1]), limit: Number(m[2]) } : undefined;
}
