import type { Message, UserMessage } from './messages';
export interface ContextView {
    /** First message of the full transcript the model still sees (after a compaction). */
    fromIndex: number;
    /** Head of the stored summary message that replaces messages before `fromIndex` (null: none). */
    summaryHead: string | null;
    /** Tool results in messages before this index are sent as stubs. */
    clearedBefore: number;
    /** Tokens known to be in use for the view through the first `messages` messages of the full transcript. */
    baseline: {
        tokens: number;
        messages: number;
    };
    /** Compactions so far in the session (the next one is `compact-<compactions + 1>`). */
    compactions: number;
}
export declare const INITIAL_VIEW: ContextView;
/** A result shorter than this stays: its stub would save nothing. */
export declare const MIN_CLEARABLE_CHARS = 600;
/** One compaction, as the session, `status`, `transcript` and the audit show it. */
export interface CompactionRecord {
    n: number;
    turn: number;
    trigger: 'auto' | 'reactive' | 'manual';
    tokensBefore: number;
    tokensAfter: number;
    /** Messages of the full transcript the summary replaced (`transcript` marks the boundary there). */
    summarizedThrough: number;
    /** Messages of the full transcript when it ran. */
    transcriptLength: number;
    summaryPreview: string;
    restoredFiles: string[];
    /** Set when a PreCompact hook ran: its outcome. */
    hook?: string;
}
export declare function clearedStub(toolUseId: string, toolName: string | undefined, location: string | undefined): string;
/**
 * What the model is sent: the summary (if any), then the full transcript from `fromIndex`, with
 * tool results before `clearedBefore` replaced by stubs. `locate` names where a result is stored.
 */
export declare function buildModelView(full: readonly Message[], summary: readonly Message[], view: ContextView, locate?: (toolUseId: string) => string | undefined): Message[];
/**
 * Tokens in use if the view were sent now: the last response's count plus an estimate of the
 * messages added since; without a count (first call, old run), an estimate of everything.
 */
export declare function tokensInUse(full: readonly Message[], summary: readonly Message[], view: ContextView, fixedTokens: number): number;
export interface ClearingPlan {
    clearedBefore: number;
    /** Estimated tokens the stubs save. */
    freed: number;
    /** Results newly cleared, oldest first (the activity stores each before it is stubbed). */
    toolUseIds: string[];
}
/**
 * Clearing old tool results (the reference's micro-compaction, the API's `clear_tool_uses`): once
 * `tokens` reaches `clearAt`, everything older than the `keep` most recent results becomes a stub —
 * in one step, so the cached prefix breaks once, not every turn — provided that frees at least
 * `minFree` tokens.
 */
export declare function planClearing(full: readonly Message[], view: ContextView, opts: {
    tokens: number;
    clearAt: number;
    keep: number;
    minFree: number;
}): ClearingPlan | undefined;
/**
 * Where the kept recent messages start after a compaction: the oldest assistant message from which
 * the rest fits `budgetTokens` (so tool_use/tool_result pairs stay whole), and never so early that
 * nothing is summarised. `full.length` keeps nothing.
 */
export declare function chooseKeepFrom(full: readonly Message[], view: ContextView, budgetTokens: number): number;
/** The files the model read most recently (Read calls, newest first, each once). */
export declare function recentReadPaths(full: readonly Message[], max: number): string[];
/** The text of the session's first user message: the task, which survives every compaction. */
export declare function originalTask(full: readonly Message[]): string;
/** Budgets for what survives a compaction, scaled to the window (the reference's for 200k). */
export declare function survivalBudgets(effectiveWindow: number): {
    keepMessages: number;
    filesTotal: number;
    perFile: number;
    maxFiles: number;
    task: number;
};
export declare function compactionPrompt(customInstructions?: string): string;
/** The summary text without its <analysis> draft. */
export declare function formatSummary(raw: string): string;
/** The message that opens the model's view after a compaction. */
export declare function summaryMessage(input: {
    task: string;
    summary: string;
    files: Array<{
        path: string;
        content: string;
    }>;
    keptRecent: boolean;
    taskBudget: number;
    perFileBudget: number;
}): UserMessage;
/**
 * When even the summarizing request is too long: drop the oldest rounds (a fifth at a time), so
 * the rest can be summarised. Starts with a user note; pairs stay whole. Undefined: nothing to drop.
 */
export declare function dropOldestRounds(messages: readonly Message[], fraction?: number): Message[] | undefined;
/** The summarizing request's messages: the view plus the instructions (merged into a trailing user message). */
export declare function withCompactionRequest(view: readonly Message[], prompt: string): Message[];
