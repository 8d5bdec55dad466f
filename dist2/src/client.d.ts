import { DurableAgentError } from './engine/errors';
import { type SessionOptions } from './sessionInput';
import { type Client, type WorkflowHandle } from '@temporalio/client';
import type { sessionWorkflow } from './workflows/session';
import { type SessionInput, type SessionResult, type SessionStatus } from './workflows/definitions';
export { BUILTIN_TOOL_NAMES, BypassDisabledError, DEFAULT_MODEL, MAX_MESSAGE_CHARS, contextSettings, defaultSystemPrompt, sessionInput, sessionSandbox, withAgents, type SessionOptions, } from './sessionInput';
export type SessionHandle = WorkflowHandle<typeof sessionWorkflow>;
export declare class SessionNotFoundError extends DurableAgentError {
    readonly sessionId: string;
    constructor(sessionId: string);
}
/** A session that would have to run unsandboxed although its settings say `failIfUnavailable`. */
export declare class SandboxUnavailableError extends DurableAgentError {
    constructor(reason: string);
}
/** Whether the namespace has our status search attribute (the dev command registers it). */
export declare function hasStatusSearchAttribute(client: Client, namespace?: string): Promise<boolean>;
/**
 * One line on the session's sandbox, as this host sees it (`run`, `status` and the audit show it).
 * With `failIfUnavailable` and no sandbox here, throws SandboxUnavailableError. The worker that
 * runs the tools checks again for itself, per call (its record says whether the call was sandboxed).
 */
export declare function sandboxSummary(input: Pick<SessionInput, 'sandbox' | 'cwd' | 'additionalDirectories'>): Promise<string>;
/** What starting a session needs, checked at the edge: its id, task queue, input and the start options the server keeps. */
export interface PreparedSessionStart {
    workflowId: string;
    taskQueue: string;
    input: SessionInput;
    staticSummary: string;
    memo: Record<string, unknown>;
    typedSearchAttributes?: Array<{
        key: {
            name: string;
            type: 'KEYWORD';
        };
        value: string;
    }>;
}
/**
 * The session's input built and validated as `startSession` does (src/sessionInput.ts), without
 * starting anything: `startSession` starts it now, a schedule (src/schedules.ts) at each firing.
 */
export declare function prepareSessionStart(client: Client, opts: SessionOptions & {
    id?: string;
    taskQueue?: string;
}): Promise<PreparedSessionStart>;
export declare function startSession(client: Client, opts: SessionOptions & {
    id?: string;
    taskQueue?: string;
}): Promise<SessionHandle>;
export declare function sessionHandle(client: Client, sessionId: string): SessionHandle;
/** The session's status; throws SessionNotFoundError for an unknown id. */
export declare function sessionStatus(client: Client, sessionId: string): Promise<SessionStatus>;
/** A session that has ended: it takes no more messages, interrupts or approvals. */
export declare class SessionEndedError extends DurableAgentError {
    readonly sessionId: string;
    readonly status: string;
    constructor(sessionId: string, status: string);
}
/**
 * Checks that the session exists and still runs, with `describe` (answered by the server alone:
 * a signal or update needs no live worker to be accepted, so neither does this check). Returns
 * the running turn's workflow id, if any, and the session's task queue.
 */
export declare function runningSession(client: Client, sessionId: string): Promise<{
    currentTurnWorkflowId?: string;
    taskQueue: string;
}>;
/**
 * Ends a session's loop of wake-ups and cron jobs: they are dropped and the session ends at its
 * next idle point (a running turn finishes first; `interrupt` stops one). A signal: the server
 * takes it with or without a worker up.
 */
export declare function stopSession(client: Client, sessionId: string, by?: string): Promise<void>;
export declare function interruptSession(client: Client, sessionId: string, by?: string): Promise<void>;
export declare function sendMessage(client: Client, sessionId: string, text: string): Promise<void>;
/** An approve/deny that the session refused (nothing pending under that id). */
export declare class ApprovalRejectedError extends DurableAgentError {
    constructor(message: string);
}
/**
 * The answer to an approve/deny: applied (the session took it), or pending — the server has it,
 * but no worker has taken it yet (an update needs a worker to be accepted and applied; it waits
 * for one, unless the Temporal server restarts first).
 */
export type ApprovalAnswer = {
    status: 'applied';
    toolUseId: string;
}
/** The call was decided otherwise first (e.g. the approval timed out): `decision` is what counted. */
 | {
    status: 'not_applied';
    toolUseId: string;
    decision: 'approve' | 'deny';
    outcome: string;
} | {
    status: 'pending';
    toolUseId?: string;
    taskQueue: string;
};
export declare function approveToolUse(client: Client, sessionId: string, toolUseId?: string, by?: string): Promise<ApprovalAnswer>;
export declare function denyToolUse(client: Client, sessionId: string, toolUseId?: string, reason?: string, by?: string): Promise<ApprovalAnswer>;
export declare function sessionResult(client: Client, sessionId: string): Promise<SessionResult>;
