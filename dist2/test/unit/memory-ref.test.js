"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: memory (CLAUDE.md) by reference — stored once, content-addressed; loaded with its hash
// checked; put before the first message's text exactly as the inline reminder is.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const memory_1 = require("../../src/engine/memory");
const blobs_1 = require("../../src/memory/blobs");
const messageStore_1 = require("../../src/stores/messageStore");
(0, node_test_1.test)('unit: a small memory stays inline; a large one is stored once and carried as { ref, sha256, chars }', async () => {
    const blobs = new messageStore_1.LocalBlobStore(await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-mem-')));
    const small = await (0, blobs_1.sessionMemory)(['/p/CLAUDE.md'], '<system-reminder>small</system-reminder>', blobs);
    strict_1.default.equal(small.text, '<system-reminder>small</system-reminder>');
    strict_1.default.equal((0, memory_1.memoryRefOf)(small), undefined);
    const text = `<system-reminder>${'x'.repeat(memory_1.MEMORY_INLINE_MAX_CHARS)}</system-reminder>`;
    const big = await (0, blobs_1.sessionMemory)(['/p/CLAUDE.md'], text, blobs);
    strict_1.default.equal(big.text, undefined);
    strict_1.default.match(big.ref ?? '', /^memory-[0-9a-f]{64}$/);
    strict_1.default.equal(big.chars, text.length);
    const ref = (0, memory_1.memoryRefOf)(big);
    strict_1.default.equal(await (0, blobs_1.loadMemoryText)(blobs, ref), text);
    // The same message as the inline path produces.
    const [first, second] = (0, memory_1.withMemoryText)([
        { role: 'user', content: 'do it' },
        { role: 'user', content: 'more' },
    ], text);
    strict_1.default.equal(first.content, (0, memory_1.firstMessage)('do it', { files: [], text, sha256: big.sha256 }));
    strict_1.default.equal(second.content, 'more');
    // Without a store: inline, whatever the size (the session input's own limit applies).
    strict_1.default.equal((await (0, blobs_1.sessionMemory)([], text)).text, text);
});
(0, node_test_1.test)('unit: a missing or altered memory blob fails loudly, naming the store settings', async () => {
    const blobs = new messageStore_1.LocalBlobStore(await (0, promises_1.mkdtemp)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'da-mem-')));
    const ref = { ref: `memory-${'0'.repeat(64)}`, sha256: '0'.repeat(64), chars: 10 };
    await strict_1.default.rejects((0, blobs_1.loadMemoryText)(blobs, ref), /DURABLE_AGENT_STORE_DIR/);
    await blobs.put(ref.ref, 'tampered');
    await strict_1.default.rejects((0, blobs_1.loadMemoryText)(blobs, ref), /does not match its sha256/);
});
//# sourceMappingURL=memory-ref.test.js.map