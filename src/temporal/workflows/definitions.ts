// Shared, sandbox-safe definitions of the session and turn workflows: inputs, results, and the
// signals/updates/queries that clients and workflows use to talk. Imports only pure code: the
// engine and @temporalio/workflow (test/unit/rooms.test.ts).
import { defineQuery, defineSignal, defineUpdate, type Sinks } from '@temporalio/workflow';
import type { StepReturn, TurnStepLimits } from '../../core/turnSteps';
import type { StepWrites } from '../../core/modelStep';
import { QUERIES, SIGNALS, UPDATES } from '../../core/ids';
import type { AgentContext, HookPins } from '../../core/context';
import type { Autonomy } from '../../core/autonomy';
import type { Message, StopDetails, Usage } from '../../core/apiMessages';
import type { ModelUsage } from '../../core/modelUsage';
import type { BudgetCharge, BudgetLink, BudgetRaise, BudgetView } from '../../core/budget';
import type { DailyBudget } from '../../core/scheduleDay';
export type { BudgetLink, BudgetView } from '../../core/budget';
import type {
  PendingApproval,
  SessionControlWrite,
  SessionPhase,
  SessionState,
  SessionStatusName,
} from '../../core/session';
import type { OutageState } from '../../core/retry';
import type { DiscardedExecution, StreamedToolUseSignal } from '../../core/streaming';
import type { MonitorEventBatch } from '../../tasks/core/monitorTasks';
import type { ControlWrite, DecisionRecord, ToolCallStatus } from '../../core/toolRecords';
import type { ContextSettings } from '../../core/contextWindow';
import type { CompactionRecord, ContextView } from '../../core/contextView';
import type { PermissionMode, PermissionRules } from '../../toolProtocol/permissionTypes';
import type { SandboxSettings } from '../../sandbox/settings';
import type { McpServers } from '../../mcp/config';
import type { MemoryRef, SessionMemory } from '../../core/memoryReminder';
import type { SubagentParent } from '../../core/subagents';
import type { AgentDefinition } from '../../agents/definitions';
import type { SkillDefinition } from '../../agents/skills';
import type { ThinkingSetting } from '../../core/thinking';
import type { NotifySettings } from '../../core/notifications';

export const TASK_QUEUE_DEFAULT = 'durable-agent';

/**
 * What a session workflow tells the worker that runs it, outside history (Temporal sinks: no
 * command, nothing replayed, never called during replay). `sessionEnded`: the session ended
 * (completed, failed, cancelled, stopped — not a continue-as-new); the worker removes its temp
 * and spool directories (src/sandbox/sessionTemp.ts endSessionTemp).
 */
export interface SessionSinks extends Sinks {
  durableAgent: { sessionEnded(sessionId: string): void };
}
export const STATUS_SEARCH_ATTRIBUTE = 'DurableAgentStatus';

export interface ModelSettingsInput {
  model: string;
  maxTokens: number;
  system?: string;
  temperature?: number;
  /** Extended thinking, decided at the edge (core/thinking.ts); absent: none (sessions started before it). */
  thinking?: ThinkingSetting;
}

/** Hooks in the reference's JSON format (command hooks only: functions cannot cross the wire). */
export type HooksJson = Record<
  string,
  Array<{ matcher?: string; hooks: Array<{ type: 'command'; command: string; timeout?: number }> }>
>;

