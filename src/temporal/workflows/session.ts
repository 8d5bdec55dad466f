// The session workflow: one per job. The loop's decisions (limits, end reasons, follow-ups,
// interrupts, token accounting) are the engine's `runSession`; this file supplies its Temporal
// executor. The workflow's sequence:
//   1. check the input's shape (a bad input fails the workflow before anything runs);
//   2. the state: carried from the previous run (continue-as-new) or fresh;
//   3. the handlers (status/head queries, follow-ups, interrupts, approvals, outages): `SessionRun`;
//   4. store the settings once per run (patched), so that turns and their model calls carry a reference;
//   5. `runSession`: each turn a child workflow `<session>/turn-<n>`, the idle wait a durable condition;
//   6. at a turn boundary past the run's history budget: drain the handlers and continue-as-new;
//      else finish (ended, stopped, failed, or cancelled) and say why.
import { turnWorkflowId } from '../../core/ids';
import { turnResultFromHistory } from '../../core/payloads';
import {
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  isCancellation,
  patched,
  proxyLocalActivities,
  proxySinks,
  setCurrentDetails,
  setHandler,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
  type ChildWorkflowHandle,
} from '@temporalio/workflow';
import type { ErrorCode } from '../../core/errors';
import { defineSearchAttributeKey } from '@temporalio/common';
import type { Message } from '../../core/apiMessages';
import { describeOutage, type OutageState } from '../../core/retry';
import type { ToolSettingsActivities } from '../activities';
import type { StoredSettingsRef } from '../../toolCall/tools';
import { storedToolSettings } from './toolSettings';
import { agentHookFields } from '../../core/subagents';
import { SESSION_HOOK_EVENT_NAMES, type HookRun, type SessionHookEventName } from '../../core/hooks';
import { hookFailureRuns } from '../../core/schedulerShared';
import {
  END_REASONS,
  sessionConfig,
  runSession,
  type SessionExecutor,
  type SessionPhase,
  type TurnReport,
} from '../../core/session';
import {
  SUBAGENT_HOOKS_PATCH,
  SESSION_START_SOURCES_PATCH,
  TOOL_SETTINGS_REF_PATCH,
  CHECKPOINT_OWN_SIZE_PATCH,
  QUEUED_AFTER_TURN_PATCH,
  LATE_PROMPTS_PATCH,
  SESSION_030_PATCH,
  STATUS_SEARCH_ATTRIBUTE,
  approvalPendingSignal,
  approvalResolvedSignal,
  approveUpdate,
  outageSignal,
  denyUpdate,
  interruptSignal,
  sendMessageSignal,
  stopSignal,
  statusQuery,
  transcriptHeadQuery,
  turnInterruptSignal,
  turnYieldSignal,
  type ApprovalDecisionInput,
  type SessionCarry,
  type SessionInput,
  type SessionResult,
  type SessionSinks,
  type SessionStatus,
  type SessionStatusName,
  type TurnSummary,
  type TurnWorkflowResult,
} from './definitions';
import { turnWorkflow } from './turn';
import { SessionEvents } from '../../core/sessionEvents';
import { SessionApprovals } from './sessionApprovals';
import {
  firstTextOf,
  hookActivities,
  sessionHookInput,
  sessionResultOf,
  sessionRunState,
  sessionStatusOf,
  turnSummaryOf,
} from './sessionView';
import { sessionInputShapeProblems } from './inputShape';
import { SessionTimers } from './sessionTimers';
import { SessionBudget } from './sessionBudget';
import { scheduleFiringChecks } from './scheduleFiring';
import { SessionNotifier } from './sessionNotify';
import { SessionTasks } from '../../tasks/workflows/sessionTasks';
import { toolSession } from './toolSettings';
import { turnWorkflowInput } from './turnInput';
import { cancelledMeanwhile, failedTurnReport, turnStepLimits } from './turnSteps';

const statusKey = defineSearchAttributeKey(STATUS_SEARCH_ATTRIBUTE, 'KEYWORD');
// Content-addressed and idempotent (running it again on replay elsewhere is right).
const toolSettingsStore = proxyLocalActivities<ToolSettingsActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});
const DEFAULT_MAX_HISTORY_BYTES = 2 * 1024 * 1024;
/** Under CHECKPOINT_OWN_SIZE_PATCH: what the run's events cost besides the payloads it counts, per turn. */
const EVENT_OVERHEAD_BYTES_PER_TURN = 2048;
/** Under CHECKPOINT_OWN_SIZE_PATCH: a run continues-as-new after this many turns, whatever their size. */
const MAX_TURNS_PER_RUN = 500;
const jsonBytes = (v: unknown): number => (v === undefined ? 0 : JSON.stringify(v).length);

