"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.compactContextWith = compactContextWith;
// One compaction for any scheduler (the core of the `compactContext` activity, `compact-<n>`): PreCompact hooks, then a summarizing model call over the
// model's current view; the summary (with the original task and the recently read files, re-read
// from disk) replaces the older messages in the view. The full transcript is not touched.
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const sdk_1 = __importDefault(require("@anthropic-ai/sdk"));
const contextWindow_1 = require("../engine/contextWindow");
const contextView_1 = require("../engine/contextView");
const modelStep_1 = require("../engine/modelStep");
const promptCache_1 = require("../engine/promptCache");
const hooks_1 = require("../hooks");
const model_1 = require("./model");
const modelRequest_1 = require("./modelRequest");
const MAX_TRUNCATION_RETRIES = 3;
async function restoreFiles(paths, cwd, perFileTokens, totalTokens) {
    const out = [];
    let used = 0;
    for (const p of paths) {
        if (used >= totalTokens)
            break;
        try {
            const text = await (0, promises_1.readFile)((0, node_path_1.resolve)(cwd, p), 'utf8');
            const clipped = text.slice(0, Math.min(perFileTokens, totalTokens - used) * 4);
            used += (0, contextWindow_1.estimateTokens)(clipped);
            out.push({ path: p, content: clipped });
        }
        catch {
            // Gone or unreadable now: the summary still names it.
        }
    }
    return out;
}
function mergeHooks(session, worker) {
    if (!worker)
        return session;
    return { ...session, PreCompact: [...(session.PreCompact ?? []), ...(worker.PreCompact ?? [])] };
}
/** PreCompact hooks: their instructions and notices, or the compaction they blocked (when they may). */
async function preCompact(deps, input, ctx) {
    const hookTrigger = input.trigger === 'manual' ? 'manual' : 'auto';
    const hookResult = await (0, hooks_1.runPreCompactHooks)({ session_id: input.sessionId, cwd: input.cwd, trigger: hookTrigger, custom_instructions: null }, { config: mergeHooks((0, hooks_1.normalizeHooksConfig)(input.hooks), deps.hooks), cwd: input.cwd, signal: ctx.signal });
    if (hookResult.block && (0, modelStep_1.hookMayBlock)(input.trigger === 'reactive' ? 'reactive' : 'auto')) {
        return { kind: 'blocked', reason: hookResult.block.reason, hookRuns: hookResult.runs };
    }
    const notices = [...hookResult.notices];
    if (hookResult.block)
        notices.push(`PreCompact hook "${hookResult.block.hook}" asked to block, but the API refused the prompt as too long: compacted anyway`);
    return { runs: hookResult.runs, instructions: hookResult.instructions, notices };
}
/** The session's context (transcript, tools), heartbeating while MCP servers list their tools. */
async function loadWithHeartbeat(deps, input, ctx) {
    const listing = input.mcp ? setInterval(() => ctx.heartbeat({ phase: 'listing MCP tools' }), 5_000) : undefined;
    try {
        return await (0, modelRequest_1.loadContext)(deps, { ...input, warn: (m) => ctx.warn(m, { sessionId: input.sessionId }) });
    }
    finally {
        if (listing)
            clearInterval(listing);
    }
}
/** The summarizing model call; a prompt the API finds too long loses its oldest rounds (3 times at most). */
async function summarize(deps, input, ctx, tools, messages, prompt, system) {
    const { model, maxTokens } = input.settings;
    const cs = input.contextSettings ?? {};
    let toSummarise = messages;
    const client = deps.anthropic();
    const ticker = setInterval(() => ctx.heartbeat({ phase: 'compacting' }), 5000);
    try {
        for (let tries = 0;; tries++) {
            const shaped = (0, promptCache_1.applyCacheBreakpoints)({ ...(system ? { system } : {}), tools, messages: (0, contextView_1.withCompactionRequest)(toSummarise, prompt) }, cs.promptCaching !== false);
            const betas = (0, contextWindow_1.betasForModel)(model, cs);
            try {
                return await client.messages.create({
                    model: (0, contextWindow_1.apiModelId)(model),
                    max_tokens: Math.min(contextWindow_1.MAX_OUTPUT_TOKENS_FOR_SUMMARY, Math.max(maxTokens, 4096)),
                    messages: shaped.messages,
                    ...(shaped.system ? { system: shaped.system } : {}),
                    ...(shaped.tools.length > 0 ? { tools: shaped.tools } : {}),
                }, {
                    signal: ctx.signal,
                    maxRetries: 0,
                    timeout: 10 * 60_000,
                    ...(betas.length ? { headers: { 'anthropic-beta': betas.join(',') } } : {}),
                });
            }
            catch (err) {
                if (ctx.signal.aborted)
                    throw err;
                const tooLong = err instanceof sdk_1.default.APIError && err.status === 400 && (0, contextWindow_1.isPromptTooLong)(err.message);
                const shorter = tooLong && tries < MAX_TRUNCATION_RETRIES ? (0, contextView_1.dropOldestRounds)(toSummarise) : undefined;
                if (!shorter)
                    throw (0, model_1.classifyModelError)(err);
                ctx.warn('the summarizing request itself was too long; dropping the oldest rounds', { tries });
                toSummarise = shorter;
            }
        }
    }
    finally {
        clearInterval(ticker);
    }
}
function summaryText(final) {
    const text = final.content
        .filter((b) => b.type === 'text')
        .map((b) => b.text)
        .join('\n')
        .trim();
    if (!text)
        throw new model_1.ModelCallError('the summarizing model call returned no text', {
            failureType: 'EmptySummary',
            retryable: true,
        });
    return text;
}
function usageOf(final) {
    return {
        input_tokens: final.usage.input_tokens,
        output_tokens: final.usage.output_tokens,
        ...(final.usage.cache_creation_input_tokens != null
            ? { cache_creation_input_tokens: final.usage.cache_creation_input_tokens }
            : {}),
        ...(final.usage.cache_read_input_tokens != null
            ? { cache_read_input_tokens: final.usage.cache_read_input_tokens }
            : {}),
    };
}
async function compactContextWith(deps, input, ctx) {
    const hooks = await preCompact(deps, input, ctx);
    if ('kind' in hooks)
        return hooks;
    const loaded = await loadWithHeartbeat(deps, input, ctx);
    const { full, summary, tools, fixedTokens, locate } = loaded;
    const { model, maxTokens } = input.settings;
    const budgets = (0, contextView_1.survivalBudgets)((0, contextWindow_1.effectiveContextWindow)(model, maxTokens, input.contextSettings ?? {}));
    // As a model call sends it (deferred tools: `Tool loaded.` after the results that loaded them).
    const toSummarise = loaded.shape((0, contextView_1.buildModelView)(full, summary, input.view, locate));
    const prompt = (0, contextView_1.compactionPrompt)(hooks.instructions.join('\n\n') || undefined);
    const final = await summarize(deps, input, ctx, tools, toSummarise, prompt, loaded.system);
    const text = summaryText(final);
    const files = await restoreFiles((0, contextView_1.recentReadPaths)(full, budgets.maxFiles), input.cwd, budgets.perFile, budgets.filesTotal);
    const fromIndex = input.attempt > 0 ? full.length : (0, contextView_1.chooseKeepFrom)(full, input.view, budgets.keepMessages);
    const message = (0, contextView_1.summaryMessage)({
        task: (0, contextView_1.originalTask)(full),
        summary: text,
        files,
        keptRecent: fromIndex < full.length,
        taskBudget: budgets.task,
        perFileBudget: budgets.perFile,
    });
    const summaryHead = await deps.transcripts.append(null, [message]);
    const draft = { ...input.view, fromIndex, summaryHead, compactions: input.view.compactions + 1 };
    const tokensAfter = fixedTokens + (0, contextWindow_1.estimateTokens)((0, contextView_1.buildModelView)(full, [message], draft, locate));
    const view = { ...draft, baseline: { tokens: tokensAfter, messages: full.length } };
    const hookNote = hooks.runs.length ? hooks.runs.map((r) => `${r.hook}: ${r.outcome}`).join('; ') : undefined;
    const record = {
        n: input.n,
        turn: input.turn,
        trigger: input.trigger,
        tokensBefore: input.tokensBefore,
        tokensAfter,
        summarizedThrough: fromIndex,
        transcriptLength: full.length,
        summaryPreview: text.replace(/\s+/g, ' ').slice(0, 300),
        restoredFiles: files.map((f) => f.path),
        ...(hookNote ? { hook: hookNote } : {}),
    };
    return { kind: 'compacted', view, record, usage: usageOf(final), hookRuns: hooks.runs, notices: hooks.notices };
}
//# sourceMappingURL=compact.js.map