export interface SessionInput {
  prompt: string;
  model: ModelSettingsInput;
  /** Tool names of the session's pool (a subset of the worker's registry). */
  tools: string[];
  permissionMode: PermissionMode;
  rules: PermissionRules;
  cwd: string;
  additionalDirectories?: string[];
  /** The user's IANA time zone (cron jobs read it): captured by the client, checked at the edge. */
  timeZone?: string;
  hooks?: HooksJson;
  /**
   * The files the command hooks run, pinned by content at the session's start, and the project
   * root the hooks run from (src/hooks/pins.ts; set by sessionInput). A subagent and a
   * continue-as-new keep the parent's. Absent in sessions started before pins: their hooks run
   * from the session's start directory, unchecked.
   */
  hookPins?: HookPins;
  /**
   * A schedule's session (src/temporal/schedules.ts): before anything runs, the worker compares the
   * control files of `cwd` with the main checkout's when a checkout was recorded there after
   * `since` (the schedule's creation, when the person saw or trusted them); a firing that would
   * load files a checkout brought since is refused (the session fails with CHECKOUT_NOT_TRUSTED,
   * nothing runs) and the schedule is paused with a note naming them. Absent: checked at the edge
   * right before the start (run, startSession), nothing to check on the worker.
   */
  checkoutGuard?: { since: string; runFiles: string[]; scheduleId?: string };
  /**
   * A schedule's budget per day (issue 34, core/scheduleDay.ts; `schedule add --max-budget-usd-per-day`):
   * the firing sums what the schedule's earlier firings of its day spent (activity `schedule-day`) and
   * runs with min(its own budget, what is left), written into this input for the run and its
   * continue-as-new; a firing that finds the day spent ends at once (status budget_exceeded).
   */
  dailyBudget?: DailyBudget;
  /**
   * MCP servers (`.mcp.json` approved servers and settings `mcpServers`), unexpanded: `${VAR}`
   * expands on the worker that starts the server. Their tools join the pool as `mcp__<server>__<tool>`.
   */
  mcpServers?: McpServers;
  /**
   * CLAUDE.md memory read at start (src/claudeMd): sent as a system reminder before the prompt in
   * the first user message, as the reference does. Its size is capped like the prompt's.
   */
  memory?: SessionMemory;
  /** The settings files the session's configuration came from, lowest precedence first (status shows them). */
  settingsSources?: string[];
  /**
   * The reference's `sandbox` settings, paths resolved at start (src/sandbox). Absent = `{}`:
   * Bash runs in the OS sandbox where the platform supports it. `{ enabled: false }` opts out.
   */
  sandbox?: SandboxSettings;
  /** `permissions.disableBypassPermissionsMode: "disable"`: a bypassPermissions session is refused. */
  disableBypassPermissionsMode?: boolean;
  maxTurns?: number;
  /** With `onBudget`: a budget for the session's whole tree (core/budget.ts); without: this session's own limit (it ends). */
  maxTotalTokens?: number;
  /** The tree's budget in US dollars (issue 34, `--max-budget-usd`). */
  maxBudgetUsd?: number;
  /** Over budget: wait for `budget ID --add` (default) or end (`--on-budget end`). Set: the budget holds across the tree. */
  onBudget?: 'wait' | 'end';
  /** The soft threshold, 0 < t < 1 (default 0.8): notified once. */
  budgetThreshold?: number;
  /** A child of a budgeted session: its model calls are charged to, and held by, the root (core/budget.ts). */
  budgetLink?: BudgetLink;
  /** How long an `ask` waits for approve/deny before it becomes a denial. Default 24 h. */
  approvalTimeoutMs?: number;
  /** After an interrupt: wait for a follow-up message (default) or end the session. */
  onInterrupt?: 'wait' | 'end';
  /** How long to wait for a follow-up after an interrupt before ending. Default 7 days. */
  idleTimeoutMs?: number;
  maxConcurrency?: number;
  /**
   * Streaming tool execution (default true): a concurrency-safe call starts while the model's
   * message still streams (docs/architecture.md). false: tools start when the message is complete.
   * Env default for new sessions: DURABLE_AGENT_STREAMING_TOOL_EXECUTION=0 turns it off.
   */
  streamingToolExecution?: boolean;
  /** Task queue of the activities that touch the working directory (a queue per host/workspace). */
  toolTaskQueue?: string;
  /**
   * Task queue of the model calls (callModel, compactContext): the queue whose workers share one
   * model-call limit (docs/deployment.md "One rate limit for many workers"). Absent: the session's
   * own queue, no shared limit. Env default for new sessions: DURABLE_AGENT_MODEL_TASK_QUEUE.
   */
  modelTaskQueue?: string;
  /**
   * Heartbeat timeout of tool activities: how soon a lost worker is noticed. Default 5 s for tool
   * calls (core/heartbeats.ts; 30 s before 0.3.0), 30 s for background tasks and agents.
   */
  toolHeartbeatTimeoutMs?: number;
  /** Continue-as-new once a run's history passes this many bytes (or when the server suggests). */
  maxHistoryBytesPerRun?: number;
  /**
   * Model steps a turn child runs at most before it returns to its session (issue 33; a new session
   * run's children, SESSION_030_PATCH). Default 50; 1: one child per model step, as before 0.3.0.
   */
  maxStepsPerTurn?: number;
  /** Longest single wait in a model or store outage (retry-after is capped too). Default 5 min (env DURABLE_AGENT_RETRY_CAP_MS). */
  retryCapMs?: number;
  /** End the session when an outage lasts longer than this. Default: wait as long as it takes (env DURABLE_AGENT_MAX_OUTAGE_MS). */
  maxOutageMs?: number;
  /** Whether the DurableAgentStatus search attribute is registered on the namespace. */
  useSearchAttributes?: boolean;
  /** Context window management and prompt caching (auto-compaction, clearing old tool results). */
  contextManagement?: ContextSettings;
  /** The agent types the Agent tool offers (general-purpose, ~/.claude/agents, .claude/agents); absent = general-purpose. */
  agents?: AgentDefinition[];
  /** The skills the Skill tool loads (~/.claude/skills, .claude/skills), read at the edge when the session starts; absent = none. */
  skills?: SkillDefinition[];
  /** Set on a subagent's session: the parent session's id, the Agent call that started it and the agent type. */
  parent?: SubagentParent;
  /** Notifications (issue 35; core/notifications.ts): the webhook and which kinds. No secret: the auth header is the worker's. */
  notify?: NotifySettings;
}

