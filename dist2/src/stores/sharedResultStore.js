"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SharedResultStore = void 0;
exports.inputPaths = inputPaths;
// Large tool results (invariant 7) when workers share a store across hosts: the whole output is
// written as a local file the model can Read (as on one host) AND kept in the shared store, keyed
// by session and file name. The Read may run on another host: there the file is missing, and the
// tool activity recreates it from the shared store at the path the model was given, before Read
// runs (`materialize`). Paths have the layout `<storeDir>/results/<session>/<file>` on every host.
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const resultStore_1 = require("../tools/resultStore");
const messageStore_1 = require("./messageStore");
class SharedResultStore {
    blobs;
    sessionId;
    sessionDir;
    dir;
    local;
    constructor(dir, blobs, sessionId, sessionDir) {
        this.blobs = blobs;
        this.sessionId = sessionId;
        this.sessionDir = sessionDir;
        this.local = new resultStore_1.LocalResultStore(dir);
        this.dir = this.local.dir;
    }
    key(fileName) {
        return `result-${(0, messageStore_1.hashOf)(`${this.sessionId}\u0000${fileName}`)}`;
    }
    async put(toolUseId, content) {
        await this.blobs.put(this.key((0, resultStore_1.resultFileName)(toolUseId)), content);
        return this.local.put(toolUseId, content);
    }
    /**
     * A path of this session's results (`…/results/<session>/<file>`, on any host's store root) that
     * is missing here but kept in the shared store is written back; true when it did. Anything else
     * (another session's results, an existing file, a result the store does not have) is left alone.
     */
    async materialize(path) {
        const abs = (0, node_path_1.resolve)(path);
        const file = (0, node_path_1.basename)(abs);
        if ((0, node_path_1.basename)((0, node_path_1.dirname)(abs)) !== this.sessionDir ||
            (0, node_path_1.basename)((0, node_path_1.dirname)((0, node_path_1.dirname)(abs))) !== 'results' ||
            !file.endsWith('.txt'))
            return false;
        try {
            await (0, promises_1.stat)(abs);
            return false;
        }
        catch {
            // missing here: look in the shared store
        }
        const data = await this.blobs.get(this.key(file));
        if (data === undefined)
            return false;
        await (0, promises_1.mkdir)((0, node_path_1.dirname)(abs), { recursive: true });
        const tmp = `${abs}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`;
        try {
            await (0, promises_1.writeFile)(tmp, data, 'utf8');
            await (0, promises_1.rename)(tmp, abs);
        }
        catch (err) {
            await (0, promises_1.rm)(tmp, { force: true }).catch(() => undefined);
            throw err;
        }
        return true;
    }
}
exports.SharedResultStore = SharedResultStore;
/** Paths in a tool input that may name a stored result: top-level file_path / path / notebook_path strings. */
function inputPaths(input) {
    if (typeof input !== 'object' || input === null)
        return [];
    const out = [];
    for (const k of ['file_path', 'path', 'notebook_path']) {
        const v = input[k];
        if (typeof v === 'string' && v.length > 0 && v.startsWith('/'))
            out.push(v);
    }
    return out;
}
//# sourceMappingURL=sharedResultStore.js.map