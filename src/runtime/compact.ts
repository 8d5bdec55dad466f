// One compaction for any scheduler (the core of the `compactContext` activity, `compact-<n>`): PreCompact hooks, then a summarizing model call over the
// model's current view; the summary (with the original task and the recently read files, re-read
// from disk) replaces the older messages in the view. The full transcript is not touched.
import type { BudgetLink } from '../core/budget';
import type { SandboxHost } from '../sandbox/host';
import type { SandboxSettings } from '../sandbox/settings';
import { sessionHookSandbox } from './sessionHooks';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import {
  effectiveContextWindow,
  estimateTokens,
  isPromptTooLong,
  MAX_OUTPUT_TOKENS_FOR_SUMMARY,
  apiModelId,
  betasForModel,
  type ContextSettings,
} from '../core/contextWindow';
import {
  buildModelView,
  chooseKeepFrom,
  compactionPrompt,
  dropOldestRounds,
  originalTask,
  recentReadPaths,
  summaryMessage,
  survivalBudgets,
  withCompactionRequest,
  type CompactionRecord,
  type ContextView,
} from '../core/contextView';
import type { HookPins } from '../core/context';
import type { Message, Usage } from '../core/apiMessages';
import { callModelUsage, type ModelUsage } from '../core/modelUsage';
import { hookMayBlock } from '../core/modelStep';
import { applyCacheBreakpoints } from '../core/promptCache';
import { normalizeHooksConfig, runPreCompactHooks, type HookRun, type HooksConfig } from '../hooks';
import { classifyModelError, ModelCallError, type CallModelInput, type ModelDeps, type ModelSettings } from './model';
import type { CallRuntime } from './runtime';
import { loadContext } from './modelRequest';
import { withStoredSettings } from './storedSettings';
import type { AgentDefinition } from '../agents/definitions';

export interface CompactContextInput {
  sessionId: string;
  /** The tree's budget (core/budget.ts): checked before the call, the call's spend charged to the root after it. */
  budget?: BudgetLink;
  turn: number;
  /** The session's compaction number (activity id `compact-<n>`). */
  n: number;
  trigger: 'auto' | 'reactive' | 'manual';
  /** > 0: an earlier compaction in this step did not make the prompt fit: keep no recent messages. */
  attempt: number;
  /** Head of the full transcript, including this turn's new messages. */
  head: string | null;
  view: ContextView;
  tokensBefore: number;
  /** Without `system` when `settingsRef` is set. */
  settings: ModelSettings;
  /** Absent when `settingsRef` is set (runtime/storedSettings.ts). */
  toolNames?: string[];
  /** The session's stored settings (issue 33): its system prompt, tool names and agent definitions. */
  settingsRef?: string;
  /** The session's agent types (with `settingsRef`: from the store; the Agent tool's description lists them). */
  agents?: AgentDefinition[];
  denyRules?: string[];
  contextSettings?: ContextSettings;
  /** The session's hooks (reference JSON format). */
  hooks?: unknown;
  /** The session's MCP servers: their tools are offered in the summarizing request too (same prefix, and the messages use them). */
  mcp?: CallModelInput['mcp'];
  /** The agent's current directory: the PreCompact hook input's `cwd`. */
  cwd: string;
  /**
   * Where command hooks run (their CLAUDE_PROJECT_DIR): the session's project root. Absent in a
   * compaction an older turn workflow scheduled (before the field): `cwd`, as it was.
   */
  projectDir?: string;
  /** The files the session's command hooks run, pinned at its start. */
  hookPins?: HookPins;
  /** The session's `sandbox.passEnv`, for its command hooks. */
  hookPassEnv?: string[];
  /**
   * The session's sandbox settings: its PreCompact command hooks run inside its sandbox (absent in a
   * compaction an older turn scheduled: on the host, as then).
   */
  hookSandbox?: SandboxSettings;
}

export type CompactContextResult =
  | {
      kind: 'compacted';
      view: ContextView;
      record: CompactionRecord;
      usage: Usage;
      /** The summarizing call's usage and cost by model (core/modelUsage.ts); absent in results recorded before. */
      modelUsage?: ModelUsage;
      hookRuns: HookRun[];
      notices: string[];
    }
  | { kind: 'blocked'; reason: string; hookRuns: HookRun[] };

