// Shared, sandbox-safe definitions of the session and turn workflows: inputs, results, and the
// signals/updates/queries that clients and workflows use to talk. Imports only pure code: the
// engine and @temporalio/workflow (test/unit/rooms.test.ts).
import { defineQuery, defineSignal, defineUpdate, type Sinks } from '@temporalio/workflow';
import { QUERIES, SIGNALS, UPDATES } from '../../core/ids';
import type { AgentContext, HookPins } from '../../core/context';
import type { Autonomy } from '../../core/autonomy';
import type { Message, StopDetails, Usage } from '../../core/apiMessages';
import type { ModelUsage } from '../../core/modelUsage';
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
  maxTotalTokens?: number;
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
   * Heartbeat timeout of tool activities: how soon a lost worker is noticed. Default 5 s for tool
   * calls (core/heartbeats.ts; 30 s before 0.3.0), 30 s for background tasks and agents.
   */
  toolHeartbeatTimeoutMs?: number;
  /** Continue-as-new once a run's history passes this many bytes (or when the server suggests). */
  maxHistoryBytesPerRun?: number;
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
  toolName: string;
  summary: string;
  status: ToolCallStatus;
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
  /** The session's skills, present only when the settings are not stored (no toolSettingsRef or settingsRef): the inline tool session carries them. */
  skills?: SkillDefinition[];
}

/** What a subagent's child session inherits from its parent session besides the turn's own settings. */
export interface SubagentSettings {
  agents?: AgentDefinition[];
  /** The session's memory (CLAUDE.md): a subagent gets it too, as in the reference (inline when small, else by reference). */
  memory?: SessionMemory;
  maxTurns?: number;
  maxTotalTokens?: number;
  useSearchAttributes?: boolean;
}

