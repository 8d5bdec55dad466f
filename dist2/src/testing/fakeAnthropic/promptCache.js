"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PromptCacheSim = void 0;
exports.promptSegments = promptSegments;
exports.promptTokens = promptTokens;
exports.promptTooLongMessage = promptTooLongMessage;
// The fake API's token counting, context window and prompt cache, modelled on the real one: the
// prompt is a sequence of blocks in the order tools → system → messages; `cache_control` marks a
// breakpoint; a request reads the longest cached prefix found at a breakpoint or up to 20 blocks
// before it, writes every breakpoint's prefix (5 minutes, refreshed on use, ≥ a minimum size),
// and reports input_tokens / cache_creation_input_tokens / cache_read_input_tokens as the API does.
const node_crypto_1 = require("node:crypto");
function withoutCacheControl(block) {
    if (!block || typeof block !== 'object' || Array.isArray(block))
        return block;
    const { cache_control: _ignored, ...rest } = block;
    return rest;
}
function hasCacheControl(block) {
    return (!!block &&
        typeof block === 'object' &&
        'cache_control' in block &&
        block['cache_control'] != null);
}
/** Tools a tool_reference in the messages names (a deferred tool the API expanded). */
function referencedTools(request) {
    const out = new Set();
    for (const m of request.messages)
        if (typeof m.content !== 'string')
            for (const b of m.content)
                if (b.type === 'tool_result' && Array.isArray(b.content))
                    for (const c of b.content)
                        if (c && c.type === 'tool_reference' && typeof c.tool_name === 'string')
                            out.add(c.tool_name);
    return out;
}
/**
 * The prompt as blocks in cache order, each with the hash of the prefix it ends and its token count
 * (an estimate: the block's JSON length / `charsPerToken`). A deferred tool (`defer_loading`) is in
 * the prompt only when a tool_reference names it, as the API expands it.
 */
function promptSegments(request, charsPerToken = 4) {
    const raw = [];
    const referenced = referencedTools(request);
    for (const tool of request.tools ?? []) {
        const t = tool;
        if (t && t.defer_loading === true && !(typeof t.name === 'string' && referenced.has(t.name)))
            continue;
        raw.push({ key: `tool:${JSON.stringify(withoutCacheControl(tool))}`, breakpoint: hasCacheControl(tool) });
    }
    const system = request.system;
    if (typeof system === 'string' && system !== '')
        raw.push({ key: `system:${JSON.stringify({ type: 'text', text: system })}`, breakpoint: false });
    else if (Array.isArray(system))
        for (const b of system)
            raw.push({ key: `system:${JSON.stringify(withoutCacheControl(b))}`, breakpoint: hasCacheControl(b) });
    for (const [i, m] of request.messages.entries()) {
        const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
        for (const [j, b] of blocks.entries()) {
            raw.push({
                key: `${i}:${m.role}:${j}:${JSON.stringify(withoutCacheControl(b))}`,
                breakpoint: hasCacheControl(b),
            });
        }
    }
    let prev = '';
    return raw.map((r) => {
        prev = (0, node_crypto_1.createHash)('sha256').update(prev).update(r.key).digest('hex');
        return { prefixHash: prev, tokens: Math.max(1, Math.ceil(r.key.length / charsPerToken)), breakpoint: r.breakpoint };
    });
}
function promptTokens(segments) {
    return segments.reduce((n, s) => n + s.tokens, 0);
}
/** The API's wording for a prompt over the window (HTTP 400, invalid_request_error). */
function promptTooLongMessage(tokens, window) {
    return `prompt is too long: ${tokens} tokens > ${window} maximum`;
}
class PromptCacheSim {
    entries = new Map();
    ttlMs;
    minTokens;
    lookback;
    now;
    constructor(opts = {}) {
        this.ttlMs = opts.ttlMs ?? 5 * 60_000;
        this.minTokens = opts.minTokens ?? 1024;
        this.lookback = opts.lookbackBlocks ?? 20;
        this.now = opts.now ?? Date.now;
    }
    /** Usage of one successful request; reads and writes the cache as the API would. */
    use(segments) {
        const now = this.now();
        const cumulative = [];
        let sum = 0;
        for (const s of segments)
            cumulative.push((sum += s.tokens));
        const total = sum;
        const breakpoints = segments.flatMap((s, i) => (s.breakpoint ? [i] : []));
        if (breakpoints.length === 0)
            return { input_tokens: total, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
        let hit = -1;
        for (const bp of breakpoints) {
            for (let j = bp; j >= Math.max(0, bp - this.lookback); j--) {
                const expires = this.entries.get(segments[j].prefixHash);
                if (expires !== undefined && expires > now) {
                    hit = Math.max(hit, j);
                    break;
                }
            }
        }
        const read = hit >= 0 ? cumulative[hit] : 0;
        if (hit >= 0)
            this.entries.set(segments[hit].prefixHash, now + this.ttlMs);
        let written = read;
        for (const bp of breakpoints) {
            const upTo = cumulative[bp];
            if (upTo < this.minTokens)
                continue;
            this.entries.set(segments[bp].prefixHash, now + this.ttlMs);
            written = Math.max(written, upTo);
        }
        const creation = Math.max(0, written - read);
        return {
            input_tokens: total - read - creation,
            cache_creation_input_tokens: creation,
            cache_read_input_tokens: read,
        };
    }
    clear() {
        this.entries.clear();
    }
}
exports.PromptCacheSim = PromptCacheSim;
//# sourceMappingURL=promptCache.js.map