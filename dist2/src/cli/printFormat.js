"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.REFERENCE_FORMAT_VERSION = exports.OUTPUT_FORMATS = void 0;
exports.stableUuid = stableUuid;
exports.initEvent = initEvent;
exports.messageEvents = messageEvents;
exports.apiError = apiError;
exports.resultEvent = resultEvent;
exports.apiErrorEvent = apiErrorEvent;
exports.textOutput = textOutput;
exports.numTurns = numTurns;
// `run --output-format text|json|stream-json` (and `-p`): the objects the reference's `claude -p`
// prints, built from what a session leaves (its messages, its result, the model calls of its audit).
// Same message types and keys as Claude Code 2.1.328 (the version REFERENCE_FORMAT_VERSION names);
// our session id in `session_id`; fields of our own added, never renamed (docs/tools.md lists the
// reference's keys we do not send). Pure: no Temporal, no I/O.
const node_crypto_1 = require("node:crypto");
const memory_1 = require("../engine/memory");
exports.OUTPUT_FORMATS = ['text', 'json', 'stream-json'];
/** The Claude Code version whose `-p` output these objects follow (`claude_code_version` in the init event). */
exports.REFERENCE_FORMAT_VERSION = '2.1.328';
/** A uuid-shaped id, stable for one position in one session (the same on every print). */
function stableUuid(sessionId, what) {
    const h = (0, node_crypto_1.createHash)('sha256').update(`${sessionId}\0${what}`).digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
/** The first line of stream-json: `{"type":"system","subtype":"init",…}`. */
function initEvent(i) {
    return {
        type: 'system',
        subtype: 'init',
        cwd: i.cwd,
        session_id: i.sessionId,
        tools: i.tools,
        // The worker connects MCP servers when the first turn needs them: pending at start.
        mcp_servers: i.mcpServers.map((name) => ({ name, status: 'pending' })),
        model: i.model,
        permissionMode: i.permissionMode,
        slash_commands: [],
        apiKeySource: i.apiKeySource,
        claude_code_version: exports.REFERENCE_FORMAT_VERSION,
        output_style: 'default',
        agents: i.agents,
        skills: i.skills,
        plugins: [],
        uuid: stableUuid(i.sessionId, 'init'),
        original_cwd: i.cwd,
        additional_directories: i.additionalDirectories,
        // Ours: the runner and its version.
        durable_agent_version: i.version,
    };
}
/**
 * The stream-json lines for messages[from…]: an `assistant` line per content block (as the
 * reference splits a message), a `user` line per tool_result. The prompt and other text the user
 * side sent are not printed (the reference prints them only with --replay-user-messages).
 * `meta(n)` describes the n-th assistant message of the session (0-based).
 */
function messageEvents(messages, from, sessionId, meta, fallbackModel, now = () => new Date().toISOString()) {
    const out = [];
    let assistantIndex = messages.slice(0, from).filter((m) => m.role === 'assistant').length;
    for (let i = from; i < messages.length; i++) {
        const m = messages[i];
        if (m.role === 'assistant') {
            const call = meta(assistantIndex++);
            m.content.forEach((block, b) => out.push({
                type: 'assistant',
                message: {
                    id: call?.messageId ?? `msg_${stableUuid(sessionId, `message ${i}`).replace(/-/g, '')}`,
                    type: 'message',
                    role: 'assistant',
                    model: call?.model ?? fallbackModel,
                    content: [block],
                    stop_reason: null,
                    stop_sequence: null,
                    usage: wireUsage(call?.usage),
                    context_management: null,
                },
                parent_tool_use_id: null,
                session_id: sessionId,
                uuid: stableUuid(sessionId, `message ${i} block ${b}`),
                timestamp: call?.endedAt ?? now(),
                ...(call?.requestId ? { request_id: call.requestId } : {}),
            }));
            continue;
        }
        if (typeof m.content === 'string')
            continue;
        m.content.forEach((block, b) => {
            if (block.type !== 'tool_result')
                return;
            out.push({
                type: 'user',
                message: { role: 'user', content: [block] },
                parent_tool_use_id: null,
                session_id: sessionId,
                uuid: stableUuid(sessionId, `message ${i} block ${b}`),
                timestamp: now(),
            });
        });
    }
    return out;
}
function wireUsage(u) {
    return {
        input_tokens: u?.input_tokens ?? 0,
        cache_creation_input_tokens: u?.cache_creation_input_tokens ?? 0,
        cache_read_input_tokens: u?.cache_read_input_tokens ?? 0,
        output_tokens: u?.output_tokens ?? 0,
    };
}
/**
 * A model error in a failed session's reason (`turn 1 failed: model call failed: model API error 400: 400 {…"message":"…"}`):
 * its status, type and message, for the reference's `API Error: 400 <message>`.
 */
function apiError(reason) {
    const m = /model API error (\d{3})\b:?\s*(.*)$/s.exec(reason);
    if (!m)
        return undefined;
    const rest = m[2] ?? '';
    const message = /"message":"((?:[^"\\]|\\.)*)"/.exec(rest)?.[1];
    const type = /"error":\{"type":"([^"]+)"/.exec(rest)?.[1];
    const requestId = /"request_id":"([^"]+)"/.exec(rest)?.[1];
    return {
        status: Number(m[1]),
        ...(type ? { type } : {}),
        ...(requestId ? { requestId } : {}),
        message: message !== undefined ? JSON.parse(`"${message}"`) : rest.replace(/^\d{3}\s*/, '').trim(),
    };
}
/** The result line (`json` prints it alone; `stream-json` last). */
function resultEvent(e) {
    const api = e.status === 'failed' || e.status === 'terminated' ? apiError(e.reason) : undefined;
    const success = e.status === 'completed' || api !== undefined;
    const last = e.calls[e.calls.length - 1];
    const apiMs = e.calls.reduce((sum, c) => sum + (c.startedAt && c.endedAt ? Date.parse(c.endedAt) - Date.parse(c.startedAt) : 0), 0);
    const modelUsage = {};
    for (const c of e.calls) {
        const u = (modelUsage[c.model ?? 'unknown'] ??= {
            inputTokens: 0,
            outputTokens: 0,
            cacheReadInputTokens: 0,
            cacheCreationInputTokens: 0,
            webSearchRequests: 0,
            costUSD: 0,
        });
        u['inputTokens'] = u['inputTokens'] + (c.usage?.input_tokens ?? 0);
        u['outputTokens'] = u['outputTokens'] + (c.usage?.output_tokens ?? 0);
        u['cacheReadInputTokens'] = u['cacheReadInputTokens'] + (c.usage?.cache_read_input_tokens ?? 0);
        u['cacheCreationInputTokens'] =
            u['cacheCreationInputTokens'] + (c.usage?.cache_creation_input_tokens ?? 0);
    }
    const first = Object.values(modelUsage)[0];
    if (first)
        first['webSearchRequests'] = e.webSearches;
    const base = {
        type: 'result',
        subtype: success ? 'success' : e.status === 'max_turns' ? 'error_max_turns' : 'error_during_execution',
        is_error: e.status !== 'completed',
        duration_ms: Math.max(0, Math.round(e.durationMs)),
        duration_api_ms: Math.max(0, Math.round(apiMs)),
        num_turns: e.turns,
        ...(success ? { result: api ? `API Error: ${api.status} ${api.message}` : e.lastText } : {}),
        stop_reason: api ? 'stop_sequence' : (last?.stopReason ?? null),
        session_id: e.sessionId,
        // durable-agent keeps no price list: the cost is not computed (docs/tools.md).
        total_cost_usd: 0,
        usage: {
            ...wireUsage(e.usage),
            server_tool_use: { web_search_requests: e.webSearches, web_fetch_requests: e.webFetches },
        },
        modelUsage,
        permission_denials: e.denials,
        terminal_reason: api
            ? 'api_error'
            : e.status === 'completed'
                ? 'completed'
                : e.status === 'max_turns'
                    ? 'max_turns'
                    : e.status,
        // On a success line only (null: no model error), as the reference.
        ...(success ? { api_error_status: api ? api.status : null } : {}),
        ...(api?.type ? { api_error_type: api.type } : {}),
        ...(api?.requestId ? { request_id: api.requestId } : {}),
        ...(success ? {} : { errors: [errorText(e)] }),
        uuid: stableUuid(e.sessionId, 'result'),
        // Ours: the session's status and why it ended, in durable-agent's words.
        status: e.status,
        end_reason: e.reason,
    };
    return base;
}
/** stream-json, a session a model error ended: the reference's synthetic assistant line carrying the error's text. */
function apiErrorEvent(result) {
    if (result['terminal_reason'] !== 'api_error')
        return undefined;
    const sessionId = String(result['session_id']);
    return {
        type: 'assistant',
        message: {
            id: stableUuid(sessionId, 'api error'),
            type: 'message',
            role: 'assistant',
            model: '<synthetic>',
            content: [{ type: 'text', text: result['result'] }],
            stop_reason: 'stop_sequence',
            stop_sequence: '',
            stop_details: null,
            diagnostics: null,
            container: null,
            usage: {
                ...wireUsage(undefined),
                output_tokens_details: null,
                server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
                service_tier: null,
                cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
                inference_geo: null,
                iterations: null,
                speed: null,
                fallback_credit: null,
            },
            context_management: null,
        },
        parent_tool_use_id: null,
        session_id: sessionId,
        uuid: stableUuid(sessionId, 'api error line'),
        timestamp: new Date().toISOString(),
        error: 'unknown',
        ...(result['request_id'] ? { request_id: result['request_id'] } : {}),
        is_api_error_message: true,
        api_error_status: result['api_error_status'],
        ...(result['api_error_type'] ? { api_error_type: result['api_error_type'] } : {}),
    };
}
function errorText(e) {
    if (e.status === 'max_turns')
        return `Reached maximum number of turns (${e.maxTurns ?? e.turns})`;
    return e.reason;
}
/**
 * What `text` prints and the exit code: the final text and a newline; a model error's text; for
 * another error `Error: …` without a newline (the reference's words and bytes where it has them).
 */
