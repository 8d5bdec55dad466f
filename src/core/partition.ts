// Partitioning tool_use blocks into batches, exactly as the reference's partitionToolCalls:
// adjacent concurrency-safe calls share a batch; anything else (unsafe, unknown tool, bad
// input, a predicate that threw) is a batch of its own, and nothing after it may start early.
import type { ToolUseBlock } from './apiMessages';

export interface Batch {
  concurrencySafe: boolean;
  blocks: ToolUseBlock[];
}

/** `isSafe(i)` says whether block i is concurrency-safe; a throw counts as unsafe. */
export function partitionToolCalls(
  blocks: readonly ToolUseBlock[],
  isSafe: (block: ToolUseBlock, index: number) => boolean,
): Batch[] {
  const batches: Batch[] = [];
  blocks.forEach((block, index) => {
    let safe: boolean;
    try {
      safe = isSafe(block, index) === true;
    } catch {
      safe = false;
    }
    const previous = batches[batches.length - 1];
    if (safe && previous?.concurrencySafe) previous.blocks.push(block);
    else batches.push({ concurrencySafe: safe, blocks: [block] });
  });
  return batches;
}

/** Reads the concurrency cap the way the reference does (env var, default 10, at least 1). */
export function parseMaxConcurrency(raw: string | undefined, fallback = 10): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
}

/**
 * Runs `fn` over `items` with at most `limit` in flight, returning results in input order.
 * Deterministic given deterministic `fn` scheduling, so it is safe inside workflows.
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  const workers: Promise<void>[] = [];
  for (let i = 0; i < Math.max(1, Math.min(limit, items.length)); i++) workers.push(worker());
  await Promise.all(workers);
  return results;
}
