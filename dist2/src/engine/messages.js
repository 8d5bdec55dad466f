"use strict";
// Wire-level message shapes shared by every room. Pure data: safe inside the workflow sandbox.
// They mirror the Anthropic Messages API blocks we send and receive, kept minimal on purpose.
Object.defineProperty(exports, "__esModule", { value: true });
exports.toolResultText = toolResultText;
exports.toolUseBlocksOf = toolUseBlocksOf;
exports.oneLinePreview = oneLinePreview;
/** Text of a tool_result's content, whatever its shape (images have none). */
function toolResultText(block) {
    if (typeof block.content === 'string')
        return block.content;
    return block.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}
function toolUseBlocksOf(message) {
    return message.content.filter((b) => b.type === 'tool_use');
}
/** A short one-line preview for history, queries and summaries: whitespace flattened, cut with an ellipsis. */
function oneLinePreview(text, max = 200) {
    const flat = text.replace(/\s+/g, ' ').trim();
    return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
//# sourceMappingURL=messages.js.map