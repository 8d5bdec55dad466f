// The session loop, written once against an abstract executor, as `executeTurn` is for one turn:
// the session workflow (Temporal) and the in-process runner (src/local) supply executors; the
// decisions — limits, end reasons, follow-up messages, interrupts, token accounting, when to
// checkpoint — are made here, the same way for both. Pure and deterministic: no I/O, no clocks.
import type { AgentContext } from './context';
import type { HookRun, SessionHookDecision, SessionHookEventName } from './hooks';
import type { Message, StopDetails, Usage } from './messages';
import { addModelUsage, type ModelUsage } from './modelUsage';
import type { ControlWrite, ToolCallStatus } from './records';
import type { TurnEndReason } from './turn';
import type { CompactionRecord, ContextView } from './contextView';
import type { MemoryRef } from './memory';
import { hasPendingWork } from './autonomy';
import type { SessionEvents } from './sessionEvents';
import { checkPrompts, hookEnd, idleNotification, sessionHooks, settle } from './sessionHookSteps';

export { approvalNotification, idleNotification } from './sessionHookSteps';

export type SessionStatusName =
  | 'running'
  /** Idle while its own work is pending: a wake-up, cron jobs, background tasks (phase waiting_for_work). */
  | 'waiting'
  | 'awaiting_approval'
  | 'waiting_for_model'
  | 'interrupted'
  | 'completed'
  | 'stopped'
  | 'max_turns'
  | 'max_tokens'
  /** The model refused (stop_reason refusal): an error for the user, not a completion. */
  | 'refused'
  | 'failed'
  | 'cancelled';

export type SessionPhase =
  | 'starting'
  | 'turn'
  | 'awaiting_approval'
  | 'waiting_for_message'
  /** The model ended its turn while background tasks, a wake-up or cron jobs remain (engine/autonomy.ts). */
  | 'waiting_for_work'
  | 'ended';

/** The session's state between turns; carried across continue-as-new. */
export interface SessionState {
  turn: number;
  head: string | null;
  /** cwd and directories; `readFiles` lives in the read-file store under `readFilesRef` (kept out of payloads). */
  context: AgentContext;
  readFilesRef?: string | null;
  /** Summed over every model call of the session. */
  usage: Usage;
  /** The last model response's usage: what the next request starts from (context accounting). */
  lastUsage?: Usage;
  /**
   * Every model call of the session's tree by model, cost included (engine/modelUsage.ts): its turns'
   * calls, compactions and side calls, its subagents' trees (foreground, background, isolated). Data
   * carried across continue-as-new, summed from the turns' and children's results. Absent until the
   * first result that carries one (a session started before it existed counts from then on).
   */
  modelUsage?: ModelUsage;
  /** Follow-up messages not yet sent to the model (the prompt first). */
  pendingMessages: string[];
  /**
   * How many tool calls ended in each status. The per-id guard against re-execution is the execution
   * ledger behind the activities (src/stores/executionLedger.ts), so the carried state stays constant-size.
   */
  toolCallCounts: Partial<Record<ToolCallStatus, number>>;
  /** Legacy carried state (runs recorded before toolCallCounts existed: tool_use_id -> status); folded into toolCallCounts on start. */
  ledger?: Record<string, ToolCallStatus>;
  runs: number;
  lastText: string;
  /** Interrupted: the next turn waits for a follow-up message (or the session ends). */
  interrupted: boolean;
  /** Unique per session (not per workflow id): keys the execution ledger. Set by the scheduler. */
  ledgerKey?: string;
  /** The model's view of the transcript (compaction summary, cleared results); absent: all of it. */
  view?: ContextView;
  /** The session's compactions (the last 100): status, `transcript` and the audit show them. */
  compactions?: CompactionRecord[];
  /** The memory by reference, until the turn that sends the first message consumed it (the model activity prepends its text). */
  memoryRef?: MemoryRef;
  /** SessionStart hooks ran (once per session, not per run). */
  sessionStarted?: boolean;
  /** SessionStart fires again before the next turn: after a compaction, or after a lost worker's call was recovered. */
  sessionStartAgain?: 'compact' | 'resume';
  /** How many of the leading pendingMessages passed UserPromptSubmit hooks already. */
  promptsChecked?: number;
  /** Text hooks added for the model (additionalContext, a blocking Stop hook's reason), sent with the next turn. */
  hookContext?: string[];
  /** The session goes on because a Stop hook blocked: the next Stop hook sees stop_hook_active. */
  stopHookActive?: boolean;
  /** Why the last turn ended (a turn whose prompts were all blocked still answers pending tool results). */
  lastReason?: string;
  /** Notices from session-level hooks (systemMessage, non-blocking errors), for the user. */
  hookNotices?: string[];
  /** Writes to the session's control files, by call (the last MAX_SESSION_CONTROL_WRITES): status and `run` name them. */
  controlWrites?: SessionControlWrite[];
}

/** A control file a call of the session changed: which, how, by which call. */
export interface SessionControlWrite extends ControlWrite {
  turn: number;
  toolUseId: string;
  toolName: string;
  summary: string;
}

export const MAX_SESSION_CONTROL_WRITES = 100;

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
}

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
}

