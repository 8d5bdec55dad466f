// A turn child's steps (issue 33): one child workflow runs model step after model step (model call,
// tool batches, model call …) and returns to its session only when the session has something to do
// between two steps. Pure: the scheduler supplies the step and the yield request.
//
// A step is what the session loop calls a turn (its number counts against maxTurns, its activities
// are `model-<n>`, `tool-<id>`): the child's first step is the session's turn n, the next n+1, …
// The child returns after a step when:
//   - the step did not end with tool_use (end_turn, max_tokens, refusal, an interrupt, …);
//   - the session asked it to yield (a follow-up message, a task notification, an interrupt);
//   - the step needs the session: a hook's stop, an unknown outcome or a retried call (SessionStart
//     resume), a compaction (SessionStart compact), control-file writes, a change of the session's
//     background work (tasks, wake-ups, cron jobs) or of its skill grants (the next turn's model);
//   - a limit: the step cap (the child's history stays small), the session's maxTurns, its tokens,
//     the tree's budget (issue 34: what the budget had left when the child started, spent by its
//     steps; the session then shows budget_exceeded before its next turn and waits for a raise).
// Everything else the session would do between two steps is nothing: it would start the next turn.
import type { Usage } from './apiMessages';
import type { AgentContext } from './context';
import type { ToolCallStatus } from './toolRecords';
import { totalTokens } from './sessionState';
import { addModelUsage, modelUsageTotals, pricedCostUsd, type ModelUsage } from './modelUsage';

/** The child's limits, set by the session when it starts the child. */
export interface TurnStepLimits {
  /** At most this many steps (the step cap and the session's maxTurns left). */
  maxSteps: number;
  /** Tokens the session may still spend (maxTotalTokens less its usage); absent: no limit. */
  tokensLeft?: number;
  /** The tree's budget left when the child started (USD, priced models; core/budget.ts); absent: no budget. */
  budgetUsdLeft?: number;
  /** The tree's token budget left (input + output tokens, as core/budget.ts counts them). */
  budgetTokensLeft?: number;
}

/** What the loop reads of a finished step. */
export interface StepOutcome {
  reason: string;
  usage?: Usage;
  /** The step's model calls by model, cost included (what the tree's budget counts). */
  modelUsage?: ModelUsage;
  context: AgentContext;
  records: ReadonlyArray<{
    status: ToolCallStatus;
    stop?: unknown;
    attempts?: number;
    controlWrites?: readonly unknown[];
  }>;
  compactions?: readonly unknown[];
}

/** Why the child returned to its session (in its result, for the audit and the bench). */
export type StepReturn = 'turn_ended' | 'yield' | 'needs_session' | 'step_cap' | 'tokens' | 'budget' | 'history';

export interface TurnStepsExecutor<R extends StepOutcome> {
  /**
   * Runs step `index` (0: the child's first, the session's turn n) from what the previous step left.
   * `continues(step)` answers, for the step's outcome before its end-of-step writes, whether another
   * step will follow (this loop's decision, made early): such a step may leave its writes to the next.
   */
  runStep(index: number, previous: R | undefined, continues: (step: R) => boolean): Promise<R>;
  /** True when the session asked the child to return (or an interrupt came) since it started. */
  yieldRequested(): boolean;
  /** True when the child's own history is past its budget (the scheduler knows its size). */
  historyFull?(): boolean;
}

/** Tokens as the session's maxTotalTokens counts them (core/sessionState.ts totalTokens). */
const tokensOf = (u: Usage | undefined): number => (u ? totalTokens(u) : 0);

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A step whose result the session must see before the next model call (see the file's header). */
export function stepNeedsSession(before: AgentContext, step: StepOutcome): boolean {
  if (step.compactions?.length) return true;
  for (const r of step.records) {
    if (r.stop || r.status === 'unknown_outcome' || (r.attempts ?? 1) > 1 || r.controlWrites?.length) return true;
  }
  return !same(before.autonomy, step.context.autonomy) || !same(before.skillGrants, step.context.skillGrants);
}

/**
 * Whether the child runs another step after `step` (the `index`-th), and if not, why. This is the
 * one place "before the next model call" of a turn child: a check that must run before every model
 * call of a session (a budget, a shared limit) goes here as well as in the session loop.
 */
export function nextStep<R extends StepOutcome>(
  limits: TurnStepLimits,
  index: number,
  before: AgentContext,
  step: R,
  spent: number,
  executor: TurnStepsExecutor<R>,
  spentUsage?: ModelUsage,
): StepReturn | undefined {
  if (step.reason !== 'tool_use') return 'turn_ended';
  if (executor.yieldRequested()) return 'yield';
  if (stepNeedsSession(before, step)) return 'needs_session';
  if (index + 1 >= limits.maxSteps) return 'step_cap';
  if (limits.tokensLeft !== undefined && spent >= limits.tokensLeft) return 'tokens';
  if (budgetSpent(limits, spentUsage)) return 'budget';
  if (executor.historyFull?.()) return 'history';
  return undefined;
}

/** True when the child's steps spent what the tree's budget had left as it started. */
export function budgetSpent(limits: TurnStepLimits, spent: ModelUsage | undefined): boolean {
  if (limits.budgetUsdLeft === undefined && limits.budgetTokensLeft === undefined) return false;
  if (limits.budgetUsdLeft !== undefined && pricedCostUsd(spent) >= limits.budgetUsdLeft) return true;
  const t = modelUsageTotals(spent);
  return limits.budgetTokensLeft !== undefined && t.input_tokens + t.output_tokens >= limits.budgetTokensLeft;
}

/** Runs the child's steps; returns them all (the last one says how the turn ended) and why it returned. */
export async function runTurnSteps<R extends StepOutcome>(
  limits: TurnStepLimits,
  firstContext: AgentContext,
  executor: TurnStepsExecutor<R>,
): Promise<{ steps: R[]; returned: StepReturn }> {
  const steps: R[] = [];
  let before = firstContext;
  let spent = 0;
  let spentUsage: ModelUsage | undefined;
  for (let index = 0; ; index++) {
    const after = (step: R): StepReturn | undefined =>
      nextStep(
        limits,
        index,
        before,
        step,
        spent + tokensOf(step.usage),
        executor,
        step.modelUsage ? addModelUsage(spentUsage, step.modelUsage) : spentUsage,
      );
    const step = await executor.runStep(index, steps[steps.length - 1], (s) => after(s) === undefined);
    steps.push(step);
    spent += tokensOf(step.usage);
    if (step.modelUsage) spentUsage = addModelUsage(spentUsage, step.modelUsage);
    const returned = nextStep(limits, index, before, step, spent, executor, spentUsage);
    if (returned) return { steps, returned };
    before = step.context;
  }
}
