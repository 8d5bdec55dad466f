"use strict";
// Memory (CLAUDE.md) in the conversation: the reference hands it to the model as a
// `<system-reminder>` before the user's first message (its "user context"), not in the system
// prompt, so it enters the transcript once and is not resent with every model call's input. Pure.
Object.defineProperty(exports, "__esModule", { value: true });
exports.MEMORY_REMINDER_TAIL = exports.MEMORY_REMINDER_HEAD = exports.MEMORY_INLINE_MAX_CHARS = void 0;
exports.memoryBlobKey = memoryBlobKey;
exports.memoryRefOf = memoryRefOf;
exports.firstMessage = firstMessage;
exports.withMemoryText = withMemoryText;
exports.splitMemoryReminder = splitMemoryReminder;
/** Above this many characters the client stores the memory text and the session carries a reference. */
exports.MEMORY_INLINE_MAX_CHARS = 16_000;
/** The blob key of a memory text. */
function memoryBlobKey(sha256) {
    return `memory-${sha256}`;
}
/** The memory's reference, when it travels by one. */
function memoryRefOf(memory) {
    return memory?.ref && memory.text === undefined
        ? { ref: memory.ref, sha256: memory.sha256, chars: memory.chars ?? 0 }
        : undefined;
}
/** The first user message: the memory reminder, then the prompt (by reference: the model activity prepends it, see withMemory). */
function firstMessage(prompt, memory) {
    return memory && memory.text ? `${memory.text}\n\n${prompt}` : prompt;
}
/** The appended messages with the memory text (loaded by reference) before the first user message's text, as firstMessage does. */
function withMemoryText(append, text) {
    const i = append.findIndex((m) => m.role === 'user' && typeof m.content === 'string');
    if (i < 0)
        return [{ role: 'user', content: text }, ...append];
    const out = [...append];
    out[i] = { ...out[i], content: `${text}\n\n${out[i].content}` };
    return out;
}
/** How memoryReminder (src/memory/claudeMd.ts) opens and closes the reminder: splitMemoryReminder finds it by these. */
exports.MEMORY_REMINDER_HEAD = "<system-reminder>\nAs you answer the user's questions, you can use the following context:\n# claudeMd\n";
exports.MEMORY_REMINDER_TAIL = '\nIMPORTANT: this context may or may not be relevant to your tasks. You should not respond to this context unless it is highly relevant to your task.\n</system-reminder>';
/**
 * A first user message split into the memory reminder firstMessage/withMemoryText put before it
 * and the prompt the user typed: what UserPromptSubmit hooks and the transcript file show (the
 * reference keeps CLAUDE.md out of both).
 */
function splitMemoryReminder(text) {
    if (!text.startsWith(exports.MEMORY_REMINDER_HEAD))
        return { prompt: text };
    const end = text.indexOf(exports.MEMORY_REMINDER_TAIL);
    if (end < 0)
        return { prompt: text };
    const cut = end + exports.MEMORY_REMINDER_TAIL.length;
    return { reminder: text.slice(0, cut), prompt: text.slice(cut).replace(/^\n\n/, '') };
}
//# sourceMappingURL=memory.js.map