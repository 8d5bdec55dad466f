import type { McpServers } from '../mcp/config';
import Anthropic from '@anthropic-ai/sdk';
import type { AgentDefinition } from '../agents/definitions';
import type { AssistantContentBlock, AssistantMessage, Message, Usage } from '../engine/messages';
import type { TranscriptStore } from '../stores/messageStore';
import { type TransientFailure } from '../engine/retry';
import type { PayloadStore } from '../stores/payloadStore';
import { type ContextSettings } from '../engine/contextWindow';
import type { ContextView } from '../engine/contextView';
import { type MemoryRef } from '../engine/memory';
import { DurableAgentError } from '../engine/errors';
import type { CallRuntime } from './runtime';
export interface ModelSettings {
    model: string;
    maxTokens: number;
    system?: string;
    temperature?: number;
}
export interface ToolDefinition {
    name: string;
    description: string;
    input_schema: Record<string, unknown>;
    /** Deferred behind ToolSearch when tool search is on (MCP tools, some built-ins); never sent. */
    deferrable?: boolean;
}
export interface CallModelInput {
    sessionId: string;
    turn: number;
    /** Head of the transcript so far (null: empty). */
    head: string | null;
    /** New user-side messages to append before calling (prompt, follow-ups, tool results). */
    append: Message[];
    /** The session's memory by reference: its text goes before the first message's (payloads by reference). */
    memory?: MemoryRef;
    settings: ModelSettings;
    toolNames: string[];
    /** The session's deny rules: a tool denied outright is not offered to the model at all. */
    denyRules?: string[];
    /** The session's MCP servers: their tools are listed (tools/list, servers start on first use) and offered too. */
    mcp?: {
        servers: McpServers;
        cwd: string;
    };
    /** The model's view of the transcript (compaction summary, cleared results); absent: the whole transcript. */
    view?: ContextView;
    contextSettings?: ContextSettings;
    /** false: send even above the auto-compact threshold (a PreCompact hook blocked compaction). */
    autoCompact?: boolean;
    /** The session's agent types: the Agent tool's description lists them. */
    agents?: AgentDefinition[];
    /** Hand each tool_use block to the turn as soon as it is complete (streaming tool execution). */
    streamToolUses?: boolean;
}
/** The partial output of an abandoned streaming attempt: kept for the audit trail only. */
export interface Tombstone {
    attempt: number;
    error: string;
    partialContent: AssistantContentBlock[];
    eventsReceived: number;
}
export interface CallModelResult {
    kind?: 'message';
    /**
     * The assistant message as history carries it (engine/payloads `messageForHistory`): tool_use
     * ids and names whole, large inputs, text and thinking as previews. The whole message is the
     * transcript node `head`.
     */
    message: AssistantMessage;
    usage: Usage;
    stopReason: string;
    /** Head of the transcript including `append` and the assistant message. */
    head: string | null;
    /** Head including `append` only (what was sent). */
    sentHead: string | null;
    messageId: string;
    fallback: boolean;
    tombstones: Tombstone[];
    requestId?: string;
    /** The view after this call: its baseline is this answer's usage. */
    view: ContextView;
    /** Where the request's cache breakpoints went. */
    cacheBreakpoints?: string[];
}
/** The call was not made (auto) or the API refused the prompt as too long (reactive): compact, then call again. */
export interface CompactionNeeded {
    kind: 'compact';
    trigger: 'auto' | 'reactive';
    tokens: number;
    view: ContextView;
    /** Head including `append` (what compaction summarises). */
    sentHead: string | null;
    error?: string;
}
export type ModelCallOutcome = CallModelResult | CompactionNeeded;
export interface ModelDeps {
    transcripts: TranscriptStore;
    /** Where tool activities stored their result blocks (resolves the turn's appends by reference). */
    payloads?: PayloadStore;
    /** Creates the SDK client: real by default; tests point `baseURL` at the fake server. */
    anthropic: () => Anthropic;
    /** Tool definitions for the named tools of the session's pool. */
    toolDefinitions: (toolNames: string[], denyRules?: string[], mcp?: CallModelInput['mcp'], warn?: (message: string) => void) => Promise<ToolDefinition[]>;
    /** Disable the non-streamed fallback (the reference's CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK). */
    disableFallback?: boolean;
    /** Where a session's stored tool results live; cleared old results are kept there for Read. */
    resultPath?: (sessionId: string, toolUseId: string) => string;
}
/**
 * A model call that failed, classified on purpose: `retryable` when waiting may help (overload,
 * rate limit, server errors, lost connections), with what the turn's outage handling reads
 * (`transient`: kind and the server's retry-after); permanent otherwise (401, 400 …). `failureType`
 * is the failure's type in history (`ModelHttp529`, `ModelConnectionError`, …).
 */
export declare class ModelCallError extends DurableAgentError {
    readonly retryable: boolean;
    readonly failureType: string;
    readonly transient?: TransientFailure;
    readonly retryAfterMs?: number;
    constructor(message: string, failure: {
        failureType: string;
        retryable: boolean;
        transient?: TransientFailure;
        retryAfterMs?: number;
    }, options?: {
        cause?: unknown;
    });
}
/** Retry on purpose: overload, rate limit, server errors and lost connections retry; client errors do not. */
export declare function classifyModelError(err: unknown): Error;
/** The non-streamed fallback's own timeout (the model activity's start-to-close is the same). */
export declare const NON_STREAMED_TIMEOUT_MS: number;
/** One model call: streamed, with a non-streamed fallback when the stream fails mid-way. */
export declare function callModelWith(deps: ModelDeps, input: CallModelInput, ctx: CallRuntime): Promise<ModelCallOutcome>;
