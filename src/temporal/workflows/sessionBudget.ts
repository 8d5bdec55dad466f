// The session's budget handlers (issue 34, core/budget.ts): the `budgetCharge` signal a child's model
// activity sends, the `budget` query the model activities ask before a call, the `budget` Update that
// raises it (`durable-agent budget ID --add 5`, validated: a raise that is negative, zero, not a number
// or absurd is refused with the reason, nothing recorded), and the durable wait in `budget_exceeded`
// (a condition: no timer, no command; a worker restart replays into the same wait).
import { condition, log, patched, setHandler } from '@temporalio/workflow';
import {
  budgetChargeProblem,
  budgetRaisedEvent,
  budgetRaiseProblem,
  budgetView,
  checkBudget,
  type BudgetLimits,
  type BudgetRaise,
  type BudgetView,
} from '../../core/budget';
import type { SessionEvents } from '../../core/sessionEvents';
import { sessionConfig, type SessionStatusName } from '../../core/session';
import {
  SESSION_030_PATCH,
  budgetChargeSignal,
  budgetQuery,
  budgetUpdate,
  type SessionCarry,
  type SessionInput,
} from './definitions';

export class SessionBudget {
  constructor(
    private readonly events: SessionEvents<SessionCarry>,
    /** Read at each use: a schedule's firing writes its budget for the day there before its first turn (scheduleFiring.ts). */
    private readonly input: SessionInput,
    private readonly status: { get(): SessionStatusName | undefined; set(s: SessionStatusName): void },
  ) {
    // Its handlers are set as the run starts (the session constructs it in its first activation).
    this.register();
  }

  private register(): void {
    setHandler(budgetChargeSignal, (charge) => this.onCharge({ type: 'budgetCharge', charge }));
    setHandler(budgetQuery, () => this.query());
    setHandler(budgetUpdate, (r) => this.raise(r), { validator: (r) => this.validate(r) });
  }

  /** The tree's budget (a subagent has none of its own: its root holds it). */
  get limits(): BudgetLimits | undefined {
    return this.input.parent ? undefined : sessionConfig(this.input).budget;
  }

  /** The budget now (what the next fixed point will make of the state). */
  view(): BudgetView {
    if (!this.limits) return { exceeded: false, spentUsd: 0, spentTokens: 0, events: [] };
    return budgetView(this.limits, this.events.view());
  }

  /** Answers the query (model activities ask it before each call). */
  query(): BudgetView {
    return this.view();
  }

  /** `other`, or the budget spent after now (a subagent's budgetCharge): the session's running turn child yields. */
  spentSince(other: () => boolean): () => boolean {
    const was = !this.limits || this.view().exceeded;
    return () => other() || (!was && this.view().exceeded);
  }

  /** A child's call spent: charged now; a session idle while its children run shows it is over budget. */
  onCharge(charge: Parameters<typeof this.events.append>[0] & { type: 'budgetCharge' }): void {
    const problem = budgetChargeProblem(charge.charge);
    if (problem) {
      // A charge only adds (issue 30 round e): ignored, and said in the worker's log.
      log.warn(`budgetCharge ${charge.charge.key} from ${charge.charge.chargeTo} ignored: ${problem}`);
      return;
    }
    this.events.append(charge);
    if (this.limits && this.status.get() === 'waiting' && this.view().exceeded && patched(SESSION_030_PATCH))
      this.status.set('budget_exceeded');
  }

  /** The Update's validator: runs before anything is recorded; a refusal says why. */
  validate(raise: BudgetRaise): void {
    const problem = budgetRaiseProblem(raise ?? {}, this.limits);
    if (problem) throw new Error(problem);
  }

  /** The Update: the raise is applied at the loop's next fixed point (the wait below wakes for it). */
  raise(raise: BudgetRaise): BudgetView {
    if (raise.end === true) {
      this.endRequested = true;
      return this.view();
    }
    this.events.append(budgetRaisedEvent(raise, this.view(), Date.now()));
    const after = this.view();
    if (this.status.get() === 'budget_exceeded' && !after.exceeded && !this.waitingInLoop) this.status.set('waiting');
    return after;
  }

  private waitingInLoop = false;
  /** `budget ID --on-budget end` arrived: the wait ends the session. */
  private endRequested = false;

  /** The loop's wait in `budget_exceeded`: until a raise covers the tree's spend (true) or an end is asked (false). */
  async wait(limits: BudgetLimits): Promise<boolean> {
    patched(SESSION_030_PATCH);
    this.waitingInLoop = true;
    try {
      await condition(() => this.endRequested || checkBudget(limits, this.events.view(), 0).kind === 'ok');
      return !this.endRequested;
    } finally {
      this.waitingInLoop = false;
    }
  }
}
