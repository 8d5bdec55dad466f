// The session workflow: one per job. The loop's decisions (limits, end reasons, follow-ups,
// interrupts, token accounting) are the engine's `runSession`; this file supplies its Temporal
// executor. The workflow's sequence:
//   1. check the input's shape (a bad input fails the workflow before anything runs);
//   2. the state: carried from the previous run (continue-as-new) or fresh;
//   3. the handlers (status/head queries, follow-ups, interrupts, approvals, outages): `SessionRun`;
//   4. store the tool settings once per run (patched), so that turns carry a reference;
//   5. `runSession`: each turn a child workflow `<session>/turn-<n>`, the idle wait a durable condition;
//   6. at a turn boundary past the run's history budget: drain the handlers and continue-as-new;
//      else finish (ended, stopped, failed, or cancelled) and say why.
import { firstMessage, memoryRefOf } from '../engine/memory';
import { activityIds, turnWorkflowId } from '../engine/ids';
import {
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  proxySinks,
  setCurrentDetails,
  setHandler,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
  type ChildWorkflowHandle,
} from '@temporalio/workflow';
import type { ErrorCode } from '../engine/errors';
import { defineSearchAttributeKey } from '@temporalio/common';
import { initialContext, sessionRootOf } from '../engine/context';
import type { Message } from '../engine/messages';
import { describeOutage, type OutageState } from '../engine/retry';
import type { HookActivities, ToolSettingsActivities } from '../activities';
import { storedToolSettings } from './toolSettings';
import { agentHookFields } from '../engine/subagents';
import { SESSION_HOOK_EVENT_NAMES, type HookRun, type SessionHookEventName } from '../engine/hooks';
import { hookFailureRuns, notifyApprovalPending } from '../engine/schedulerGlue';
import {
  END_REASONS,
  initialSessionState,
  sessionConfig,
  migrateSessionState,
  runSession,
  type SessionExecutor,
  type SessionPhase,
  type TurnReport,
} from '../engine/session';
import {
  APPROVAL_OUTCOME_PATCH,
  SUBAGENT_HOOKS_PATCH,
  SESSION_START_SOURCES_PATCH,
  TOOL_SETTINGS_REF_PATCH,
  CHECKPOINT_OWN_SIZE_PATCH,
  QUEUED_AFTER_TURN_PATCH,
  LATE_PROMPTS_PATCH,
  approvalAnswer,
  type ApprovalOutcomeSource,
  STATUS_SEARCH_ATTRIBUTE,
  approvalPendingSignal,
  approvalResolvedSignal,
  approveUpdate,
  outageSignal,
  denyUpdate,
  interruptSignal,
  oneLinePreview,
  sendMessageSignal,
  stopSignal,
  statusQuery,
  transcriptHeadQuery,
  turnApprovalSignal,
  turnInterruptSignal,
  type ApprovalDecisionInput,
  type PendingApproval,
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
import { sessionInputShapeProblems } from './inputShape';
import { SessionTimers } from './sessionTimers';
import { SessionTasks } from './sessionTasks';
import { toolSession } from './toolSettings';
import { turnWorkflowInput } from './turnInput';

const statusKey = defineSearchAttributeKey(STATUS_SEARCH_ATTRIBUTE, 'KEYWORD');
// Content-addressed and idempotent (running it again on replay elsewhere is right).
const toolSettingsStore = proxyLocalActivities<ToolSettingsActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumAttempts: 3 },
});
/** Session-level hooks: one activity `hook-<event>-<n>` per firing, on the session's tool task queue. */
function hookActivities(input: SessionInput, event: SessionHookEventName, n: number): HookActivities {
  return proxyActivities<HookActivities>({
    activityId: activityIds.hook(event, n),
    summary: `${event} hooks`,
    // A hook's own timeout is at most what the settings say (default 600 s): this only catches a lost worker.
    startToCloseTimeout: '11 minutes',
    retry: { initialInterval: '1 second', maximumAttempts: 3 },
    ...(input.toolTaskQueue ? { taskQueue: input.toolTaskQueue } : {}),
  });
}
const DEFAULT_MAX_HISTORY_BYTES = 2 * 1024 * 1024;
/** Under CHECKPOINT_OWN_SIZE_PATCH: what the run's events cost besides the payloads it counts, per turn. */
const EVENT_OVERHEAD_BYTES_PER_TURN = 2048;
/** Under CHECKPOINT_OWN_SIZE_PATCH: a run continues-as-new after this many turns, whatever their size. */
const MAX_TURNS_PER_RUN = 500;
const jsonBytes = (v: unknown): number => (v === undefined ? 0 : JSON.stringify(v).length);
const toolCallsOf = (state: SessionCarry): number =>
  Object.values(state.toolCallCounts).reduce((a, b) => a + (b ?? 0), 0);

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
    // A subagent fires the reference's subagent events (patched: a child session recorded before fired SessionStart/Stop).
    const subagentEvents =
      !!input.parent && SESSION_HOOK_EVENT_NAMES.some((e) => session.hasHooks(e)) && patched(SUBAGENT_HOOKS_PATCH);
    // SessionStart with source compact/resume (patched: a session recorded before fired it once, at startup).
    const startSources = !input.parent && session.hasHooks('SessionStart') && patched(SESSION_START_SOURCES_PATCH);
    // Decided once per run, not where the race happens (its side depends on the order of one activation's jobs).
    session.queuedWakes = patched(QUEUED_AFTER_TURN_PATCH);
    // A message queued while UserPromptSubmit hooks run is kept (patched: a run recorded before dropped it).
    session.latePrompts = !input.parent && session.hasHooks('UserPromptSubmit') && patched(LATE_PROMPTS_PATCH);
    await session.storeToolSettings();
    const outcome = await runSession(session.state, sessionConfig(input, subagentEvents, startSources), session);
    if (outcome.kind === 'checkpoint') return await continueAsNew<typeof sessionWorkflow>(input, session.state);
    // Background tasks still running when the session ends are stopped (killed, no notification).
    await session.tasks.stopAll();
    const result = session.finish(outcome.status, outcome.endReason);
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
  private toolSettingsRef: string | undefined;
  private readonly pendingApprovals = new Map<string, PendingApproval>();
  private readonly approvalOutcomes = new Map<
    string,
    { decision: 'approve' | 'deny'; source?: ApprovalOutcomeSource }
  >();
  private readonly hookCounts = new Map<string, number>();
  /** Inside a subagent every hook input carries the parent's session_id and the agent (as the reference). */
  private readonly agentHooks: ReturnType<typeof agentHookFields> | undefined;
  /** The wait for the session's own work (wake-up, cron jobs, background tasks) and `stop`. */
  private readonly timers: SessionTimers;
  /** The session's background tasks, each its own activity (sessionTasks.ts). */
  readonly tasks: SessionTasks;
  /** QUEUED_AFTER_TURN_PATCH, read at the start of the run. */
  queuedWakes = false;
  /** LATE_PROMPTS_PATCH, read at the start of the run. */
  latePrompts = false;

  constructor(
    private readonly input: SessionInput,
    carry: SessionCarry | undefined,
  ) {
    this.ownHistoryBytes = jsonBytes(input) + jsonBytes(carry);
    const info = workflowInfo();
    this.sessionId = info.workflowId;
    this.state = carry
      ? migrateSessionState(carry)
      : initialSessionState(
          firstMessage(input.prompt, input.memory),
          initialContext(input.cwd, input.additionalDirectories ?? []),
        );
    if (carry) this.state.runs = carry.runs + 1;
    else if (memoryRefOf(input.memory)) this.state.memoryRef = memoryRefOf(input.memory);
    // The zone cron jobs and wake-ups read, fixed for the session (a carried context keeps its own).
    if (!carry && input.timeZone) this.state.context.timeZone = input.timeZone;
    // The ledger key is the session's first run id (continue-as-new keeps it): unique even when a
    // new session reuses the workflow id. A run carried from before keys stay on the workflow id.
    this.state.ledgerKey ??= carry ? this.sessionId : info.firstExecutionRunId;
    this.agentHooks = input.parent ? agentHookFields(input.parent, this.sessionId) : undefined;
    this.tasks = new SessionTasks(
      this.state,
      input,
      () => toolSession(turnWorkflowInput(input, this.state, this.turnRun(this.state.turn, []))),
      () => this.timers.poke(),
    );
    this.timers = new SessionTimers(
      this.state,
      () => this.hasWork(),
      () => this.tasks.sync(),
    );
  }

  register(): void {
    setHandler(statusQuery, () => this.statusView());
    setHandler(transcriptHeadQuery, () => this.state.head);
    setHandler(sendMessageSignal, ({ text }) => {
      if (typeof text === 'string' && text.trim() !== '') this.state.pendingMessages.push(text);
    });
    setHandler(interruptSignal, () => this.onInterrupt());
    setHandler(stopSignal, () => this.timers.requestStop());
    this.tasks.monitors.register();
    setHandler(approvalPendingSignal, (p) => this.onApprovalPending(p));
    setHandler(outageSignal, (o) => this.onOutage(o ?? undefined));
    setHandler(approvalResolvedSignal, ({ toolUseId, decision, source }) =>
      this.onApprovalResolved(toolUseId, decision, source),
    );
    const validator = (req: ApprovalDecisionInput): void => this.validateDecision(req);
    setHandler(approveUpdate, (req) => this.resolveApproval('approve', req), { validator });
    setHandler(denyUpdate, (req) => this.resolveApproval('deny', req), { validator });
  }

  // --- Handlers ---

  private statusView(): SessionStatus {
    const { state, lastTurn, outage, endReason, child } = this;
    return {
      sessionId: this.sessionId,
      status: this.status ?? 'running',
      turn: state.turn,
      phase: this.pendingApprovals.size > 0 ? 'awaiting_approval' : this.phase,
      pendingApprovals: [...this.pendingApprovals.values()],
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
      ...(child ? { currentTurnWorkflowId: child.workflowId } : {}),
      ...(state.compactions?.length ? { compactions: state.compactions } : {}),
      ...(state.view ? { contextTokens: state.view.baseline.tokens } : {}),
      ...(state.controlWrites?.length ? { controlWrites: state.controlWrites } : {}),
      ...(state.context.autonomy ? { autonomy: state.context.autonomy } : {}),
      ...(this.timers.waiting() ? { waiting: this.timers.waiting() } : {}),
      ...(this.timers.stopRequested ? { stopRequested: true } : {}),
    };
  }

  private onInterrupt(): void {
    this.interruptRequested = true;
    if (this.child) {
      const c = this.child;
      void CancellationScope.nonCancellable(() => c.signal(turnInterruptSignal)).catch(() => undefined);
    }
  }

  private async onApprovalPending(p: PendingApproval): Promise<void> {
    this.pendingApprovals.set(p.toolUseId, p);
    this.setStatus('awaiting_approval');
    // A call waits for a human: Notification hooks may page one (the handler, not the turn, waits for them).
    const notified = notifyApprovalPending(this, p.toolName, this.state.head);
    if (notified) await notified;
  }

  private onOutage(o: OutageState | undefined): void {
    this.outage = o;
    setCurrentDetails(o ? describeOutage(o, Date.now()) : '');
    if (o) this.setStatus('waiting_for_model');
    else if (this.status === 'waiting_for_model')
      this.setStatus(this.pendingApprovals.size > 0 ? 'awaiting_approval' : 'running');
  }

  private onApprovalResolved(
    toolUseId: string,
    decision: 'approve' | 'deny' | undefined,
    source: ApprovalOutcomeSource | undefined,
  ): void {
    if (decision) {
      this.approvalOutcomes.set(toolUseId, { decision, ...(source ? { source } : {}) });
      // Bounded: an outcome is read by a racing approve/deny at once, or never.
      if (this.approvalOutcomes.size > 100)
        this.approvalOutcomes.delete(this.approvalOutcomes.keys().next().value as string);
    }
    this.pendingApprovals.delete(toolUseId);
    if (this.pendingApprovals.size === 0 && this.status === 'awaiting_approval') this.setStatus('running');
  }

  private validateDecision(req: ApprovalDecisionInput): void {
    const pending = this.pendingApprovals;
    if (req.toolUseId !== undefined && !pending.has(req.toolUseId)) {
      // Decided a moment ago (the approval timed out, the turn was interrupted): say what counted.
      const decided = this.approvalOutcomes.get(req.toolUseId);
      if (decided)
        throw new Error(
          `tool call ${req.toolUseId} is no longer waiting for approval: ${approvalAnswer(req.toolUseId, 'approve', decided).outcome ?? 'it was decided'}`,
        );
      const open = [...pending.keys()];
      throw new Error(
        `tool call ${req.toolUseId} is not waiting for approval${open.length ? ` (pending: ${open.join(', ')})` : ' (nothing is pending)'}`,
      );
    }
    if (req.toolUseId === undefined && pending.size !== 1) {
      throw new Error(
        pending.size === 0
          ? 'nothing is waiting for approval'
          : `several calls are pending; name one of: ${[...pending.keys()].join(', ')}`,
      );
    }
  }

  private async resolveApproval(decision: 'approve' | 'deny', req: ApprovalDecisionInput) {
    const toolUseId = req.toolUseId ?? [...this.pendingApprovals.keys()][0];
    if (!toolUseId || !this.pendingApprovals.has(toolUseId) || !this.child)
      throw ApplicationFailure.nonRetryable(
        `no pending approval ${req.toolUseId ?? ''}`.trim(),
        'NOT_PENDING' satisfies ErrorCode,
      );
    this.pendingApprovals.delete(toolUseId);
    const turn = this.runningTurn;
    await this.child.signal(turnApprovalSignal, {
      toolUseId,
      decision,
      ...(req.by ? { by: req.by } : {}),
      ...(req.reason ? { reason: req.reason } : {}),
    });
    if (this.pendingApprovals.size === 0 && this.status === 'awaiting_approval') this.setStatus('running');
    if (!patched(APPROVAL_OUTCOME_PATCH)) return { toolUseId, decision };
    // The turn may have decided otherwise meanwhile (the approval timed out): answer what counted.
    await condition(() => this.approvalOutcomes.has(toolUseId) || this.runningTurn !== turn);
    const actual = this.approvalOutcomes.get(toolUseId);
    this.approvalOutcomes.delete(toolUseId);
    return approvalAnswer(toolUseId, decision, actual);
  }

  // --- Stages ---

  private setStatus(next: SessionStatusName): void {
    if (next === this.status) return;
    this.status = next;
    if (this.input.useSearchAttributes) upsertSearchAttributes([{ key: statusKey, value: next }]);
  }

  /** The tool settings, stored once per run: tool activities carry the reference (patched: runs recorded before sent them inline). */
  async storeToolSettings(): Promise<void> {
    if (!patched(TOOL_SETTINGS_REF_PATCH)) return;
    try {
      this.toolSettingsRef = await toolSettingsStore.storeToolSettings(storedToolSettings(this.input));
    } catch (err) {
      if (isCancellation(err)) throw err;
      // The store refused: the turns send the settings inline, as before the patch.
    }
  }

  finish(s: SessionStatusName, reason: string): SessionResult {
    const state = this.state;
    this.endReason = reason;
    this.phase = 'ended';
    this.setStatus(s);
    // The worker removes the session's temp and spool directories (a sink: no command, no patch).
    proxySinks<SessionSinks>().durableAgent.sessionEnded(this.sessionId);
    return {
      status: s,
      turns: state.turn,
      usage: state.usage,
      head: state.head,
      lastText: state.lastText,
      endReason: reason,
      toolCalls: toolCallsOf(state),
      ...(state.lastUsage ? { lastUsage: state.lastUsage } : {}),
      ...(state.modelUsage ? { modelUsage: state.modelUsage } : {}),
      ...(state.controlWrites?.length ? { controlWrites: state.controlWrites } : {}),
    };
  }

  // --- The engine's executor (SessionExecutor) ---

  /** What the turn's input (and a background task's tool session) is built from. */
  private turnRun(turn: number, append: Message[]): Parameters<typeof turnWorkflowInput>[2] {
    return {
      sessionId: this.sessionId,
      turn,
      append,
      agentHooks: this.agentHooks,
      toolSettingsRef: this.toolSettingsRef,
    };
  }

  async runTurn(turn: number, append: Message[]): Promise<TurnReport> {
    this.runningTurn = turn;
    // Tasks the last turn recorded start now; ends that came while it ran are in the context again.
    this.tasks.beforeTurn();
    const turnInput = turnWorkflowInput(this.input, this.state, this.turnRun(turn, append));
    this.ownHistoryBytes += jsonBytes(turnInput);
    this.child = await startChild(turnWorkflow, {
      workflowId: turnWorkflowId(this.sessionId, turn),
      staticSummary: `Turn ${turn}${firstTextOf(append)}`,
      args: [turnInput],
    });
    // An interrupt that arrived while the child was starting: forward it now (the engine sees it after the turn).
    if (this.interruptRequested) await this.child.signal(turnInterruptSignal);
    let result: TurnWorkflowResult;
    try {
      result = await this.child.result();
    } catch (err) {
      if (err instanceof ChildWorkflowFailure && !isCancellation(err)) {
        this.child = undefined;
        const s = this.state;
        const error = err.cause?.message ?? err.message;
        return {
          reason: 'failed',
          consumedAppend: false,
          head: s.head,
          context: s.context,
          records: [],
          text: '',
          error,
        };
      }
      throw err;
    } finally {
      this.child = undefined;
      this.runningTurn = undefined;
    }
    return this.turnEnded(result);
  }

  /** A turn's result: what the status shows of it; approvals and outages end with the turn. */
  private turnEnded(result: TurnWorkflowResult): TurnReport {
    this.ownHistoryBytes += jsonBytes(result);
    this.pendingApprovals.clear();
    if (this.outage) {
      this.outage = undefined;
      setCurrentDetails('');
    }
    this.lastTurn = {
      turn: result.turn,
      reason: result.reason,
      records: result.records,
      batches: result.batches,
      ...(result.usage ? { usage: result.usage } : {}),
      fallback: result.fallback,
      text: result.text,
    };
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
    return this.state.pendingMessages.length > 0;
  }

  /** The idle wait between turns (after an interrupt): a durable condition, false after `timeoutMs`. */
  waitForMessage(timeoutMs: number): Promise<boolean> {
    return condition(() => this.hasWork(), timeoutMs);
  }

  /**
   * A task's notification queued after the turn ended the session (the task ended in the same
   * activation as the turn, or while Stop hooks ran): run a turn for it (patched, at the run's start:
   * a run recorded before ended the session there, its notification unread).
   */
  wakesForQueued(): boolean {
    return this.queuedWakes;
  }

  /**
   * A message queued while UserPromptSubmit hooks run is kept and checked in its turn (patched, at
   * the run's start: a run recorded before dropped it).
   */
  keepsLatePrompts(): boolean {
    return this.latePrompts;
  }

  /** The engine's wait for the session's own work (sessionTimers.ts). */
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
      const r = await hookActivities(input, event, n).runSessionHooks({
        event,
        sessionId: this.sessionId,
        cwd: this.state.context.cwd,
        // Where the hooks run: the project root, not the agent's cwd (an activity input's new
        // fields change no workflow command: histories recorded before them replay unchanged).
        projectDir: input.hookPins?.projectDir ?? sessionRootOf(this.state.context),
        ...(input.hookPins ? { hookPins: input.hookPins } : {}),
        ...(input.sandbox?.passEnv ? { passEnv: input.sandbox.passEnv } : {}),
        // The hooks run in the session's sandbox (`{}`: the default settings, as its tool calls get).
        sandbox: input.sandbox ?? {},
        additionalDirectories: this.state.context.additionalDirectories,
        permissionMode: input.permissionMode,
        head,
        hooks: input.hooks,
        fields,
        ...(this.agentHooks ? { agentHookFields: this.agentHooks } : {}),
      });
      return r.runs;
    } catch (err) {
      if (isCancellation(err)) throw err;
      return hookFailureRuns(event, err);
    }
  }
}

/** The staticSummary's tail: the turn's first words. */
function firstTextOf(append: Message[]): string {
  if (append.length === 0) return '';
  return `: ${oneLinePreview(append.map((m) => (typeof m.content === 'string' ? m.content : '')).join(' / '), 60)}`;
}
