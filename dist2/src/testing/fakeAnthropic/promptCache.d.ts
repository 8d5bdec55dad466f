import type { MessagesRequest } from './types';
export interface PromptSegment {
    /** Hash of the prompt up to and including this block. */
    prefixHash: string;
    tokens: number;
    breakpoint: boolean;
}
export interface PromptCacheOptions {
    /** Entry lifetime; refreshed when read. Default 5 minutes (the API's ephemeral TTL). */
    ttlMs?: number;
    /** A prefix shorter than this is not cached (the API's minimum: 1024 tokens for most models). */
    minTokens?: number;
    /** How many blocks before a breakpoint the lookup walks back. Default 20. */
    lookbackBlocks?: number;
    now?: () => number;
}
export interface CacheUsage {
    input_tokens: number;
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
}
/**
 * The prompt as blocks in cache order, each with the hash of the prefix it ends and its token count
 * (an estimate: the block's JSON length / `charsPerToken`). A deferred tool (`defer_loading`) is in
 * the prompt only when a tool_reference names it, as the API expands it.
 */
export declare function promptSegments(request: MessagesRequest, charsPerToken?: number): PromptSegment[];
export declare function promptTokens(segments: readonly PromptSegment[]): number;
/** The API's wording for a prompt over the window (HTTP 400, invalid_request_error). */
export declare function promptTooLongMessage(tokens: number, window: number): string;
export declare class PromptCacheSim {
    private readonly entries;
    private readonly ttlMs;
    private readonly minTokens;
    private readonly lookback;
    private readonly now;
    constructor(opts?: PromptCacheOptions);
    /** Usage of one successful request; reads and writes the cache as the API would. */
    use(segments: readonly PromptSegment[]): CacheUsage;
    clear(): void;
}
