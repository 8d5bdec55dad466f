"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.THINKING_PREVIEW_CHARS = exports.TEXT_PREVIEW_CHARS = exports.RESULT_PREVIEW_CHARS = exports.INLINE_INPUT_MAX_CHARS = void 0;
exports.isStoredInput = isStoredInput;
exports.isToolResultRef = isToolResultRef;
exports.inputForHistory = inputForHistory;
exports.messageForHistory = messageForHistory;
exports.contentForHistory = contentForHistory;
exports.recordForHistory = recordForHistory;
exports.askMessageForHistory = askMessageForHistory;
exports.toolResultsByRef = toolResultsByRef;
exports.resolveMessages = resolveMessages;
exports.findToolUse = findToolUse;
const messages_1 = require("./messages");
/** A tool input whose JSON is at most this long travels inline (once, in the model call's result). */
exports.INLINE_INPUT_MAX_CHARS = 2000;
/** Characters of a stored tool result kept in a record's preview. */
exports.RESULT_PREVIEW_CHARS = 1000;
/** Characters of assistant text / thinking kept in the model call's result. */
exports.TEXT_PREVIEW_CHARS = 2000;
exports.THINKING_PREVIEW_CHARS = 200;
function isStoredInput(input) {
    return typeof input === 'object' && input !== null && input.stored === 'tool_use.input';
}
function isToolResultRef(block) {
    return typeof block === 'object' && block !== null && block.type === 'tool_result_ref';
}
function clip(text, max) {
    return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
/** The input itself when small, else a preview of its JSON. */
function inputForHistory(input) {
    if (isStoredInput(input))
        return input;
    let json;
    try {
        json = JSON.stringify(input) ?? 'undefined';
    }
    catch {
        json = String(input);
    }
    if (json.length <= exports.INLINE_INPUT_MAX_CHARS)
        return input;
    return { stored: 'tool_use.input', chars: json.length, preview: clip(json, 300) };
}
function blockForHistory(b) {
    switch (b.type) {
        case 'text':
            return { type: 'text', text: clip(b.text, exports.TEXT_PREVIEW_CHARS) };
        case 'tool_use':
            return { type: 'tool_use', id: b.id, name: b.name, input: inputForHistory(b.input) };
        case 'thinking':
            return { type: 'thinking', thinking: clip(b.thinking, exports.THINKING_PREVIEW_CHARS), signature: '' };
        case 'redacted_thinking':
            return { type: 'redacted_thinking', data: '' };
        default:
            return b;
    }
}
/**
 * The assistant message as workflow history carries it: tool_use ids and names whole (the turn
 * schedules by them), inputs inline only when small, text and thinking as previews. The whole
 * message is in the transcript store; activities read tool inputs from there.
 */
function messageForHistory(message) {
    return { role: 'assistant', content: message.content.map(blockForHistory) };
}
function contentForHistory(content) {
    return content.map(blockForHistory);
}
/**
 * A record as a tool activity returns it once its result is stored under `ref`: the result's
 * content shortened to a preview, the input shortened like a model message's, no new messages.
 */
function recordForHistory(record, ref) {
    const text = (0, messages_1.toolResultText)(record.result);
    const { newMessages: _dropped, ...rest } = record;
    const decision = record.decision
        ? {
            ...record.decision,
            ...(record.decision.reason !== undefined ? { reason: clip(record.decision.reason, exports.RESULT_PREVIEW_CHARS) } : {}),
            ...(record.decision.detail !== undefined ? { detail: clip(record.decision.detail, exports.RESULT_PREVIEW_CHARS) } : {}),
        }
        : undefined;
    return {
        ...rest,
        ...(decision ? { decision } : {}),
        input: inputForHistory(record.input),
        result: { ...record.result, content: clip(text, exports.RESULT_PREVIEW_CHARS) },
        resultRef: ref,
        resultChars: text.length,
    };
}
/** An `ask` as history carries it: the message is shown to a human, a few lines at most. */
function askMessageForHistory(message) {
    return clip(message, exports.RESULT_PREVIEW_CHARS);
}
/** The tool_result blocks for the transcript: by reference when stored, inline when made by the turn. */
function toolResultsByRef(records) {
    return {
        role: 'user',
        content: records.map((r) => r.resultRef ? { type: 'tool_result_ref', tool_use_id: r.toolUseId, ref: r.resultRef } : r.result),
    };
}
/** Resolves the references of `messages` with `load` (the store); plain messages pass through. */
async function resolveMessages(messages, load) {
    const out = [];
    for (const m of messages) {
        if (m.role !== 'user' || typeof m.content === 'string' || !m.content.some(isToolResultRef)) {
            out.push(m);
            continue;
        }
        const content = [];
        for (const b of m.content) {
            if (!isToolResultRef(b)) {
                content.push(b);
                continue;
            }
            const block = await load(b.ref);
            if (block.tool_use_id !== b.tool_use_id)
                throw new Error(`stored tool result ${b.ref} answers ${block.tool_use_id}, not ${b.tool_use_id}`);
            content.push(block);
        }
        out.push({ role: 'user', content });
    }
    return out;
}
/** Finds a tool_use block by id in a stored message list (the model call's node). */
function findToolUse(messages, id) {
    for (const m of messages) {
        if (m.role !== 'assistant')
            continue;
        for (const b of m.content)
            if (b.type === 'tool_use' && b.id === id)
                return b;
    }
    return undefined;
}
//# sourceMappingURL=payloads.js.map