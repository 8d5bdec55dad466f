"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.REFERENCE_ONLY_LINE_KEYS = exports.REFERENCE_ONLY_FIELDS = exports.SESSION_EVENTS = void 0;
exports.readTranscript = readTranscript;
exports.transcriptShape = transcriptShape;
exports.compareSession = compareSession;
// test:reference, session level: the SessionStart / UserPromptSubmit / Stop / SessionEnd input a
// capture hook receives on both sides, and the `transcript_path` file each side leaves, compared
// in the terms hook scripts read them (docs/hooks.md lists what is deliberately different).
const node_fs_1 = require("node:fs");
/** The session-level events every case captures on both sides. */
exports.SESSION_EVENTS = ['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd'];
/** Fields whose values must agree when the reference sends them. */
const COMPARED_FIELDS = [
    'hook_event_name',
    'cwd',
    'permission_mode',
    'source',
    'prompt',
    'stop_hook_active',
    'last_assistant_message',
    'reason',
];
/** Reference fields durable-agent does not send (docs/hooks.md "Differences"). */
exports.REFERENCE_ONLY_FIELDS = new Set(['prompt_id', 'effort', 'background_tasks', 'session_crons']);
/** Reference transcript line keys durable-agent does not write (docs/hooks.md). */
exports.REFERENCE_ONLY_LINE_KEYS = new Set([
    'promptId',
    'permissionMode',
    'promptSource',
    'entrypoint',
    'gitBranch',
    'requestId',
    'toolUseResult',
    'sourceToolAssistantUUID',
    'isMeta',
    'slug',
    // An MCP call's result line: the server, the tool and the result's _meta.
    'attributionMcpServer',
    'attributionMcpTool',
    'mcpMeta',
    'mcpCallNotReadOnly',
    // 2.1.328's bookkeeping of turns, requests, effort and permission decisions.
    'turnOrigin',
    'turnPosition',
    'toolInputStreamMs',
    'apiBlockIndex',
    'requestRef',
    'requestedModel',
    'promptCacheRequested',
    'effort',
    'perTurnEffort',
    'madeBy',
    'permissionDecision',
    'sandboxed',
    'sandboxViolations',
    'toolDenialKind',
]);
function readTranscript(inputs) {
    const last = [...(inputs['SessionEnd'] ?? []), ...(inputs['Stop'] ?? [])][0];
    const path = last?.['transcript_path'];
    if (typeof path !== 'string')
        return [];
    try {
        return (0, node_fs_1.readFileSync)(path, 'utf8')
            .split('\n')
            .filter((l) => l.trim())
            .map((l) => JSON.parse(l));
    }
    catch {
        return [];
    }
}
/** The conversation's shape: one entry per message (the reference's per-block lines merged), `user:text`, `assistant:tool_use#id,…`. */
function transcriptShape(lines) {
    const out = [];
    for (const l of lines) {
        if (l.type !== 'user' && l.type !== 'assistant')
            continue;
        const content = l.message?.content;
        const blocks = typeof content === 'string'
            ? ['text']
            : Array.isArray(content)
                ? content.map((b) => `${b.type}${(b.id ?? b.tool_use_id) ? `#${b.id ?? b.tool_use_id}` : ''}`)
                : ['?'];
        const prev = out[out.length - 1];
        const results = blocks.every((b) => b.startsWith('tool_result'));
        if (prev &&
            l.type === 'assistant' &&
            prev.type === 'assistant' &&
            prev.id !== undefined &&
            prev.id === l.message?.id)
            prev.blocks.push(...blocks);
        else if (prev && l.type === 'user' && prev.type === 'user' && prev.results && results)
            prev.blocks.push(...blocks);
        else
            out.push({ type: l.type, ...(l.message?.id ? { id: l.message.id } : {}), blocks, results });
    }
    return out.map((e) => `${e.type}:${(e.type === 'user' && e.results ? [...e.blocks].sort() : e.blocks).join(',')}`);
}
function compareSession(ref, ours) {
    const diffs = [];
    for (const event of exports.SESSION_EVENTS) {
        const a = ref.inputs[event] ?? [];
        const b = ours.inputs[event] ?? [];
        if (a.length !== b.length) {
            diffs.push({ aspect: 'session hook ran', text: `${event} fired ref=${a.length} ours=${b.length}` });
            continue;
        }
        a.forEach((x, i) => {
            const y = b[i];
            const missing = Object.keys(x).filter((k) => !(k in y) && !exports.REFERENCE_ONLY_FIELDS.has(k));
            if (missing.length)
                diffs.push({ aspect: 'session hook input', text: `${event} lacks ${missing.join(', ')}` });
            for (const f of COMPARED_FIELDS) {
                if (f in x && JSON.stringify(x[f]) !== JSON.stringify(y[f]))
                    diffs.push({
                        aspect: 'session hook input',
                        text: `${event}.${f} ref=${JSON.stringify(x[f])} ours=${JSON.stringify(y[f])}`,
                    });
            }
        });
    }
    const sa = transcriptShape(ref.transcript).join(' ');
    const sb = transcriptShape(ours.transcript).join(' ');
    if (sa !== sb)
        diffs.push({ aspect: 'transcript', text: `transcript messages ref=[${sa}] ours=[${sb}]` });
    const refKeys = new Set(ref.transcript.filter((l) => l['type'] === 'user' || l['type'] === 'assistant').flatMap((l) => Object.keys(l)));
    const ourLines = ours.transcript.filter((l) => l['type'] === 'user' || l['type'] === 'assistant');
    const lacking = [...refKeys].filter((k) => !exports.REFERENCE_ONLY_LINE_KEYS.has(k) && ourLines.some((l) => !(k in l)));
    if (lacking.length)
        diffs.push({ aspect: 'transcript', text: `transcript lines lack ${lacking.join(', ')}` });
    return diffs;
}
//# sourceMappingURL=session.js.map