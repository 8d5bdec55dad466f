// An in-process session's tree budget (issue 34, core/budget.ts; the peer of the workflow's
// temporal/workflows/sessionBudget.ts): over budget the engine's gate waits here in
// `budget_exceeded` until the handle's `raiseBudget` covers the spend, or ends the session
// (`raiseBudget({ end: true })`, `--on-budget end` from the start, or `stop()`). A raise is checked
// by the same validator as the workflow's Update, and recorded as the same session event.
import {
  budgetRaisedEvent,
  budgetRaiseProblem,
  budgetView,
  checkBudget,
  type BudgetLimits,
  type BudgetRaise,
  type BudgetView,
} from '../core/budget';
import type { SessionEvents } from '../core/sessionEvents';
import type { SessionState } from '../core/session';

export class LocalBudget {
  private endRequested = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly events: SessionEvents<SessionState>,
    readonly limits: BudgetLimits | undefined,
  ) {}

  view(): BudgetView {
    if (!this.limits) return { exceeded: false, spentUsd: 0, spentTokens: 0, events: [] };
    return budgetView(this.limits, this.events.view());
  }

  /** `budget --add` in-process: refused with the reason (nothing recorded), else applied and the wait woken. */
  raise(raise: BudgetRaise): BudgetView {
    const problem = budgetRaiseProblem(raise ?? {}, this.limits);
    if (problem) throw new Error(problem);
    if (raise.end === true) this.end();
    else this.events.append(budgetRaisedEvent(raise, this.view(), Date.now()));
    this.wake?.();
    return this.view();
  }

  /** A session waiting over budget ends (`budget --on-budget end`, `stop()`). */
  end(): void {
    this.endRequested = true;
    this.wake?.();
  }

  /** The engine's wait in `budget_exceeded`: true when a raise covers the spend, false when it is to end. */
  async wait(limits: BudgetLimits): Promise<boolean> {
    for (;;) {
      if (this.endRequested) return false;
      if (checkBudget(limits, this.events.view(), 0).kind === 'ok') return true;
      await new Promise<void>((r) => (this.wake = r));
      this.wake = undefined;
    }
  }
}
