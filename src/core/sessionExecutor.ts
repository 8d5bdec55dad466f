// What the session loop (core/session.ts `runSession`) needs from its scheduler: the executor the
// session workflow and the in-process runner each supply, and the report of one turn. Types only;
// its own file so that the loop's steps (sessionHookSteps.ts) and the loop share it without a cycle.
import type { AgentContext } from './context';
import type { HookRun, SessionHookEventName } from './hooks';
import type { Message, StopDetails, Usage } from './apiMessages';
import type { ModelUsage } from './modelUsage';
import type { ControlWrite, ToolCallStatus } from './toolRecords';
import type { TurnEndReason } from './turn';
import type { CompactionRecord, ContextView } from './contextView';
import type { SessionEvents } from './sessionEvents';
import type { SessionPhase, SessionState, SessionStatusName } from './sessionState';
import type { BudgetEvent, BudgetLimits } from './budget';

/** What the session needs to know of a finished turn (schedulers report more; it is ignored here). */
export interface TurnReport {
  reason: TurnEndReason | 'failed';
  /** False when the turn ended before the model answered: its messages are sent again next turn. */
  consumedAppend: boolean;
  head: string | null;
  context: AgentContext;
  readFilesRef?: string | null;
  usage?: Usage;
  records: ReadonlyArray<{
    status: ToolCallStatus;
    stop?: { reason: string; hook: string };
    attempts?: number;
    toolUseId?: string;
    toolName?: string;
    summary?: string;
    controlWrites?: readonly ControlWrite[];
  }>;
  /** The assistant's text (may be a preview). */
  text: string;
  /** Why the turn failed (reason 'failed'). */
  error?: string;
  /** A refusal's `stop_details` (reason 'refusal'). */
  stopDetails?: StopDetails;
  /** The model's view after the turn, its compactions and their summarizing calls' usage. */
  view?: ContextView;
  compactions?: readonly CompactionRecord[];
  compactionUsage?: Usage;
  /** Every model call of the turn by model, cost included (its own, compactions', tool calls'). */
  modelUsage?: ModelUsage;
  /**
   * A turn child that ran several model steps (issue 33, core/turnSteps.ts): how many. The session
   * counts each as a turn (maxTurns, the status); `usage` sums them and `lastUsage` is the last one's.
   */
  steps?: number;
  lastUsage?: Usage;
}

export interface SessionExecutor {
  /**
   * The session's events (core/sessionEvents.ts): handlers append, the loop settles them after
   * each of its waits. Absent: the state is written directly (tests).
   */
  readonly events?: SessionEvents<SessionState>;
  /** Runs turn `turn`, sending `append` (the pending user messages) before the model call. */
  runTurn(turn: number, append: Message[]): Promise<TurnReport>;
  /** True if an interrupt arrived since the last call; consumes it. */
  takeInterrupt(): boolean;
  /** Waits until `state.pendingMessages` is not empty; false after `timeoutMs` without one. */
  waitForMessage(timeoutMs: number): Promise<boolean>;
  /**
   * The model ended its turn but the session still has work that can wake it (a running background
   * task, a wake-up, a cron job: `hasPendingWork`). Waits until an event or a follow-up is queued in
   * `state.pendingMessages` (true: run the next turn) or nothing is left to wait for or the session
   * was told to stop (false: the session ends as the model ended it). Absent: the session ends.
   */
  waitForWork?(state: SessionState): Promise<boolean>;
  /**
   * Asked only when a turn ended the session but a message was queued meanwhile (a background
   * task's end): true to run a turn for it. Absent or false: the session ends (the behaviour before).
   */
  wakesForQueued?(): boolean;
  /**
   * True: a message queued while UserPromptSubmit hooks ran is kept and checked in its turn.
   * Absent or false: it is lost (the behaviour before; histories recorded so replay unchanged).
   */
  keepsLatePrompts?(): boolean;
  /** At a turn boundary (after the first turn of a run): true to continue-as-new now. */
  shouldCheckpoint?(turnsThisRun: number): boolean;
  /** Before a checkpoint: let in-flight handlers (signals, updates) finish. */
  drain?(): Promise<void>;
  /** Status and phase changes, for queries, search attributes and live views. */
  onStatus?(status: SessionStatusName, phase: SessionPhase): void;
  /**
   * Over budget (core/budget.ts): waits until a raise (`budget ID --add`) covers the tree's spend
   * (true) or `budget ID --on-budget end` asks to end (false). Absent: an exceeded budget ends the session.
   */
  waitForBudget?(limits: BudgetLimits): Promise<boolean>;
  /** The scheduler's clock (workflow time under Temporal): budget events carry it. */
  now?(): number;
  /**
   * A budget event (threshold crossed once, budget exceeded): the one point notifications
   * (webhook, Notification hook) hook into. It is in `state.budget.events` too (status shows it).
   */
  onBudgetEvent?(event: BudgetEvent): void;
  /** Is any hook configured for this session-level event? (None: no activity is scheduled.) */
  hasHooks?(event: SessionHookEventName): boolean;
  /** Runs the event's hooks (an activity under Temporal) with the event's own input fields. */
  runHooks?(event: SessionHookEventName, fields: Record<string, unknown>, head: string | null): Promise<HookRun[]>;
}
