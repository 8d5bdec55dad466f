import { type SseEvent } from './sse';
import type { ApiErrorType, DisconnectSpec, ErrorSpec, MessageSpec, RawSseSpec, WireErrorBody, WireMessage } from './types';
/** The n-th (1-based) generated tool_use id of a server, e.g. `toolu_01FakeTool00000000000001`. */
export declare function fakeToolUseId(n: number): string;
export declare function fakeMessageId(n: number): string;
export declare function fakeRequestId(n: number): string;
export declare const FAKE_THINKING_SIGNATURE = "ZmFrZS1hbnRocm9waWMtdGhpbmtpbmctc2lnbmF0dXJl";
/** The opaque page content a fake web search hit carries (the real API's is encrypted). */
export declare const FAKE_ENCRYPTED_CONTENT = "ZmFrZS13ZWItc2VhcmNoLWNvbnRlbnQ=";
export interface ToolCallSpec {
    name: string;
    input: unknown;
    id?: string;
}
/** A turn that only says `text` (stop_reason end_turn). */
export declare function textResponse(text: string, extra?: Omit<MessageSpec, 'content'>): MessageSpec;
/** A turn that calls tools (stop_reason tool_use), optionally preceded by some text. */
export declare function toolUseResponse(calls: ToolCallSpec | readonly ToolCallSpec[], extra?: Omit<MessageSpec, 'content'> & {
    text?: string;
}): MessageSpec;
export declare function errorResponse(status: number, extra?: Omit<ErrorSpec, 'kind' | 'status'>): ErrorSpec;
/** HTTP 529 overloaded_error. */
export declare function overloadedError(extra?: Omit<ErrorSpec, 'kind' | 'status'>): ErrorSpec;
/** HTTP 429 rate_limit_error. */
export declare function rateLimitError(extra?: Omit<ErrorSpec, 'kind' | 'status'>): ErrorSpec;
/** HTTP 500 api_error. */
export declare function apiError(extra?: Omit<ErrorSpec, 'kind' | 'status'>): ErrorSpec;
export declare function disconnect(extra?: Omit<DisconnectSpec, 'kind'>): DisconnectSpec;
export declare function rawSse(body: string, extra?: Omit<RawSseSpec, 'kind' | 'body'>): RawSseSpec;
export declare function statusForErrorType(type: ApiErrorType): number;
export declare function defaultErrorFor(status: number): {
    type: ApiErrorType;
    message: string;
};
export declare function errorBody(type: string, message: string, requestId?: string): WireErrorBody;
export interface BuildContext {
    model: string;
    inputTokens: number;
    /** Prompt-cache usage of the request (the fake's cache simulation). */
    cache?: {
        creation: number;
        read: number;
    };
    nextToolUseId: () => string;
    nextMessageId: () => string;
}
/** The final Message a spec describes (what a non-streamed call returns and a stream adds up to). */
export declare function buildMessage(spec: MessageSpec, ctx: BuildContext): WireMessage;
/** Split by code points (never inside a surrogate pair) into pieces of `size`. */
export declare function splitPieces(text: string, size: number): string[];
/** Default JSON piece size: at most 20 characters, and small enough that the JSON takes ≥ 3 pieces. */
export declare function defaultJsonChunkSize(json: string): number;
export interface ChunkOptions {
    jsonChunkSize?: number | undefined;
    textChunkSize?: number | undefined;
}
/**
 * The SSE events of a streamed message, in the order the real API sends them: message_start
 * (empty content, input usage), per block start / deltas / stop, one ping after the first
 * content_block_start, message_delta (stop_reason, output_tokens), message_stop.
 */
export declare function buildStreamEvents(message: WireMessage, spec: MessageSpec, defaults?: ChunkOptions): SseEvent[];
export declare function encodeEvents(events: readonly SseEvent[]): string[];
