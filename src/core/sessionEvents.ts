// What happens to a session from outside its loop, as data (issue 32): a follow-up, a background
// task's end, a Monitor's batch, a wake-up or cron firing, `stop`, a subagent's spend. Signal
// handlers, tasks, monitors and timers only *append* a `SessionEvent` to the session's
// `SessionEvents`; the loop applies them at its fixed points (`settle`: after each of its waits,
// before it reads the state) through one pure, exhaustive `applySessionEvent` — the seed's ordered
// context modifiers, for the session. Both schedulers (the session workflow, src/inprocess) use it.
//
// Determinism: a handler runs only while the loop waits, and the loop settles right after each wait,
// before any read or write of the state; predicates (`hasMessages`) and queries (`view`) see the
// appended events too. So the state every command is built from is the one the handlers' direct
// writes made before (recorded histories replay unchanged). Pure: no I/O, no clocks.
import { endTask, type Autonomy, type TaskOutcome } from './autonomy';
import type { AgentContext } from './context';
import { addModelUsage, type ModelUsage } from './modelUsage';
import {
  chargeBudget,
  raiseBudget,
  settleInFlight,
  type BudgetCharge,
  type BudgetEvent,
  type BudgetRaise,
  type BudgetState,
} from './budget';
import { taskNotification } from '../tasks/core/taskNotifications';

export type SessionEvent =
  /** A user's message for the next turn (the send signal; the in-process handle's `send`). */
  | { type: 'followUp'; text: string }
  /**
   * A background task's run ended: its record ends (if it still runs in the context) and its
   * notification (if any) is queued for the next turn.
   */
  | { type: 'taskEnded'; taskId: string; outcome: TaskOutcome; notification?: string }
  /**
   * Ends seen while a turn ran, applied again over the turn's context (which still shows those tasks
   * running): the scheduler's own event, at the start of a turn or a wait.
   */
  | { type: 'taskEndsReapplied'; ends: ReadonlyArray<{ taskId: string; outcome: TaskOutcome }> }
  /** A Monitor task's batch of output (or its end of stream): its notification for the next turn. */
  | { type: 'monitorEvent'; taskId: string; text: string }
  /**
   * A wake-up or cron jobs came due: the autonomy with the firings moved on (computed, with the next
   * cron times, from the autonomy before the lookup), and each firing's prompt for the next turn.
   */
  | { type: 'timerDue'; autonomy: Autonomy; prompts: readonly string[] }
  /** `stop` reached the idle point: the wake-up and the cron jobs are dropped (tasks stay). */
  | { type: 'stop' }
  /** A subagent's tree spent (a background agent's or an in-process child's session ended): counted for its root. */
  | { type: 'subagentUsage'; modelUsage: ModelUsage; chargeTo?: string }
  /** A running child's model call spent (issue 34): charged to the root's budget before its next model call. */
  | { type: 'budgetCharge'; charge: BudgetCharge }
  /** `budget ID --add` (an Update, validated before): the budget is raised. */
  | { type: 'budgetRaised'; raise: BudgetRaise; event: BudgetEvent };

export type SessionEventType = SessionEvent['type'];

/** What events change: a part of `SessionState` (core/session.ts), so a scheduler's smaller state fits too. */
export interface SessionEventState {
  context: AgentContext;
  pendingMessages: string[];
  modelUsage?: ModelUsage;
  budget?: BudgetState;
}

function withAutonomy<S extends SessionEventState>(state: S, autonomy: Autonomy): S {
  return { ...state, context: { ...state.context, autonomy } };
}

