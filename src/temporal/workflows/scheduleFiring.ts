// A schedule's firing, before anything of the session runs (src/temporal/schedules.ts): the checkout
// check (`checkoutGuard`: a checkout recorded since the schedule was created that brought control
// files refuses the firing, src/runtime/checkoutGuard.ts) and the budget per day (`dailyBudget`,
// issue 34, core/scheduleDay.ts: the activity `schedule-day` sums the day's earlier firings' spend;
// the firing runs with min(its own budget, what is left of the day), or is skipped when the day is
// spent). Only the first run of a top-level session checks: a continue-as-new carries the input with
// the firing's budget written in.
import { ApplicationFailure, patched, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { ErrorCode } from '../../core/errors';
import { activityIds } from '../../core/ids';
import { firingBudget } from '../../core/scheduleDay';
import type { ScheduleDayActivities } from '../activities';
import { SESSION_030_PATCH, type SessionCarry, type SessionInput, type SessionResult } from './definitions';
import { checkoutGuardActivities } from './sessionView';

/** What the checks need of the session's run: its end, and its notifications delivered. */
export interface FiringHost {
  finish(status: 'failed' | 'budget_exceeded', reason: string): SessionResult;
  readonly notifier: { flush(): Promise<void> };
}

/**
 * The firing's checks. Throws (CHECKOUT_NOT_TRUSTED) for a refused checkout; returns the session's
 * result when the day's budget is spent (the firing ends at once, status budget_exceeded); else
 * undefined, with the firing's budget written into `input` (the session's limits, its children's
 * budget link, its status and its continue-as-new all read it there).
 */
export async function scheduleFiringChecks(
  input: SessionInput,
  carry: SessionCarry | undefined,
  session: FiringHost,
): Promise<SessionResult | undefined> {
  if (carry || input.parent) return undefined;
  if (input.checkoutGuard) {
    const guard = await checkoutGuardActivities(input).checkCheckoutGuard({ cwd: input.cwd, ...input.checkoutGuard });
    if (guard.refused) {
      session.finish('failed', guard.reason);
      await session.notifier.flush();
      throw ApplicationFailure.nonRetryable(
        `session refused: ${guard.reason}`,
        'CHECKOUT_NOT_TRUSTED' satisfies ErrorCode,
      );
    }
  }
  // Issue 34: an input with `dailyBudget` did not exist before; asked all the same (release 0.3.0's one id).
  if (!input.dailyBudget || !patched(SESSION_030_PATCH)) return undefined;
  const info = workflowInfo();
  const day = await scheduleDayActivities().scheduleDaySpend({
    dailyBudget: input.dailyBudget,
    sessionId: info.workflowId,
    startedAtMs: info.startTime.getTime(),
  });
  const verdict = firingBudget(input, input.dailyBudget, day);
  if (verdict.kind === 'skip') {
    const result = session.finish('budget_exceeded', verdict.reason);
    await session.notifier.flush();
    return result;
  }
  if (verdict.maxBudgetUsd !== undefined) input.maxBudgetUsd = verdict.maxBudgetUsd;
  if (verdict.maxTotalTokens !== undefined) input.maxTotalTokens = verdict.maxTotalTokens;
  // A tree budget (core/session.ts sessionConfig): over it the schedule's --on-budget applies.
  input.onBudget ??= 'wait';
  return undefined;
}

function scheduleDayActivities(): ScheduleDayActivities {
  return proxyActivities<ScheduleDayActivities>({
    activityId: activityIds.scheduleDay(),
    summary: "the schedule's spend today",
    startToCloseTimeout: '5 minutes',
    retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
  });
}
