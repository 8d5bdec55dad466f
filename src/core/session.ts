// The session loop, written once against an abstract executor, as `executeTurn` is for one turn:
// the session workflow (Temporal) and the in-process runner (src/inprocess) supply executors; the
// decisions — limits, end reasons, follow-up messages, interrupts, token accounting, when to
// checkpoint — are made here, the same way for both. Pure and deterministic: no I/O, no clocks.
import type { Message } from './apiMessages';
import { addModelUsage } from './modelUsage';
import {
  checkBudget,
  initialBudgetState,
  settleInFlight,
  withBudgetEvent,
  type BudgetLimits,
  type OnBudget,
} from './budget';
import { hasPendingWork } from './autonomy';
import type { SessionHookDecision } from './hooks';
import { checkPrompts, hookEnd, idleNotification, sessionHooks, settle } from './sessionHookSteps';
import type { SessionExecutor, TurnReport } from './sessionExecutor';
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  END_REASONS,
  MAX_SESSION_CONTROL_WRITES,
  addUsage,
  totalTokens,
  type SessionCheckpoint,
  type SessionEnd,
  type SessionState,
} from './sessionState';

export { approvalNotification, idleNotification } from './sessionHookSteps';
export type { SessionExecutor, TurnReport } from './sessionExecutor';
export {
  DEFAULT_APPROVAL_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  END_REASONS,
  MAX_SESSION_CONTROL_WRITES,
  addUsage,
  initialSessionState,
  migrateSessionState,
  totalTokens,
} from './sessionState';
export type {
  PendingApproval,
  SessionCheckpoint,
  SessionControlWrite,
  SessionEnd,
  SessionPhase,
  SessionResult,
  SessionState,
  SessionStatusName,
} from './sessionState';

export interface SessionConfig {
  maxTurns?: number;
  maxTotalTokens?: number;
  /** After an interrupt: wait for a follow-up message or end the session. */
  onInterrupt: 'wait' | 'end';
  /** How long to wait for a follow-up after an interrupt. */
  idleTimeoutMs: number;
  /**
   * A subagent's session, with the reference's subagent events: SubagentStart instead of
   * SessionStart, SubagentStop instead of Stop, no UserPromptSubmit or SessionEnd.
   */
  subagent?: boolean;
  /**
   * SessionStart fires again with source `compact` after a turn that compacted the context, and
   * `resume` after a turn that recovered a call whose worker was lost (the reference's resume: a
   * new process picks the conversation up). Off: `startup` only (sessions recorded before).
   */
  sessionStartSources?: boolean;
  /** The tree's budget (issue 34, core/budget.ts), checked before each model call of the session. */
  budget?: BudgetLimits;
}

/** The session's limits from its input, with the defaults both schedulers use. */
export function sessionConfig(
  input: {
    maxTurns?: number;
    maxTotalTokens?: number;
    maxBudgetUsd?: number;
    onBudget?: OnBudget;
    budgetThreshold?: number;
    onInterrupt?: 'wait' | 'end';
    idleTimeoutMs?: number;
  },
  subagent = false,
  sessionStartSources = true,
): SessionConfig {
  // A session started with `onBudget` (or a USD budget) holds its tree to the budget; one started
  // before (maxTotalTokens alone) keeps its own token limit, which ends it, as it did.
  const tree = input.onBudget !== undefined || input.maxBudgetUsd !== undefined;
  return {
    ...(subagent ? { subagent: true } : {}),
    ...(sessionStartSources ? { sessionStartSources: true } : {}),
    ...(input.maxTurns !== undefined ? { maxTurns: input.maxTurns } : {}),
    ...(input.maxTotalTokens !== undefined && !tree ? { maxTotalTokens: input.maxTotalTokens } : {}),
    ...(tree
      ? {
          budget: {
            ...(input.maxBudgetUsd !== undefined ? { maxBudgetUsd: input.maxBudgetUsd } : {}),
            ...(input.maxTotalTokens !== undefined ? { maxTotalTokens: input.maxTotalTokens } : {}),
            onBudget: input.onBudget ?? 'wait',
            ...(input.budgetThreshold !== undefined ? { threshold: input.budgetThreshold } : {}),
          },
        }
      : {}),
    onInterrupt: input.onInterrupt ?? 'wait',
    idleTimeoutMs: input.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
  };
}

