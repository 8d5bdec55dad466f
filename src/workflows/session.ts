// The session workflow: one per job. The loop's decisions (limits, end reasons, follow-ups,
// interrupts, token accounting) are the engine's `runSession`; this file supplies its Temporal
// executor: turns as child workflows, signals/updates/queries, continue-as-new at a turn boundary
// so that no run's history grows without bound.
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
  setCurrentDetails,
  setHandler,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
  type ChildWorkflowHandle,
} from '@temporalio/workflow';
import type { ErrorCode } from '../engine/errors';
import { defineSearchAttributeKey } from '@temporalio/common';
import { initialContext } from '../engine/context';
import { describeOutage, type OutageState } from '../engine/retry';
import type { HookActivities, ToolSettingsActivities } from '../activities';
import { storedToolSettings } from './toolSettings';
import { agentHookFields } from '../engine/subagents';
import { SESSION_HOOK_EVENT_NAMES, type HookRun, type SessionHookEventName } from '../engine/hooks';
import { hookFailureRuns, notifyApprovalPending } from '../engine/schedulerGlue';
import {
  DEFAULT_APPROVAL_TIMEOUT_MS,
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
  statusQuery,
  transcriptHeadQuery,
  turnApprovalSignal,
  turnInterruptSignal,
  type ApprovalDecisionInput,
  type PendingApproval,
  type SessionCarry,
  type SessionInput,
  type SessionResult,
  type SessionStatusName,
  type SubagentSettings,
  type TurnSummary,
  type TurnWorkflowInput,
  type TurnWorkflowResult,
} from './definitions';
import { turnWorkflow } from './turn';
import { sessionInputShapeProblems } from './inputShape';

