// Budgets that hold across a session's tree (issue 34): `--max-budget-usd` and `--max-total-tokens`
// over every model call of the session and of everything it starts (foreground and background
// subagents, isolated agents, compactions, side calls), checked before the next model call. When the
// budget is spent the session waits in `budget_exceeded` until `budget ID --add` raises it, or ends
// (`--on-budget end`, the reference's `error_max_budget_usd`). Pure: bundled into workflows and used
// by the in-process runner alike.
//
// Where the spend comes from: the session's `modelUsage` (its own calls, compactions, side calls,
// and the trees of the children that ended) plus `inFlight`, what its running children reported call
// by call (each child model call's activity signals its spend to the root before it returns, keyed by
// the activity's id and attempt, so a signal sent twice is counted once). A child's entry is dropped
// when its whole tree's spend lands in `modelUsage` (a background agent's end; a foreground child's
// turn end), so nothing is counted twice. Every figure is workflow state: a worker that crashes loses
// nothing, and a raise is a Temporal Update recorded in history.
import { modelUsageTotals, pricedCostUsd, addModelUsage, type ModelUsage } from './modelUsage';

/** Past this fraction of the budget the session notifies once (setting `budgetThreshold`). */
export const DEFAULT_BUDGET_THRESHOLD = 0.8;
/** The largest single raise `budget --add` accepts (USD): a typo of a few zeros is refused. */
export const MAX_BUDGET_RAISE_USD = 10_000;
/** The largest single raise of a token budget. */
export const MAX_BUDGET_RAISE_TOKENS = 1_000_000_000;
/** Charge keys remembered to drop a report sent twice (a retried signal comes soon after the first). */
const MAX_CHARGE_KEYS = 500;
/** Budget events kept for status and the events list. */
const MAX_BUDGET_EVENTS = 20;

export type OnBudget = 'wait' | 'end';

/** A session's budget, from its input (absent: no budget). */
export interface BudgetLimits {
  maxBudgetUsd?: number;
  maxTotalTokens?: number;
  onBudget: OnBudget;
  /** 0 < t < 1: the soft threshold (default 0.8). */
  threshold?: number;
}

/** What a child's model call reported to its root. */
export interface BudgetCharge {
  /** The child session (prefixed `fg:` for a foreground subagent, `bg:` for a background one). */
  chargeTo: string;
  /** `<workflowId>/<activityId>#<attempt>`: the same report twice is counted once. */
  key: string;
  modelUsage: ModelUsage;
}

/** A point the lead wires to notifications (webhook, Notification hook): the session's budget events. */
export interface BudgetEvent {
  type: 'budgetThreshold' | 'budgetExceeded' | 'budgetRaised';
  at: number;
  spentUsd: number;
  spentTokens: number;
  limitUsd?: number;
  limitTokens?: number;
  message: string;
}

/** Where a model call's spend is charged and its budget checked: the root session, and the child it runs in. */
export interface BudgetLink {
  rootId: string;
  /**
   * Where the call's spend is charged while its turn runs: `fg:`/`bg:` and the child session, or
   * `fg:<root>` for the root's own turn (its reports are dropped when the turn's usage is counted).
   * Absent (turns recorded before 0.3.0): counted from the turn's result only.
   */
  chargeTo?: string;
}

/** The budget as its query, its Update and `status` show it. */
export interface BudgetView {
  exceeded: boolean;
  spentUsd: number;
  spentTokens: number;
  limitUsd?: number;
  limitTokens?: number;
  onBudget?: OnBudget;
  events: BudgetEvent[];
}

/** The view of a session's budget now. */
export function budgetView(limits: BudgetLimits, holder: BudgetHolder): BudgetView {
  const spend = budgetSpend(holder);
  const lim = budgetLimitsNow(limits, holder.budget);
  return {
    exceeded:
      (lim.usd !== undefined && spend.usd >= lim.usd) || (lim.tokens !== undefined && spend.tokens >= lim.tokens),
    spentUsd: spend.usd,
    spentTokens: spend.tokens,
    ...(lim.usd !== undefined ? { limitUsd: lim.usd } : {}),
    ...(lim.tokens !== undefined ? { limitTokens: lim.tokens } : {}),
    onBudget: limits.onBudget,
    events: holder.budget?.events ?? [],
  };
}

/** The budget's own state, carried across continue-as-new. */
export interface BudgetState {
  addedUsd: number;
  addedTokens: number;
  /** Running children's spend so far, by `chargeTo`. */
  inFlight: Record<string, ModelUsage>;
  keys: string[];
  thresholdNotified?: boolean;
  /** Set while the session is over its budget (cleared by a raise that covers the spend). */
  exceeded?: boolean;
  events: BudgetEvent[];
}

export interface BudgetSpend {
  /** The priced part (a model with no price counts 0: core/prices.ts). */
  usd: number;
  /** Input + output tokens of every call. */
  tokens: number;
}

export interface BudgetHolder {
  modelUsage?: ModelUsage;
  budget?: BudgetState;
}