/** The session's own limits, checked before each turn. */
export function limitReached(state: SessionState, config: SessionConfig): SessionEnd | undefined {
  if (config.maxTurns !== undefined && state.turn >= config.maxTurns)
    return { kind: 'end', status: 'max_turns', endReason: END_REASONS.maxTurns(config.maxTurns) };
  const used = totalTokens(state.usage);
  if (config.maxTotalTokens !== undefined && used >= config.maxTotalTokens) {
    return { kind: 'end', status: 'max_tokens', endReason: END_REASONS.maxTokens(config.maxTotalTokens, used) };
  }
  return undefined;
}

/**
 * Folds a finished turn into the state and decides what comes next: undefined to run another
 * turn (tool results to answer, a follow-up arrived, or an interrupt to wait on), or the end.
 * `taken` is how many pending messages the turn was given.
 */
export function applyTurnReport(state: SessionState, report: TurnReport, taken: number): SessionEnd | undefined {
  if (report.reason === 'failed')
    return {
      kind: 'end',
      status: 'failed',
      endReason: END_REASONS.failed(state.turn, report.error ?? 'unknown error'),
    };
  if (report.consumedAppend) state.pendingMessages.splice(0, taken);
  state.head = report.head;
  state.context = report.context;
  if (report.readFilesRef !== undefined) state.readFilesRef = report.readFilesRef;
  if (report.usage) {
    state.usage = addUsage(state.usage, report.usage);
    state.lastUsage = report.lastUsage ?? report.usage;
  }
  if (report.compactionUsage) state.usage = addUsage(state.usage, report.compactionUsage);
  if (report.modelUsage) state.modelUsage = addModelUsage(state.modelUsage, report.modelUsage);
  // The turn's foreground children ended with it: their spend is in the turn's usage now.
  if (state.budget) state.budget = settleInFlight(state.budget, { foreground: true });
  if (report.view) state.view = report.view;
  if (report.compactions?.length) state.compactions = [...(state.compactions ?? []), ...report.compactions].slice(-100);
  for (const r of report.records) state.toolCallCounts[r.status] = (state.toolCallCounts[r.status] ?? 0) + 1;
  const writes = report.records.flatMap((r) =>
    (r.controlWrites ?? []).map((w) => ({
      ...w,
      turn: state.turn,
      toolUseId: r.toolUseId ?? '',
      toolName: r.toolName ?? '',
      summary: (r.summary ?? '').slice(0, 200),
    })),
  );
  if (writes.length > 0)
    state.controlWrites = [...(state.controlWrites ?? []), ...writes].slice(-MAX_SESSION_CONTROL_WRITES);
  if (report.text) state.lastText = report.text;
  state.lastReason = report.reason;

  if (report.reason === 'interrupted') {
    state.interrupted = true;
    return undefined;
  }
  // A hook's `continue: false` stops the session after the turn (its results are recorded).
  const stop = report.records.find((r) => r.stop)?.stop;
  if (stop) return { kind: 'end', status: 'stopped', endReason: END_REASONS.hookStop(stop.hook, stop.reason) };
  if (report.reason === 'tool_use') return undefined;
  if (state.pendingMessages.length > 0) return undefined; // a follow-up arrived during the turn
  if (report.reason === 'max_tokens')
    return { kind: 'end', status: 'completed', endReason: END_REASONS.modelMaxTokens };
  // Not a success (issue 31): the user is told. A follow-up that arrived meanwhile went on above.
  if (report.reason === 'refusal')
    return { kind: 'end', status: 'refused', endReason: END_REASONS.refused(report.stopDetails) };
  if (report.reason === 'context_window')
    return { kind: 'end', status: 'failed', endReason: END_REASONS.contextWindow };
  return { kind: 'end', status: 'completed', endReason: END_REASONS.endTurn };
}

/**
 * Runs turns until the session ends or should continue-as-new. Mutates `state` (the scheduler
 * owns it: queries read it). Handlers append events to `executor.events`; the loop applies them at
 * its fixed points (`settle`, after each of its waits: core/sessionEvents.ts).
 */