export interface SessionExecutor {
  /**
   * The session's events (engine/sessionEvents.ts): handlers append, the loop settles them after
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
  /** Is any hook configured for this session-level event? (None: no activity is scheduled.) */
  hasHooks?(event: SessionHookEventName): boolean;
  /** Runs the event's hooks (an activity under Temporal) with the event's own input fields. */
  runHooks?(event: SessionHookEventName, fields: Record<string, unknown>, head: string | null): Promise<HookRun[]>;
}

export interface SessionEnd {
  kind: 'end';
  status: SessionStatusName;
  endReason: string;
}

/** Continue-as-new with the (mutated) state: the scheduler starts a fresh run with it. */
export interface SessionCheckpoint {
  kind: 'checkpoint';
}

/** Every end reason, in one place: both schedulers say the same thing. */
export const END_REASONS = {
  maxTurns: (limit: number) => `reached the limit of ${limit} turns`,
  maxTokens: (limit: number, used: number) => `reached the limit of ${limit} tokens (used ${used})`,
  interrupted: 'interrupted by user',
  idle: 'interrupted; no follow-up message arrived',
  modelMaxTokens: 'the model hit max_tokens',
  /** stop_reason refusal: what the API said (category, explanation; both may be null). */
  refused: (d?: StopDetails) =>
    `the model refused to respond (stop_reason refusal${d?.category ? `, category ${d.category}` : ''})${d?.explanation ? `: ${d.explanation}` : ''}; the refused turn was dropped from the conversation — rephrase the request or try a different approach`,
  /** stop_reason model_context_window_exceeded on an answer with no tool_use. */
  contextWindow:
    'the model reached its context window limit (stop_reason model_context_window_exceeded): its answer was cut off',
  endTurn: 'the model ended its turn',
  hookStop: (hook: string, reason: string) => `stopped by a hook (${hook}): ${reason}`,
  promptBlocked: (reason: string) => `the prompt was blocked by a UserPromptSubmit hook: ${reason}`,
  failed: (turn: number, cause: string) => `turn ${turn} failed: ${cause}`,
  cancelled: 'cancelled',
} as const;

export const DEFAULT_APPROVAL_TIMEOUT_MS = 24 * 3600_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 7 * 24 * 3600_000;

/** The session's limits from its input, with the defaults both schedulers use. */
export function sessionConfig(
  input: { maxTurns?: number; maxTotalTokens?: number; onInterrupt?: 'wait' | 'end'; idleTimeoutMs?: number },
  subagent = false,
  sessionStartSources = true,
): SessionConfig {
  return {
    ...(subagent ? { subagent: true } : {}),
    ...(sessionStartSources ? { sessionStartSources: true } : {}),
    ...(input.maxTurns !== undefined ? { maxTurns: input.maxTurns } : {}),
    ...(input.maxTotalTokens !== undefined ? { maxTotalTokens: input.maxTotalTokens } : {}),
    onInterrupt: input.onInterrupt ?? 'wait',
    idleTimeoutMs: input.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
  };
}

export function initialSessionState(prompt: string, context: AgentContext): SessionState {
  return {
    turn: 0,
    head: null,
    context,
    usage: { input_tokens: 0, output_tokens: 0 },
    pendingMessages: [prompt],
    toolCallCounts: {},
    runs: 0,
    lastText: '',
    interrupted: false,
  };
}

/** A state carried from an older version: fills what it lacks (no I/O, so it can run in a workflow). */
export function migrateSessionState(state: SessionState): SessionState {
  if (!state.toolCallCounts) {
    // A run continued from an older version carried the per-id map: count it once.
    state.toolCallCounts = {};
    for (const st of Object.values(state.ledger ?? {})) state.toolCallCounts[st] = (state.toolCallCounts[st] ?? 0) + 1;
    delete state.ledger;
  }
  return state;
}

/** Sums usage, cache counters included (absent counters stay absent). */
export function addUsage(a: Usage, b: Usage): Usage {
  const out: Usage = {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
  };
  for (const k of ['cache_creation_input_tokens', 'cache_read_input_tokens'] as const) {
    if (a[k] !== undefined || b[k] !== undefined) out[k] = (a[k] ?? 0) + (b[k] ?? 0);
  }
  return out;
}

export function totalTokens(u: Usage): number {
  return u.input_tokens + u.output_tokens;
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
    state.lastUsage = report.usage;
  }
  if (report.compactionUsage) state.usage = addUsage(state.usage, report.compactionUsage);
  if (report.modelUsage) state.modelUsage = addModelUsage(state.modelUsage, report.modelUsage);
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
 * its fixed points (`settle`, after each of its waits: engine/sessionEvents.ts).
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

/** A call waiting for approve/deny (status and queries list them). */
export interface PendingApproval {
  turn: number;
  toolUseId: string;
  toolName: string;
  summary: string;
  message: string;
  since: number;
}

/** How a session ended (the session workflow's result; the in-process runner's adds more). */
export interface SessionResult {
  status: SessionStatusName;
  turns: number;
  usage: Usage;
  head: string | null;
  lastText: string;
  endReason: string;
  /** Tool calls of the session (absent in results of sessions that ended before it was recorded). */
  toolCalls?: number;
  /** The last model call's usage (the Agent tool's `subagent_tokens`). */
  lastUsage?: Usage;
  /** Every model call of the session's tree by model, cost included (absent: none counted). */
  modelUsage?: ModelUsage;
  /** Writes the session's calls made to its control files (the last 100): a parent's Agent call names its child's. */
  controlWrites?: SessionControlWrite[];
}