export interface CompactDeps extends ModelDeps {
  /** Hooks the worker adds programmatically, merged with the session's. */
  hooks?: HooksConfig;
  /** The worker's OS sandbox, which the session's command hooks run in. */
  sandboxHost?: SandboxHost;
  /** The worker's own state: denied to sandboxed hooks. */
  privatePaths?: readonly string[];
}

const MAX_TRUNCATION_RETRIES = 3;

async function restoreFiles(
  paths: readonly string[],
  cwd: string,
  perFileTokens: number,
  totalTokens: number,
): Promise<Array<{ path: string; content: string }>> {
  const out: Array<{ path: string; content: string }> = [];
  let used = 0;
  for (const p of paths) {
    if (used >= totalTokens) break;
    try {
      const text = await readFile(resolve(cwd, p), 'utf8');
      const clipped = text.slice(0, Math.min(perFileTokens, totalTokens - used) * 4);
      used += estimateTokens(clipped);
      out.push({ path: p, content: clipped });
    } catch {
      // Gone or unreadable now: the summary still names it.
    }
  }
  return out;
}

function mergeHooks(session: HooksConfig, worker?: HooksConfig): HooksConfig {
  if (!worker) return session;
  return { ...session, PreCompact: [...(session.PreCompact ?? []), ...(worker.PreCompact ?? [])] };
}

/** PreCompact hooks: their instructions and notices, or the compaction they blocked (when they may). */
async function preCompact(
  deps: CompactDeps,
  input: CompactContextInput,
  ctx: CallRuntime,
): Promise<
  Extract<CompactContextResult, { kind: 'blocked' }> | { runs: HookRun[]; instructions: string[]; notices: string[] }
> {
  const hookTrigger = input.trigger === 'manual' ? 'manual' : 'auto';
  const config = mergeHooks(normalizeHooksConfig(input.hooks), deps.hooks);
  const projectDir = input.projectDir ?? input.hookPins?.projectDir ?? input.cwd;
  const hookResult = await runPreCompactHooks(
    { session_id: input.sessionId, cwd: input.cwd, trigger: hookTrigger, custom_instructions: null },
    {
      config,
      projectDir,
      ...(input.hookPins ? { pins: input.hookPins } : {}),
      ...(input.hookPassEnv ? { passEnv: input.hookPassEnv } : {}),
      ...(input.hookSandbox
        ? { sandbox: sessionHookSandbox(deps, input, input.hookSandbox, config, projectDir, undefined) }
        : {}),
      signal: ctx.signal,
    },
  );
  if (hookResult.block && hookMayBlock(input.trigger === 'reactive' ? 'reactive' : 'auto')) {
    return { kind: 'blocked', reason: hookResult.block.reason, hookRuns: hookResult.runs };
  }
  const notices = [...hookResult.notices];
  if (hookResult.block)
    notices.push(
      `PreCompact hook "${hookResult.block.hook}" asked to block, but the API refused the prompt as too long: compacted anyway`,
    );
  return { runs: hookResult.runs, instructions: hookResult.instructions, notices };
}

/** The session's context (transcript, tools), heartbeating while MCP servers list their tools. */
async function loadWithHeartbeat(
  deps: CompactDeps,
  input: CompactContextInput & { toolNames: string[] },
  ctx: CallRuntime,
): Promise<Awaited<ReturnType<typeof loadContext>>> {
  const listing = input.mcp ? setInterval(() => ctx.heartbeat({ phase: 'listing MCP tools' }), 5_000) : undefined;
  try {
    return await loadContext(deps, { ...input, warn: (m) => ctx.warn(m, { sessionId: input.sessionId }) });
  } finally {
    if (listing) clearInterval(listing);
  }
}

