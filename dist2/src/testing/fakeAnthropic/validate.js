"use strict";
// Request validation the real Messages API does and that matters to us, with its error wording.
Object.defineProperty(exports, "__esModule", { value: true });
exports.validateMessagesRequest = validateMessagesRequest;
exports.checkToolPairing = checkToolPairing;
exports.checkDeferredTools = checkDeferredTools;
function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function blocksOf(message) {
    return typeof message.content === 'string' ? [] : message.content;
}
/** Shape checks on a parsed `POST /v1/messages` body (field errors worded like the API's). */
function validateMessagesRequest(body, opts) {
    if (!isRecord(body))
        return { ok: false, message: 'Input should be a valid dictionary' };
    for (const field of ['model', 'max_tokens', 'messages']) {
        if (!(field in body))
            return { ok: false, message: `${field}: Field required` };
    }
    if (typeof body['model'] !== 'string' || body['model'] === '')
        return { ok: false, message: 'model: Input should be a valid string' };
    const maxTokens = body['max_tokens'];
    if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens))
        return { ok: false, message: 'max_tokens: Input should be a valid integer' };
    if (maxTokens < 1)
        return { ok: false, message: 'max_tokens: Input should be greater than or equal to 1' };
    if ('stream' in body && typeof body['stream'] !== 'boolean')
        return { ok: false, message: 'stream: Input should be a valid boolean' };
    const messages = body['messages'];
    if (!Array.isArray(messages))
        return { ok: false, message: 'messages: Input should be a valid list' };
    if (messages.length === 0)
        return { ok: false, message: 'messages: at least one message is required' };
    for (const [i, m] of messages.entries()) {
        if (!isRecord(m))
            return { ok: false, message: `messages.${i}: Input should be a valid dictionary` };
        if (m['role'] !== 'user' && m['role'] !== 'assistant' && !(opts.systemMessages && m['role'] === 'system'))
            return { ok: false, message: `messages.${i}.role: Input should be 'user' or 'assistant'` };
        const content = m['content'];
        if (content === undefined)
            return { ok: false, message: `messages.${i}.content: Field required` };
        if (typeof content !== 'string') {
            if (!Array.isArray(content))
                return { ok: false, message: `messages.${i}.content: Input should be a valid list` };
            for (const [j, block] of content.entries()) {
                if (!isRecord(block) || typeof block['type'] !== 'string')
                    return {
                        ok: false,
                        message: `messages.${i}.content.${j}: Input tag not found; expected a block with a 'type'`,
                    };
            }
        }
    }
    const request = body;
    const deferred = checkDeferredTools(request);
    if (deferred !== undefined)
        return { ok: false, message: deferred };
    if (opts.toolPairing) {
        const pairing = checkToolPairing(request.messages);
        if (pairing !== undefined)
            return { ok: false, message: pairing };
    }
    return { ok: true, request };
}
/**
 * Protocol completeness as the API enforces it: every tool_use in an assistant message is answered
 * by exactly one tool_result with its id in the very next (user) message, no tool_result answers a
 * tool_use that was not in the previous message, and tool_use ids are unique.
 * Returns the API's error message, or undefined when the conversation is well-formed.
 */
function checkToolPairing(messages) {
    const seenToolUseIds = new Set();
    for (const [i, message] of messages.entries()) {
        const blocks = blocksOf(message);
        if (message.role === 'assistant') {
            const ids = [];
            for (const [j, block] of blocks.entries()) {
                if (block.type !== 'tool_use')
                    continue;
                const id = String(block.id);
                if (seenToolUseIds.has(id))
                    return `messages.${i}.content.${j}: \`tool_use\` ids must be unique`;
                seenToolUseIds.add(id);
                ids.push(id);
            }
            if (ids.length === 0)
                continue;
            const next = messages[i + 1];
            const answered = new Set(next?.role === 'user'
                ? blocksOf(next)
                    .filter((b) => b.type === 'tool_result')
                    .map((b) => String(b.tool_use_id))
                : []);
            const missing = ids.filter((id) => !answered.has(id));
            if (missing.length > 0) {
                return (`messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. ` +
                    'Each `tool_use` block must have a corresponding `tool_result` block in the next message.');
            }
        }
        else {
            const previous = i > 0 ? messages[i - 1] : undefined;
            const offered = new Set(previous?.role === 'assistant'
                ? blocksOf(previous)
                    .filter((b) => b.type === 'tool_use')
                    .map((b) => String(b.id))
                : []);
            const answered = new Set();
            for (const [j, block] of blocks.entries()) {
                if (block.type !== 'tool_result')
                    continue;
                const id = String(block.tool_use_id);
                if (!offered.has(id)) {
                    return (`messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. ` +
                        'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.');
                }
                if (answered.has(id)) {
                    return `messages.${i}.content.${j}: each tool_use must have a single result. Found multiple \`tool_result\` blocks with id: ${id}`;
                }
                answered.add(id);
            }
        }
    }
    return undefined;
}
/**
 * Deferred tools as the API checks them: `defer_loading` is a boolean; a `tool_reference` block (only
 * inside a tool_result's content) names a tool of this request's `tools` with a non-empty name.
 */
function checkDeferredTools(request) {
    const names = new Set();
    for (const [i, t] of (request.tools ?? []).entries()) {
        if (!isRecord(t))
            continue;
        if ('defer_loading' in t && typeof t['defer_loading'] !== 'boolean')
            return `tools.${i}.defer_loading: Input should be a valid boolean`;
        if (typeof t['name'] === 'string')
            names.add(t['name']);
    }
    if (request.tools?.length && request.tools.every((t) => isRecord(t) && t['defer_loading'] === true))
        return 'tools: at least one tool must not have `defer_loading` set';
    for (const [i, m] of request.messages.entries()) {
        for (const [j, b] of blocksOf(m).entries()) {
            if (b.type === 'tool_reference')
                return `messages.${i}.content.${j}: \`tool_reference\` blocks are only allowed inside \`tool_result\` content`;
            if (b.type !== 'tool_result' || !Array.isArray(b.content))
                continue;
            for (const [k, c] of b.content.entries()) {
                if (!isRecord(c) || c['type'] !== 'tool_reference')
                    continue;
                const name = c['tool_name'];
                if (typeof name !== 'string' || name === '')
                    return `messages.${i}.content.${j}.content.${k}.tool_name: Field required`;
                if (!names.has(name))
                    return `messages.${i}.content.${j}.content.${k}: tool reference '${name}' not found in available tools`;
            }
        }
    }
    return undefined;
}
//# sourceMappingURL=validate.js.map