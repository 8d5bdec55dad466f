import type { ToolUseBlock } from './messages';
export interface Batch {
    concurrencySafe: boolean;
    blocks: ToolUseBlock[];
}
/** `isSafe(i)` says whether block i is concurrency-safe; a throw counts as unsafe. */
export declare function partitionToolCalls(blocks: readonly ToolUseBlock[], isSafe: (block: ToolUseBlock, index: number) => boolean): Batch[];
/** Reads the concurrency cap the way the reference does (env var, default 10, at least 1). */
export declare function parseMaxConcurrency(raw: string | undefined, fallback?: number): number;
/**
 * Runs `fn` over `items` with at most `limit` in flight, returning results in input order.
 * Deterministic given deterministic `fn` scheduling, so it is safe inside workflows.
 */
export declare function mapWithConcurrency<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]>;
