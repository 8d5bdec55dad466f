import type { Usage } from './messages';
export declare const DEFAULT_CONTEXT_WINDOW = 200000;
export declare const ONE_MILLION_CONTEXT_WINDOW = 1000000;
/** The beta that gives a model its 1M window; the reference's `[1m]` model suffix asks for it. */
export declare const CONTEXT_1M_BETA = "context-1m-2025-08-07";
/** Output reserved for the summary of a compaction (the reference: p99.99 of summaries ~17k). */
export declare const MAX_OUTPUT_TOKENS_FOR_SUMMARY = 20000;
/** How far below the effective window auto-compaction starts (the reference's buffer). */
export declare const AUTOCOMPACT_BUFFER_TOKENS = 13000;
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
export declare const DEFAULT_KEEP_TOOL_RESULTS = 5;
/** A model id the API knows: the reference's `[1m]` suffix is ours, not the API's. */
export declare function apiModelId(model: string): string;
export declare function wants1mContext(model: string, settings?: ContextSettings): boolean;
/** Betas a request for this model needs (`anthropic-beta`). */
export declare function betasForModel(model: string, settings?: ContextSettings): string[];
/** The model's window: 1M for `[1m]` ids, an explicit setting, else 200k. */
export declare function contextWindowFor(model: string, settings?: ContextSettings): number;
/** The window minus the summary's output reserve (never so small that the threshold goes negative). */
export declare function effectiveContextWindow(model: string, maxOutputTokens: number, settings?: ContextSettings): number;
/** Tokens in use at which the next request compacts first. */
export declare function autoCompactThreshold(model: string, maxOutputTokens: number, settings?: ContextSettings): number;
/** Tokens in use at which old tool results are cleared (before compaction is needed). */
export declare function clearToolResultsThreshold(model: string, maxOutputTokens: number, settings?: ContextSettings): number;
/** Rough token count of anything sent to the API: characters of its JSON / 4 (the reference's rough estimate). */
export declare function estimateTokens(value: unknown): number;
/** Everything a response says the prompt and answer took: input + cache read + cache creation + output. */
export declare function usageTotal(usage: Usage): number;
/** Sums usages, cache counters included (absent counters stay absent, as engine/session's). */
export declare function addUsage(a: Usage, b: Usage | undefined): Usage;
/** The API's answer to a prompt over the window: `400 prompt is too long: 200251 tokens > 200000 maximum`. */
export declare function isPromptTooLong(message: string): boolean;
/** The two numbers of a "prompt is too long" message, when present. */
export declare function promptTooLongTokens(message: string): {
    actual: number;
    limit: number;
} | undefined;
