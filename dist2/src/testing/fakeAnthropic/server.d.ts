import { type PromptCacheOptions } from './promptCache';
import type { MessagesRequest, RecordedRequest, ResponseSpec, ScriptFn, UnexpectedEvent } from './types';
export interface FakeAnthropicOptions {
    /** Default 127.0.0.1. */
    host?: string;
    /** Default 0 (a free port). */
    port?: number;
    /** Responses queued from the start. */
    responses?: ResponseSpec[];
    /** Called when the queue is empty. */
    script?: ScriptFn;
    /** `true`: any non-empty `x-api-key` (or Bearer token); a string: exactly that key. Default: anything. */
    requireApiKey?: boolean | string;
    /** Check tool_use/tool_result pairing in requests like the real API. Default true. */
    validateToolPairing?: boolean;
    /** Accept `role: "system"` messages inside `messages` (current Claude Code sends them). Default false. */
    allowSystemMessages?: boolean;
    /** Default JSON piece size for tool_use input (default: ≤ 20 chars and ≥ 3 pieces). */
    jsonChunkSize?: number;
    /** Default text piece size (default 12). */
    textChunkSize?: number;
    /** Send `anthropic-ratelimit-*` headers on successful responses. Default true. */
    rateLimitHeaders?: boolean;
    /** Receives one line per request handled (for the demo's verbose mode). */
    log?: (line: string) => void;
    /**
     * The model's context window: a prompt above it is refused with HTTP 400 `prompt is too long:
     * N tokens > W maximum`, as the API does (before any scripted response is used). Default: none.
     */
    contextWindow?: number;
    /** Prompt-cache simulation for `cache_control` breakpoints (on by default; `false` turns it off). */
    promptCache?: PromptCacheOptions | false;
    /** Characters per token of the fake's token counting. Default 4. */
    charsPerToken?: number;
}
export interface FakeAnthropicServer {
    /** `http://127.0.0.1:<port>` — pass as the SDK's `baseURL`. */
    readonly baseURL: string;
    readonly port: number;
    /** Every request received, in arrival order. */
    readonly requests: RecordedRequest[];
    /** Script exhaustion, script errors, invalid requests, unknown paths, auth failures. */
    readonly unexpected: UnexpectedEvent[];
    /** Append responses to the queue (consumed before the script function). */
    enqueue(...specs: ResponseSpec[]): FakeAnthropicServer;
    /** Answer from `fn(request)` whenever the queue is empty (`undefined` removes it). */
    script(fn: ScriptFn | undefined): FakeAnthropicServer;
    /** Queued responses not yet consumed. */
    remaining(): number;
    /** Parsed bodies of the `POST /v1/messages` requests that passed validation. */
    messageRequests(): MessagesRequest[];
    lastRequest(): RecordedRequest | undefined;
    /** The n-th (1-based) tool_use id this server generates when a spec gives none. */
    toolUseId(n: number): string;
    /** Throws unless nothing unexpected happened and the queue is empty. */
    assertDone(): void;
    /** Change (or remove) the enforced context window from now on. */
    setContextWindow(tokens: number | undefined): void;
    /** Stop listening and cut open connections (in-flight streams included). */
    close(): Promise<void>;
}
export declare function startFakeAnthropic(opts?: FakeAnthropicOptions): Promise<FakeAnthropicServer>;
