"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_KEEP_TOOL_RESULTS = exports.AUTOCOMPACT_BUFFER_TOKENS = exports.MAX_OUTPUT_TOKENS_FOR_SUMMARY = exports.CONTEXT_1M_BETA = exports.ONE_MILLION_CONTEXT_WINDOW = exports.DEFAULT_CONTEXT_WINDOW = void 0;
exports.apiModelId = apiModelId;
exports.wants1mContext = wants1mContext;
exports.betasForModel = betasForModel;
exports.contextWindowFor = contextWindowFor;
exports.effectiveContextWindow = effectiveContextWindow;
exports.autoCompactThreshold = autoCompactThreshold;
exports.clearToolResultsThreshold = clearToolResultsThreshold;
exports.estimateTokens = estimateTokens;
exports.usageTotal = usageTotal;
exports.addUsage = addUsage;
exports.isPromptTooLong = isPromptTooLong;
exports.promptTooLongTokens = promptTooLongTokens;
exports.DEFAULT_CONTEXT_WINDOW = 200_000;
exports.ONE_MILLION_CONTEXT_WINDOW = 1_000_000;
/** The beta that gives a model its 1M window; the reference's `[1m]` model suffix asks for it. */
exports.CONTEXT_1M_BETA = 'context-1m-2025-08-07';
/** Output reserved for the summary of a compaction (the reference: p99.99 of summaries ~17k). */
exports.MAX_OUTPUT_TOKENS_FOR_SUMMARY = 20_000;
/** How far below the effective window auto-compaction starts (the reference's buffer). */
exports.AUTOCOMPACT_BUFFER_TOKENS = 13_000;
exports.DEFAULT_KEEP_TOOL_RESULTS = 5;
/** A model id the API knows: the reference's `[1m]` suffix is ours, not the API's. */
function apiModelId(model) {
    return model.replace(/\[1m\]$/i, '');
}
function wants1mContext(model, settings = {}) {
    return /\[1m\]$/i.test(model) && !settings.disable1mContext;
}
/** Betas a request for this model needs (`anthropic-beta`). */
function betasForModel(model, settings = {}) {
    return wants1mContext(model, settings) ? [exports.CONTEXT_1M_BETA] : [];
}
/** The model's window: 1M for `[1m]` ids, an explicit setting, else 200k. */
function contextWindowFor(model, settings = {}) {
    if (settings.contextWindow !== undefined && settings.contextWindow > 0)
        return settings.contextWindow;
    return wants1mContext(model, settings) ? exports.ONE_MILLION_CONTEXT_WINDOW : exports.DEFAULT_CONTEXT_WINDOW;
}
/** The window minus the summary's output reserve (never so small that the threshold goes negative). */
function effectiveContextWindow(model, maxOutputTokens, settings = {}) {
    const reserved = Math.min(maxOutputTokens, exports.MAX_OUTPUT_TOKENS_FOR_SUMMARY);
    let window = contextWindowFor(model, settings);
    if (settings.autoCompactWindow !== undefined && settings.autoCompactWindow > 0)
        window = Math.min(window, settings.autoCompactWindow);
    return Math.max(window - reserved, reserved + exports.AUTOCOMPACT_BUFFER_TOKENS);
}
/** Tokens in use at which the next request compacts first. */
function autoCompactThreshold(model, maxOutputTokens, settings = {}) {
    const effective = effectiveContextWindow(model, maxOutputTokens, settings);
    const threshold = effective - exports.AUTOCOMPACT_BUFFER_TOKENS;
    const pct = settings.autoCompactPct;
    if (pct !== undefined && pct > 0 && pct <= 100)
        return Math.min(Math.floor(effective * (pct / 100)), threshold);
    return threshold;
}
/** Tokens in use at which old tool results are cleared (before compaction is needed). */
function clearToolResultsThreshold(model, maxOutputTokens, settings = {}) {
    if (settings.clearToolResultsAt !== undefined && settings.clearToolResultsAt > 0)
        return settings.clearToolResultsAt;
    return Math.floor(autoCompactThreshold(model, maxOutputTokens, settings) / 2);
}
/** Rough token count of anything sent to the API: characters of its JSON / 4 (the reference's rough estimate). */
function estimateTokens(value) {
    if (value === undefined || value === null)
        return 0;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    return Math.ceil(text.length / 4);
}
/** Everything a response says the prompt and answer took: input + cache read + cache creation + output. */
function usageTotal(usage) {
    return (usage.input_tokens +
        (usage.cache_read_input_tokens ?? 0) +
        (usage.cache_creation_input_tokens ?? 0) +
        usage.output_tokens);
}
/** Sums usages, cache counters included (absent counters stay absent, as engine/session's). */
function addUsage(a, b) {
    if (!b)
        return a;
    const out = {
        input_tokens: a.input_tokens + b.input_tokens,
        output_tokens: a.output_tokens + b.output_tokens,
    };
    for (const k of ['cache_creation_input_tokens', 'cache_read_input_tokens']) {
        if (a[k] !== undefined || b[k] !== undefined)
            out[k] = (a[k] ?? 0) + (b[k] ?? 0);
    }
    return out;
}
/** The API's answer to a prompt over the window: `400 prompt is too long: 200251 tokens > 200000 maximum`. */
function isPromptTooLong(message) {
    return /prompt is too long/i.test(message);
}
/** The two numbers of a "prompt is too long" message, when present. */
function promptTooLongTokens(message) {
    const m = /(\d+)\s*tokens\s*>\s*(\d+)/i.exec(message);
    return m ? { actual: Number(m[1]), limit: Number(m[2]) } : undefined;
}
//# sourceMappingURL=contextWindow.js.map