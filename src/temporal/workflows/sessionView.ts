// What the session workflow shows and hands out (session.ts `SessionRun`): the status query's
// answer, the session's result, and a session-level hook activity with its input. Synchronous
// builders only: the workflow's waits stay in session.ts.
import { proxyActivities } from '@temporalio/workflow';
import type { SessionHookEventName } from '../../core/hooks';
import type { Message } from '../../core/apiMessages';
import { oneLinePreview } from '../../core/apiMessages';
import { activityIds } from '../../core/ids';
import type { CheckoutGuardActivities, HookActivities } from '../activities';
import type {
  PendingApproval,
  SessionCarry,
  SessionInput,
  SessionResult,
  SessionStatus,
  SessionStatusName,
  TurnSummary,
  TurnWorkflowResult,
} from './definitions';
import { firstMessage, memoryRefOf } from '../../core/memoryReminder';
import { initialContext } from '../../core/context';
import { initialSessionState, migrateSessionState } from '../../core/session';
import { sessionHookRequest } from '../../core/sessionHookSteps';
import type { OutageState } from '../../core/retry';
import { budgetSpend, type BudgetView } from '../../core/budget';
import type { SessionPhase } from '../../core/session';
import type { agentHookFields } from '../../core/subagents';

/** The state a run starts from: carried from the previous run (continue-as-new), or fresh. */
export function sessionRunState(
  input: SessionInput,
  carry: SessionCarry | undefined,
  sessionId: string,
  firstExecutionRunId: string,
): SessionCarry {
  const state = carry
    ? migrateSessionState(carry)
    : initialSessionState(
        firstMessage(input.prompt, input.memory),
        initialContext(input.cwd, input.additionalDirectories ?? []),
      );
  if (carry) state.runs = carry.runs + 1;
  else if (memoryRefOf(input.memory)) state.memoryRef = memoryRefOf(input.memory);
  // The zone cron jobs and wake-ups read, fixed for the session (a carried context keeps its own).
  if (!carry && input.timeZone) state.context.timeZone = input.timeZone;
  // The ledger key is the session's first run id (continue-as-new keeps it): unique even when a
  // new session reuses the workflow id. A run carried from before keys stay on the workflow id.
  state.ledgerKey ??= carry ? sessionId : firstExecutionRunId;
  return state;
}

/** What the status shows of the last turn. */
export function turnSummaryOf(result: TurnWorkflowResult): TurnSummary {
  return {
    turn: result.turn,
    reason: result.reason,
    records: result.records,
    batches: result.batches,
    ...(result.usage ? { usage: result.usage } : {}),
    fallback: result.fallback,
    text: result.text,
  };
}

export const toolCallsOf = (state: SessionCarry): number =>
  Object.values(state.toolCallCounts).reduce((a, b) => a + (b ?? 0), 0);

/** What the status query shows besides the state. */
export interface SessionRunView {
  sessionId: string;
  status: SessionStatusName | undefined;
  phase: SessionPhase;
  pendingApprovals: PendingApproval[];
  lastTurn: TurnSummary | undefined;
  outage: OutageState | undefined;
  endReason: string | undefined;
  currentTurnWorkflowId: string | undefined;
  waiting: { until?: number; reason: string } | undefined;
  stopRequested: boolean;
  budget?: BudgetView;
}

