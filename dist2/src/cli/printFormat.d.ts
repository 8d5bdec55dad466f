import type { Message, Usage } from '../engine/messages';
export declare const OUTPUT_FORMATS: readonly ["text", "json", "stream-json"];
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
/** The Claude Code version whose `-p` output these objects follow (`claude_code_version` in the init event). */
export declare const REFERENCE_FORMAT_VERSION = "2.1.328";
type Json = Record<string, unknown>;
/** A uuid-shaped id, stable for one position in one session (the same on every print). */
export declare function stableUuid(sessionId: string, what: string): string;
export interface InitInfo {
    sessionId: string;
    cwd: string;
    tools: string[];
    mcpServers: string[];
    model: string;
    permissionMode: string;
    agents: string[];
    /** The session's skills (the Skill tool's list). */
    skills: string[];
    additionalDirectories: string[];
    /** Where the worker's Anthropic key comes from, as the CLI sees it (the worker reads its own environment). */
    apiKeySource: string;
    version: string;
}
/** The first line of stream-json: `{"type":"system","subtype":"init",…}`. */
export declare function initEvent(i: InitInfo): Json;
/** What the audit knows of the model call that produced an assistant message. */
export interface ModelCallMeta {
    model?: string;
    messageId?: string;
    requestId?: string;
    usage?: Usage;
    stopReason?: string;
    endedAt?: string;
}
/**
 * The stream-json lines for messages[from…]: an `assistant` line per content block (as the
 * reference splits a message), a `user` line per tool_result. The prompt and other text the user
 * side sent are not printed (the reference prints them only with --replay-user-messages).
 * `meta(n)` describes the n-th assistant message of the session (0-based).
 */
export declare function messageEvents(messages: readonly Message[], from: number, sessionId: string, meta: (assistantIndex: number) => ModelCallMeta | undefined, fallbackModel: string, now?: () => string): Json[];
/** How a session ended, in the terms the result line needs. */
export interface Ending {
    sessionId: string;
    /** The session's status (completed, failed, max_turns, max_tokens, interrupted, stopped, cancelled…). */
    status: string;
    /** Why (the session's endReason, or the workflow's failure). */
    reason: string;
    lastText: string;
    /** Model calls (the reference's num_turns: one per request of the agent loop). */
    turns: number;
    usage: Usage;
    durationMs: number;
    /** Model calls of the session (the audit's), in order: duration_api_ms, stop_reason, modelUsage. */
    calls: Array<ModelCallMeta & {
        startedAt?: string;
    }>;
    /** Calls a rule or a person denied. */
    denials: Array<{
        tool_name: string;
        tool_use_id: string;
        tool_input: unknown;
    }>;
    /** WebSearch and WebFetch calls (the usage's server_tool_use counts). */
    webSearches: number;
    webFetches: number;
    /** The session's --max-turns, for the reference's error text. */
    maxTurns?: number;
}
/**
 * A model error in a failed session's reason (`turn 1 failed: model call failed: model API error 400: 400 {…"message":"…"}`):
 * its status, type and message, for the reference's `API Error: 400 <message>`.
 */
export declare function apiError(reason: string): {
    status: number;
    type?: string;
    message: string;
    requestId?: string;
} | undefined;
/** The result line (`json` prints it alone; `stream-json` last). */
export declare function resultEvent(e: Ending): Json;
/** stream-json, a session a model error ended: the reference's synthetic assistant line carrying the error's text. */
export declare function apiErrorEvent(result: Json): Json | undefined;
/**
 * What `text` prints and the exit code: the final text and a newline; a model error's text; for
 * another error `Error: …` without a newline (the reference's words and bytes where it has them).
 */
export declare function textOutput(result: Json): {
    text: string;
    exitCode: number;
};
/**
 * The reference's num_turns: a user-side message each, the prompt, every tool_result (each its own
 * message there) and every follow-up; a message that carries only CLAUDE.md memory does not count.
 */
export declare function numTurns(messages: readonly Message[]): number;
export {};