/** What a subagent inherits besides the turn's settings (present only when the session offers Agent). */
function subagentSettings(input: SessionInput): SubagentSettings {
  return {
    ...(input.agents ? { agents: input.agents } : {}),
    ...(input.memory ? { memory: input.memory } : {}),
    ...(input.maxTurns !== undefined ? { maxTurns: input.maxTurns } : {}),
    ...(input.maxTotalTokens !== undefined ? { maxTotalTokens: input.maxTotalTokens } : {}),
    ...(input.useSearchAttributes ? { useSearchAttributes: true } : {}),
  };
}

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
  // The bytes this run put into history and took out of it (CHECKPOINT_OWN_SIZE_PATCH): deterministic.
  let ownHistoryBytes = jsonBytes(input) + jsonBytes(carry);
  const info = workflowInfo();
  const sessionId = info.workflowId;
  const problems = sessionInputShapeProblems(input);
  if (problems.length > 0)
    throw ApplicationFailure.nonRetryable(
      `invalid session input: ${problems.join('; ')}`,
      'INVALID_SESSION_INPUT' satisfies ErrorCode,
    );
  const state: SessionCarry = carry
    ? migrateSessionState(carry)
    : initialSessionState(
        firstMessage(input.prompt, input.memory),
        initialContext(input.cwd, input.additionalDirectories ?? []),
      );
  if (carry) state.runs = carry.runs + 1;
  else if (memoryRefOf(input.memory)) state.memoryRef = memoryRefOf(input.memory);
  // The ledger key is the session's first run id (continue-as-new keeps it): unique even when a
  // new session reuses the workflow id. A run carried from before keys stay on the workflow id.
  state.ledgerKey ??= carry ? sessionId : info.firstExecutionRunId;
  let status: SessionStatusName | undefined;
  let phase: SessionPhase = 'starting';
  let interruptRequested = false;
  let endReason: string | undefined;
  let lastTurn: TurnSummary | undefined;
  let child: ChildWorkflowHandle<typeof turnWorkflow> | undefined;
  const pendingApprovals = new Map<string, PendingApproval>();
  const approvalOutcomes = new Map<string, { decision: 'approve' | 'deny'; source?: ApprovalOutcomeSource }>();
  let runningTurn: number | undefined;
  let outage: OutageState | undefined;
  let toolSettingsRef: string | undefined;

  const setStatus = (next: SessionStatusName): void => {
    if (next === status) return;
    status = next;
    if (input.useSearchAttributes) upsertSearchAttributes([{ key: statusKey, value: next }]);
  };

  setHandler(statusQuery, () => ({
    sessionId,
    status: status ?? 'running',
    turn: state.turn,
    phase: pendingApprovals.size > 0 ? 'awaiting_approval' : phase,
    pendingApprovals: [...pendingApprovals.values()],
    usage: state.usage,
    head: state.head,
    toolCalls: Object.values(state.toolCallCounts).reduce((a, b) => a + (b ?? 0), 0),
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
  }));
  setHandler(transcriptHeadQuery, () => state.head);
  setHandler(sendMessageSignal, ({ text }) => {
    if (typeof text === 'string' && text.trim() !== '') state.pendingMessages.push(text);
  });
  setHandler(interruptSignal, () => {
    interruptRequested = true;
    if (child) {
      const c = child;
      void CancellationScope.nonCancellable(() => c.signal(turnInterruptSignal)).catch(() => undefined);
    }
  });
  // Session-level hooks: an activity `hook-<event>-<n>` per firing, scheduled only when the
  // session configures hooks for the event (so histories without them replay unchanged).
  const hookCounts = new Map<string, number>();
  // Inside a subagent every hook input carries the parent's session_id and the agent (as the reference).
  const agentHooks = input.parent ? agentHookFields(input.parent, sessionId) : undefined;
  const hasHooks = (event: SessionHookEventName): boolean => {
    const list = (input.hooks as Record<string, unknown[] | undefined> | undefined)?.[event];
    return Array.isArray(list) && list.length > 0;
  };
  const runHooks = async (
    event: SessionHookEventName,
    fields: Record<string, unknown>,
    head: string | null,
  ): Promise<HookRun[]> => {
    const n = (hookCounts.get(event) ?? 0) + 1;
    hookCounts.set(event, n);
    const hooks = proxyActivities<HookActivities>({
      activityId: activityIds.hook(event, n),
      summary: `${event} hooks`,
      // A hook's own timeout is at most what the settings say (default 600 s): this only catches a lost worker.
      startToCloseTimeout: '11 minutes',
      retry: { initialInterval: '1 second', maximumAttempts: 3 },
      ...(input.toolTaskQueue ? { taskQueue: input.toolTaskQueue } : {}),
    });
    try {
      const r = await hooks.runSessionHooks({
        event,
        sessionId,
        cwd: state.context.cwd,
        permissionMode: input.permissionMode,
        head,
        hooks: input.hooks,
        fields,
        ...(agentHooks ? { agentHookFields: agentHooks } : {}),
      });
      return r.runs;
    } catch (err) {
      if (isCancellation(err)) throw err;
      return hookFailureRuns(event, err);
    }
  };

  setHandler(approvalPendingSignal, async (p) => {
    pendingApprovals.set(p.toolUseId, p);
    setStatus('awaiting_approval');
    // A call waits for a human: Notification hooks may page one (the handler, not the turn, waits for them).
    const notified = notifyApprovalPending({ hasHooks, runHooks }, p.toolName, state.head);
    if (notified) await notified;
  });
  setHandler(outageSignal, (o) => {
    outage = o ?? undefined;
    setCurrentDetails(o ? describeOutage(o, Date.now()) : '');
    if (o) setStatus('waiting_for_model');
    else if (status === 'waiting_for_model') setStatus(pendingApprovals.size > 0 ? 'awaiting_approval' : 'running');
  });
  setHandler(approvalResolvedSignal, ({ toolUseId, decision, source }) => {
    if (decision) {
      approvalOutcomes.set(toolUseId, { decision, ...(source ? { source } : {}) });
      // Bounded: an outcome is read by a racing approve/deny at once, or never.
      if (approvalOutcomes.size > 100) approvalOutcomes.delete(approvalOutcomes.keys().next().value as string);
    }
    pendingApprovals.delete(toolUseId);
    if (pendingApprovals.size === 0 && status === 'awaiting_approval') setStatus('running');
  });

  const resolveApproval = async (decision: 'approve' | 'deny', req: ApprovalDecisionInput) => {
    const toolUseId = req.toolUseId ?? [...pendingApprovals.keys()][0];
    if (!toolUseId || !pendingApprovals.has(toolUseId) || !child)
      throw ApplicationFailure.nonRetryable(
        `no pending approval ${req.toolUseId ?? ''}`.trim(),
        'NOT_PENDING' satisfies ErrorCode,
      );
    pendingApprovals.delete(toolUseId);
    const turn = runningTurn;
    await child.signal(turnApprovalSignal, {
      toolUseId,
      decision,
      ...(req.by ? { by: req.by } : {}),
      ...(req.reason ? { reason: req.reason } : {}),
    });
    if (pendingApprovals.size === 0 && status === 'awaiting_approval') setStatus('running');
    if (!patched(APPROVAL_OUTCOME_PATCH)) return { toolUseId, decision };
    // The turn may have decided otherwise meanwhile (the approval timed out): answer what counted.
    await condition(() => approvalOutcomes.has(toolUseId) || runningTurn !== turn);
    const actual = approvalOutcomes.get(toolUseId);
    approvalOutcomes.delete(toolUseId);
    return approvalAnswer(toolUseId, decision, actual);
  };
  const validator = (req: ApprovalDecisionInput): void => {
    if (req.toolUseId !== undefined && !pendingApprovals.has(req.toolUseId)) {
      // Decided a moment ago (the approval timed out, the turn was interrupted): say what counted.
      const decided = approvalOutcomes.get(req.toolUseId);
      if (decided)
        throw new Error(
          `tool call ${req.toolUseId} is no longer waiting for approval: ${approvalAnswer(req.toolUseId, 'approve', decided).outcome ?? 'it was decided'}`,
        );
      const open = [...pendingApprovals.keys()];
      throw new Error(
        `tool call ${req.toolUseId} is not waiting for approval${open.length ? ` (pending: ${open.join(', ')})` : ' (nothing is pending)'}`,
      );
    }
    if (req.toolUseId === undefined && pendingApprovals.size !== 1) {
      throw new Error(
        pendingApprovals.size === 0
          ? 'nothing is waiting for approval'
          : `several calls are pending; name one of: ${[...pendingApprovals.keys()].join(', ')}`,
      );
    }
  };
  setHandler(approveUpdate, (req) => resolveApproval('approve', req), { validator });
  setHandler(denyUpdate, (req) => resolveApproval('deny', req), { validator });

  const finish = (s: SessionStatusName, reason: string): SessionResult => {
    endReason = reason;
    phase = 'ended';
    setStatus(s);
    const toolCalls = Object.values(state.toolCallCounts).reduce((a, b) => a + (b ?? 0), 0);
    return {
      status: s,
      turns: state.turn,
      usage: state.usage,
      head: state.head,
      lastText: state.lastText,
      endReason: reason,
      toolCalls,
      ...(state.lastUsage ? { lastUsage: state.lastUsage } : {}),
      ...(state.controlWrites?.length ? { controlWrites: state.controlWrites } : {}),
    };
  };

  const executor: SessionExecutor = {
    takeInterrupt() {
      const was = interruptRequested;
      interruptRequested = false;
      return was;
    },
    waitForMessage: (timeoutMs) => condition(() => state.pendingMessages.length > 0, timeoutMs),
    shouldCheckpoint(turnsThisRun) {
      const limit = input.maxHistoryBytesPerRun ?? DEFAULT_MAX_HISTORY_BYTES;
      if (patched(CHECKPOINT_OWN_SIZE_PATCH))
        return (
          turnsThisRun >= MAX_TURNS_PER_RUN || ownHistoryBytes + turnsThisRun * EVENT_OVERHEAD_BYTES_PER_TURN > limit
        );
      const now = workflowInfo();
      return now.continueAsNewSuggested || now.historySize > limit;
    },
    drain: () => condition(allHandlersFinished),
    onStatus(s, p) {
      phase = p;
      setStatus(s);
    },
    runTurn: (turn, append) => runTurnChild(turn, append),
    hasHooks,
    runHooks,
  };

  async function runTurnChild(turn: number, append: TurnWorkflowInput['append']): Promise<TurnReport> {
    runningTurn = turn;
    const firstText =
      append.length > 0
        ? `: ${oneLinePreview(append.map((m) => (typeof m.content === 'string' ? m.content : '')).join(' / '), 60)}`
        : '';
    const turnInput: TurnWorkflowInput = {
      sessionId,
      ledgerKey: state.ledgerKey,
      turn,
      head: state.head,
      append,
      model: input.model,
      tools: input.tools,
      permissionMode: input.permissionMode,
      rules: input.rules,
      ...(input.sandbox ? { sandbox: input.sandbox } : {}),
      ...(input.hooks ? { hooks: input.hooks } : {}),
      ...(agentHooks ? { agentHookFields: agentHooks } : {}),
      ...(state.memoryRef ? { memory: state.memoryRef } : {}),
      ...(input.mcpServers && Object.keys(input.mcpServers).length > 0 ? { mcpServers: input.mcpServers } : {}),
      context: state.context,
      ...(state.readFilesRef ? { readFilesRef: state.readFilesRef } : {}),
      maxConcurrency: input.maxConcurrency ?? 10,
      ...(input.streamingToolExecution === false ? { streamingToolExecution: false } : {}),
      approvalTimeoutMs: input.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
      ...(input.retryCapMs !== undefined || input.maxOutageMs !== undefined
        ? {
            retry: {
              ...(input.retryCapMs !== undefined ? { retryCapMs: input.retryCapMs } : {}),
              ...(input.maxOutageMs !== undefined ? { maxOutageMs: input.maxOutageMs } : {}),
            },
          }
        : {}),
      ...(input.toolTaskQueue ? { toolTaskQueue: input.toolTaskQueue } : {}),
      ...(input.toolHeartbeatTimeoutMs ? { toolHeartbeatTimeoutMs: input.toolHeartbeatTimeoutMs } : {}),
      ...(state.view ? { view: state.view } : {}),
      ...(input.contextManagement ? { contextSettings: input.contextManagement } : {}),
      ...(input.tools.includes('Agent') && !input.parent ? { subagents: subagentSettings(input) } : {}),
      ...(toolSettingsRef ? { toolSettingsRef } : {}),
    };
    ownHistoryBytes += jsonBytes(turnInput);
    child = await startChild(turnWorkflow, {
      workflowId: turnWorkflowId(sessionId, turn),
      staticSummary: `Turn ${turn}${firstText}`,
      args: [turnInput],
    });
    // An interrupt that arrived while the child was starting: forward it now (the engine sees it after the turn).
    if (interruptRequested) await child.signal(turnInterruptSignal);
    let result: TurnWorkflowResult;
    try {
      result = await child.result();
    } catch (err) {
      if (err instanceof ChildWorkflowFailure && !isCancellation(err)) {
        child = undefined;
        return {
          reason: 'failed',
          consumedAppend: false,
          head: state.head,
          context: state.context,
          records: [],
          text: '',
          error: err.cause?.message ?? err.message,
        };
      }
      throw err;
    } finally {
      child = undefined;
      runningTurn = undefined;
    }
    ownHistoryBytes += jsonBytes(result);
    pendingApprovals.clear();
    if (outage) {
      outage = undefined;
      setCurrentDetails('');
    }
    lastTurn = {
      turn: result.turn,
      reason: result.reason,
      records: result.records,
      batches: result.batches,
      ...(result.usage ? { usage: result.usage } : {}),
      fallback: result.fallback,
      text: result.text,
    };
    if (status === 'awaiting_approval') setStatus('running');
    return { ...result, reason: result.reason as TurnReport['reason'] };
  }

  try {
    // A subagent fires the reference's subagent events (patched: a child session recorded before fired SessionStart/Stop).
    const subagentEvents = !!input.parent && SESSION_HOOK_EVENT_NAMES.some(hasHooks) && patched(SUBAGENT_HOOKS_PATCH);
    // SessionStart with source compact/resume (patched: a session recorded before fired it once, at startup).
    const startSources = !input.parent && hasHooks('SessionStart') && patched(SESSION_START_SOURCES_PATCH);
    // The tool settings, stored once per run: tool activities carry the reference (patched: runs recorded before sent them inline).
    if (patched(TOOL_SETTINGS_REF_PATCH)) {
      try {
        toolSettingsRef = await toolSettingsStore.storeToolSettings(storedToolSettings(input));
      } catch (err) {
        if (isCancellation(err)) throw err;
        // The store refused: the turns send the settings inline, as before the patch.
      }
    }
    const outcome = await runSession(state, sessionConfig(input, subagentEvents, startSources), executor);
    if (outcome.kind === 'checkpoint') return await continueAsNew<typeof sessionWorkflow>(input, state);
    const result = finish(outcome.status, outcome.endReason);
    if (outcome.status === 'failed')
      throw ApplicationFailure.nonRetryable(`session failed: ${outcome.endReason}`, 'TURN_FAILED' satisfies ErrorCode);
    return result;
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(async () => {
        finish('cancelled', END_REASONS.cancelled);
      });
    }
    throw err;
  }
}
