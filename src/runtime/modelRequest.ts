// Shaping a Messages API request from the stored transcript: the model's view (compaction summary,
// cleared old tool results), the decision to compact first, cache breakpoints and the `[1m]` beta.
// The decisions are the engine's (pure); this file does the loading and storing around them.
import { access, mkdir, writeFile } from 'node:fs/promises';
import { AgentTool, agentToolPrompt } from '../tools/agent';
import { agentsNotDenied } from '../agents/definitions';
import { dirname } from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import {
  apiModelId,
  autoCompactThreshold,
  betasForModel,
  clearToolResultsThreshold,
  contextWindowFor,
  DEFAULT_KEEP_TOOL_RESULTS,
  estimateTokens,
  type ContextSettings,
} from '../core/contextWindow';
import { DEFAULT_TOOL_SEARCH_PCT, deferTools, type RequestTool } from '../toolProtocol/deferredTools';
import { buildModelView, INITIAL_VIEW, planClearing, tokensInUse, type ContextView } from '../core/contextView';
import type { Message, ToolResultBlockParam } from '../core/apiMessages';
import { toolResultText } from '../core/apiMessages';
import { applyCacheBreakpoints } from '../core/promptCache';
import type { TranscriptStore } from '../stores/messageStore';
import type { CallModelInput } from './modelTypes';
import { thinkingRequest, type ThinkingSetting } from '../core/thinking';

export interface RequestSettings {
  model: string;
  maxTokens: number;
  system?: string;
  temperature?: number;
  thinking?: ThinkingSetting;
}

export interface RequestDeps {
  transcripts: TranscriptStore;
  toolDefinitions: (
    toolNames: string[],
    denyRules?: string[],
    mcp?: CallModelInput['mcp'],
    warn?: (message: string) => void,
  ) => Promise<RequestTool[]>;
  /** Where a session's stored tool results live (`<dir>/<tool_use_id>.txt`); cleared results are kept there. */
  resultPath?: (sessionId: string, toolUseId: string) => string;
}

export interface PreparedRequest {
  kind: 'request';
  params: Anthropic.MessageCreateParamsNonStreaming;
  betas: string[];
  view: ContextView;
  /** Messages in the full transcript (the baseline after the answer is this + 1). */
  transcriptLength: number;
  tokens: number;
  breakpoints: string[];
}

export interface NeedsCompaction {
  kind: 'compact';
  trigger: 'auto';
  tokens: number;
  view: ContextView;
}

export interface LoadedContext {
  full: Message[];
  summary: Message[];
  /** The request's tools: with tool search on, the up-front ones and the loaded deferred ones (`defer_loading`). */
  tools: RequestTool[];
  /** The system prompt as sent (with tool search on, the deferred tools' names after it). */
  system?: string;
  /** The model's view as sent (with tool search on, `Tool loaded.` after the results that loaded tools). */
  shape: (messages: Message[]) => Message[];
  /** Estimated tokens of the system prompt and tools (in every request). */
  fixedTokens: number;
  locate: (toolUseId: string) => string | undefined;
}

export async function loadContext(
  deps: RequestDeps,
  input: {
    sessionId: string;
    head: string | null;
    view: ContextView;
    settings: RequestSettings;
    toolNames: string[];
    denyRules?: string[];
    mcp?: CallModelInput['mcp'];
    agents?: CallModelInput['agents'];
    contextSettings?: ContextSettings;
    warn?: (message: string) => void;
  },
): Promise<LoadedContext> {
  const [full, summary, defined] = await Promise.all([
    deps.transcripts.load(input.head),
    input.view.summaryHead ? deps.transcripts.load(input.view.summaryHead) : Promise.resolve([] as Message[]),
    deps.toolDefinitions(input.toolNames, input.denyRules, input.mcp, input.warn),
  ]);
  // The Agent tool's description lists the session's agent types.
  const agents = input.agents ? agentsNotDenied(input.agents, input.denyRules ?? []) : undefined;
  const described = agents
    ? defined.map((t) => (t.name === AgentTool.name ? { ...t, description: agentToolPrompt(agents) } : t))
    : defined;
  // Deferred tools (docs/tools.md "Deferred tools and ToolSearch"): decided from the transcript alone.
  const cs = input.contextSettings ?? {};
  const deferral = deferTools(described, full, buildModelView(full, summary, input.view), {
    mode: cs.toolSearch ?? 'off',
    pct: cs.toolSearchPct ?? DEFAULT_TOOL_SEARCH_PCT,
    window: contextWindowFor(input.settings.model, cs),
    estimate: estimateTokens,
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
    fixedTokens: estimateTokens(system ?? '') + estimateTokens(tools.filter((t) => !t.defer_loading)),
    locate: resultPath ? (id) => resultPath(input.sessionId, id) : () => undefined,
  };
}

/** Keeps a cleared result readable: written once under its tool_use_id (a stored large result is never overwritten). */
async function keepClearedResults(
  full: readonly Message[],
  ids: readonly string[],
  locate: (id: string) => string | undefined,
): Promise<void> {
  const wanted = new Set(ids);
  for (const m of full) {
    if (m.role !== 'user' || typeof m.content === 'string') continue;
    for (const b of m.content) {
      if (b.type !== 'tool_result' || !wanted.has(b.tool_use_id)) continue;
      const path = locate(b.tool_use_id);
      if (!path) continue;
      try {
        await access(path);
        continue;
      } catch {
        // not stored yet
      }
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, textOf(b), 'utf8');
    }
  }
}

