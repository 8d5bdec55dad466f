// The audit report: what a session did, rebuilt from its Temporal histories (session runs and
// turn child workflows). Plain data, JSON-serialisable; times are ISO strings.
import type { ModelUsage } from '../core/modelUsage';
import type { HookRunSummary, NetworkRecord, SandboxRecord, ToolCallStatus, ControlWrite } from '../core/toolRecords';
import type { SandboxSettings } from '../sandbox/settings';

export type DecisionSource =
  'rule' | 'mode' | 'hook' | 'tool' | 'workingDirectory' | 'human' | 'timeout' | 'sandbox' | 'safetyCheck' | 'other';

export interface AuditDecision {
  behavior: 'allow' | 'ask' | 'deny';
  source: DecisionSource;
  /** The rule text, the mode name, the hook command, the path outside the working directories… */
  detail?: string;
  /** The approving (or denying) identity, when one was given. */
  by?: string;
  reason?: string;
}

/**
 * `running`, `awaiting_approval` and `pending` (not started yet) exist only while the turn runs.
 * `discarded`: started while the model streamed, but the final message did not hold its id (its
 * result never reached the model; `discarded` says why and whether it was cancelled).
 */
export type AuditToolStatus = ToolCallStatus | 'running' | 'awaiting_approval' | 'pending' | 'discarded';

/** One activity of a call: `tool-<id>`, then `tool-<id>-approve` / `tool-<id>-deny` after an ask. */
export interface AuditActivity {
  activityId: string;
  /** Attempts of this activity (1 = no retry); 0 when it never started. */
  attempts: number;
  scheduledAt?: string;
  startedAt?: string;
  endedAt?: string;
  outcome: 'completed' | 'failed' | 'timed_out' | 'cancelled' | 'running' | 'scheduled';
  /** When the turn asked for cancellation (an interrupt); the activity may still complete with what it had. */
  cancelRequestedAt?: string;
  /** For a completed runToolUse: `ask` or `done`. */
  result?: 'ask' | 'done';
  /** Failure messages of earlier attempts and of the final one (ActivityTaskStarted.lastFailure, ActivityTaskFailed/TimedOut). */
  failures: string[];
}

/** An `ask` that a human (or the timeout) resolved. */
export interface AuditApproval {
  /** Why the pipeline asked (its permission decision). */
  asked: AuditDecision;
  message: string;
  askedAt?: string;
  /** Absent while still waiting. */
  resolution?: 'approve' | 'deny' | 'timeout' | 'interrupted';
  resolvedAt?: string;
  by?: string;
  reason?: string;
}

export interface AuditToolCall {
  kind: 'tool_call';
  /** What the call's model calls spent by model (a web tool's side call, an Agent call's child tree). */
  modelUsage?: ModelUsage;
  turn: number;
  /** Index (0-based) of the session run (continue-as-new chain) that started the turn. */
  run: number;
  toolUseId: string;
  tool: string;
  input: unknown;
  summary: string;
  /** The final permission decision; absent when none was made (interrupted before it ran, unknown tool…). */
  decision?: AuditDecision;
  /** Present when the call went through ask → approve/deny. */
  approval?: AuditApproval;
  /** Attempts of the activity that executed the call (after an approval: the approve/deny activity). */
  attempts: number;
  activities: AuditActivity[];
  startedAt?: string;
  endedAt?: string;
  status: AuditToolStatus;
  isError?: boolean;
  resultPreview: string;
  /** Index of the call's batch in its turn, and whether that batch ran concurrently. */
  batch?: number;
  concurrent?: boolean;
  /** The execution ledger supplied the result (the id had already run): nothing was executed again. */
  reused?: boolean;
  /** Started while the model's message still streamed (streaming tool execution). */
  early?: boolean;
  /** A call started while streaming that the final message did not hold: `completed` (effect kept, result dropped) or `cancelled`. */
  discarded?: { state: 'completed' | 'cancelled'; reason: string; stream: string };
  persistedTo?: string;
  /** What went wrong around the call without failing it (e.g. a large result kept inline because storing it failed). */
  notices?: string[];
  /** The hooks that ran around the call: event, command, outcome, exit code, duration. */
  hooks?: HookRunSummary[];
  /** Bash: whether the call ran in the OS sandbox, why, and the violations the sandbox reported. */
  sandbox?: SandboxRecord;
  /** WebFetch: the URL, each connection (address, status, bytes) and the bytes fetched in all. */
  network?: NetworkRecord;
  /** The session's control files (its protected paths) that changed while the call ran. */
  controlWrites?: ControlWrite[];
  /** Agent: the child session that ran it (`<session>/agent-<tool_use_id>`); its audit is in `subagents`. */
  subagent?: string;
}

