"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_ERROR_CHARS = exports.PREVIEW_CHARS = exports.REJECT_MESSAGE = exports.INTERRUPTED_TOOL_MESSAGE = exports.INTERRUPT_MESSAGE = void 0;
exports.errorToolResult = errorToolResult;
exports.interruptedToolResult = interruptedToolResult;
exports.rejectionToolResult = rejectionToolResult;
exports.noSuchToolResult = noSuchToolResult;
exports.formatSize = formatSize;
exports.persistedOutputPreview = persistedOutputPreview;
exports.persistedOutputMessage = persistedOutputMessage;
exports.appendToToolResult = appendToToolResult;
exports.errMessage = errMessage;
exports.isValidBlock = isValidBlock;
exports.INTERRUPT_MESSAGE = 'Interrupted by user';
exports.INTERRUPTED_TOOL_MESSAGE = `${exports.INTERRUPT_MESSAGE}: the tool use was interrupted and did not complete.`;
exports.REJECT_MESSAGE = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).";
function errorToolResult(toolUseId, text) {
    return { type: 'tool_result', tool_use_id: toolUseId, content: text, is_error: true };
}
/** For a tool use that was interrupted before or while it ran. */
function interruptedToolResult(toolUseId, detail) {
    return errorToolResult(toolUseId, detail ? `${exports.INTERRUPTED_TOOL_MESSAGE} ${detail}` : exports.INTERRUPTED_TOOL_MESSAGE);
}
/** For a tool use a human (or an approval timeout) rejected. */
function rejectionToolResult(toolUseId, reason) {
    const r = reason?.trim();
    return errorToolResult(toolUseId, r ? `${exports.REJECT_MESSAGE} Reason: ${r}` : exports.REJECT_MESSAGE);
}
function noSuchToolResult(toolUseId, name, available = []) {
    const list = available.length ? ` Available tools: ${available.join(', ')}.` : '';
    return errorToolResult(toolUseId, `No such tool available: ${name}.${list}`);
}
/** `31842` → `31.1KB`, `900` → `900 bytes`, `2097152` → `2MB`. */
function formatSize(n) {
    if (n < 1024)
        return `${n} bytes`;
    const kb = n / 1024;
    if (kb < 1024)
        return `${kb.toFixed(1).replace(/\.0$/, '')}KB`;
    return `${(kb / 1024).toFixed(1).replace(/\.0$/, '')}MB`;
}
exports.PREVIEW_CHARS = 2000;
/** The head of a large result shown in its <persisted-output> message: first ~2000 chars, cut at a line break when one is in the second half. */
function persistedOutputPreview(text, max = exports.PREVIEW_CHARS) {
    if (text.length <= max)
        return { preview: text, hasMore: false };
    const head = text.slice(0, max);
    const nl = head.lastIndexOf('\n');
    return { preview: nl > max / 2 ? head.slice(0, nl) : head, hasMore: true };
}
function persistedOutputMessage(location, text) {
    const { preview, hasMore } = persistedOutputPreview(text);
    return ('<persisted-output>\n' +
        `Output too large (${formatSize(text.length)}). Full output saved to: ${location}\n\n` +
        `Preview (first ${formatSize(exports.PREVIEW_CHARS)}):\n` +
        preview +
        (hasMore ? '\n...\n' : '\n') +
        '</persisted-output>');
}
/** Appends text to a tool_result's content (string or text blocks), returning a new block. */
function appendToToolResult(block, text) {
    if (typeof block.content === 'string') {
        return { ...block, content: block.content ? `${block.content}\n\n${text}` : text };
    }
    return { ...block, content: [...block.content, { type: 'text', text }] };
}
exports.MAX_ERROR_CHARS = 10_000;
/** Any thrown value as one message, cut at MAX_ERROR_CHARS. */
function errMessage(e) {
    let m;
    if (e instanceof Error)
        m = e.message || e.name;
    else if (typeof e === 'string')
        m = e;
    else {
        try {
            m = JSON.stringify(e) ?? String(e);
        }
        catch {
            m = String(e);
        }
    }
    return m.length > exports.MAX_ERROR_CHARS ? `${m.slice(0, exports.MAX_ERROR_CHARS)}… [truncated]` : m;
}
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** A tool_result block a tool's mapping may return: string content, or text, base64 image and tool_reference blocks. */
function isValidBlock(b) {
    if (!b || typeof b !== 'object')
        return false;
    const c = b.content;
    if (typeof c === 'string')
        return true;
    return (Array.isArray(c) &&
        c.every((x) => !!x &&
            typeof x === 'object' &&
            ((x.type === 'text' && typeof x.text === 'string') ||
                (x.type === 'tool_reference' && typeof x.tool_name === 'string' && x.tool_name !== '') ||
                (x.type === 'image' &&
                    x.source?.type === 'base64' &&
                    IMAGE_TYPES.has(x.source.media_type) &&
                    typeof x.source.data === 'string'))));
}
//# sourceMappingURL=messages.js.map