export function initialBudgetState(): BudgetState {
  return { addedUsd: 0, addedTokens: 0, inFlight: {}, keys: [], events: [] };
}

/** The tree's spend so far: the session's counted usage plus its running children's reports. */
export function budgetSpend(holder: BudgetHolder): BudgetSpend {
  let all = holder.modelUsage ?? {};
  for (const m of Object.values(holder.budget?.inFlight ?? {})) all = addModelUsage(all, m);
  const t = modelUsageTotals(all);
  return { usd: pricedCostUsd(all), tokens: t.input_tokens + t.output_tokens };
}

/** The limits after raises. */
export function budgetLimitsNow(
  limits: BudgetLimits,
  state: BudgetState | undefined,
): { usd?: number; tokens?: number } {
  return {
    ...(limits.maxBudgetUsd !== undefined ? { usd: limits.maxBudgetUsd + (state?.addedUsd ?? 0) } : {}),
    ...(limits.maxTotalTokens !== undefined ? { tokens: limits.maxTotalTokens + (state?.addedTokens ?? 0) } : {}),
  };
}

export type BudgetVerdict =
  { kind: 'ok'; threshold?: BudgetEvent } | { kind: 'exceeded'; reason: string; event: BudgetEvent };

const usdText = (n: number): string => `$${n.toFixed(4)}`;

/**
 * The check before the next model call: is the budget spent (the next call would pass it), or the
 * soft threshold crossed for the first time? Pure; `now` is the scheduler's clock (workflow time).
 */
export function checkBudget(limits: BudgetLimits, holder: BudgetHolder, now: number): BudgetVerdict {
  const spend = budgetSpend(holder);
  const lim = budgetLimitsNow(limits, holder.budget);
  const base = {
    at: now,
    spentUsd: spend.usd,
    spentTokens: spend.tokens,
    ...(lim.usd !== undefined ? { limitUsd: lim.usd } : {}),
    ...(lim.tokens !== undefined ? { limitTokens: lim.tokens } : {}),
  };
  const overUsd = lim.usd !== undefined && spend.usd >= lim.usd;
  const overTokens = lim.tokens !== undefined && spend.tokens >= lim.tokens;
  if (overUsd || overTokens) {
    const reason = overUsd
      ? `reached the budget of ${usdText(lim.usd ?? 0)} (spent ${usdText(spend.usd)} across the session's tree)`
      : `reached the budget of ${lim.tokens} tokens (used ${spend.tokens} across the session's tree)`;
    return { kind: 'exceeded', reason, event: { type: 'budgetExceeded', ...base, message: reason } };
  }
  const t = limits.threshold ?? DEFAULT_BUDGET_THRESHOLD;
  if (holder.budget?.thresholdNotified) return { kind: 'ok' };
  const pastUsd = lim.usd !== undefined && spend.usd >= t * lim.usd;
  const pastTokens = lim.tokens !== undefined && spend.tokens >= t * lim.tokens;
  if (!pastUsd && !pastTokens) return { kind: 'ok' };
  const message = pastUsd
    ? `spent ${usdText(spend.usd)} of the budget of ${usdText(lim.usd ?? 0)} (${Math.round(t * 100)} % threshold)`
    : `used ${spend.tokens} of the budget of ${lim.tokens} tokens (${Math.round(t * 100)} % threshold)`;
  return { kind: 'ok', threshold: { type: 'budgetThreshold', ...base, message } };
}

/** Records a budget event (the last MAX_BUDGET_EVENTS). */
export function withBudgetEvent(state: BudgetState, event: BudgetEvent): BudgetState {
  return {
    ...state,
    ...(event.type === 'budgetThreshold' ? { thresholdNotified: true } : {}),
    ...(event.type === 'budgetExceeded' ? { exceeded: true } : {}),
    events: [...state.events, event].slice(-MAX_BUDGET_EVENTS),
  };
}

/**
 * Why a child's report is ignored (a charge only adds: a negative or non-finite figure would lower the spend or poison it, issue 30 round e); undefined: it counts.
 */
export function budgetChargeProblem(charge: BudgetCharge): string | undefined {
  const usage: unknown = charge?.modelUsage;
  if (usage === undefined) return undefined;
  if (typeof usage !== 'object' || usage === null) return 'its modelUsage is not an object';
  for (const [model, e] of Object.entries(usage as Record<string, unknown>)) {
    if (typeof e !== 'object' || e === null) return `its usage of ${model} is not an object`;
    for (const [k, v] of Object.entries(e as Record<string, unknown>)) {
      if (k === 'costUSD' && v === null) continue;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
        return `its ${k} for ${model} is ${String(v)} (a charge counts only finite figures, none negative)`;
    }
  }
  return undefined;
}

/** A child's report: added once per key; a report budgetChargeProblem refuses changes nothing. */
export function chargeBudget(state: BudgetState | undefined, charge: BudgetCharge): BudgetState {
  const s = state ?? initialBudgetState();
  if (s.keys.includes(charge.key) || budgetChargeProblem(charge) !== undefined) return s;
  return {
    ...s,
    inFlight: { ...s.inFlight, [charge.chargeTo]: addModelUsage(s.inFlight[charge.chargeTo], charge.modelUsage) },
    keys: [...s.keys, charge.key].slice(-MAX_CHARGE_KEYS),
  };
}