export async function runSession(
  state: SessionState,
  config: SessionConfig,
  executor: SessionExecutor,
): Promise<SessionEnd | SessionCheckpoint> {
  const outcome = await runSessionLoop(state, config, executor);
  settle(executor);
  if (outcome.kind === 'end' && !config.subagent) {
    // SessionEnd hooks cannot change the outcome; their answers are notices.
    await sessionHooks(state, executor, 'SessionEnd', { reason: 'other', end_status: outcome.status });
    settle(executor);
  }
  return outcome;
}

/** A hook's additional context goes with the next turn. */
function addHookContext(state: SessionState, event: string, d: SessionHookDecision | undefined): void {
  if (d?.additionalContext.length)
    (state.hookContext ??= []).push(...d.additionalContext.map((c) => `${event} hook additional context: ${c}`));
}

/** The turn's messages: the pending ones, then the hooks' context. */
function turnAppend(state: SessionState): { taken: number; context: string[]; append: Message[] } {
  const context = state.hookContext ?? [];
  const append: Message[] = [...state.pendingMessages, ...context].map((text) => ({ role: 'user', content: text }));
  return { taken: state.pendingMessages.length, context, append };
}

/** A turn's report folded into the state (with what the loop keeps beside `applyTurnReport`). */
function turnEnded(
  state: SessionState,
  config: SessionConfig,
  report: TurnReport,
  sent: { taken: number; context: string[] },
): SessionEnd | undefined {
  const { taken, context } = sent;
  // A turn child of several model steps: each step was a turn (issue 33).
  if (report.steps !== undefined && report.steps > 1) state.turn += report.steps - 1;
  if (report.consumedAppend && context.length) state.hookContext = [];
  if (report.consumedAppend) delete state.memoryRef;
  if (config.sessionStartSources && !config.subagent) {
    if (report.records.some((r) => r.status === 'unknown_outcome' || (r.attempts ?? 1) > 1))
      state.sessionStartAgain = 'resume';
    else if (report.compactions?.length) state.sessionStartAgain = 'compact';
  }
  const end = applyTurnReport(state, report, taken);
  if (report.consumedAppend) state.promptsChecked = Math.max(0, (state.promptsChecked ?? 0) - taken);
  return end;
}

/**
 * The loop. Its waits stay where they are, each followed by `settle`: the order in which a
 * workflow's continuations run within one activation depends on them (histories replay unchanged).
 * What runs between two waits is synchronous (the helpers above).
 */