export async function sessionWorkflow(input: SessionInput, carry?: SessionCarry): Promise<SessionResult> {
  const problems = sessionInputShapeProblems(input);
  if (problems.length > 0)
    throw ApplicationFailure.nonRetryable(
      `invalid session input: ${problems.join('; ')}`,
      'INVALID_SESSION_INPUT' satisfies ErrorCode,
    );
  const session = new SessionRun(input, carry);
  session.register();
  try {
    // A schedule's firing: its checkout check and its budget per day, before anything of the session runs.
    const skipped = await scheduleFiringChecks(input, carry, session);
    if (skipped) return skipped;
    // A subagent fires the reference's subagent events (patched: a child session recorded before fired SessionStart/Stop).
    const subagentEvents =
      !!input.parent && SESSION_HOOK_EVENT_NAMES.some((e) => session.hasHooks(e)) && patched(SUBAGENT_HOOKS_PATCH);
    // SessionStart with source compact/resume (patched: a session recorded before fired it once, at startup).
    const startSources = !input.parent && session.hasHooks('SessionStart') && patched(SESSION_START_SOURCES_PATCH);
    // Decided once per run, not where the race happens (its side depends on the order of one activation's jobs).
    session.queuedWakes = patched(QUEUED_AFTER_TURN_PATCH);
    // A message queued while UserPromptSubmit hooks run is kept (patched: a run recorded before dropped it).
    session.latePrompts = !input.parent && session.hasHooks('UserPromptSubmit') && patched(LATE_PROMPTS_PATCH);
    // Issue 33: each turn child runs model steps until it must return (a run recorded before: one step per child).
    session.turnSteps = patched(SESSION_030_PATCH);
    await session.storeToolSettings();
    const outcome = await runSession(session.state, sessionConfig(input, subagentEvents, startSources), session);
    await cancelledMeanwhile(session.turnSteps);
    if (outcome.kind === 'checkpoint') {
      await session.notifier.flush();
      return await continueAsNew<typeof sessionWorkflow>(input, session.events.settle());
    }
    // Background tasks still running when the session ends are stopped (killed, no notification).
    await session.tasks.stopAll();
    const result = session.finish(outcome.status, outcome.endReason);
    await session.notifier.flush(); // issue 35: the end's notification delivered before the session closes
    if (outcome.status === 'failed')
      throw ApplicationFailure.nonRetryable(`session failed: ${outcome.endReason}`, 'TURN_FAILED' satisfies ErrorCode);
    return result;
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(async () => {
        session.finish('cancelled', END_REASONS.cancelled);
      });
    }
    throw err;
  }
}

/**
 * One run of a session: its state, its handlers (as methods), and the engine's executor. Where
 * things live:
 * - `state` (the engine's `SessionState`, carried across continue-as-new): the transcript head,
 *   usage, and `state.pendingMessages`, the messages waiting to enter the next turn (follow-ups
 *   now; anything else that should start a turn goes there too, so it survives a checkpoint);
 * - the running turn (`child`, `runningTurn`) and what it asked of the session (approvals, outage);
 * - `waitForMessage`: the one idle wait between turns; `hasWork` is what wakes it.
 */