export type { SessionStatusName };

export type { PendingApproval, SessionResult } from '../../core/session';

export interface CompactRecord {
  toolUseId: string;
  /**
   * Absent (with `summary`) in a turn's RESULT for a stored result's record without control writes,
   * stop or notices (issue 33): the tool activity's result holds them, the audit reads them there.
   * The turn's progress query always has them.
   */
  toolName?: string;
  summary?: string;
  status: ToolCallStatus;
  /** Absent in a turn's RESULT when the tool activity's result holds it (a stored result, `resultRef`; issue 33). */
  decision?: DecisionRecord;
  /**
   * The result's first 200 characters on one line. Absent in a turn's RESULT when the tool
   * activity's result already holds the same preview (a stored result, `resultRef`; issue 33): the
   * audit reads it there. The turn's progress query always has it.
   */
  preview?: string;
  reused?: boolean;
  /** Started while the model's message still streamed. */
  early?: boolean;
  /** A hook answered `continue: false`: the session stops after this turn. */
  stop?: { reason: string; hook: string };
  /** The call's hook notices for the user (a systemMessage, a failed hook). */
  notices?: string[];
  /** Control files of the session that changed while the call ran. */
  controlWrites?: ControlWrite[];
}

export interface TurnSummary {
  turn: number;
  reason: string;
  records: CompactRecord[];
  batches: Array<{ concurrencySafe: boolean; toolUseIds: string[] }>;
  usage?: Usage;
  fallback: boolean;
  text: string;
}

/** State carried across continue-as-new runs: the engine's session state. */
export type SessionCarry = SessionState;

