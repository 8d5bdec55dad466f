"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_MAX_RESULT_SIZE_CHARS = void 0;
exports.buildTool = buildTool;
exports.DEFAULT_MAX_RESULT_SIZE_CHARS = 100_000;
/**
 * Builds a tool with safe defaults: not concurrency-safe, not read-only, not idempotent unless
 * read-only, permissions decided by rules and mode, enabled.
 */
function buildTool(def) {
    const tool = {
        maxResultSizeChars: exports.DEFAULT_MAX_RESULT_SIZE_CHARS,
        isEnabled: () => true,
        isConcurrencySafe: () => false,
        isReadOnly: () => false,
        isIdempotent: (input) => tool.isReadOnly(input),
        checkPermissions: async () => ({ behavior: 'passthrough' }),
        summary: (input) => `${def.name} ${safeJson(input, 80)}`,
        ...def,
    };
    return tool;
}
function safeJson(value, max) {
    let s;
    try {
        s = JSON.stringify(value) ?? String(value);
    }
    catch {
        s = String(value);
    }
    return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
//# sourceMappingURL=Tool.js.map