"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the read-file state kept out of workflow payloads: a base in the store plus a turn's
// entries (reduced on an empty map) merges to what the reducer gives on the whole context.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const context_1 = require("../../src/engine/context");
const readFilesStore_1 = require("../../src/stores/readFilesStore");
/** Random reads and writes of three files; a file's mtime never goes back (a clock only moves forward). */
function randomMods(rand, n, clock) {
    const paths = ['/w/a', '/w/b', '/w/c'];
    return Array.from({ length: n }, () => {
        const path = paths[Math.floor(rand() * paths.length)];
        if (rand() < 0.3)
            clock.now++;
        const mtimeMs = clock.now;
        return rand() < 0.25
            ? { type: 'fileWritten', path, mtimeMs }
            : { type: 'fileRead', path, mtimeMs, partial: rand() < 0.5 };
    });
}
(0, node_test_1.test)('mergeReadFiles(base, turn entries) equals the reducer over the whole session, for random sequences', () => {
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
        const clock = { now: 1 };
        const before = randomMods(rand, Math.floor(rand() * 6), clock);
        const during = randomMods(rand, Math.floor(rand() * 6), clock);
        const whole = (0, context_1.applyContextModifiers)((0, context_1.initialContext)('/w'), [...before, ...during]).readFiles;
        const base = (0, context_1.applyContextModifiers)((0, context_1.initialContext)('/w'), before).readFiles;
        const delta = (0, context_1.applyContextModifiers)((0, context_1.initialContext)('/w'), during).readFiles;
        strict_1.default.deepEqual((0, readFilesStore_1.mergeReadFiles)(base, delta), whole, JSON.stringify({ before, during }));
    }
});
// The ReadFilesStore-on-a-store test runs over both BlobStore implementations in stores.test.ts.
//# sourceMappingURL=readFilesStore.test.js.map