/** Applies one event. Pure: returns the next state (the argument is not changed). */
export function applySessionEvent<S extends SessionEventState>(state: S, event: SessionEvent): S {
  switch (event.type) {
    case 'followUp':
    case 'monitorEvent':
      return { ...state, pendingMessages: [...state.pendingMessages, event.text] };
    case 'taskEnded': {
      let next = state;
      const a = next.context.autonomy;
      if (a) next = withAutonomy(next, endTask(a, event.taskId, event.outcome, taskNotification).autonomy);
      if (event.notification) next = { ...next, pendingMessages: [...next.pendingMessages, event.notification] };
      return next;
    }
    case 'taskEndsReapplied': {
      const a = state.context.autonomy;
      if (!a) return state;
      let autonomy = a;
      for (const e of event.ends) autonomy = endTask(autonomy, e.taskId, e.outcome, taskNotification).autonomy;
      return autonomy === a ? state : withAutonomy(state, autonomy);
    }
    case 'timerDue':
      return {
        ...withAutonomy(state, event.autonomy),
        pendingMessages: [...state.pendingMessages, ...event.prompts],
      };
    case 'stop': {
      const a = state.context.autonomy;
      if (!a) return state;
      const { wakeup: _w, ...rest } = a;
      return withAutonomy(state, { ...rest, crons: [] });
    }
    case 'subagentUsage': {
      // The child's reports so far are in its tree's total now: dropped, so nothing counts twice.
      const budget = event.chargeTo ? settleInFlight(state.budget, { chargeTo: event.chargeTo }) : state.budget;
      return {
        ...state,
        modelUsage: addModelUsage(state.modelUsage, event.modelUsage),
        ...(budget ? { budget } : {}),
      };
    }
    case 'budgetCharge':
      return { ...state, budget: chargeBudget(state.budget, event.charge) };
    case 'budgetRaised':
      return { ...state, budget: raiseBudget(state.budget, event.raise, event.event) };
    default: {
      const never: never = event;
      throw new Error(`unknown session event ${JSON.stringify(never)}`);
    }
  }
}

/** Applies events in order (the order they were appended). */
export function applySessionEvents<S extends SessionEventState>(state: S, events: readonly SessionEvent[]): S {
  return events.reduce(applySessionEvent, state);
}

/** Does the event queue a message for the next turn? (An idle wait wakes for it.) */
export function queuesMessage(event: SessionEvent): boolean {
  switch (event.type) {
    case 'followUp':
    case 'monitorEvent':
      return true;
    case 'taskEnded':
      return !!event.notification;
    case 'timerDue':
      return event.prompts.length > 0;
    case 'taskEndsReapplied':
    case 'stop':
    case 'subagentUsage':
    case 'budgetCharge':
    case 'budgetRaised':
      return false;
    default: {
      const never: never = event;
      throw new Error(`unknown session event ${JSON.stringify(never)}`);
    }
  }
}

/**
 * The session's events and the one place they change its state. The state object is the
 * scheduler's (queries, the turn's input and continue-as-new read it); `settle` writes each applied
 * event's result into it, so every holder sees one state.
 */
export class SessionEvents<S extends SessionEventState = SessionEventState> {
  private queue: SessionEvent[] = [];

  constructor(readonly state: S) {}

  /** A handler, a task, a monitor or a timer: the event waits for the loop's next fixed point. */
  append(event: SessionEvent): void {
    this.queue.push(event);
  }

  /** The loop at a fixed point: every appended event is applied, in order. */
  settle(): S {
    if (this.queue.length === 0) return this.state;
    const events = this.queue;
    this.queue = [];
    commit(this.state, applySessionEvents(this.state, events));
    return this.state;
  }

  /** The loop's own event (at a fixed point): what came before it first, then it. */
  apply(event: SessionEvent): S {
    this.append(event);
    return this.settle();
  }

  /** Is a message waiting for the next turn, applied or not? (The idle waits' predicate.) */
  hasMessages(): boolean {
    return this.state.pendingMessages.length > 0 || this.queue.some(queuesMessage);
  }

  /** Events appended and not applied yet. */
  pending(): readonly SessionEvent[] {
    return this.queue;
  }

  /** The state as the next fixed point will make it (queries): nothing is changed. */
  view(): S {
    return this.queue.length === 0 ? this.state : applySessionEvents(this.state, this.queue);
  }
}

/** Writes `next` into `target` (the one object every holder of the state reads). */
function commit<S extends SessionEventState>(target: S, next: S): void {
  if (next === target) return;
  for (const key of Object.keys(target) as Array<keyof S>) if (!(key in next)) delete target[key];
  Object.assign(target, next);
}
