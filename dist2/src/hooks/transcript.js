"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.transcriptLines = transcriptLines;
exports.transcriptPathFor = transcriptPathFor;
exports.writeTranscriptFile = writeTranscriptFile;
// transcript_path: the conversation so far as a JSONL file in the reference's transcript format
// (one object per line: type user/assistant, message, uuid, parentUuid, sessionId, timestamp, cwd…),
// materialized from the content-addressed message store before a hook runs.
const node_crypto_1 = require("node:crypto");
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const memory_1 = require("../engine/memory");
/** `<Event> hook additional context: <text>`: the user messages src/engine/session.ts adds for a hook's context. */
const HOOK_CONTEXT = /^(UserPromptSubmit|SessionStart|SubagentStart) hook additional context: ([\s\S]*)$/;
/** A uuid-shaped id, stable for a message's position in a session (same file on every rewrite). */
function stableUuid(sessionId, index) {
    const h = (0, node_crypto_1.createHash)('sha256').update(`${sessionId}\0${index}`).digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
/**
 * The reference's lines for the messages: the prompt without the CLAUDE.md reminder the first
 * message carries (the reference keeps memory out of its transcript), a hook's added context as an
 * `attachment` line, a Stop hook's feedback as a user line with `isMeta: true`.
 */
function transcriptLines(messages, opts) {
    const ts = (opts.now ?? new Date()).toISOString();
    let parent = null;
    const out = [];
    messages.forEach((m, i) => {
        let content = m.content;
        let extra = { type: m.role };
        if (m.role === 'user' && typeof m.content === 'string') {
            const split = (0, memory_1.splitMemoryReminder)(m.content);
            if (split.reminder !== undefined && split.prompt === '')
                return;
            content = split.prompt;
            const hook = HOOK_CONTEXT.exec(split.prompt);
            if (hook) {
                extra = {
                    type: 'attachment',
                    attachment: { type: 'hook_additional_context', content: [hook[2]], hookName: hook[1], hookEvent: hook[1] },
                };
            }
            else if (split.prompt.startsWith('Stop hook feedback:\n')) {
                extra = { type: 'user', isMeta: true };
            }
        }
        const uuid = stableUuid(opts.sessionId, i);
        out.push({
            parentUuid: parent,
            isSidechain: false,
            userType: 'external',
            cwd: opts.cwd,
            sessionId: opts.sessionId,
            version: opts.version ?? 'durable-agent',
            type: m.role,
            ...(extra.type === 'attachment' ? {} : { message: { role: m.role, content } }),
            ...extra,
            uuid,
            timestamp: ts,
        });
        parent = uuid;
    });
    return out;
}
/** Where a session's transcript file lives: `<storeDir>/transcripts/<session>.jsonl`. */
function transcriptPathFor(storeDir, sessionId) {
    return (0, node_path_1.join)(storeDir, 'transcripts', `${sessionId.replace(/[^A-Za-z0-9_.-]/g, '_')}.jsonl`);
}
/** Writes the file whole (temp file + rename, so a hook never reads half a transcript). */
async function writeTranscriptFile(path, messages, opts) {
    await (0, promises_1.mkdir)((0, node_path_1.dirname)(path), { recursive: true });
    const body = transcriptLines(messages, opts)
        .map((l) => JSON.stringify(l))
        .join('\n');
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    await (0, promises_1.writeFile)(tmp, body ? `${body}\n` : '');
    await (0, promises_1.rename)(tmp, path);
    return path;
}
//# sourceMappingURL=transcript.js.map