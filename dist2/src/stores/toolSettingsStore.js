"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ToolSettingsStore = void 0;
// A session's tool settings (tool names, permission rules, sandbox, hooks, MCP server configs,
// agent definitions), stored once per session run, content-addressed, and carried by reference in
// every tool activity's input (`settingsRef`) instead of whole: with them inline, each runToolUse
// and describeToolUses input repeated the whole configuration, so history grew with calls ×
// configuration (invariant 11). Workers keep the settings they loaded in a small cache.
const messageStore_1 = require("./messageStore");
class ToolSettingsStore {
    blobs;
    cacheLimit;
    cache = new Map();
    constructor(blobs, cacheLimit = 64) {
        this.blobs = blobs;
        this.cacheLimit = cacheLimit;
    }
    /** Stores the settings; returns their key (`toolsettings-<sha256>`). Idempotent: same content, same key. */
    async put(settings) {
        const data = JSON.stringify(settings);
        const key = `toolsettings-${(0, messageStore_1.hashOf)(data)}`;
        if (!this.cache.has(key) && (await this.blobs.get(key)) === undefined)
            await this.blobs.put(key, data);
        this.remember(key, settings);
        return key;
    }
    async get(key) {
        const hit = this.cache.get(key);
        if (hit)
            return hit;
        const data = await this.blobs.get(key);
        if (data === undefined)
            throw new messageStore_1.MissingBlobError("the session's tool settings", key, this.blobs);
        if (`toolsettings-${(0, messageStore_1.hashOf)(data)}` !== key)
            throw new Error(`the stored tool settings ${key} do not match their hash`);
        const parsed = JSON.parse(data);
        this.remember(key, parsed);
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
exports.ToolSettingsStore = ToolSettingsStore;
//# sourceMappingURL=toolSettingsStore.js.map