export interface AuditTombstone {
  attempt: number;
  error: string;
  eventsReceived: number;
  partialPreview: string;
}

export interface AuditModelCall {
  kind: 'model_call';
  turn: number;
  run: number;
  activityId: string;
  model: string;
  startedAt?: string;
  endedAt?: string;
  attempts: number;
  status: 'ok' | 'failed' | 'timed_out' | 'cancelled' | 'running' | 'scheduled';
  usage?: {
    input_tokens: number;
    output_tokens: number;
    cache_creation_input_tokens?: number;
    cache_read_input_tokens?: number;
  };
  stopReason?: string;
  /** The call's usage and cost by model (as the activity priced it; a call recorded before: priced now). */
  modelUsage?: ModelUsage;
  /** The streamed request failed mid-way and a non-streamed one answered. */
  fallback: boolean;
  /** Partial output of abandoned streaming attempts: kept here, dropped from the conversation. */
  tombstones: AuditTombstone[];
  /** Failure messages of failed attempts (e.g. a retried 529), oldest first, as far as history keeps them. */
  failures: string[];
  messageId?: string;
  requestId?: string;
  textPreview?: string;
  toolUseIds: string[];
  /** Thinking blocks of the answer (extended thinking), redacted ones included; absent when none. */
  thinkingBlocks?: number;
  /** Of those, the encrypted (`redacted_thinking`) ones. */
  redactedThinkingBlocks?: number;
}

/** A `compact-<n>` activity: the model's view was summarised (the transcript keeps everything). */
export interface AuditCompaction {
  kind: 'compaction';
  turn: number;
  run: number;
  activityId: string;
  trigger: 'auto' | 'reactive' | 'manual';
  status: AuditModelCall['status'] | 'blocked';
  attempts: number;
  startedAt?: string;
  endedAt?: string;
  tokensBefore?: number;
  tokensAfter?: number;
  usage?: AuditModelCall['usage'];
  /** The summarizing call's usage and cost by model. */
  modelUsage?: ModelUsage;
  summaryPreview?: string;
  restoredFiles?: string[];
  /** Messages of the full transcript the summary stands for. */
  summarizedThrough?: number;
  /** A PreCompact hook held back this automatic compaction. */
  blockedBy?: string;
  hooks: Array<{ event: string; hook: string; outcome: string; exitCode?: number | null; durationMs: number }>;
  failures: string[];
}

/** One firing of a session-level hook event (activity `hook-<event>-<n>` of the session workflow). */
export interface AuditSessionHook {
  kind: 'session_hook';
  event: string;
  /** The firing's number for this event (1, 2, …), as in the activity id. */
  n: number;
  run: number;
  activityId: string;
  /** The activity's outcome: completed, failed, timed_out, cancelled, running, scheduled. */
  status: string;
  attempts: number;
  startedAt?: string;
  endedAt?: string;
  /** The event's own input fields (source, prompt, stop_hook_active, reason, notification_type…). */
  fields: Record<string, unknown>;
  hooks: Array<{ hook: string; outcome: string; exitCode?: number | null; durationMs: number; error?: string }>;
  /** What the answers meant: the session stopped (`continue: false`), was blocked (a prompt dropped, a Stop that keeps it going), or proceeded. */
  decision: 'proceeded' | 'blocked' | 'stopped' | 'none';
  reason?: string;
  /** Context the hooks added for the model. */
  additionalContext?: string[];
  /** systemMessage, non-blocking errors. */
  notices?: string[];
  failures: string[];
}

/**
 * A background task (issue 19): the session's activity `task-<id>` that ran what a tool call started
 * (Bash `run_in_background`: `local_bash`; Monitor: `monitor`; background Agent: `local_agent`).
 * `state` as the session decided it: `killed` when the session cancelled it (TaskStop, or its end),
 * `lost` when its worker stopped heartbeating (never re-run); `stopping` while a cancellation is
 * pending; `running`/`scheduled` only while it runs.
 */