class SessionRun implements SessionExecutor {
  readonly state: SessionCarry;
  /** What handlers, tasks, monitors and timers append; the loop applies it (core/sessionEvents.ts). */
  readonly events: SessionEvents<SessionCarry>;
  readonly sessionId: string;
  /** The bytes this run put into history and took out of it (CHECKPOINT_OWN_SIZE_PATCH): deterministic. */
  private ownHistoryBytes: number;
  private status: SessionStatusName | undefined;
  private phase: SessionPhase = 'starting';
  private interruptRequested = false;
  private endReason: string | undefined;
  private lastTurn: TurnSummary | undefined;
  private child: ChildWorkflowHandle<typeof turnWorkflow> | undefined;
  private runningTurn: number | undefined;
  private outage: OutageState | undefined;
  /** Where the run stored its settings (storeSettings): none, before issue 33 (tools only), or with the system prompt. */
  private stored: StoredRefs = {};
  /** Calls of the running turn waiting for approve/deny (sessionApprovals.ts). */
  private readonly approvals: SessionApprovals;
  private readonly hookCounts = new Map<string, number>();
  /** Inside a subagent every hook input carries the parent's session_id and the agent (as the reference). */
  private readonly agentHooks: ReturnType<typeof agentHookFields> | undefined;
  /** The wait for the session's own work (wake-up, cron jobs, background tasks) and `stop`. */
  private readonly timers: SessionTimers;
  /** The session's background tasks, each its own activity (sessionTasks.ts). */
  readonly tasks: SessionTasks;
  private readonly budget: SessionBudget; // the tree's budget: signal, query, Update, wait (sessionBudget.ts)
  /** Webhook and Notification hook on status transitions, approvals and long outages (sessionNotify.ts). */
  readonly notifier: SessionNotifier;
  /** QUEUED_AFTER_TURN_PATCH, read at the start of the run. */
  queuedWakes = false;
  /** LATE_PROMPTS_PATCH, read at the start of the run. */
  latePrompts = false;
  /** SESSION_030_PATCH, read at the start of the run: turn children of several model steps. */
  turnSteps = false;
  /** A child's later step failed (its earlier steps were recorded): the next turn fails with this error. */
  private stepFailure: string | undefined;

  constructor(
    private readonly input: SessionInput,
    carry: SessionCarry | undefined,
  ) {
    this.ownHistoryBytes = jsonBytes(input) + jsonBytes(carry);
    const info = workflowInfo();
    this.sessionId = info.workflowId;
    this.state = sessionRunState(input, carry, this.sessionId, info.firstExecutionRunId);
    this.agentHooks = input.parent ? agentHookFields(input.parent, this.sessionId) : undefined;
    this.events = new SessionEvents(this.state);
    const status = { get: () => this.status, set: (s: SessionStatusName) => this.setStatus(s) };
    this.budget = new SessionBudget(this.events, input, status);
    this.approvals = new SessionApprovals({
      turn: () => ({ child: this.child, number: this.runningTurn }),
      status: () => this.status,
      setStatus: (next) => this.setStatus(next),
      head: () => this.state.head,
      hooks: this,
    });
    this.tasks = new SessionTasks(
      this.events,
      input,
      () => toolSession(turnWorkflowInput(input, this.state, this.turnRun(this.state.turn, []))),
      () => this.timers.poke(),
    );
    this.notifier = new SessionNotifier(input, this);
    this.timers = new SessionTimers(this.events, () => this.tasks.sync());
  }

  register(): void {
    setHandler(statusQuery, () => this.statusView());
    setHandler(transcriptHeadQuery, () => this.state.head);
    setHandler(sendMessageSignal, ({ text }) => {
      if (typeof text === 'string' && text.trim() !== '') this.events.append({ type: 'followUp', text });
    });
    setHandler(interruptSignal, () => this.onInterrupt());
    setHandler(stopSignal, () => this.timers.requestStop());
    this.tasks.register();
    setHandler(approvalPendingSignal, (p) => this.approvals.onPending(p, this.notifier));
    setHandler(outageSignal, (o) => this.onOutage(o ?? undefined));
    setHandler(approvalResolvedSignal, ({ toolUseId, decision, source }) =>
      this.approvals.onResolved(toolUseId, decision, source),
    );
    const validator = (req: ApprovalDecisionInput): void => this.approvals.validate(req);
    setHandler(approveUpdate, (req) => this.approvals.resolve('approve', req), { validator });
    setHandler(denyUpdate, (req) => this.approvals.resolve('deny', req), { validator });
  }

  private statusView(): SessionStatus {
    // What the loop's next fixed point will make of the state (appended events applied to a copy).
    return sessionStatusOf(this.events.view(), {
      sessionId: this.sessionId,
      status: this.status,
      phase: this.phase,
      pendingApprovals: [...this.approvals.pending.values()],
      lastTurn: this.lastTurn,
      outage: this.outage,
      endReason: this.endReason,
      currentTurnWorkflowId: this.child?.workflowId,
      waiting: this.timers.waiting(),
      stopRequested: this.timers.stopRequested,
      ...(this.budget.limits ? { budget: this.budget.view() } : {}),
    });
  }

