// Extended thinking, the reference's way (issue 31 item 8). Pure: the edge decides a session's
// setting once (settings `alwaysThinkingEnabled`, env MAX_THINKING_TOKENS, the flags `--thinking`
// and `--max-thinking-tokens`: src/cli/commands/run.ts, src/sessionInput.ts); each request turns it
// into the API's `thinking` parameter for its model here.
//
// Where the rules come from (checked 2026-12): Claude Code's own source as published analyses quote
// it (utils/thinking.ts `shouldEnableThinkingByDefault`, `modelSupportsThinking`,
// `modelSupportsAdaptiveThinking`; services/api/claude.ts: adaptive for models trained on it, else
// `{type: 'enabled', budget_tokens: min(max_tokens - 1, budget)}`, budget defaulting to the model's
// output limit - 1; no `temperature` when thinking is on), and the API's pages: "Extended thinking"
// (`budget_tokens` ≥ 1024 and < `max_tokens`; deprecated on 4.6, refused by 4.7 and later models)
// and "Preserved thinking" (from Claude Fable 5.1 a replayed block is bound to the prefix it was
// made under; `thinking.block_binding.prefix_mismatch_behavior: "drop_block"` with the beta
// `thinking-binding-controls-2026-08-01` drops a block whose prefix changed instead of a 400 —
// compaction and cleared tool results change prefixes).

/** A session's thinking setting, as the reference keeps it (its `ThinkingConfig`). */
export type ThinkingSetting = { type: 'adaptive' } | { type: 'enabled'; budgetTokens: number } | { type: 'disabled' };

/** The API's `thinking` request parameter. */
export type ThinkingParam =
  | { type: 'adaptive'; block_binding?: { prefix_mismatch_behavior: 'drop_block' } }
  | { type: 'enabled'; budget_tokens: number };

/** The API's smallest `budget_tokens`. */
export const MIN_THINKING_BUDGET = 1024;
/** The beta that lets a request say what to do with a thinking block whose prefix changed. */
export const THINKING_BINDING_BETA = 'thinking-binding-controls-2026-08-01';

interface ModelVersion {
  family: string;
  major: number;
  minor: number;
}

/** `claude-<family>-<major>[-<minor>]…` or the older `claude-<major>-<minor>-<family>…`; undefined for other names. */
export function claudeModelVersion(model: string): ModelVersion | undefined {
  const id = model.toLowerCase().replace(/\[1m\]$/, '');
  const newer = /claude-([a-z]+)-(\d+)(?:-(\d{1,2})(?!\d))?/.exec(id);
  if (newer) return { family: newer[1] as string, major: Number(newer[2]), minor: Number(newer[3] ?? 0) };
  const older = /claude-(\d+)(?:-(\d{1,2})(?!\d))?-([a-z]+)/.exec(id);
  if (older) return { family: older[3] as string, major: Number(older[1]), minor: Number(older[2] ?? 0) };
  return undefined;
}

const atLeast = (v: ModelVersion, major: number, minor: number): boolean =>
  v.major > major || (v.major === major && v.minor >= minor);

/**
 * How a model thinks: not at all (Claude 3 and older, as the reference decides), with a budget
 * (Claude 4 to 4.5), adaptive (4.6 and later, and — as the reference does on the first-party API —
 * a model name it cannot place).
 */
export function thinkingModeFor(model: string): 'none' | 'budget' | 'adaptive' {
  const v = claudeModelVersion(model);
  if (!v) return 'adaptive';
  if (v.major < 4) return 'none';
  return atLeast(v, 4, 6) ? 'adaptive' : 'budget';
}

/** The reference's default budget for a budget model: its output limit - 1 (Opus 4 and 4.1: 32k; the others 64k). */
export function maxThinkingTokensFor(model: string): number {
  const v = claudeModelVersion(model);
  const upper = v && v.family === 'opus' && v.major === 4 && v.minor <= 1 ? 32_000 : 64_000;
  return upper - 1;
}

/** Models whose replayed thinking blocks are bound to their prefix (Claude Fable 5.1 and later Fables). */
export function bindsThinkingPrefix(model: string): boolean {
  const v = claudeModelVersion(model);
  return v !== undefined && v.family === 'fable' && atLeast(v, 5, 1);
}

export interface ThinkingRequest {
  /** Absent: the request asks for no thinking (and may carry `temperature`). */
  thinking?: ThinkingParam;
  betas: string[];
}

/**
 * The request's thinking for this model and `max_tokens`. A budget that does not fit (`max_tokens`
 * ≤ 1024, so no budget of at least 1024 stays below it) asks for none: the API would refuse it.
 */
export function thinkingRequest(
  model: string,
  maxTokens: number,
  setting: ThinkingSetting | undefined,
): ThinkingRequest {
  if (!setting || setting.type === 'disabled') return { betas: [] };
  const mode = thinkingModeFor(model);
  if (mode === 'none') return { betas: [] };
  if (mode === 'adaptive') {
    return bindsThinkingPrefix(model)
      ? {
          thinking: { type: 'adaptive', block_binding: { prefix_mismatch_behavior: 'drop_block' } },
          betas: [THINKING_BINDING_BETA],
        }
      : { thinking: { type: 'adaptive' }, betas: [] };
  }
  const wanted = setting.type === 'enabled' ? setting.budgetTokens : maxThinkingTokensFor(model);
  const budget = Math.min(maxTokens - 1, wanted);
  if (budget < MIN_THINKING_BUDGET) return { betas: [] };
  return { thinking: { type: 'enabled', budget_tokens: budget }, betas: [] };
}

/**
 * The session's setting as the reference decides it at start (main.tsx): `--thinking
 * enabled|adaptive` → adaptive, `disabled` → off; else MAX_THINKING_TOKENS (before
 * `--max-thinking-tokens`): > 0 a budget, 0 off; else off when `alwaysThinkingEnabled` is false
 * (or CLAUDE_CODE_DISABLE_THINKING is set), on (adaptive) by default.
 */
export function resolveThinkingSetting(given: {
  flag?: 'enabled' | 'adaptive' | 'disabled';
  envMaxThinkingTokens?: number;
  flagMaxThinkingTokens?: number;
  alwaysThinkingEnabled?: boolean;
  disableThinking?: boolean;
}): ThinkingSetting {
  if (given.disableThinking) return { type: 'disabled' };
  if (given.flag === 'disabled') return { type: 'disabled' };
  if (given.flag === 'enabled' || given.flag === 'adaptive') return { type: 'adaptive' };
  const tokens = given.envMaxThinkingTokens ?? given.flagMaxThinkingTokens;
  if (tokens !== undefined) return tokens > 0 ? { type: 'enabled', budgetTokens: tokens } : { type: 'disabled' };
  if (given.alwaysThinkingEnabled === false) return { type: 'disabled' };
  return { type: 'adaptive' };
}
