"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.describeToolUse = describeToolUse;
const pool_1 = require("../tools/pool");
const MAX_SUMMARY_CHARS = 300;
/**
 * What the scheduler needs to know about a tool_use before running it. Unknown tool, input the
 * schema rejects, or a predicate that throws → not concurrency-safe, not idempotent (runs alone,
 * is not blindly retried). Never throws.
 */
function describeToolUse(block, pool) {
    const name = typeof block?.name === 'string' ? block.name : String(block?.name);
    const unsafe = (known, summary) => ({
        known,
        concurrencySafe: false,
        readOnly: false,
        idempotent: false,
        summary,
    });
    let tool;
    try {
        tool = (0, pool_1.findToolByName)(pool, name);
    }
    catch {
        tool = undefined;
    }
    if (!tool)
        return unsafe(false, `${name} (unknown tool)`);
    let data;
    try {
        const parsed = tool.inputSchema.safeParse(block.input);
        if (!parsed.success)
            return unsafe(true, `${tool.name} (invalid input)`);
        data = parsed.data;
    }
    catch {
        return unsafe(true, `${tool.name} (invalid input)`);
    }
    const pred = (fn) => {
        try {
            return fn() === true;
        }
        catch {
            return undefined;
        }
    };
    let summary;
    try {
        const s = tool.summary(data);
        // The summary names the call in the UI and in history: a line, never the whole input.
        summary =
            typeof s === 'string' ? (s.length > MAX_SUMMARY_CHARS ? `${s.slice(0, MAX_SUMMARY_CHARS - 1)}…` : s) : tool.name;
    }
    catch {
        summary = tool.name;
    }
    const concurrencySafe = pred(() => tool.isConcurrencySafe(data));
    const readOnly = pred(() => tool.isReadOnly(data));
    const idempotent = pred(() => tool.isIdempotent(data));
    if (concurrencySafe === undefined || readOnly === undefined || idempotent === undefined) {
        return { known: true, concurrencySafe: false, readOnly: readOnly ?? false, idempotent: false, summary };
    }
    return { known: true, concurrencySafe, readOnly, idempotent, summary };
}
//# sourceMappingURL=describe.js.map