  private onInterrupt(): void {
    this.interruptRequested = true;
    if (this.child) {
      const c = this.child;
      void CancellationScope.nonCancellable(() => c.signal(turnInterruptSignal)).catch(() => undefined);
    }
  }

  private onOutage(o: OutageState | undefined): void {
    this.outage = o;
    this.notifier.onOutage(o);
    setCurrentDetails(o ? describeOutage(o, Date.now()) : '');
    if (o) this.setStatus('waiting_for_model');
    else if (this.status === 'waiting_for_model')
      this.setStatus(this.approvals.pending.size > 0 ? 'awaiting_approval' : 'running');
  }

  // --- Stages ---

  private setStatus(next: SessionStatusName): void {
    if (next === this.status) return;
    this.status = next;
    if (this.input.useSearchAttributes) upsertSearchAttributes([{ key: statusKey, value: next }]);
    this.notifier.onStatus(next, this.endReason);
  }

  async storeToolSettings(): Promise<void> {
    this.stored = await storeSettings(this.input);
  }

  finish(s: SessionStatusName, reason: string): SessionResult {
    const state = this.events.settle();
    this.endReason = reason;
    this.phase = 'ended';
    this.setStatus(s);
    // The worker removes the session's temp and spool directories (a sink: no command, no patch).
    proxySinks<SessionSinks>().durableAgent.sessionEnded(this.sessionId);
    return sessionResultOf(state, s, reason);
  }

  // --- The engine's executor (SessionExecutor) ---

  /** What the turn's input (and a background task's tool session) is built from. */
  private turnRun(turn: number, append: Message[]): Parameters<typeof turnWorkflowInput>[2] {
    return {
      sessionId: this.sessionId,
      turn,
      append,
      agentHooks: this.agentHooks,
      toolSettingsRef: this.stored.toolSettingsRef,
      settingsRef: this.stored.settingsRef,
    };
  }

  async runTurn(turn: number, append: Message[]): Promise<TurnReport> {
    if (this.stepFailure !== undefined) return failedTurnReport(this.state, this.stepFailure);
    this.runningTurn = turn;
    // Tasks the last turn recorded start now; ends that came while it ran are in the context again.
    this.tasks.beforeTurn();
    const base = turnWorkflowInput(this.input, this.state, this.turnRun(turn, append));
    const turnInput = this.turnSteps ? { ...base, steps: turnStepLimits(this.input, this.state, turn) } : base;
    this.ownHistoryBytes += jsonBytes(turnInput);
    const child = await startChild(turnWorkflow, {
      workflowId: turnWorkflowId(this.sessionId, turn),
      staticSummary: `Turn ${turn}${firstTextOf(append)}`,
      args: [turnInput],
    });
    this.child = child;
    // An interrupt that arrived while the child was starting: forward it now (the engine sees it after the turn).
    if (this.interruptRequested) await this.child.signal(turnInterruptSignal);
    if (this.turnSteps) this.yieldOnWork(child);
    let result: TurnWorkflowResult;
    try {
      result = turnResultFromHistory(await this.child.result());
    } catch (err) {
      if (err instanceof ChildWorkflowFailure && !isCancellation(err))
        return failedTurnReport(this.state, err.cause?.message ?? err.message);
      throw err;
    } finally {
      this.child = undefined;
      this.runningTurn = undefined;
    }
    return this.turnEnded(result);
  }

  /** A message queued while a child of steps runs, or the tree's budget spent: it returns after its current step. */
  private yieldOnWork(child: ChildWorkflowHandle<typeof turnWorkflow>): void {
    const queued = this.events.view().pendingMessages.length;
    const work = this.budget.spentSince(() => this.events.view().pendingMessages.length > queued);
    const ask = async (): Promise<void> => {
      if (this.child === child) await CancellationScope.nonCancellable(() => child.signal(turnYieldSignal));
    };
    void condition(() => this.child !== child || work())
      .then(ask)
      .catch(() => undefined); // cancelled: nothing to ask
  }

