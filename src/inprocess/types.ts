// The in-process runner's public shapes: its options, result, status and handle. Their own file so
// that the runner's parts (sessionRun.ts, subagents.ts) and its public face (runSession.ts, which
// re-exports them) import them without importing each other.
import type { AgentContext } from '../core/context';
import type { BudgetRaise, BudgetView } from '../core/budget';
import type { CompactionRecord } from '../core/contextView';
import type { ToolCallRecord } from '../core/toolRecords';
import type { OutageState } from '../core/retry';
import type { PendingApproval, SessionPhase, SessionResult, SessionState, SessionStatusName } from '../core/session';
import type { Approval, TurnOutcome } from '../core/turn';
import type { CheckoutStartOptions, SessionOptions } from '../sessionInput';
import type { LocalClock } from './timers';

export interface LocalSessionOptions extends SessionOptions, CheckoutStartOptions {
  sessionId?: string;
  /** Resolves `ask` decisions (the approver); without one an ask is denied at once, saying so. */
  onAsk?: (ask: { toolUseId: string; toolName: string; summary: string; message: string }) => Promise<Approval>;
  /** Abort to interrupt the running turn (like `interrupt()`); see runLocalSession for the default onInterrupt. */
  signal?: AbortSignal;
  onTurn?: (turn: number, outcome: TurnOutcome) => void;
  /** The clock of wake-ups and cron firings between turns (default: real time; tests skip ahead). */
  clock?: LocalClock;
}

export interface LocalSessionResult extends SessionResult {
  sessionId: string;
  records: ToolCallRecord[];
  /** Per turn: its end, its batches, and the calls started while streaming that the final message discarded. */
  turnsDetail: Array<{
    turn: number;
    reason: string;
    batches: TurnOutcome['batches'];
    discarded?: TurnOutcome['discarded'];
  }>;
  context: AgentContext;
  /** Compactions of the model's view (the transcript under `head` keeps everything). */
  compactions: CompactionRecord[];
  /** The last text the model answered, whole (`lastText` is a one-line preview). */
  finalText: string;
}

export interface LocalSessionStatus {
  sessionId: string;
  status: SessionStatusName;
  phase: SessionPhase;
  turn: number;
  pendingApprovals: PendingApproval[];
  usage: SessionState['usage'];
  modelUsage?: SessionState['modelUsage'];
  head: string | null;
  lastText: string;
  outage?: OutageState;
  endReason?: string;
  /** Writes the session's calls made to its control files (the last 100). */
  controlWrites?: SessionState['controlWrites'];
  /** The tree's budget, when the session has one (issue 34). */
  budget?: BudgetView;
}

/** A running in-process session: the peer of a session workflow's handle. */
export interface LocalSession {
  readonly sessionId: string;
  /**
   * Where this session's transcripts, ledger and large results live: the caller's `storeDir`, else
   * a temporary directory removed when the session ends (pass a `storeDir` to keep them).
   */
  readonly storeDir: string;
  /** A follow-up message (as `durable-agent send`). */
  send(text: string): void;
  /** Interrupts the running turn (as `durable-agent interrupt`). */
  interrupt(): void;
  /** Ends the loop at its next idle point, dropping its wake-up and cron jobs (as `durable-agent stop`). */
  stop(): void;
  status(): LocalSessionStatus;
  /**
   * Raises the budget of a session over it (as `durable-agent budget ID --add`), or ends it
   * (`{ end: true }`). A bad raise throws with the reason and changes nothing.
   */
  raiseBudget(raise: BudgetRaise): BudgetView;
  readonly result: Promise<LocalSessionResult>;
}