/** Children whose whole spend is now in `modelUsage`: their reports are dropped (`fg:` all of them, or one id). */
export function settleInFlight(state: BudgetState | undefined, which: { foreground: true } | { chargeTo: string }) {
  if (!state) return state;
  const inFlight: Record<string, ModelUsage> = {};
  for (const [k, v] of Object.entries(state.inFlight)) {
    const drop = 'foreground' in which ? k.startsWith('fg:') : k === which.chargeTo;
    if (!drop) inFlight[k] = v;
  }
  return { ...state, inFlight };
}

/** What `budget ID --add` asks for. */
export interface BudgetRaise {
  addUsd?: number;
  addTokens?: number;
  /** `budget ID --on-budget end`: a session waiting over budget ends instead (status budget_exceeded). */
  end?: boolean;
}

/** Why a raise is refused (the Update's validator; the CLI checks the same before sending); undefined: accepted. */
export function budgetRaiseProblem(raise: BudgetRaise, limits: BudgetLimits | undefined): string | undefined {
  if (!limits || (limits.maxBudgetUsd === undefined && limits.maxTotalTokens === undefined))
    return 'the session has no budget (start it with --max-budget-usd or --max-total-tokens)';
  const { addUsd, addTokens } = raise;
  if (raise.end === true) {
    if (addUsd !== undefined || addTokens !== undefined) return '--on-budget end ends the session: it takes no --add';
    return undefined;
  }
  if (addUsd === undefined && addTokens === undefined) return 'nothing to add: give --add <usd> or --add-tokens <n>';
  if (addUsd !== undefined) {
    if (typeof addUsd !== 'number' || !Number.isFinite(addUsd))
      return `--add must be a number of US dollars, got ${String(addUsd)}`;
    if (addUsd <= 0) return `--add must be more than 0 (got ${addUsd}): a budget is raised, never lowered`;
    if (addUsd > MAX_BUDGET_RAISE_USD)
      return `--add ${addUsd} is more than the largest raise, $${MAX_BUDGET_RAISE_USD}`;
    if (limits.maxBudgetUsd === undefined) return 'the session has no USD budget (--max-budget-usd): use --add-tokens';
  }
  if (addTokens !== undefined) {
    if (typeof addTokens !== 'number' || !Number.isInteger(addTokens))
      return `--add-tokens must be a whole number of tokens, got ${String(addTokens)}`;
    if (addTokens <= 0) return `--add-tokens must be more than 0 (got ${addTokens})`;
    if (addTokens > MAX_BUDGET_RAISE_TOKENS)
      return `--add-tokens ${addTokens} is more than the largest raise, ${MAX_BUDGET_RAISE_TOKENS}`;
    if (limits.maxTotalTokens === undefined) return 'the session has no token budget (--max-total-tokens): use --add';
  }
  return undefined;
}

/** The `budgetRaised` session event of a validated raise (its amounts only), from the view before it. */
export function budgetRaisedEvent(
  raise: BudgetRaise,
  before: BudgetView,
  now: number,
): { type: 'budgetRaised'; raise: BudgetRaise; event: BudgetEvent } {
  const clean: BudgetRaise = {
    ...(raise.addUsd !== undefined ? { addUsd: raise.addUsd } : {}),
    ...(raise.addTokens !== undefined ? { addTokens: raise.addTokens } : {}),
  };
  const message = [
    clean.addUsd !== undefined ? `budget raised by $${clean.addUsd}` : '',
    clean.addTokens !== undefined ? `budget raised by ${clean.addTokens} tokens` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return {
    type: 'budgetRaised',
    raise: clean,
    event: {
      type: 'budgetRaised',
      at: now,
      spentUsd: before.spentUsd,
      spentTokens: before.spentTokens,
      ...(before.limitUsd !== undefined ? { limitUsd: before.limitUsd + (clean.addUsd ?? 0) } : {}),
      ...(before.limitTokens !== undefined ? { limitTokens: before.limitTokens + (clean.addTokens ?? 0) } : {}),
      message,
    },
  };
}

/** A raise applied (validated before). The next check decides whether the session goes on. */
export function raiseBudget(state: BudgetState | undefined, raise: BudgetRaise, event: BudgetEvent): BudgetState {
  const s = state ?? initialBudgetState();
  return withBudgetEvent(
    {
      ...s,
      addedUsd: s.addedUsd + (raise.addUsd ?? 0),
      addedTokens: s.addedTokens + (raise.addTokens ?? 0),
      exceeded: false,
      // A raise re-arms the soft threshold: the next crossing of the raised budget notifies again.
      thresholdNotified: false,
    },
    event,
  );
}

/** Does the session have a budget the tree is held to? */
export function hasBudget(limits: BudgetLimits | undefined): limits is BudgetLimits {
  return !!limits && (limits.maxBudgetUsd !== undefined || limits.maxTotalTokens !== undefined);
}