  /** A turn's result: what the status shows of it; approvals and outages end with the turn. */
  private turnEnded(result: TurnWorkflowResult): TurnReport {
    this.ownHistoryBytes += jsonBytes(result);
    if (result.returned === 'failed') this.stepFailure = result.error ?? 'unknown error';
    this.approvals.turnEnded();
    if (this.outage) {
      this.outage = undefined;
      setCurrentDetails('');
    }
    this.lastTurn = turnSummaryOf(result);
    if (this.status === 'awaiting_approval') this.setStatus('running');
    return { ...result, reason: result.reason as TurnReport['reason'] };
  }

  takeInterrupt(): boolean {
    const was = this.interruptRequested;
    this.interruptRequested = false;
    return was;
  }

  /** Is there anything for the next turn? The idle wait's wake-up: a new wake source joins here. */
  private hasWork(): boolean {
    return this.events.hasMessages();
  }

  /** The idle wait between turns (after an interrupt): a durable condition, false after `timeoutMs`. */
  waitForMessage(timeoutMs: number): Promise<boolean> {
    return condition(() => this.hasWork(), timeoutMs);
  }

  /** A notification queued after the turn ended the session gets a turn (QUEUED_AFTER_TURN_PATCH). */
  wakesForQueued(): boolean {
    return this.queuedWakes;
  }

  /** A message queued while UserPromptSubmit hooks run is kept for its turn (LATE_PROMPTS_PATCH). */
  keepsLatePrompts(): boolean {
    return this.latePrompts;
  }

  waitForWork(): Promise<boolean> {
    return this.timers.waitForWork();
  }

  shouldCheckpoint(turnsThisRun: number): boolean {
    // A background task's activity cannot cross continue-as-new: the run goes on while one runs.
    if (this.tasks.active()) return false;
    const limit = this.input.maxHistoryBytesPerRun ?? DEFAULT_MAX_HISTORY_BYTES;
    if (patched(CHECKPOINT_OWN_SIZE_PATCH))
      return (
        turnsThisRun >= MAX_TURNS_PER_RUN || this.ownHistoryBytes + turnsThisRun * EVENT_OVERHEAD_BYTES_PER_TURN > limit
      );
    const now = workflowInfo();
    return now.continueAsNewSuggested || now.historySize > limit;
  }

  drain(): Promise<void> {
    return condition(allHandlersFinished);
  }

  readonly waitForBudget = (limits: Parameters<SessionBudget['wait']>[0]) => this.budget.wait(limits);
  readonly now = (): number => Date.now();

  onStatus(s: SessionStatusName, p: SessionPhase): void {
    this.phase = p;
    this.setStatus(s);
  }

  /** Session-level hooks are scheduled only when the session configures some for the event (histories without them replay unchanged). */
  hasHooks(event: SessionHookEventName): boolean {
    const list = (this.input.hooks as Record<string, unknown[] | undefined> | undefined)?.[event];
    return Array.isArray(list) && list.length > 0;
  }

  async runHooks(
    event: SessionHookEventName,
    fields: Record<string, unknown>,
    head: string | null,
  ): Promise<HookRun[]> {
    const n = (this.hookCounts.get(event) ?? 0) + 1;
    this.hookCounts.set(event, n);
    const input = this.input;
    try {
      const r = await hookActivities(input, event, n).runSessionHooks(
        sessionHookInput(
          input,
          { sessionId: this.sessionId, state: this.state, agentHooks: this.agentHooks },
          event,
          fields,
          head,
        ),
      );
      return r.runs;
    } catch (err) {
      if (isCancellation(err)) throw err;
      return hookFailureRuns(event, err);
    }
  }
}

type StoredRefs = { toolSettingsRef?: string; settingsRef?: string };

/**
 * The settings, stored once per run: tool activities carry the reference (patched: runs recorded
 * before sent them inline), and so do model calls when the answer says the blob holds the system
 * prompt (issue 33: an object; a run recorded before has a bare key, and its turns keep the model's
 * static settings inline — the same command, a different payload, no patch). A store that refuses
 * them: the turns send them inline, as before the patch.
 */
async function storeSettings(input: SessionInput): Promise<StoredRefs> {
  if (!patched(TOOL_SETTINGS_REF_PATCH)) return {};
  try {
    const stored: string | StoredSettingsRef = await toolSettingsStore.storeToolSettings(storedToolSettings(input));
    return typeof stored === 'string' ? { toolSettingsRef: stored } : { settingsRef: stored.settingsRef };
  } catch (err) {
    if (isCancellation(err)) throw err;
    return {};
  }
}