export interface SessionStatus {
  sessionId: string;
  status: SessionStatusName;
  turn: number;
  phase: SessionPhase;
  pendingApprovals: PendingApproval[];
  usage: Usage;
  /** Every model call of the session's tree by model (core/modelUsage.ts), cost included; absent before any was counted. */
  modelUsage?: ModelUsage;
  head: string | null;
  toolCalls: number;
  toolCallCounts: Partial<Record<ToolCallStatus, number>>;
  /** The session's working directory and additional directories now (after context modifiers). */
  context: { cwd: string; additionalDirectories: string[] };
  runs: number;
  /** The latest notices of session-level hooks (systemMessage, non-blocking errors, blocked prompts). */
  hookNotices?: string[];
  lastText: string;
  lastTurn?: TurnSummary;
  /** Set while the running turn waits out a model or store outage. */
  outage?: OutageState;
  endReason?: string;
  currentTurnWorkflowId?: string;
  /** Compactions so far (the last 100) and the tokens the model's view held after the last answer. */
  compactions?: CompactionRecord[];
  contextTokens?: number;
  /** Writes the session's calls made to its control files (the last 100). */
  controlWrites?: SessionControlWrite[];
  /** Background tasks, the wake-up and cron jobs the session holds (core/autonomy.ts). */
  autonomy?: Autonomy;
  /** Set while the session waits for that work (phase `waiting_for_work`): until when, and why. */
  waiting?: { until?: number; reason: string };
  /** `stop` was asked: the session ends at its next idle point, its timers dropped. */
  stopRequested?: boolean;
  /** The tree's budget (issue 34): spent, limits, its threshold/exceeded/raised events. */
  budget?: BudgetView;
}

export interface TurnWorkflowInput {
  sessionId: string;
  /** Keys the execution ledger (unique per session; absent in turns of older sessions: sessionId). */
  ledgerKey?: string;
  turn: number;
  head: string | null;
  append: Message[];
  /** Without `system` when `settingsRef` is set (the stored settings hold it). */
  model: ModelSettingsInput;
  /** The session's tool names; absent when `settingsRef` is set (the stored settings hold them). */
  tools?: string[];
  permissionMode: PermissionMode;
  rules: PermissionRules;
  sandbox?: SandboxSettings;
  /** The session's memory by reference: the model activity prepends its text to the first message. */
  memory?: MemoryRef;
  /** A subagent's turn: what every hook input carries (parent session_id, agent_id, agent_type). */
  agentHookFields?: { session_id: string; agent_id: string; agent_type: string };
  hooks?: HooksJson;
  hookPins?: HookPins;
  mcpServers?: McpServers;
  /** `readFiles` here holds only entries not yet in the read-file store (none, normally). */
  context: AgentContext;
  /** The session's read-file state at the start of the turn, in the read-file store. */
  readFilesRef?: string | null;
  maxConcurrency: number;
  /** Streaming tool execution (absent: on; see SessionInput). */
  streamingToolExecution?: boolean;
  approvalTimeoutMs: number;
  /** How outages are waited out (see SessionInput). */
  retry?: { retryCapMs?: number; maxOutageMs?: number };
  toolTaskQueue?: string;
  /** The model calls' task queue (see SessionInput). */
  modelTaskQueue?: string;
  toolHeartbeatTimeoutMs?: number;
  /** The model's view at the start of the turn; absent: the whole transcript. */
  view?: ContextView;
  contextSettings?: ContextSettings;
  /** Present when the session offers the Agent tool: what a child session inherits. */
  subagents?: SubagentSettings;
  /** The session's tool settings in the store (TOOL_SETTINGS_REF_PATCH): tool activities carry this reference, not the settings. */
  toolSettingsRef?: string;
  /**
   * The session's settings in the store WITH its system prompt (issue 33; in place of
   * `toolSettingsRef`): the tool activities and the model calls (callModel, compactContext) carry
   * this reference, and this input has no `tools`, no `model.system`, no `subagents.agents`. Turns of
   * runs that stored their settings before (a bare key in the marker) get `toolSettingsRef` instead.
   */
  settingsRef?: string;
  /** The tree's budget (issue 34): the model activities check it and charge the root. */
  budget?: BudgetLink;
  /** The session's skills, present only when the settings are not stored (no toolSettingsRef or settingsRef): the inline tool session carries them. */
  skills?: SkillDefinition[];
  /**
   * Issue 33 (SESSION_030_PATCH): the child runs model step after model step until it must return
   * (core/turnSteps.ts), within these limits. Absent: one step, as every turn recorded before.
   */
  steps?: TurnStepLimits;
  /**
   * A step after the first of a turn child (TURN_STEP_WRITES_PATCH): the previous step's tool results
   * and read files, written by this step's model call before it calls the model (`head` is then
   * `carry.append.head`, `readFilesRef` its base); a step that gets no answer writes them itself.
   */
  carry?: TurnStepWrites;
}

