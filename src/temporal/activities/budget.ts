// The budget at a model call (issue 34, core/budget.ts), on the worker: before the call, the activity
// asks the root session whether the tree's budget is spent (the `budget` query) and waits, heartbeating,
// while it is — so a child (a background or foreground agent, an isolated one) makes no model call past
// its root's budget either; after the call, a child's activity signals what the call spent to the root
// (`budgetCharge`, keyed by this activity's id and attempt: a signal sent twice counts once), so the
// root's next check counts it before its next model call, not at the child's end. Everything is in
// the root's workflow state: a worker that crashes mid-call loses nothing (the call's retry asks again).
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { BudgetCharge, BudgetLink, BudgetView } from '../../core/budget';
import { QUERIES, SIGNALS } from '../../core/ids';
import type { ModelUsage } from '../../core/modelUsage';

/** How long one model activity waits over budget before it hands the wait to the turn (an outage retry). */
const MAX_WAIT_IN_ACTIVITY_MS = 10 * 60_000;
const POLL_MS = 1000;

/** Waits while the root's budget is spent. A root that cannot be asked (ended, not found): the call goes on (its end stops the tree). */
export async function waitForBudget(link: BudgetLink | undefined): Promise<void> {
  if (!link) return;
  const ctx = Context.current();
  const handle = ctx.client.workflow.getHandle(link.rootId);
  const started = Date.now();
  for (;;) {
    let exceeded: boolean;
    try {
      exceeded = (await handle.query<BudgetView>(QUERIES.budget)).exceeded;
    } catch {
      return;
    }
    if (!exceeded) return;
    if (Date.now() - started > MAX_WAIT_IN_ACTIVITY_MS)
      throw ApplicationFailure.retryable(
        `the budget of session ${link.rootId} is spent: waiting for \`durable-agent budget ${link.rootId} --add <usd>\``,
        'BUDGET_EXCEEDED',
      );
    ctx.heartbeat({ phase: 'budget_exceeded', root: link.rootId });
    await ctx.sleep(POLL_MS);
  }
}

/**
 * A child's call spent `modelUsage`: charged to its root now (the root's own calls are counted from
 * its turns). `part` tells apart several charges of one activity (a tool call's side calls).
 */
export async function chargeBudget(
  link: BudgetLink | undefined,
  modelUsage: ModelUsage | undefined,
  part?: string,
): Promise<void> {
  if (!link?.chargeTo || !modelUsage) return;
  const ctx = Context.current();
  const info = ctx.info;
  const key = `${info.workflowExecution?.workflowId ?? info.workflowType}/${info.activityId}#${info.attempt}${part ? `/${part}` : ''}`;
  try {
    await ctx.client.workflow
      .getHandle(link.rootId)
      .signal<[BudgetCharge]>(SIGNALS.budgetCharge, { chargeTo: link.chargeTo, key, modelUsage });
  } catch (err) {
    // The root ended (its end stopped the tree) or is unreachable for now: the child's end still counts it.
    ctx.log.warn(`could not charge ${link.rootId}'s budget: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** A child's tool call: each side model call it makes (WebFetch, WebSearch) charged to the root as it returns. */
export function sideCallCharger(link: BudgetLink | undefined): ((modelUsage: ModelUsage) => Promise<void>) | undefined {
  if (!link?.chargeTo) return undefined;
  let n = 0;
  return (modelUsage) => chargeBudget(link, modelUsage, `side-${++n}`);
}