/** The summarizing model call; a prompt the API finds too long loses its oldest rounds (3 times at most). */
async function summarize(
  deps: CompactDeps,
  input: CompactContextInput,
  ctx: CallRuntime,
  tools: Awaited<ReturnType<typeof loadContext>>['tools'],
  messages: Message[],
  prompt: string,
  system: string | undefined,
): Promise<Anthropic.Message> {
  const { model, maxTokens } = input.settings;
  const cs = input.contextSettings ?? {};
  let toSummarise = messages;
  const client = deps.anthropic();
  const ticker = setInterval(() => ctx.heartbeat({ phase: 'compacting' }), 5000);
  try {
    for (let tries = 0; ; tries++) {
      const shaped = applyCacheBreakpoints(
        { ...(system ? { system } : {}), tools, messages: withCompactionRequest(toSummarise, prompt) },
        cs.promptCaching !== false,
      );
      const betas = betasForModel(model, cs);
      try {
        return await client.messages.create(
          {
            model: apiModelId(model),
            max_tokens: Math.min(MAX_OUTPUT_TOKENS_FOR_SUMMARY, Math.max(maxTokens, 4096)),
            messages: shaped.messages as Anthropic.MessageParam[],
            ...(shaped.system ? { system: shaped.system as Anthropic.TextBlockParam[] } : {}),
            ...(shaped.tools.length > 0 ? { tools: shaped.tools as Anthropic.Tool[] } : {}),
          },
          {
            signal: ctx.signal,
            maxRetries: 0,
            timeout: 10 * 60_000,
            ...(betas.length ? { headers: { 'anthropic-beta': betas.join(',') } } : {}),
          },
        );
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        const tooLong = err instanceof Anthropic.APIError && err.status === 400 && isPromptTooLong(err.message);
        const shorter = tooLong && tries < MAX_TRUNCATION_RETRIES ? dropOldestRounds(toSummarise) : undefined;
        if (!shorter) throw classifyModelError(err);
        ctx.warn('the summarizing request itself was too long; dropping the oldest rounds', { tries });
        toSummarise = shorter;
      }
    }
  } finally {
    clearInterval(ticker);
  }
}

function summaryText(final: Anthropic.Message): string {
  const text = final.content
    .filter((b): b is Anthropic.TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('\n')
    .trim();
  if (!text)
    throw new ModelCallError('the summarizing model call returned no text', {
      failureType: 'EmptySummary',
      retryable: true,
    });
  return text;
}

function usageOf(final: Anthropic.Message): Usage {
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

export async function compactContextWith(
  deps: CompactDeps,
  wire: CompactContextInput,
  ctx: CallRuntime,
): Promise<CompactContextResult> {
  const input = await withStoredSettings(wire, deps.toolSettings);
  const hooks = await preCompact(deps, input, ctx);
  if ('kind' in hooks) return hooks;
  const loaded = await loadWithHeartbeat(deps, input, ctx);
  const { full, summary, tools, fixedTokens, locate } = loaded;
  const { model, maxTokens } = input.settings;
  const budgets = survivalBudgets(effectiveContextWindow(model, maxTokens, input.contextSettings ?? {}));
  // As a model call sends it (deferred tools: `Tool loaded.` after the results that loaded them).
  const toSummarise: Message[] = loaded.shape(buildModelView(full, summary, input.view, locate));
  const prompt = compactionPrompt(hooks.instructions.join('\n\n') || undefined);
  const final = await summarize(deps, input, ctx, tools, toSummarise, prompt, loaded.system);
  const text = summaryText(final);

  const files = await restoreFiles(
    recentReadPaths(full, budgets.maxFiles),
    input.cwd,
    budgets.perFile,
    budgets.filesTotal,
  );
  const fromIndex = input.attempt > 0 ? full.length : chooseKeepFrom(full, input.view, budgets.keepMessages);
  const message = summaryMessage({
    task: originalTask(full),
    summary: text,
    files,
    keptRecent: fromIndex < full.length,
    taskBudget: budgets.task,
    perFileBudget: budgets.perFile,
  });
  const summaryHead = await deps.transcripts.append(null, [message]);
  const draft: ContextView = { ...input.view, fromIndex, summaryHead, compactions: input.view.compactions + 1 };
  const tokensAfter = fixedTokens + estimateTokens(buildModelView(full, [message], draft, locate));
  const view: ContextView = { ...draft, baseline: { tokens: tokensAfter, messages: full.length } };
  const hookNote = hooks.runs.length ? hooks.runs.map((r) => `${r.hook}: ${r.outcome}`).join('; ') : undefined;
  const record: CompactionRecord = {
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
  return {
    kind: 'compacted',
    view,
    record,
    usage: usageOf(final),
    modelUsage: callModelUsage(model, final.usage),
    hookRuns: hooks.runs,
    notices: hooks.notices,
  };
}
