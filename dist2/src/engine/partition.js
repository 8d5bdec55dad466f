"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.partitionToolCalls = partitionToolCalls;
exports.parseMaxConcurrency = parseMaxConcurrency;
exports.mapWithConcurrency = mapWithConcurrency;
/** `isSafe(i)` says whether block i is concurrency-safe; a throw counts as unsafe. */
function partitionToolCalls(blocks, isSafe) {
    const batches = [];
    blocks.forEach((block, index) => {
        let safe;
        try {
            safe = isSafe(block, index) === true;
        }
        catch {
            safe = false;
        }
        const previous = batches[batches.length - 1];
        if (safe && previous?.concurrencySafe)
            previous.blocks.push(block);
        else
            batches.push({ concurrencySafe: safe, blocks: [block] });
    });
    return batches;
}
/** Reads the concurrency cap the way the reference does (env var, default 10, at least 1). */
function parseMaxConcurrency(raw, fallback = 10) {
    if (raw === undefined || raw.trim() === '')
        return fallback;
    const n = Number(raw);
    return Number.isInteger(n) && n >= 1 ? n : fallback;
}
/**
 * Runs `fn` over `items` with at most `limit` in flight, returning results in input order.
 * Deterministic given deterministic `fn` scheduling, so it is safe inside workflows.
 */
async function mapWithConcurrency(items, limit, fn) {
    const results = new Array(items.length);
    let next = 0;
    const worker = async () => {
        while (next < items.length) {
            const index = next++;
            results[index] = await fn(items[index], index);
        }
    };
    const workers = [];
    for (let i = 0; i < Math.max(1, Math.min(limit, items.length)); i++)
        workers.push(worker());
    await Promise.all(workers);
    return results;
}
//# sourceMappingURL=partition.js.map