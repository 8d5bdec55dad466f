// The session workflow: one per job. Loops turns (child workflows) until the model ends its turn,
// a limit is hit, it is cancelled or interrupted; keeps the ledger and context; continues-as-new
// at a turn boundary so that no run's history grows without bound.
import {
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  isCancellation,
  setHandler,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
  type ChildWorkflowHandle,
} from '@temporalio/workflow';
import { defineSearchAttributeKey } from '@temporalio/common';
import { initialContext } from '../engine/context';
import type { Message } from '../engine/messages';
import {
  STATUS_SEARCH_ATTRIBUTE,
  approvalPendingSignal,
  approvalResolvedSignal,
  approveUpdate,
  denyUpdate,
  interruptSignal,
  previewOf,
  sendMessageSignal,
  sessionInputProblems,
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
  type TurnSummary,
} from './definitions';
import { turnWorkflow } from './turn';

const statusKey = defineSearchAttributeKey(STATUS_SEARCH_ATTRIBUTE, 'KEYWORD');
const DEFAULT_APPROVAL_TIMEOUT_MS = 24 * 3600_000;
const DEFAULT_IDLE_TIMEOUT_MS = 7 * 24 * 3600_000;
const DEFAULT_MAX_HISTORY_BYTES = 2 * 1024 * 1024;

