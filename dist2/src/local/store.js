"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.localStore = localStore;
exports.disposeNow = disposeNow;
// The in-process runner's store (issue 21.8): the caller's, when it names one (`storeDir` or
// `blobStore`), else a fresh temporary directory owned by the session and removed when it ends.
// An in-process session never writes to the machine's store (`~/.durable-agent/store`, env
// DURABLE_AGENT_STORE / DURABLE_AGENT_STORE_DIR) unless the caller passes it: tests, benchmarks
// and library users get no transcripts, ledgers or results mixed into the user's. A subagent's
// child session gets its parent's resolved options, so it writes into the same store (its large
// results and transcript are found there) and never owns it.
const node_fs_1 = require("node:fs");
const promises_1 = require("node:fs/promises");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const messageStore_1 = require("../stores/messageStore");
function localStore(worker) {
    if (worker.storeDir !== undefined)
        return { worker, storeDir: worker.storeDir, temporary: false, dispose: async () => undefined };
    const dir = (0, node_fs_1.mkdtempSync)((0, node_path_1.join)((0, node_os_1.tmpdir)(), 'durable-agent-local-'));
    return {
        // An explicit blob store, so that DURABLE_AGENT_STORE / DURABLE_AGENT_BLOB_STORE are not read either.
        worker: { ...worker, storeDir: dir, blobStore: worker.blobStore ?? new messageStore_1.LocalBlobStore((0, node_path_1.join)(dir, 'blobs')) },
        storeDir: dir,
        temporary: true,
        dispose: () => (0, promises_1.rm)(dir, { recursive: true, force: true }),
    };
}
/** A temporary store's removal when the session could not even start. */
function disposeNow(store) {
    if (store.temporary)
        (0, node_fs_1.rmSync)(store.storeDir, { recursive: true, force: true });
}
//# sourceMappingURL=store.js.map