// The session's state and its ends, for both schedulers (core/session.ts runs the loop over
// them): what a session carries between turns and across continue-as-new (`SessionState`), its
// status names, every end reason, and how a session ends (`SessionResult`). Pure: no I/O.
import type { AgentContext } from './context';
import type { StopDetails, Usage } from './apiMessages';
import type { ModelUsage } from './modelUsage';
import type { ControlWrite, ToolCallStatus } from './toolRecords';
import type { CompactionRecord, ContextView } from './contextView';
import type { MemoryRef } from './memoryReminder';
import type { BudgetSpend, BudgetState } from './budget';

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
  /** The tree's budget is spent (issue 34): waits for `budget ID --add`, or ended with `--on-budget end`. */
  | 'budget_exceeded'
  /** The model refused (stop_reason refusal): an error for the user, not a completion. */
  | 'refused'
  | 'failed'
  | 'cancelled';

export type SessionPhase =
  | 'starting'
  | 'turn'
  | 'awaiting_approval'
  | 'waiting_for_message'
  /** The model ended its turn while background tasks, a wake-up or cron jobs remain (core/autonomy.ts). */
  | 'waiting_for_work'
  /** Over budget: no model call until `budget ID --add` (status budget_exceeded). */
  | 'waiting_for_budget'
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
   * Every model call of the session's tree by model, cost included (core/modelUsage.ts): its turns'
   * calls, compactions and side calls, its subagents' trees (foreground, background, isolated). Data
   * carried across continue-as-new, summed from the turns' and children's results. Absent until the
   * first result that carries one (a session started before it existed counts from then on).
   */
  modelUsage?: ModelUsage;
  /** The tree's budget (issue 34, core/budget.ts): raises, running children's reports, its events. Absent: no budget. */
  budget?: BudgetState;
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

/** Sums usage, cache counters included (absent counters stay absent): one function, in contextWindow.ts. */
export { addUsage } from './contextWindow';

export function totalTokens(u: Usage): number {
  return u.input_tokens + u.output_tokens;
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
  /** What the tree spent as its budget counts it (`modelUsage` and running children's reports: core/budget.ts). */
  treeSpend?: BudgetSpend;
  /** Writes the session's calls made to its control files (the last 100): a parent's Agent call names its child's. */
  controlWrites?: SessionControlWrite[];
}