export async function sessionWorkflow(input: SessionInput, carry?: SessionCarry): Promise<SessionResult> {
  const info = workflowInfo();
  const sessionId = info.workflowId;
  const problems = sessionInputProblems(input);
  if (problems.length > 0) throw ApplicationFailure.nonRetryable(`invalid session input: ${problems.join('; ')}`, 'InvalidSessionInput');
  const state: SessionCarry = carry ?? {
    turn: 0,
    head: null,
    context: initialContext(input.cwd, input.additionalDirectories ?? []),
    usage: { input_tokens: 0, output_tokens: 0 },
    pendingMessages: [input.prompt],
    toolCallCounts: {},
    runs: 0,
    lastText: '',
    interrupted: false,
  };
  if (carry) state.runs = carry.runs + 1;
  if (!state.toolCallCounts) {
    // A run continued from an older version carried the per-id map: count it once.
    state.toolCallCounts = {};
    for (const st of Object.values(state.ledger ?? {})) state.toolCallCounts[st] = (state.toolCallCounts[st] ?? 0) + 1;
    delete state.ledger;
  }
  let status: SessionStatusName = state.interrupted ? 'interrupted' : 'running';
  let phase: 'starting' | 'turn' | 'awaiting_approval' | 'waiting_for_message' | 'ended' = 'starting';
  let interruptRequested = false;
  let endReason: string | undefined;
  let lastTurn: TurnSummary | undefined;
  let child: ChildWorkflowHandle<typeof turnWorkflow> | undefined;
  let turnsThisRun = 0;
  const pendingApprovals = new Map<string, PendingApproval>();

  const setStatus = (next: SessionStatusName): void => {
    status = next;
    if (input.useSearchAttributes) upsertSearchAttributes([{ key: statusKey, value: next }]);
  };
  setStatus(status);

  setHandler(statusQuery, () => ({
    sessionId,
    status,
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
    ...(lastTurn ? { lastTurn } : {}),
    ...(endReason ? { endReason } : {}),
    ...(child ? { currentTurnWorkflowId: child.workflowId } : {}),
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
  setHandler(approvalPendingSignal, (p) => {
    pendingApprovals.set(p.toolUseId, p);
    setStatus('awaiting_approval');
  });
  setHandler(approvalResolvedSignal, ({ toolUseId }) => {
    pendingApprovals.delete(toolUseId);
    if (pendingApprovals.size === 0 && status === 'awaiting_approval') setStatus('running');
  });

  const resolveApproval = async (decision: 'approve' | 'deny', req: ApprovalDecisionInput) => {
    const toolUseId = req.toolUseId ?? [...pendingApprovals.keys()][0];
    if (!toolUseId || !pendingApprovals.has(toolUseId) || !child) throw ApplicationFailure.nonRetryable(`no pending approval ${req.toolUseId ?? ''}`.trim(), 'NotPending');
    pendingApprovals.delete(toolUseId);
    await child.signal(turnApprovalSignal, { toolUseId, decision, ...(req.by ? { by: req.by } : {}), ...(req.reason ? { reason: req.reason } : {}) });
    if (pendingApprovals.size === 0 && status === 'awaiting_approval') setStatus('running');
    return { toolUseId, decision };
  };
  const validator = (req: ApprovalDecisionInput): void => {
    if (req.toolUseId !== undefined && !pendingApprovals.has(req.toolUseId)) {
      const open = [...pendingApprovals.keys()];
      throw new Error(`tool call ${req.toolUseId} is not waiting for approval${open.length ? ` (pending: ${open.join(', ')})` : ' (nothing is pending)'}`);
    }
    if (req.toolUseId === undefined && pendingApprovals.size !== 1) {
      throw new Error(pendingApprovals.size === 0 ? 'nothing is waiting for approval' : `several calls are pending; name one of: ${[...pendingApprovals.keys()].join(', ')}`);
    }
  };
  setHandler(approveUpdate, (req) => resolveApproval('approve', req), { validator });
  setHandler(denyUpdate, (req) => resolveApproval('deny', req), { validator });

  const finish = (s: SessionStatusName, reason: string): SessionResult => {
    endReason = reason;
    phase = 'ended';
    setStatus(s);
    return { status: s, turns: state.turn, usage: state.usage, head: state.head, lastText: state.lastText, endReason: reason };
  };

  try {
    for (;;) {
      if (interruptRequested) {
        interruptRequested = false;
        state.interrupted = true;
      }
      if (state.interrupted) {
        if ((input.onInterrupt ?? 'wait') === 'end') return finish('interrupted', 'interrupted by user');
        setStatus('interrupted');
        phase = 'waiting_for_message';
        const got = await condition(() => state.pendingMessages.length > 0, input.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
        if (!got) return finish('interrupted', 'interrupted; no follow-up message arrived');
        state.interrupted = false;
        interruptRequested = false;
        setStatus('running');
      }
      if (input.maxTurns !== undefined && state.turn >= input.maxTurns) return finish('max_turns', `reached the limit of ${input.maxTurns} turns`);
      const total = state.usage.input_tokens + state.usage.output_tokens;
      if (input.maxTotalTokens !== undefined && total >= input.maxTotalTokens) return finish('max_tokens', `reached the limit of ${input.maxTotalTokens} tokens (used ${total})`);

      // Continue-as-new at a turn boundary, carrying the ledger and context. Each run runs at
      // least one turn: a run whose history starts above the limit (a small limit, a large
      // carry) would otherwise continue-as-new forever without progress.
      const now = workflowInfo();
      if (turnsThisRun > 0 && (now.continueAsNewSuggested || now.historySize > (input.maxHistoryBytesPerRun ?? DEFAULT_MAX_HISTORY_BYTES))) {
        await condition(allHandlersFinished);
        return await continueAsNew<typeof sessionWorkflow>(input, state);
      }

      state.turn++;
      turnsThisRun++;
      const append: Message[] = state.pendingMessages.map((text) => ({ role: 'user', content: text }));
      const taken = state.pendingMessages.length;
      phase = 'turn';
      const firstText = append.length > 0 ? `: ${previewOf(state.pendingMessages.join(' / '), 60)}` : '';
      child = await startChild(turnWorkflow, {
        workflowId: `${sessionId}/turn-${state.turn}`,
        staticSummary: `Turn ${state.turn}${firstText}`,
        args: [
          {
            sessionId,
            turn: state.turn,
            head: state.head,
            append,
            model: input.model,
            tools: input.tools,
            permissionMode: input.permissionMode,
            rules: input.rules,
            ...(input.hooks ? { hooks: input.hooks } : {}),
            context: state.context,
            ...(state.readFilesRef ? { readFilesRef: state.readFilesRef } : {}),
            maxConcurrency: input.maxConcurrency ?? 10,
            approvalTimeoutMs: input.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS,
            ...(input.toolTaskQueue ? { toolTaskQueue: input.toolTaskQueue } : {}),
            ...(input.toolHeartbeatTimeoutMs ? { toolHeartbeatTimeoutMs: input.toolHeartbeatTimeoutMs } : {}),
          },
        ],
      });
      if (interruptRequested) {
        const c = child;
        await c.signal(turnInterruptSignal);
      }
      let result;
      try {
        result = await child.result();
      } catch (err) {
        if (err instanceof ChildWorkflowFailure && !isCancellation(err)) {
          const cause = err.cause?.message ?? err.message;
          child = undefined;
          finish('failed', cause);
          throw ApplicationFailure.nonRetryable(`session failed in turn ${state.turn}: ${cause}`, 'TurnFailed');
        }
        throw err;
      }
      child = undefined;
      pendingApprovals.clear();
      if (result.consumedAppend) state.pendingMessages.splice(0, taken);
      state.head = result.head;
      state.context = result.context;
      if (result.readFilesRef !== undefined) state.readFilesRef = result.readFilesRef;
      if (result.usage) {
        state.usage = {
          input_tokens: state.usage.input_tokens + result.usage.input_tokens,
          output_tokens: state.usage.output_tokens + result.usage.output_tokens,
        };
      }
      for (const r of result.records) state.toolCallCounts[r.status] = (state.toolCallCounts[r.status] ?? 0) + 1;
      if (result.text) state.lastText = result.text;
      lastTurn = { turn: result.turn, reason: result.reason, records: result.records, batches: result.batches, ...(result.usage ? { usage: result.usage } : {}), fallback: result.fallback, text: result.text };
      if ((status as SessionStatusName) === 'awaiting_approval') setStatus('running');

      if (result.reason === 'interrupted') {
        state.interrupted = true;
        continue;
      }
      if (result.reason === 'tool_use') continue;
      if (state.pendingMessages.length > 0) continue; // a follow-up arrived during the turn
      if (result.reason === 'max_tokens') return finish('completed', 'the model hit max_tokens');
      return finish('completed', 'the model ended its turn');
    }
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(async () => {
        finish('cancelled', 'cancelled');
      });
    }
    throw err;
  }
}