async function runSessionLoop(
  state: SessionState,
  config: SessionConfig,
  executor: SessionExecutor,
): Promise<SessionEnd | SessionCheckpoint> {
  let turnsThisRun = 0;
  if (!state.sessionStarted) {
    state.sessionStarted = true;
    const event = config.subagent ? 'SubagentStart' : 'SessionStart';
    const d = await sessionHooks(state, executor, event, config.subagent ? {} : { source: 'startup' });
    settle(executor);
    if (d?.stop) return hookEnd(d.stop);
    addHookContext(state, event, d);
  }
  executor.onStatus?.(state.interrupted ? 'interrupted' : 'running', 'starting');
  for (;;) {
    if (executor.takeInterrupt()) state.interrupted = true;
    if (state.interrupted) {
      if (config.onInterrupt === 'end')
        return { kind: 'end', status: 'interrupted', endReason: END_REASONS.interrupted };
      executor.onStatus?.('interrupted', 'waiting_for_message');
      if (state.pendingMessages.length === 0) await sessionHooks(state, executor, 'Notification', idleNotification());
      settle(executor);
      // Returns at once when a follow-up is already pending.
      const got = await executor.waitForMessage(config.idleTimeoutMs);
      settle(executor);
      if (!got) return { kind: 'end', status: 'interrupted', endReason: END_REASONS.idle };
      state.interrupted = false;
      executor.takeInterrupt(); // an interrupt while nothing ran has nothing left to stop
      executor.onStatus?.('running', 'waiting_for_message');
    }
    const limit = limitReached(state, config);
    if (limit) return limit;
    const over = await budgetGate(state, config, executor);
    if (over) return over;

    // Each run runs at least one turn: a run whose history starts above the limit (a small
    // limit, a large carry) would otherwise continue-as-new forever without progress.
    if (turnsThisRun > 0 && executor.shouldCheckpoint?.(turnsThisRun)) {
      await executor.drain?.();
      settle(executor);
      // An interrupt that arrived while handlers drained is carried into the next run.
      if (executor.takeInterrupt()) state.interrupted = true;
      return { kind: 'checkpoint' };
    }

    // UserPromptSubmit: each new prompt, before the model sees it.
    if (!config.subagent && executor.hasHooks?.('UserPromptSubmit')) {
      const e = await checkPrompts(state, executor);
      settle(executor);
      if (e) return e;
    }
    state.promptsChecked = state.pendingMessages.length;

    // SessionStart again (compact / resume): its context goes with this turn.
    const again = state.sessionStartAgain;
    if (again) {
      delete state.sessionStartAgain;
      const d = await sessionHooks(state, executor, 'SessionStart', { source: again });
      settle(executor);
      if (d?.stop) return hookEnd(d.stop);
      addHookContext(state, 'SessionStart', d);
    }

    state.turn++;
    turnsThisRun++;
    const sent = turnAppend(state);
    executor.onStatus?.('running', 'turn');
    const report = await executor.runTurn(state.turn, sent.append);
    settle(executor);
    const end = turnEnded(state, config, report, sent);
    if (end && end.status === 'completed' && end.endReason === END_REASONS.endTurn) {
      // Stop (a subagent: SubagentStop) hooks: a block keeps the session going with the reason as the next message.
      const d = await sessionHooks(state, executor, config.subagent ? 'SubagentStop' : 'Stop', {
        stop_hook_active: state.stopHookActive === true,
        last_assistant_message: state.lastText,
      });
      settle(executor);
      if (d?.stop) return hookEnd(d.stop);
      if (d?.block) {
        state.stopHookActive = true;
        // The reference's wording for Stop and SubagentStop alike (checked against Claude Code 2.1.197).
        (state.hookContext ??= []).push(`Stop hook feedback:\n${d.block.reason}`);
        continue;
      }
    }
    // A task that ended after the turn did (its notification queued in the same workflow activation
    // as the turn's end, or while Stop hooks ran) leaves a queued message: a turn for it, as if it
    // had come before the turn's end.
    if (end?.status === 'completed' && state.pendingMessages.length > 0 && executor.wakesForQueued?.()) continue;
    if (end?.status === 'completed' && executor.waitForWork && hasPendingWork(state.context.autonomy)) {
      executor.onStatus?.('waiting', 'waiting_for_work');
      const more = await executor.waitForWork(state);
      settle(executor);
      if (more) continue;
    }
    if (end) return end;
  }
}

/**
 * The budget's check before the next model call (issue 34): the soft threshold is recorded once; a
 * spent budget ends the session (`onBudget: 'end'`, or a scheduler that cannot wait) or waits in
 * `budget_exceeded` until a raise covers the spend. Nothing half-done: the turn before ended with
 * every tool result recorded. One place, for both schedulers; a turn that runs several model steps
 * calls `checkBudget` the same way between them.
 */
async function budgetGate(
  state: SessionState,
  config: SessionConfig,
  executor: SessionExecutor,
): Promise<SessionEnd | undefined> {
  const limits = config.budget;
  if (!limits) return undefined;
  for (;;) {
    const v = checkBudget(limits, state, executor.now?.() ?? 0);
    if (v.kind === 'ok') {
      if (v.threshold) {
        state.budget = withBudgetEvent(state.budget ?? initialBudgetState(), v.threshold);
        executor.onBudgetEvent?.(v.threshold);
      }
      return undefined;
    }
    if (!state.budget?.exceeded) {
      state.budget = withBudgetEvent(state.budget ?? initialBudgetState(), v.event);
      executor.onBudgetEvent?.(v.event);
    }
    if (limits.onBudget === 'end' || !executor.waitForBudget)
      return { kind: 'end', status: 'budget_exceeded', endReason: v.reason };
    executor.onStatus?.('budget_exceeded', 'waiting_for_budget');
    const resumed = await executor.waitForBudget(limits);
    settle(executor);
    if (!resumed)
      return { kind: 'end', status: 'budget_exceeded', endReason: `${v.reason}; ended by budget --on-budget end` };
    executor.onStatus?.('running', 'turn');
  }
}