function textOf(b: ToolResultBlockParam): string {
  return toolResultText(b);
}

/**
 * The request for this turn, or "compact first". Old tool results are cleared here (a pure plan,
 * stored results) once the clearing threshold is passed; above the auto-compact threshold the
 * answer is `compact` unless `autoCompact` is off.
 */
export async function prepareModelRequest(
  deps: RequestDeps,
  input: {
    sessionId: string;
    head: string | null;
    view?: ContextView;
    settings: RequestSettings;
    toolNames: string[];
    denyRules?: string[];
    contextSettings?: ContextSettings;
    autoCompact?: boolean;
    mcp?: CallModelInput['mcp'];
    warn?: (message: string) => void;
  },
): Promise<PreparedRequest | NeedsCompaction> {
  const cs = input.contextSettings ?? {};
  let view = input.view ?? INITIAL_VIEW;
  const ctx = await loadContext(deps, {
    ...input,
    view,
    ...(input.contextSettings ? { contextSettings: input.contextSettings } : {}),
  });
  const { full, summary, tools, system, fixedTokens, locate } = ctx;
  const { model, maxTokens } = input.settings;
  let tokens = tokensInUse(full, summary, view, fixedTokens);
  const clearAt = clearToolResultsThreshold(model, maxTokens, cs);
  const plan = planClearing(full, view, {
    tokens,
    clearAt,
    keep: cs.keepToolResults ?? DEFAULT_KEEP_TOOL_RESULTS,
    minFree: Math.floor(clearAt * 0.2),
  });
  if (plan) {
    await keepClearedResults(full, plan.toolUseIds, locate);
    tokens = Math.max(0, tokens - plan.freed);
    view = { ...view, clearedBefore: plan.clearedBefore, baseline: { tokens, messages: full.length } };
  }
  if (input.autoCompact !== false && cs.autoCompact !== false && tokens >= autoCompactThreshold(model, maxTokens, cs)) {
    return { kind: 'compact', trigger: 'auto', tokens, view };
  }
  const shaped = applyCacheBreakpoints(
    {
      ...(system ? { system } : {}),
      tools,
      messages: ctx.shape(buildModelView(full, summary, view, locate)),
    },
    cs.promptCaching !== false,
  );
  // Thinking (core/thinking.ts): with it, no temperature (the API accepts only its default).
  const thinking = thinkingRequest(apiModelId(model), maxTokens, input.settings.thinking);
  const params: Anthropic.MessageCreateParamsNonStreaming = {
    model: apiModelId(model),
    max_tokens: maxTokens,
    messages: shaped.messages as Anthropic.MessageParam[],
    ...(shaped.system ? { system: shaped.system as Anthropic.TextBlockParam[] } : {}),
    ...(thinking.thinking ? { thinking: thinking.thinking as Anthropic.ThinkingConfigParam } : {}),
    ...(input.settings.temperature !== undefined && !thinking.thinking
      ? { temperature: input.settings.temperature }
      : {}),
    ...(shaped.tools.length > 0 ? { tools: shaped.tools as Anthropic.Tool[] } : {}),
  };
  return {
    kind: 'request',
    params,
    betas: [...betasForModel(model, cs), ...thinking.betas],
    view,
    transcriptLength: full.length,
    tokens,
    breakpoints: shaped.breakpoints,
  };
}
