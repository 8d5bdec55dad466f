// What an in-process session shows and hands back (sessionRun.ts `LocalSessionRun`; the peer of the
// session workflow's sessionView.ts): the handle's status and the session's result. Synchronous
// builders only: the session's waits stay in sessionRun.ts.
import type { OutageState } from '../core/retry';
import type { PendingApproval, SessionPhase, SessionState, SessionStatusName } from '../core/session';
import type { LocalSessionResult, LocalSessionStatus } from './types';

/** What the status shows besides the state. */
export interface LocalRunView {
  sessionId: string;
  status: SessionStatusName;
  phase: SessionPhase;
  pending: ReadonlyMap<string, PendingApproval>;
  outage: OutageState | undefined;
  endReason: string | undefined;
  budget?: LocalSessionStatus['budget'];
}

/** The handle's status: the state (as the loop's next fixed point will make it) and the run's view. */
export function localStatusOf(state: SessionState, run: LocalRunView): LocalSessionStatus {
  return {
    sessionId: run.sessionId,
    status: run.status,
    phase: run.pending.size > 0 ? 'awaiting_approval' : run.phase,
    turn: state.turn,
    pendingApprovals: [...run.pending.values()],
    usage: state.usage,
    ...(state.modelUsage ? { modelUsage: state.modelUsage } : {}),
    head: state.head,
    lastText: state.lastText,
    ...(run.outage ? { outage: run.outage } : {}),
    ...(run.endReason ? { endReason: run.endReason } : {}),
    ...(state.controlWrites?.length ? { controlWrites: state.controlWrites } : {}),
    ...(run.budget ? { budget: run.budget } : {}),
  };
}

/** What the run kept besides the state: its calls, its turns and the last model text. */
export type LocalRunDetail = Pick<LocalSessionResult, 'sessionId' | 'records' | 'turnsDetail' | 'finalText'>;

/** The session's result, once it has ended. */
export function localResultOf(
  state: SessionState,
  end: { status: SessionStatusName; endReason: string },
  run: LocalRunDetail,
): LocalSessionResult {
  const toolCalls = Object.values(state.toolCallCounts).reduce((a, b) => a + (b ?? 0), 0);
  return {
    status: end.status,
    turns: state.turn,
    usage: state.usage,
    head: state.head,
    lastText: state.lastText,
    endReason: end.endReason,
    toolCalls,
    ...(state.lastUsage ? { lastUsage: state.lastUsage } : {}),
    ...(state.modelUsage ? { modelUsage: state.modelUsage } : {}),
    finalText: run.finalText,
    sessionId: run.sessionId,
    records: run.records,
    turnsDetail: run.turnsDetail,
    context: state.context,
    compactions: state.compactions ?? [],
  };
}