export interface TurnWorkflowResult extends TurnSummary {
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
  /** Calls started while the model streamed that the final message did not hold: their results were never sent. */
  discarded?: DiscardedExecution[];
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
export const turnApprovalSignal = defineSignal<
  [{ toolUseId: string; decision: 'approve' | 'deny'; by?: string; reason?: string }]
>(SIGNALS.turnApproval);
export const approvalPendingSignal = defineSignal<[PendingApproval]>(SIGNALS.approvalPending);
/** The turn decided an ask: what it did (turns recorded before APPROVAL_OUTCOME_PATCH send only the id, and only on timeout/interrupt). */
export const approvalResolvedSignal = defineSignal<
  [{ toolUseId: string; decision?: 'approve' | 'deny'; source?: ApprovalOutcomeSource }]
>(SIGNALS.approvalResolved);
/** Turns and sessions report the real outcome of every ask (versioned: older histories replay without it). */
export const APPROVAL_OUTCOME_PATCH = 'approval-outcome';
/** A subagent's session fires SubagentStart/SubagentStop instead of SessionStart/Stop, and no UserPromptSubmit/SessionEnd. */
export const SUBAGENT_HOOKS_PATCH = 'subagent-hook-events';
/** Turns recorded before it ran a tool_use cut off by max_tokens; after it, the call is answered without running (core/cutOff.ts). */
export const MAX_TOKENS_CUT_OFF_PATCH = 'max-tokens-cut-off';
/** The same for a tool_use cut off by stop_reason model_context_window_exceeded (issue 31): turns recorded before it ran the call. */
export const CONTEXT_WINDOW_CUT_OFF_PATCH = 'context-window-cut-off';
/** SessionStart fires again with source `compact` / `resume` (not only `startup`). */
export const SESSION_START_SOURCES_PATCH = 'session-start-sources';
/**
 * The end-of-turn store writes (tool results into the transcript, the read-file state) run as
 * LOCAL activities in the workflow task that has the last tool result, instead of two activities
 * and a further workflow task (versioned: turns recorded before replay with the activities).
 */
export const LOCAL_TURN_STORES_PATCH = 'local-turn-stores';
/**
 * The end-of-turn writes as ONE local activity (recordTurnEnd) instead of two (issue 33: one event
 * and its bytes less per turn); asked first, so a turn under it records no local-turn-stores marker.
 */
export const TURN_END_ONE_WRITE_PATCH = 'turn-end-one-write';
/**
 * The session stores its tool settings once per run (local activity storeToolSettings) and its
 * turns' tool activities carry the reference (`toolSettingsRef`) instead of the whole settings.
 */
export const TOOL_SETTINGS_REF_PATCH = 'tool-settings-ref';
/**
 * The session's continue-as-new decision reads the run's own count of the bytes it put into and
 * took out of history (and its turns), never the server's `historySize`: that value can differ
 * between the live task and the recorded event (a retried, transient workflow task), so a replay
 * crossed the limit one task earlier than the live run did (found by test:cluster).
 */
export const CHECKPOINT_OWN_SIZE_PATCH = 'checkpoint-own-size';
/**
 * Background tasks (Bash `run_in_background`): the session runs each recorded task as its own
 * activity `task-<id>`, queues its notification when it ends, and does not continue-as-new while one
 * runs. Histories recorded before never held a task (the call was refused).
 */
export const BACKGROUND_TASKS_PATCH = 'background-tasks';
/**
 * A subagent started in the same turn as a Skill call that names a model runs on that model (the
 * child session's input; before, the model of the turn's start). src/temporal/workflows/versions.ts.
 */
export const SKILL_MODEL_SUBAGENT_PATCH = 'skill-model-subagent';
/**
 * A background task's `<task-notification>` has a blank line after its preamble, as the reference's
 * and as every other notification (tasks/core/taskNotifications.ts); a session whose history was
 * recorded without this marker keeps queuing the text without it.
 */
export const TASK_NOTIFICATION_TEXT_PATCH = 'task-notification-text';
/**
 * Monitor tasks: the session runs a recorded `monitor` task as its own activity `task-<id>`
 * (runMonitorTask), takes each `monitorEvent` signal once per (task, seq) and queues its event
 * notification, and queues the monitor's end notification (or expiry notice) when the activity
 * ends. Histories recorded before never held a monitor task (Monitor was not offered).
 */
export const MONITOR_TASKS_PATCH = 'monitor-tasks';
/**
 * A background task that ends in the same workflow activation as a turn that ended the session (or
 * while its Stop hooks run) has its notification queued after the engine decided to end: the session
 * now runs a turn for it; before, it ended with the notification unread.
 */
export const QUEUED_AFTER_TURN_PATCH = 'queued-after-turn';
/**
 * A message queued while the session's UserPromptSubmit hooks run (a follow-up, a task's
 * notification, a Monitor event) is kept and checked in its turn (core/session.ts checkPrompts with
 * the executor's keepsLatePrompts); a run recorded before replaced the queue with the checked prompts
 * and so dropped it. Read at the run's start, only by a top-level session with such a hook.
 */
export const LATE_PROMPTS_PATCH = 'late-prompts';
/**
 * A background agent that TaskStop stopped queues a notification (status killed, "was stopped by
 * Claude"), as the reference 2.1.328 does (test:reference 'Agent background TaskStop'); before, it
 * ended with none, as a stopped command or Monitor still does. Asked when such an agent's wait ends.
 */
export const AGENT_STOP_NOTICE_PATCH = 'agent-stop-notice';
/** From a Monitor task's activity to its session: one numbered batch of the watch's output. */
export const monitorEventSignal = defineSignal<[MonitorEventBatch]>(SIGNALS.monitorEvent);
/**
 * Background agents (issue 19): an Agent call without `run_in_background: false` starts its child
 * session (parent close policy ABANDON) and returns the launched result at once, with a
 * `local_agent` task; the session waits for the child as the task's activity (awaitAgentTask) and
 * queues its notification. `isolation: "worktree"` makes the child's worktree first. A turn
 * recorded before ran every Agent call in the foreground (and refused both keys).
 */
export const BACKGROUND_AGENTS_PATCH = 'background-agents';
/** From the turn's own model activity: tool_use blocks that are complete while the message streams. */
export const streamedToolUseSignal = defineSignal<[StreamedToolUseSignal]>(SIGNALS.streamedToolUse);
/** The turn is waiting out a model or store outage (null: it is over). */
export const outageSignal = defineSignal<[OutageState | null]>(SIGNALS.outage);
export const turnProgressQuery = defineQuery<{
  phase: string;
  running: Array<{ toolUseId: string; summary: string }>;
  done: CompactRecord[];
  pendingApprovals: PendingApproval[];
}>(QUERIES.turnProgress);

export { oneLinePreview } from '../../core/apiMessages';
/**
 * The ONE session-workflow patch id of release 0.3.0 (docs/releasing.md: at most one per release).
 * Every 0.3.0 change to the session workflow's command sequence asks this id at its own point;
 * a session run that began on 0.2.0 answers false at each point it had passed before the upgrade
 * and true afterwards. Its registry entry (versions.ts) lists every behaviour it guards.
 */
export const SESSION_030_PATCH = 'session-0.3.0';
