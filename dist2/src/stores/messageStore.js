"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TranscriptStore = exports.LocalBlobStore = exports.MissingBlobError = void 0;
exports.hashOf = hashOf;
// Content-addressed storage for the transcript, kept OUTSIDE workflow payloads so that a turn's
// history growth depends on that turn's new content, not on the transcript's length.
// The transcript is a chain of nodes { prev, messages }: a workflow carries only the head hash.
const node_crypto_1 = require("node:crypto");
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const errors_1 = require("../engine/errors");
/**
 * A blob the caller holds a reference to is not in this worker's store. On one host this means
 * the store lost data; with several hosts it nearly always means the workers do not share a store
 * (each has its own directory): the message says so, and how to fix it, instead of failing vaguely.
 */
class MissingBlobError extends errors_1.DurableAgentError {
    key;
    constructor(what, key, store) {
        super('STORE_BLOB_MISSING', `${what} ${key} is missing from the store (${describeStore(store)}). If another worker wrote it, that worker keeps its own store: ` +
            'workers on more than one host need one shared store (DURABLE_AGENT_STORE=postgres://…, see docs/deployment.md).');
        this.key = key;
    }
}
exports.MissingBlobError = MissingBlobError;
/** A store's own description (toString), else its class name. */
function describeStore(store) {
    const own = store.toString !== Object.prototype.toString ? String(store) : '';
    return (own ||
        (store.constructor?.name && store.constructor.name !== 'Object' ? store.constructor.name : 'a custom blob store'));
}
class LocalBlobStore {
    dir;
    constructor(dir) {
        this.dir = dir;
    }
    toString() {
        return `files under ${this.dir}, this host only`;
    }
    path(key) {
        if (!/^[A-Za-z0-9_.:-]+$/.test(key))
            throw new Error(`invalid blob key: ${key}`);
        return (0, node_path_1.join)(this.dir, key.slice(0, 2), key);
    }
    async put(key, data) {
        const path = this.path(key);
        await (0, promises_1.mkdir)((0, node_path_1.join)(this.dir, key.slice(0, 2)), { recursive: true });
        // Write-then-rename: a reader never sees half a blob, and a crash leaves no torn file.
        // The temp name is unique per put: two puts of one key in the same millisecond (concurrent
        // activities storing the same content) must not rename each other's file away.
        const tmp = `${path}.${process.pid}.${Date.now()}.${(0, node_crypto_1.randomBytes)(6).toString('hex')}.tmp`;
        try {
            await (0, promises_1.writeFile)(tmp, data, 'utf8');
            await (0, promises_1.rename)(tmp, path);
        }
        catch (err) {
            await (0, promises_1.rm)(tmp, { force: true }).catch(() => undefined);
            throw err;
        }
    }
    async get(key) {
        try {
            return await (0, promises_1.readFile)(this.path(key), 'utf8');
        }
        catch (err) {
            if (err.code === 'ENOENT')
                return undefined;
            throw err;
        }
    }
}
exports.LocalBlobStore = LocalBlobStore;
function hashOf(data) {
    return (0, node_crypto_1.createHash)('sha256').update(data).digest('hex');
}
class TranscriptStore {
    blobs;
    cacheLimit;
    cache = new Map();
    nodes = new Map();
    constructor(blobs, cacheLimit = 64) {
        this.blobs = blobs;
        this.cacheLimit = cacheLimit;
    }
    /**
     * The messages of the one node `key` (not the chain before it). A model call appends its
     * assistant message as a node of its own, so tool activities find their full tool_use blocks
     * here by the model call's head (workflow history carries only previews of the inputs).
     */
    async nodeMessages(key) {
        let node = this.nodes.get(key);
        if (!node) {
            node = this.blobs.get(key).then((data) => {
                if (data === undefined)
                    throw new MissingBlobError('transcript node', key, this.blobs);
                return JSON.parse(data);
            });
            this.nodes.set(key, node);
            node.catch(() => this.nodes.delete(key));
            if (this.nodes.size > 16) {
                const oldest = this.nodes.keys().next().value;
                if (oldest !== undefined)
                    this.nodes.delete(oldest);
            }
        }
        return (await node).messages;
    }
    /** Appends messages after `head`; returns the new head. Idempotent: same input, same hash. */
    async append(head, messages) {
        if (messages.length === 0)
            return head;
        const data = JSON.stringify({ prev: head, messages: [...messages] });
        const key = hashOf(data);
        if ((await this.blobs.get(key)) === undefined)
            await this.blobs.put(key, data);
        return key;
    }
    /** The whole conversation up to `head`, oldest first. */
    async load(head) {
        if (head === null)
            return [];
        const cached = this.cache.get(head);
        if (cached)
            return cached;
        const chain = [];
        let key = head;
        let base = [];
        while (key !== null) {
            const hit = this.cache.get(key);
            if (hit) {
                base = hit;
                break;
            }
            const data = await this.blobs.get(key);
            if (data === undefined)
                throw new MissingBlobError('transcript node', key, this.blobs);
            const node = JSON.parse(data);
            chain.push(node);
            key = node.prev;
        }
        const all = [...base];
        for (let i = chain.length - 1; i >= 0; i--)
            all.push(...chain[i].messages);
        this.remember(head, all);
        return all;
    }
    remember(head, messages) {
        this.cache.set(head, messages);
        if (this.cache.size > this.cacheLimit) {
            const oldest = this.cache.keys().next().value;
            if (oldest !== undefined)
                this.cache.delete(oldest);
        }
    }
}
exports.TranscriptStore = TranscriptStore;
//# sourceMappingURL=messageStore.js.map