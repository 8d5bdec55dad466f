"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.configuredBlobStore = configuredBlobStore;
exports.blobStoreFromUrl = blobStoreFromUrl;
exports.describeBlobStore = describeBlobStore;
// The blob store that workers and commands are configured with, built in one place so that the
// `transcript` command reads the same store the workers write (never a hard-coded file layout).
//   explicit `blobStore` (library users)
//   > `store` (the CLI's --store) > DURABLE_AGENT_STORE (a URL: postgres://… shared by every host; file:… or a path)
//   > DURABLE_AGENT_BLOB_STORE (a module)
//   > files under the store dir (one host only)
const node_path_1 = require("node:path");
const node_url_1 = require("node:url");
const messageStore_1 = require("./messageStore");
const postgresBlobStore_1 = require("./postgresBlobStore");
function configuredBlobStore(opts) {
    if (opts.blobStore)
        return opts.blobStore;
    const url = opts.store ?? process.env.DURABLE_AGENT_STORE;
    if (url)
        return blobStoreFromUrl(url, opts.storeDir);
    const modulePath = process.env.DURABLE_AGENT_BLOB_STORE;
    if (modulePath) {
        // A module exporting `createBlobStore({ storeDir })` (an object store, a shared database…).
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const mod = require((0, node_path_1.resolve)(modulePath));
        if (typeof mod.createBlobStore !== 'function') {
            throw new Error(`DURABLE_AGENT_BLOB_STORE=${modulePath} must export a function createBlobStore({ storeDir }) returning { put(key, data), get(key) }`);
        }
        return mod.createBlobStore({ storeDir: opts.storeDir });
    }
    return new messageStore_1.LocalBlobStore((0, node_path_1.join)(opts.storeDir, 'blobs'));
}
/**
 * `postgres://…` / `postgresql://…` → the shared PostgreSQL store (`?table=name` picks the table);
 * `file:///dir` or an absolute path → files in that directory (one host). Anything else is refused.
 */
function blobStoreFromUrl(url, storeDir) {
    const trimmed = url.trim();
    if (/^postgres(ql)?:\/\//i.test(trimmed)) {
        let table;
        let connectionString = trimmed;
        try {
            const u = new URL(trimmed);
            table = u.searchParams.get('table') ?? undefined;
            if (table !== undefined) {
                u.searchParams.delete('table');
                connectionString = u.toString();
            }
        }
        catch {
            throw new Error(`DURABLE_AGENT_STORE: not a valid PostgreSQL URL: ${(0, postgresBlobStore_1.redact)(trimmed)} (expected postgres://user:password@host:5432/database)`);
        }
        return new postgresBlobStore_1.PostgresBlobStore({ connectionString, ...(table ? { table } : {}) });
    }
    if (/^file:/i.test(trimmed))
        return new messageStore_1.LocalBlobStore((0, node_url_1.fileURLToPath)(trimmed));
    if (trimmed.startsWith('/'))
        return new messageStore_1.LocalBlobStore(trimmed);
    if (trimmed === 'local' || trimmed === 'files')
        return new messageStore_1.LocalBlobStore((0, node_path_1.join)(storeDir, 'blobs'));
    throw new Error(`DURABLE_AGENT_STORE=${(0, postgresBlobStore_1.redact)(trimmed)}: unknown store; use postgres://user:password@host:5432/database (shared by workers on several hosts), file:///dir or an absolute directory (one host), or leave it unset for files under the store dir`);
}
/** One line saying where a store keeps its blobs (worker start-up, error messages). */
function describeBlobStore(store) {
    if (store instanceof messageStore_1.LocalBlobStore)
        return `files under ${store.dir} (this host only)`;
    if (store instanceof postgresBlobStore_1.PostgresBlobStore)
        return `${store.toString()} (shared)`;
    return store.constructor?.name ?? 'a custom blob store';
}
//# sourceMappingURL=configured.js.map