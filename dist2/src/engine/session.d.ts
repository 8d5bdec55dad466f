import type { AgentContext } from './context';
import { type HookRun, type SessionHookEventName } from './hooks';
import type { Message, Usage } from './messages';
import type { ControlWrite, ToolCallStatus } from './records';
import type { TurnEndReason } from './turn';
import type { CompactionRecord, ContextView } from './contextView';
import { type MemoryRef } from './memory';
export type SessionStatusName = 'running'
/** Idle while its own work is pending: a wake-up, cron jobs, background tasks (phase waiting_for_work). */
 | 'waiting' | 'awaiting_approval' | 'waiting_for_model' | 'interrupted' | 'completed' | 'stopped' | 'max_turns' | 'max_tokens' | 'failed' | 'cancelled';
export type SessionPhase = 'starting' | 'turn' | 'awaiting_approval' | 'waiting_for_message'
/** The model ended its turn while background tasks, a wake-up or cron jobs remain (engine/autonomy.ts). */
 | 'waiting_for_work' | 'ended';
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
export declare const MAX_SESSION_CONTROL_WRITES = 100;
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
        stop?: {
            reason: string;
            hook: string;
        };
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
    /** The model's view after the turn, its compactions and their summarizing calls' usage. */
    view?: ContextView;
    compactions?: readonly CompactionRecord[];
    compactionUsage?: Usage;
}
export interface SessionExecutor {
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
export declare const END_REASONS: {
    readonly maxTurns: (limit: number) => string;
    readonly maxTokens: (limit: number, used: number) => string;
    readonly interrupted: "interrupted by user";
    readonly idle: "interrupted; no follow-up message arrived";
    readonly modelMaxTokens: "the model hit max_tokens";
    readonly endTurn: "the model ended its turn";
    readonly hookStop: (hook: string, reason: string) => string;
    readonly promptBlocked: (reason: string) => string;
    readonly failed: (turn: number, cause: string) => string;
    readonly cancelled: "cancelled";
};
export declare const DEFAULT_APPROVAL_TIMEOUT_MS: number;
export declare const DEFAULT_IDLE_TIMEOUT_MS: number;
/** The session's limits from its input, with the defaults both schedulers use. */
export declare function sessionConfig(input: {
    maxTurns?: number;
    maxTotalTokens?: number;
    onInterrupt?: 'wait' | 'end';
    idleTimeoutMs?: number;
}, subagent?: boolean, sessionStartSources?: boolean): SessionConfig;
export declare function initialSessionState(prompt: string, context: AgentContext): SessionState;
/** A state carried from an older version: fills what it lacks (no I/O, so it can run in a workflow). */
export declare function migrateSessionState(state: SessionState): SessionState;
/** Sums usage, cache counters included (absent counters stay absent). */
export declare function addUsage(a: Usage, b: Usage): Usage;
export declare function totalTokens(u: Usage): number;
/** The session's own limits, checked before each turn. */
export declare function limitReached(state: SessionState, config: SessionConfig): SessionEnd | undefined;
/**
 * Folds a finished turn into the state and decides what comes next: undefined to run another
 * turn (tool results to answer, a follow-up arrived, or an interrupt to wait on), or the end.
 * `taken` is how many pending messages the turn was given.
 */
export declare function applyTurnReport(state: SessionState, report: TurnReport, taken: number): SessionEnd | undefined;
/**
 * Runs turns until the session ends or should continue-as-new. Mutates `state` (the scheduler
 * owns it: queries read it, signal handlers push follow-ups into `state.pendingMessages`).
 */
export declare function runSession(state: SessionState, config: SessionConfig, executor: SessionExecutor): Promise<SessionEnd | SessionCheckpoint>;
/** The session is idle, waiting for a message: a Notification hook may page someone. */
export declare function idleNotification(): Record<string, unknown>;
/** A call waits for approval: the Notification hook's fields. */
export declare function approvalNotification(toolName: string): Record<string, unknown>;
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
    /** Writes the session's calls made to its control files (the last 100): a parent's Agent call names its child's. */
    controlWrites?: SessionControlWrite[];
}
