"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_TOOL_SEARCH_PCT = exports.DEFAULT_MAX_RESULTS = exports.NO_MATCH_TEXT = exports.TOOL_LOADED_TEXT = exports.DEFERRED_PLACEHOLDER_NAME = exports.TOOL_SEARCH_TOOL_NAME = void 0;
exports.referencedToolNames = referencedToolNames;
exports.usedToolSearch = usedToolSearch;
exports.searchTools = searchTools;
exports.deferTools = deferTools;
exports.shapeMessages = shapeMessages;
exports.TOOL_SEARCH_TOOL_NAME = 'ToolSearch';
/** A deferred stand-in sent from the first request on, so that the set of deferred tools is never empty. */
exports.DEFERRED_PLACEHOLDER_NAME = 'DeferredToolPlaceholder';
/** The text after the tool results that loaded tools (one per such result), as the reference sends it. */
exports.TOOL_LOADED_TEXT = 'Tool loaded.';
exports.NO_MATCH_TEXT = 'No matching deferred tools found';
exports.DEFAULT_MAX_RESULTS = 5;
/** The reference's limits: a query's words and a select's names beyond these are ignored. */
const MAX_QUERY_WORDS = 32;
const MAX_SELECT_NAMES = 64;
/** The reference's auto threshold: deferrable tools' tokens ≥ 10% of the model's context window. */
exports.DEFAULT_TOOL_SEARCH_PCT = 10;
/** The tool names of every tool_reference block in the messages, in order of first appearance. */
function referencedToolNames(messages) {
    const out = [];
    const seen = new Set();
    for (const m of messages) {
        if (m.role !== 'user' || typeof m.content === 'string')
            continue;
        for (const b of m.content) {
            if (b.type !== 'tool_result' || typeof b.content === 'string')
                continue;
            for (const c of b.content)
                if (c.type === 'tool_reference' && !seen.has(c.tool_name)) {
                    seen.add(c.tool_name);
                    out.push(c.tool_name);
                }
        }
    }
    return out;
}
/** Did the model ever call ToolSearch in this conversation (auto mode then stays on)? */
function usedToolSearch(messages) {
    return messages.some((m) => m.role === 'assistant' && m.content.some((b) => b.type === 'tool_use' && b.name === exports.TOOL_SEARCH_TOOL_NAME));
}
/** The parts of a tool's name a keyword matches: `mcp__server__tool` splits into server and tool, CamelCase into words. */
function nameParts(name) {
    const m = /^mcp__(.+?)__(.+)$/.exec(name);
    if (m) {
        const coarse = [m[1], m[2]].map((p) => p.toLowerCase());
        const parts = coarse.flatMap((p) => p.split(/[\s_.]+/)).filter(Boolean);
        return { parts, coarse, full: parts.join(' '), mcp: true };
    }
    const parts = name
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .replaceAll('_', ' ')
        .toLowerCase()
        .split(/\s+/)
        .filter(Boolean);
    return { parts, coarse: [name.toLowerCase()], full: parts.join(' '), mcp: false };
}
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The tool of that name, exactly or ignoring case. */
function byName(tools, name) {
    const lower = name.toLowerCase();
    return tools.find((t) => t.name === name) ?? tools.find((t) => t.name.toLowerCase() === lower);
}
/**
 * What a ToolSearch query finds, as tool names (the reference's algorithm):
 * - `select:A,B` loads those tools by name (any tool of the session, exact or ignoring case; unknown names are skipped);
 * - a query that is a tool's name finds that tool;
 * - `mcp__server…` finds the deferred tools whose names start with it;
 * - else keywords, scored against each deferred tool's name parts and description (a `+word` must match),
 *   best first, at most `maxResults`.
 */