/** A step's end-of-step writes left to the next step's model call (issue 33; core/modelStep.ts StepWrites). */
export type TurnStepWrites = StepWrites;

/** What a subagent's child session inherits from its parent session besides the turn's own settings. */
export interface SubagentSettings {
  agents?: AgentDefinition[];
  /** The session's memory (CLAUDE.md): a subagent gets it too, as in the reference (inline when small, else by reference). */
  memory?: SessionMemory;
  maxTurns?: number;
  maxTotalTokens?: number;
  useSearchAttributes?: boolean;
  /** The root's id when it has a budget: a child's calls are charged to it. */
  budgetRoot?: string;
  /** The session's steps per turn child (issue 33): its subagents run theirs alike. */
  maxStepsPerTurn?: number;
}

export interface TurnWorkflowResult extends TurnSummary {
  /**
   * In history (issue 33, core/payloads.ts turnResultForHistory): the records that say only `ok` of
   * a call its batches list are left out; `turnResultFromHistory` puts them back.
   */
  plainOk?: true;
  head: string | null;
  /** False when interrupted before the model answered: the appended messages were not sent. */
  consumedAppend: boolean;
  /** With `readFiles` empty: the turn stored them under `readFilesRef`. */
  context: AgentContext;
  readFilesRef?: string | null;
  stopReason?: string;
  /** A refusal's `stop_details` (reason 'refusal'). */
  stopDetails?: StopDetails;
  error?: string;
  /** The model's view after the turn, and the compactions it ran (with their own usage). */
  view?: ContextView;
  compactions?: CompactionRecord[];
  compactionUsage?: Usage;
  /** Every model call of the turn by model, cost included: its own, its compactions', its tool calls' (side calls, subagents). */
  modelUsage?: ModelUsage;
  /** A child of several steps (issue 33): how many (turns `turn` … `turn + steps - 1`); absent: one. */
  steps?: number;
  /** Why a child of steps returned (core/turnSteps.ts), or 'failed' when a later step failed (`error`). */
  returned?: StepReturn | 'failed';
  /** The last step's own usage (`usage` sums the steps'); absent: `usage` is the last step's. */
  lastUsage?: Usage;
  /** Calls started while the model streamed that the final message did not hold: their results were never sent. */
  discarded?: DiscardedExecution[];
  /**
   * A step another step of the child follows (never in a child's result): its writes, left to the
   * next step's model call; `head` is then the model's answer without the tool results.
   */
  carry?: TurnStepWrites;
}

export interface ApprovalDecisionInput {
  toolUseId?: string;
  decision: 'approve' | 'deny';
  by?: string;
  reason?: string;
}

// Session API (clients talk to the session only).
export const interruptSignal = defineSignal<[{ reason?: string; by?: string }?]>(SIGNALS.interrupt);
export const sendMessageSignal = defineSignal<[{ text: string }]>(SIGNALS.sendMessage);
/** Ends the session's loop: its wake-up and cron jobs are dropped, it ends at its next idle point. */
export const stopSignal = defineSignal<[{ by?: string }?]>(SIGNALS.stop);
export type ApprovalOutcomeSource = 'human' | 'timeout' | 'interrupted' | 'mode' | 'unattended';

/**
 * The answer to approve/deny: what happened to the call. `applied` is false when the call was
 * decided otherwise first (the approval timed out, the turn was interrupted); `decision` is then
 * the one that counted and `outcome` says why.
 */
