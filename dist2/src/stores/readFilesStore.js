"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ReadFilesStore = void 0;
exports.mergeReadFiles = mergeReadFiles;
const messageStore_1 = require("./messageStore");
/**
 * `base` with `delta` (this turn's entries, reduced from an empty map) on top, by the engine
 * reducer's rule: a partial read never downgrades a full read of the same content. Equal to
 * reducing the whole session's modifiers as long as a file's mtime never goes back (the one
 * difference: full read at t, then in one turn a partial read at t' ≠ t and one at t again).
 */
function mergeReadFiles(base, delta) {
    const out = { ...base };
    for (const [path, entry] of Object.entries(delta)) {
        const prev = base[path];
        const partial = entry.partial && !(prev && !prev.partial && prev.mtimeMs === entry.mtimeMs);
        out[path] = { mtimeMs: entry.mtimeMs, partial };
    }
    return out;
}
class ReadFilesStore {
    blobs;
    cacheLimit;
    cache = new Map();
    constructor(blobs, cacheLimit = 32) {
        this.blobs = blobs;
        this.cacheLimit = cacheLimit;
    }
    /** Stores `base` merged with `delta`; returns its reference. Idempotent: same content, same key. */
    async put(base, delta) {
        if (Object.keys(delta).length === 0)
            return base;
        const merged = mergeReadFiles(await this.get(base), delta);
        const sorted = {};
        for (const k of Object.keys(merged).sort())
            sorted[k] = merged[k];
        const data = JSON.stringify(sorted);
        const key = `readfiles-${(0, messageStore_1.hashOf)(data)}`;
        if ((await this.blobs.get(key)) === undefined)
            await this.blobs.put(key, data);
        this.remember(key, sorted);
        return key;
    }
    async get(ref) {
        if (!ref)
            return {};
        const hit = this.cache.get(ref);
        if (hit)
            return hit;
        const data = await this.blobs.get(ref);
        if (data === undefined)
            throw new messageStore_1.MissingBlobError('read-file state', ref, this.blobs);
        const parsed = JSON.parse(data);
        this.remember(ref, parsed);
        return parsed;
    }
    remember(key, value) {
        this.cache.delete(key);
        this.cache.set(key, value);
        if (this.cache.size > this.cacheLimit) {
            const oldest = this.cache.keys().next().value;
            if (oldest !== undefined)
                this.cache.delete(oldest);
        }
    }
}
exports.ReadFilesStore = ReadFilesStore;
//# sourceMappingURL=readFilesStore.js.map