/** The status query's answer: the state (as the loop's next fixed point makes it) and the run's view. */
export function sessionStatusOf(state: SessionCarry, run: SessionRunView): SessionStatus {
  const { lastTurn, outage, endReason, currentTurnWorkflowId, waiting } = run;
  return {
    sessionId: run.sessionId,
    status: run.status ?? 'running',
    turn: state.turn,
    phase: run.pendingApprovals.length > 0 ? 'awaiting_approval' : run.phase,
    pendingApprovals: run.pendingApprovals,
    usage: state.usage,
    ...(state.modelUsage ? { modelUsage: state.modelUsage } : {}),
    head: state.head,
    toolCalls: toolCallsOf(state),
    toolCallCounts: state.toolCallCounts,
    context: { cwd: state.context.cwd, additionalDirectories: state.context.additionalDirectories },
    runs: state.runs,
    lastText: state.lastText,
    ...(state.hookNotices?.length ? { hookNotices: state.hookNotices } : {}),
    ...(lastTurn ? { lastTurn } : {}),
    ...(outage ? { outage } : {}),
    ...(endReason ? { endReason } : {}),
    ...(currentTurnWorkflowId ? { currentTurnWorkflowId } : {}),
    ...(state.compactions?.length ? { compactions: state.compactions } : {}),
    ...(state.view ? { contextTokens: state.view.baseline.tokens } : {}),
    ...(state.controlWrites?.length ? { controlWrites: state.controlWrites } : {}),
    ...(state.context.autonomy ? { autonomy: state.context.autonomy } : {}),
    ...(waiting ? { waiting } : {}),
    ...(run.stopRequested ? { stopRequested: true } : {}),
    ...(run.budget ? { budget: run.budget } : {}),
  };
}

/** The session workflow's result. */
export function sessionResultOf(state: SessionCarry, status: SessionStatusName, endReason: string): SessionResult {
  return {
    status,
    turns: state.turn,
    usage: state.usage,
    head: state.head,
    lastText: state.lastText,
    endReason,
    toolCalls: toolCallsOf(state),
    ...(state.lastUsage ? { lastUsage: state.lastUsage } : {}),
    ...(state.modelUsage ? { modelUsage: state.modelUsage } : {}),
    // A schedule's budget per day sums it from the results of the day's firings (core/scheduleDay.ts).
    ...(state.modelUsage || state.budget ? { treeSpend: budgetSpend(state) } : {}),
    ...(state.controlWrites?.length ? { controlWrites: state.controlWrites } : {}),
  };
}

/** Session-level hooks: one activity `hook-<event>-<n>` per firing, on the session's tool task queue. */
export function hookActivities(input: SessionInput, event: SessionHookEventName, n: number): HookActivities {
  return proxyActivities<HookActivities>({
    activityId: activityIds.hook(event, n),
    summary: `${event} hooks`,
    // A hook's own timeout is at most what the settings say (default 600 s): this only catches a lost worker.
    startToCloseTimeout: '11 minutes',
    retry: { initialInterval: '1 second', maximumAttempts: 3 },
    ...(input.toolTaskQueue ? { taskQueue: input.toolTaskQueue } : {}),
  });
}

/** A session-level hook activity's input (the request both schedulers build: core/sessionHookSteps.ts). */
export function sessionHookInput(
  input: SessionInput,
  run: { sessionId: string; state: SessionCarry; agentHooks: ReturnType<typeof agentHookFields> | undefined },
  event: SessionHookEventName,
  fields: Record<string, unknown>,
  head: string | null,
): Parameters<HookActivities['runSessionHooks']>[0] {
  return sessionHookRequest(
    input,
    { sessionId: run.sessionId, context: run.state.context, agentHookFields: run.agentHooks },
    event,
    fields,
    head,
  );
}

/** A schedule's firing: the checkout record, on the worker that has the directory (the tool task queue). No patch: only an input that carries `checkoutGuard` (created by a release that has it) runs it. */
export function checkoutGuardActivities(input: SessionInput): CheckoutGuardActivities {
  return proxyActivities<CheckoutGuardActivities>({
    activityId: activityIds.checkoutGuard(),
    summary: 'checkout record',
    startToCloseTimeout: '2 minutes',
    retry: { initialInterval: '1 second', maximumAttempts: 3 },
    ...(input.toolTaskQueue ? { taskQueue: input.toolTaskQueue } : {}),
  });
}

/** The staticSummary's tail: the turn's first words. */
export function firstTextOf(append: Message[]): string {
  if (append.length === 0) return '';
  return `: ${oneLinePreview(append.map((m) => (typeof m.content === 'string' ? m.content : '')).join(' / '), 60)}`;
}
