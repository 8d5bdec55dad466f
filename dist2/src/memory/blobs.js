"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sessionMemory = sessionMemory;
exports.loadMemoryText = loadMemoryText;
// Memory (CLAUDE.md) by reference (invariant 11): a large reminder text is stored once in the blob
// store, content-addressed, and sessions carry `{ ref, sha256, chars }`; the model activity loads
// it when the first message enters the transcript (src/calls/model.ts), checking the hash.
const node_crypto_1 = require("node:crypto");
const memory_1 = require("../engine/memory");
const errors_1 = require("../engine/errors");
const sha256 = (text) => (0, node_crypto_1.createHash)('sha256').update(text).digest('hex');
/** The session's memory: inline when small, else stored in `blobs` and carried by reference. */
async function sessionMemory(files, text, blobs, inlineMax = memory_1.MEMORY_INLINE_MAX_CHARS) {
    const hash = sha256(text);
    if (!blobs || text.length <= inlineMax)
        return { files, text, sha256: hash };
    const ref = (0, memory_1.memoryBlobKey)(hash);
    if ((await blobs.get(ref)) === undefined)
        await blobs.put(ref, text);
    return { files, sha256: hash, ref, chars: text.length };
}
/**
 * The memory text of a reference; a missing or altered blob fails loudly with MEMORY_MISSING
 * (which the activity boundary makes non-retryable: waiting will not bring it back).
 */
async function loadMemoryText(blobs, memory) {
    const text = await blobs.get(memory.ref);
    if (text === undefined) {
        throw new errors_1.DurableAgentError('MEMORY_MISSING', `the session's memory (CLAUDE.md, ${memory.chars} characters) is stored by reference as ${memory.ref}, but the worker's store does not have it: start sessions with the same store as the worker (DURABLE_AGENT_STORE_DIR / DURABLE_AGENT_BLOB_STORE)`);
    }
    if (sha256(text) !== memory.sha256)
        throw new errors_1.DurableAgentError('MEMORY_MISSING', `the stored memory ${memory.ref} does not match its sha256 ${memory.sha256}`);
    return text;
}
//# sourceMappingURL=blobs.js.map