export interface AuditTask {
  kind: 'task';
  /** The reference's task type (`local_bash`, `monitor`, `local_agent`), or `unknown`. */
  taskKind: string;
  /** The id the model saw (TaskStop's `task_id`). */
  taskId: string;
  /** Index of the session run that ran its activity. */
  run: number;
  activityId: string;
  /** The tool call that started it, its tool and its turn (absent when that turn could not be read). */
  toolUseId?: string;
  tool?: string;
  turn?: number;
  /** A background agent's child session (its audit is in `subagents` when the Agent call names it). */
  childSession?: string;
  /** What it ran: the whole command from the starting call's input (else the activity's preview). */
  command: string;
  /** The call's own description, when it gave one. */
  description?: string;
  cwd?: string;
  state: 'completed' | 'failed' | 'killed' | 'timed_out' | 'lost' | 'stopping' | 'running' | 'scheduled';
  attempts: number;
  startedAt?: string;
  endedAt?: string;
  exitCode?: number | null;
  signal?: string;
  outputBytes?: number;
  /** Monitor: the events it delivered to the session. */
  events?: number;
  /** The output file the model could Read while it ran (the session's task directory). */
  outputFile?: string;
  /** The whole output in the session's store (`taskoutput-<sha256>`), once it ended. */
  outputRef?: string;
  sandboxed?: boolean;
  violations?: number;
  timeoutMs?: number;
  /** Who cancelled it: `TaskStop <tool_use_id>` or `the session ended`. */
  stoppedBy?: string;
  /** Why it did not run, was lost or was cut (not its own exit). */
  error?: string;
  failures: string[];
}

export interface AuditSession {
  kind: 'session';
  sessionId: string;
  prompt: string;
  model?: string;
  cwd?: string;
  permissionMode?: string;
  /** The session's sandbox, as said once at start (`on — Bash writes only in …`, `off — …`). */
  sandbox?: string;
  /** The sandbox settings the session started with (reference format, paths resolved). */
  sandboxSettings?: SandboxSettings;
  /** The settings files the session's configuration came from (lowest precedence first). */
  settingsSources?: string[];
  /** The CLAUDE.md files sent to the model, and the sha256 of the reminder text. */
  memory?: { files: string[]; sha256: string };
  /** The session's status (SessionStatusName), or a Temporal close status (`terminated`, `timed_out`). */
  status: string;
  endReason?: string;
  runs: number;
  runIds: string[];
  turns: number;
  startedAt?: string;
  endedAt?: string;
  /** Every model call's usage, compactions included, with the prompt-cache fields. */
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_creation_input_tokens?: number;
    cache_read_input_tokens?: number;
  };
  compactions?: number;
  /**
   * What the session's tree spent by model, cost included: its session result's when it ended (every
   * call of the tree, background agents included), else the sum of the calls this report lists
   * (model calls, compactions, tool calls' side calls and foreground subagents).
   */
  modelUsage?: ModelUsage;
  /** The total cost in USD over `modelUsage`; null: a model has no price (src/core/prices.ts). */
  costUSD?: number | null;
  toolCalls: number;
  modelCalls: number;
  /** Background tasks the session ran (absent: none); each is an `AuditTask` in `tasks`. */
  tasks?: number;
  /** Follow-up user messages (sendMessage signals). */
  messages: Array<{ at?: string; text: string }>;
  interrupts: Array<{ at?: string; by?: string; reason?: string }>;
  /** How many gaps the report has (absent: none); each is an `AuditGap` in `gaps`. */
  gaps?: number;
}

/**
 * Something the audit could not read, so the report is incomplete there: a history it could not
 * fetch (a turn or child session deleted, retention, permissions), a payload it could not decode
 * (a codec this client lacks, a corrupt payload), or the live state of a running turn.
 */
export interface AuditGap {
  kind: 'gap';
  what: 'history' | 'payload' | 'pending_activities';
  workflowId: string;
  runId?: string;
  turn?: number;
  eventId?: number;
  eventType?: string;
  /** Which payload of the event (`activity input`, `workflow input`, `signal input`…). */
  field?: string;
  error: string;
  /** What the report lacks because of it. */
  missing: string;
}

export interface AuditReport {
  session: AuditSession;
  /** What could not be read (absent: nothing). Printed first in both formats: the report is incomplete. */
  gaps?: AuditGap[];
  modelCalls: AuditModelCall[];
  toolCalls: AuditToolCall[];
  compactions?: AuditCompaction[];
  /** Session-level hook firings (SessionStart, UserPromptSubmit, Stop, SubagentStart/Stop, SessionEnd, Notification), in order. */
  sessionHooks?: AuditSessionHook[];
  /** Background tasks (`task-<id>` activities of the session), in start order. */
  tasks?: AuditTask[];
  /** The audits of the session's subagents (child sessions), in call order. */
  subagents?: AuditReport[];
}

export type AuditEntry =
  AuditSession | AuditGap | AuditModelCall | AuditToolCall | AuditCompaction | AuditSessionHook | AuditTask;

/** A turn's child workflow in the session's history: its number, the session run it belongs to, its ids. */
export interface TurnRef {
  turn: number;
  run: number;
  workflowId: string;
  runId?: string;
}
