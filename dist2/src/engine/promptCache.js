"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EPHEMERAL = exports.MAX_CACHE_BREAKPOINTS = void 0;
exports.messageBreakpoints = messageBreakpoints;
exports.applyCacheBreakpoints = applyCacheBreakpoints;
exports.MAX_CACHE_BREAKPOINTS = 4;
exports.EPHEMERAL = { type: 'ephemeral' };
function cacheableBlockIndex(content) {
    for (let j = content.length - 1; j >= 0; j--) {
        const b = content[j];
        if (b.type === 'thinking' || b.type === 'redacted_thinking')
            continue;
        if (b.type === 'text' && typeof b['text'] === 'string' && b['text'].length === 0)
            continue;
        return j;
    }
    return -1;
}
function markMessage(m) {
    const content = typeof m.content === 'string' ? (m.content ? [{ type: 'text', text: m.content }] : []) : [...m.content];
    const j = cacheableBlockIndex(content);
    if (j < 0)
        return undefined;
    content[j] = { ...content[j], cache_control: exports.EPHEMERAL };
    return { role: m.role, content };
}
/** The indexes of the messages that get a breakpoint: the last one, and the previous request's last one. */
function messageBreakpoints(messages) {
    if (messages.length === 0)
        return [];
    const last = messages.length - 1;
    let lastAssistant = -1;
    for (let i = last; i >= 0; i--) {
        if (messages[i].role === 'assistant') {
            lastAssistant = i;
            break;
        }
    }
    const previous = lastAssistant - 1;
    return previous >= 0 && previous < last && messages[previous].role === 'user'
        ? [previous, last]
        : [last];
}
function applyCacheBreakpoints(req, enabled = true) {
    const breakpoints = [];
    const tools = req.tools.map((t) => ({ ...t }));
    const messages = req.messages.map((m) => ({
        role: m.role,
        content: m.content,
    }));
    const system = req.system ? [{ type: 'text', text: req.system }] : undefined;
    if (!enabled)
        return { ...(system ? { system } : {}), tools, messages, breakpoints };
    // The last tool sent whole (deferred tools, `defer_loading`, are not part of the prompt's prefix).
    let lastTool = tools.length - 1;
    while (lastTool >= 0 && tools[lastTool].defer_loading === true)
        lastTool--;
    if (lastTool >= 0) {
        tools[lastTool] = { ...tools[lastTool], cache_control: exports.EPHEMERAL };
        breakpoints.push('tools');
    }
    if (system) {
        system[0] = { ...system[0], cache_control: exports.EPHEMERAL };
        breakpoints.push('system');
    }
    for (const i of messageBreakpoints(req.messages)) {
        if (breakpoints.length >= exports.MAX_CACHE_BREAKPOINTS)
            break;
        const marked = markMessage(messages[i]);
        if (!marked)
            continue;
        messages[i] = marked;
        breakpoints.push(`message:${i}`);
    }
    return { ...(system ? { system } : {}), tools, messages, breakpoints };
}
//# sourceMappingURL=promptCache.js.map