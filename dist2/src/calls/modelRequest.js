"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.loadContext = loadContext;
exports.prepareModelRequest = prepareModelRequest;
// Shaping a Messages API request from the stored transcript: the model's view (compaction summary,
// cleared old tool results), the decision to compact first, cache breakpoints and the `[1m]` beta.
// The decisions are the engine's (pure); this file does the loading and storing around them.
const promises_1 = require("node:fs/promises");
const agent_1 = require("../tools/builtin/agent");
const definitions_1 = require("../agents/definitions");
const node_path_1 = require("node:path");
const contextWindow_1 = require("../engine/contextWindow");
const toolSearch_1 = require("../tools/toolSearch");
const contextView_1 = require("../engine/contextView");
const messages_1 = require("../engine/messages");
const promptCache_1 = require("../engine/promptCache");
async function loadContext(deps, input) {
    const [full, summary, defined] = await Promise.all([
        deps.transcripts.load(input.head),
        input.view.summaryHead ? deps.transcripts.load(input.view.summaryHead) : Promise.resolve([]),
        deps.toolDefinitions(input.toolNames, input.denyRules, input.mcp, input.warn),
    ]);
    // The Agent tool's description lists the session's agent types.
    const agents = input.agents ? (0, definitions_1.agentsNotDenied)(input.agents, input.denyRules ?? []) : undefined;
    const described = agents
        ? defined.map((t) => (t.name === agent_1.AgentTool.name ? { ...t, description: (0, agent_1.agentToolPrompt)(agents) } : t))
        : defined;
    // Deferred tools (docs/tools.md "Deferred tools and ToolSearch"): decided from the transcript alone.
    const cs = input.contextSettings ?? {};
    const deferral = (0, toolSearch_1.deferTools)(described, full, (0, contextView_1.buildModelView)(full, summary, input.view), {
        mode: cs.toolSearch ?? 'off',
        pct: cs.toolSearchPct ?? toolSearch_1.DEFAULT_TOOL_SEARCH_PCT,
        window: (0, contextWindow_1.contextWindowFor)(input.settings.model, cs),
        estimate: contextWindow_1.estimateTokens,
    });
    const tools = deferral.tools;
    const base = input.settings.system;
    const system = deferral.note ? (base ? `${base}\n\n${deferral.note}` : deferral.note) : base;
    const resultPath = deps.resultPath;
    return {
        full,
        summary,
        tools,
        ...(system !== undefined ? { system } : {}),
        shape: deferral.shape,
        // Deferred tools the model does not see yet cost nothing.
        fixedTokens: (0, contextWindow_1.estimateTokens)(system ?? '') + (0, contextWindow_1.estimateTokens)(tools.filter((t) => !t.defer_loading)),
        locate: resultPath ? (id) => resultPath(input.sessionId, id) : () => undefined,
    };
}
/** Keeps a cleared result readable: written once under its tool_use_id (a stored large result is never overwritten). */
async function keepClearedResults(full, ids, locate) {
    const wanted = new Set(ids);
    for (const m of full) {
        if (m.role !== 'user' || typeof m.content === 'string')
            continue;
        for (const b of m.content) {
            if (b.type !== 'tool_result' || !wanted.has(b.tool_use_id))
                continue;
            const path = locate(b.tool_use_id);
            if (!path)
                continue;
            try {
                await (0, promises_1.access)(path);
                continue;
            }
            catch {
                // not stored yet
            }
            await (0, promises_1.mkdir)((0, node_path_1.dirname)(path), { recursive: true });
            await (0, promises_1.writeFile)(path, textOf(b), 'utf8');
        }
    }
}
function textOf(b) {
    return (0, messages_1.toolResultText)(b);
}
/**
 * The request for this turn, or "compact first". Old tool results are cleared here (a pure plan,
 * stored results) once the clearing threshold is passed; above the auto-compact threshold the
 * answer is `compact` unless `autoCompact` is off.
 */
async function prepareModelRequest(deps, input) {
    const cs = input.contextSettings ?? {};
    let view = input.view ?? contextView_1.INITIAL_VIEW;
    const ctx = await loadContext(deps, {
        ...input,
        view,
        ...(input.contextSettings ? { contextSettings: input.contextSettings } : {}),
    });
    const { full, summary, tools, system, fixedTokens, locate } = ctx;
    const { model, maxTokens } = input.settings;
    let tokens = (0, contextView_1.tokensInUse)(full, summary, view, fixedTokens);
    const clearAt = (0, contextWindow_1.clearToolResultsThreshold)(model, maxTokens, cs);
    const plan = (0, contextView_1.planClearing)(full, view, {
        tokens,
        clearAt,
        keep: cs.keepToolResults ?? contextWindow_1.DEFAULT_KEEP_TOOL_RESULTS,
        minFree: Math.floor(clearAt * 0.2),
    });
    if (plan) {
        await keepClearedResults(full, plan.toolUseIds, locate);
        tokens = Math.max(0, tokens - plan.freed);
        view = { ...view, clearedBefore: plan.clearedBefore, baseline: { tokens, messages: full.length } };
    }
    if (input.autoCompact !== false && cs.autoCompact !== false && tokens >= (0, contextWindow_1.autoCompactThreshold)(model, maxTokens, cs)) {
        return { kind: 'compact', trigger: 'auto', tokens, view };
    }
    const shaped = (0, promptCache_1.applyCacheBreakpoints)({
        ...(system ? { system } : {}),
        tools,
        messages: ctx.shape((0, contextView_1.buildModelView)(full, summary, view, locate)),
    }, cs.promptCaching !== false);
    const params = {
        model: (0, contextWindow_1.apiModelId)(model),
        max_tokens: maxTokens,
        messages: shaped.messages,
        ...(shaped.system ? { system: shaped.system } : {}),
        ...(input.settings.temperature !== undefined ? { temperature: input.settings.temperature } : {}),
        ...(shaped.tools.length > 0 ? { tools: shaped.tools } : {}),
    };
    return {
        kind: 'request',
        params,
        betas: (0, contextWindow_1.betasForModel)(model, cs),
        view,
        transcriptLength: full.length,
        tokens,
        breakpoints: shaped.breakpoints,
    };
}
//# sourceMappingURL=modelRequest.js.map