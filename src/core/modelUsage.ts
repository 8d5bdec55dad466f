// Usage and cost per model (issue 31 deliverable 3; invariant 17 "Spend is state"): what each model
// call of a session's tree used and cost, summed by model id, with the keys the reference's `-p`
// result prints under `modelUsage`. A call's entry is made where the call ran (the activity, from
// the usage the API reported, priced by core/prices.ts at that moment) and travels as data in
// activity and workflow results; sessions only add entries up. Pure: bundled into workflows.
import type { Usage } from './apiMessages';
import { callCostNanos, nanosToUsd, usdToNanos, type BilledUsage } from './prices';

export interface ModelUsageEntry {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  /** Searches the API ran for these calls (`usage.server_tool_use.web_search_requests`). */
  webSearchRequests: number;
  /** US dollars; null: a call on this model has no price (core/prices.ts does not know the model). */
  costUSD: number | null;
  /** Model calls counted. */
  calls: number;
}

/** By model id, as the calls named it. */
export type ModelUsage = Record<string, ModelUsageEntry>;

/** One call's entry: its usage as the API reported it, and its price now. */
export function callModelUsage(model: string, u: BilledUsage): ModelUsage {
  const nanos = callCostNanos(model, u);
  return {
    [model]: {
      inputTokens: u.input_tokens,
      outputTokens: u.output_tokens,
      cacheReadInputTokens: u.cache_read_input_tokens ?? 0,
      cacheCreationInputTokens: u.cache_creation_input_tokens ?? 0,
      webSearchRequests: u.server_tool_use?.web_search_requests ?? 0,
      costUSD: nanos === null ? null : nanosToUsd(nanos),
      calls: 1,
    },
  };
}

/** Two costs added exactly (in nano-dollars); unknown stays unknown. */
export function addCost(a: number | null, b: number | null): number | null {
  if (a === null || b === null) return null;
  return nanosToUsd(usdToNanos(a) + usdToNanos(b));
}

/** The sum of two per-model usages (neither is changed). */
export function addModelUsage(a: ModelUsage | undefined, b: ModelUsage | undefined): ModelUsage {
  const out: ModelUsage = {};
  for (const src of [a, b]) {
    for (const [model, e] of Object.entries(src ?? {})) {
      const o = out[model];
      out[model] = o
        ? {
            inputTokens: o.inputTokens + e.inputTokens,
            outputTokens: o.outputTokens + e.outputTokens,
            cacheReadInputTokens: o.cacheReadInputTokens + e.cacheReadInputTokens,
            cacheCreationInputTokens: o.cacheCreationInputTokens + e.cacheCreationInputTokens,
            webSearchRequests: o.webSearchRequests + e.webSearchRequests,
            costUSD: addCost(o.costUSD, e.costUSD),
            calls: o.calls + e.calls,
          }
        : { ...e };
    }
  }
  return out;
}

/** The sum of any number of per-model usages (undefined ones skipped). */
export function sumModelUsage(list: ReadonlyArray<ModelUsage | undefined>): ModelUsage {
  return list.reduce<ModelUsage>((acc, m) => addModelUsage(acc, m), {});
}

/** What every model cost together: null when one of them has no price (never 0 for an unknown cost). */
export function totalCostUsd(m: ModelUsage | undefined): number | null {
  let total: number | null = 0;
  for (const e of Object.values(m ?? {})) total = addCost(total, e.costUSD);
  return total;
}

/** The models whose cost is unknown (no price), in key order. */
export function unpricedModels(m: ModelUsage | undefined): string[] {
  return Object.entries(m ?? {})
    .filter(([, e]) => e.costUSD === null)
    .map(([k]) => k);
}

/** The known part of the cost (the models that have a price). */
export function pricedCostUsd(m: ModelUsage | undefined): number {
  let total = 0;
  for (const e of Object.values(m ?? {})) if (e.costUSD !== null) total = addCost(total, e.costUSD) ?? total;
  return total;
}

/** All models' tokens as one usage (the API's field names), web searches included. */
export function modelUsageTotals(m: ModelUsage | undefined): Usage & { web_search_requests: number } {
  const t = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  let searches = 0;
  for (const e of Object.values(m ?? {})) {
    t.input_tokens += e.inputTokens;
    t.output_tokens += e.outputTokens;
    t.cache_creation_input_tokens += e.cacheCreationInputTokens;
    t.cache_read_input_tokens += e.cacheReadInputTokens;
    searches += e.webSearchRequests;
  }
  return { ...t, web_search_requests: searches };
}

/** A line's worth: "$0.012345" or "unknown (no price for claude-x)". */
export function costText(m: ModelUsage | undefined): string {
  const total = totalCostUsd(m);
  if (total !== null) return `$${total.toFixed(6)}`;
  const known = pricedCostUsd(m);
  return `unknown (no price for ${unpricedModels(m).join(', ')}; the priced models: $${known.toFixed(6)})`;
}

/**
 * A turn's usage by model: its model call, its compactions' summarizing calls and what its tool
 * calls spent (side calls, a subagent's whole tree). Undefined when none of them carried any (a
 * turn recorded before usage by model existed), so such a result stays as it was.
 */
export function turnModelUsage(
  model: ModelUsage | undefined,
  compactions: ModelUsage | undefined,
  records: ReadonlyArray<{ modelUsage?: ModelUsage }>,
): ModelUsage | undefined {
  const parts = [model, compactions, ...records.map((r) => r.modelUsage)].filter((m) => m !== undefined);
  return parts.length > 0 ? sumModelUsage(parts) : undefined;
}

/** `{ modelUsage }` when there is one, else nothing (a result keeps its recorded shape). */
export function withModelUsage(m: ModelUsage | undefined): { modelUsage?: ModelUsage } {
  return m ? { modelUsage: m } : {};
}