export interface ApprovalAnswerUpdate {
  toolUseId: string;
  decision: 'approve' | 'deny';
  applied?: boolean;
  outcome?: string;
}
export const approveUpdate = defineUpdate<ApprovalAnswerUpdate, [ApprovalDecisionInput]>(UPDATES.approve);
export const denyUpdate = defineUpdate<ApprovalAnswerUpdate, [ApprovalDecisionInput]>(UPDATES.deny);

/** What to answer an approve/deny once the turn said what it did (undefined: the turn ended without saying). */
export function approvalAnswer(
  toolUseId: string,
  requested: 'approve' | 'deny',
  actual: { decision?: 'approve' | 'deny'; source?: ApprovalOutcomeSource } | undefined,
): ApprovalAnswerUpdate {
  if (!actual || !actual.decision)
    return {
      toolUseId,
      decision: requested,
      applied: false,
      outcome: 'the turn ended before it took the decision; check the session',
    };
  if (actual.source === 'human' && actual.decision === requested)
    return { toolUseId, decision: requested, applied: true };
  const why =
    actual.source === 'timeout'
      ? 'no approval arrived within the approval timeout: it was denied by default first'
      : actual.source === 'interrupted'
        ? 'the turn was interrupted first: the call did not run'
        : `it was already decided (${actual.decision} by ${actual.source ?? 'someone else'})`;
  return { toolUseId, decision: actual.decision, applied: false, outcome: `too late: ${why}` };
}
export const statusQuery = defineQuery<SessionStatus>(QUERIES.status);
export const transcriptHeadQuery = defineQuery<string | null>(QUERIES.transcriptHead);

// Turn <-> session (internal).
export const turnInterruptSignal = defineSignal(SIGNALS.turnInterrupt);
/** The session has work between two steps (a message, a task's notification): the turn child returns after its current step. */
export const turnYieldSignal = defineSignal(SIGNALS.turnYield);
export const turnApprovalSignal = defineSignal<
  [{ toolUseId: string; decision: 'approve' | 'deny'; by?: string; reason?: string }]
>(SIGNALS.turnApproval);
export const approvalPendingSignal = defineSignal<[PendingApproval]>(SIGNALS.approvalPending);
/** The turn decided an ask: what it did (turns recorded before APPROVAL_OUTCOME_PATCH send only the id, and only on timeout/interrupt). */
export const approvalResolvedSignal = defineSignal<
  [{ toolUseId: string; decision?: 'approve' | 'deny'; source?: ApprovalOutcomeSource }]
>(SIGNALS.approvalResolved);
/** From a Monitor task's activity to its session: one numbered batch of the watch's output. */
export const monitorEventSignal = defineSignal<[MonitorEventBatch]>(SIGNALS.monitorEvent);
/** From the turn's own model activity: tool_use blocks that are complete while the message streams. */
export const streamedToolUseSignal = defineSignal<[StreamedToolUseSignal]>(SIGNALS.streamedToolUse);
/** The turn is waiting out a model or store outage (null: it is over). */
export const outageSignal = defineSignal<[OutageState | null]>(SIGNALS.outage);
export const budgetChargeSignal = defineSignal<[BudgetCharge]>(SIGNALS.budgetCharge);
export const budgetQuery = defineQuery<BudgetView>(QUERIES.budget);
export const budgetUpdate = defineUpdate<BudgetView, [BudgetRaise]>(UPDATES.budget);

export const turnProgressQuery = defineQuery<{
  phase: string;
  running: Array<{ toolUseId: string; summary: string }>;
  done: CompactRecord[];
  pendingApprovals: PendingApproval[];
  /** The running step (a child of several steps) and the calls of its earlier steps (issue 33). */
  turn?: number;
  steps?: Array<{ turn: number; done: CompactRecord[] }>;
}>(QUERIES.turnProgress);

export { oneLinePreview } from '../../core/apiMessages';
export * from './patchIds';