function textOutput(result) {
    if (result['is_error'] !== true)
        return { text: `${String(result['result'] ?? '')}\n`, exitCode: 0 };
    if (typeof result['result'] === 'string')
        return { text: `${result['result']}\n`, exitCode: 1 };
    if (result['subtype'] === 'error_max_turns') {
        const n = /\((\d+)\)/.exec(String(result['errors']?.[0] ?? ''))?.[1];
        return { text: `Error: Reached max turns (${n ?? '?'})`, exitCode: 1 };
    }
    return {
        text: `Error: ${String(result['errors']?.[0] ?? result['end_reason'])}`,
        exitCode: 1,
    };
}
/**
 * The reference's num_turns: a user-side message each, the prompt, every tool_result (each its own
 * message there) and every follow-up; a message that carries only CLAUDE.md memory does not count.
 */
function numTurns(messages) {
    let n = 0;
    for (const m of messages) {
        if (m.role !== 'user')
            continue;
        if (typeof m.content === 'string') {
            if ((0, memory_1.splitMemoryReminder)(m.content).prompt !== '')
                n++;
            continue;
        }
        const results = m.content.filter((b) => b.type === 'tool_result').length;
        n += results + (m.content.some((b) => b.type === 'text') && results === 0 ? 1 : 0);
    }
    return n;
}
//# sourceMappingURL=printFormat.js.map