function searchTools(query, opts) {
    const max = Math.max(0, Math.floor(opts.maxResults ?? exports.DEFAULT_MAX_RESULTS));
    const select = /^select:(.+)$/is.exec(query.trim());
    if (select) {
        const names = select[1]
            .split(',')
            .map((n) => n.trim())
            .filter(Boolean)
            .slice(0, MAX_SELECT_NAMES);
        const found = [];
        for (const n of names) {
            const t = byName(opts.deferred, n) ?? byName(opts.all, n);
            if (t && !found.includes(t.name))
                found.push(t.name);
        }
        return found;
    }
    const words = query.trim().split(/\s+/).filter(Boolean).slice(0, MAX_QUERY_WORDS);
    const text = words.join(' ');
    if (text === '')
        return [];
    const exact = byName(opts.deferred, text) ?? byName(opts.all, text);
    if (exact)
        return [exact.name];
    const lower = text.toLowerCase();
    if (lower.startsWith('mcp__') && lower.length > 5) {
        const prefixed = opts.deferred
            .filter((t) => t.name.toLowerCase().startsWith(lower))
            .slice(0, max)
            .map((t) => t.name);
        if (prefixed.length > 0)
            return prefixed;
    }
    const terms = lower.split(/\s+/);
    const required = terms.filter((t) => t.startsWith('+') && t.length > 1).map((t) => t.slice(1));
    const scored = required.length > 0 ? [...required, ...terms.filter((t) => !t.startsWith('+'))] : terms;
    const word = new Map(scored.map((t) => [t, new RegExp(`\\b${escapeRegExp(t)}\\b`)]));
    const candidates = opts.deferred.filter((tool) => {
        if (required.length === 0)
            return true;
        const p = nameParts(tool.name);
        const desc = tool.description.toLowerCase();
        return required.every((r) => p.parts.some((x) => x.includes(r)) || p.coarse.some((x) => x.includes(r)) || word.get(r).test(desc));
    });
    return candidates
        .map((tool) => {
        const p = nameParts(tool.name);
        const desc = tool.description.toLowerCase();
        let score = 0;
        for (const t of scored) {
            if (p.parts.includes(t))
                score += p.mcp ? 12 : 10;
            else if (p.parts.some((x) => x.includes(t)))
                score += p.mcp ? 6 : 5;
            if (p.coarse.includes(t))
                score += p.mcp ? 12 : 10;
            else if (p.coarse.some((x) => x.includes(t)))
                score += p.mcp ? 4 : 3;
            if (p.full.includes(t) && score === 0)
                score += 3;
            if (word.get(t).test(desc))
                score += 2;
        }
        return { name: tool.name, score };
    })
        .filter((s) => s.score > 0)
        .sort((a, b) => b.score - a.score)
        .slice(0, max)
        .map((s) => s.name);
}
const stripOurs = ({ deferrable: _d, ...t }) => t;
/**
 * The request's tools when the session offers ToolSearch. Deferred: every `deferrable` tool (MCP
 * tools, the built-ins the reference defers). Loaded: those a tool_reference in the transcript
 * names (`full`, the whole transcript: a compaction does not unload them). A loaded tool whose
 * reference the model still sees goes with `defer_loading: true` (the API expands it there); one
 * whose reference was summarised away is sent whole, so its schema stays in the prompt.
 */
function deferTools(defined, full, view, s) {
    const search = defined.find((t) => t.name === exports.TOOL_SEARCH_TOOL_NAME);
    const deferrable = defined.filter((t) => t.deferrable && t.name !== exports.TOOL_SEARCH_TOOL_NAME);
    const active = search !== undefined &&
        deferrable.length > 0 &&
        (s.mode === 'on' ||
            (s.mode === 'auto' &&
                (usedToolSearch(full) || s.estimate(deferrable.map(stripOurs)) >= (s.window * s.pct) / 100)));
    if (!active) {
        const tools = defined.filter((t) => t.name !== exports.TOOL_SEARCH_TOOL_NAME).map(stripOurs);
        return { tools, active: false, shape: (m) => shapeMessages(m, new Set(tools.map((t) => t.name))) };
    }
    const deferredNames = new Set(deferrable.map((t) => t.name));
    const loaded = referencedToolNames(full).filter((n) => deferredNames.has(n));
    const inView = new Set(referencedToolNames(view));
    const tools = [
        ...defined.filter((t) => !deferredNames.has(t.name)).map(stripOurs),
        {
            name: exports.DEFERRED_PLACEHOLDER_NAME,
            description: 'Not a tool: it keeps deferred loading on. Do not call it.',
            input_schema: { type: 'object', properties: {} },
            defer_loading: true,
        },
        ...loaded.map((n) => {
            const t = stripOurs(deferrable.find((d) => d.name === n));
            return inView.has(n) ? { ...t, defer_loading: true } : t;
        }),
    ];
    const note = [
        `These tools are available but their schemas are not loaded: call ${exports.TOOL_SEARCH_TOOL_NAME} with "select:<name>[,<name>...]" to load them (or with keywords to search them) before you call one.`,
        ...deferrable.map((t) => t.name).sort(),
    ].join('\n');
    return { tools, active: true, note, shape: (m) => shapeMessages(m, new Set(tools.map((t) => t.name))) };
}
/**
 * The view as sent: after the tool results of a user message that loaded tools, one `Tool loaded.`
 * text per such result (the reference's wire shape); a tool_reference to a tool the request does not
 * carry (an MCP server gone, tool search off) becomes a text saying so (the API refuses it otherwise).
 */
function shapeMessages(messages, offered) {
    return messages.map((m) => {
        if (m.role !== 'user' || typeof m.content === 'string')
            return m;
        let loadedResults = 0;
        let changed = false;
        const content = m.content.map((b) => {
            if (b.type !== 'tool_result' || typeof b.content === 'string')
                return b;
            const refs = b.content.filter((c) => c.type === 'tool_reference');
            if (refs.length === 0)
                return b;
            if (refs.some((r) => offered.has(r.tool_name)))
                loadedResults++;
            if (refs.every((r) => offered.has(r.tool_name)))
                return b;
            changed = true;
            const inner = b.content.map((c) => c.type === 'tool_reference' && !offered.has(c.tool_name)
                ? { type: 'text', text: `Tool ${c.tool_name} is not available in this request.` }
                : c);
            return { ...b, content: inner };
        });
        if (loadedResults === 0 && !changed)
            return m;
        const texts = Array.from({ length: loadedResults }, () => ({ type: 'text', text: exports.TOOL_LOADED_TEXT }));
        return { role: 'user', content: [...content, ...texts] };
    });
}
//# sourceMappingURL=toolSearch.js.map