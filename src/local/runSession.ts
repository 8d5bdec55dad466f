// The same session without Temporal: an in-process scheduler for fast tests, for library users who
// want no server, and as the baseline of the overhead benchmark. One algorithm, two schedulers:
// the session loop is the engine's `runSession`, each turn the engine's `executeTurn`, the model
// and tool calls the same cores the activities run. This file is the public face; sessionRun.ts and turn.ts schedule them in-process.
import type { AgentContext } from '../engine/context';
import type { CompactionRecord } from '../engine/contextView';
import type { ToolCallRecord } from '../engine/records';
import type { OutageState } from '../engine/retry';
import type { PendingApproval, SessionPhase, SessionResult, SessionState, SessionStatusName } from '../engine/session';
import type { Approval, TurnOutcome } from '../engine/turn';
import type { CheckoutStartOptions, SessionOptions } from '../sessionInput';
import type { AgentDepsOptions } from '../calls/callDeps';
import { LocalSessionRun } from './sessionRun';
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
  readonly result: Promise<LocalSessionResult>;
}

type WorkerDeps = AgentDepsOptions;

/**
 * Starts a session in-process. `worker` builds its dependencies as a worker's (tools, hooks, the
 * Anthropic client…); its store is `worker.storeDir` when given, else a temporary directory that
 * is removed when the session ends (src/local/store.ts): never the machine's store.
 */
export function startLocalSession(opts: LocalSessionOptions, worker: WorkerDeps = {}): LocalSession {
  const run = new LocalSessionRun(opts, worker, runLocalSession);
  return {
    sessionId: run.sessionId,
    storeDir: run.store.storeDir,
    result: run.run(),
    send: (text) => run.send(text),
    interrupt: () => run.interrupt(),
    stop: () => run.stop(),
    status: () => run.statusView(),
  };
}

/**
 * Runs a session to its end. `signal` interrupts the running turn; since nothing can send a
 * follow-up here, an interrupted session ends unless `onInterrupt: 'wait'` is given (use
 * startLocalSession to send follow-ups).
 */
export async function runLocalSession(opts: LocalSessionOptions, worker: WorkerDeps = {}): Promise<LocalSessionResult> {
  const s = startLocalSession({ ...opts, onInterrupt: opts.onInterrupt ?? 'end' }, worker);
  if (opts.signal) {
    if (opts.signal.aborted) s.interrupt();
    else opts.signal.addEventListener('abort', () => s.interrupt(), { once: true });
  }
  return s.result;
}
