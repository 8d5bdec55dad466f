"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.snapshotControlFiles = snapshotControlFiles;
exports.hashControlFiles = hashControlFiles;
exports.controlChanges = controlChanges;
// Which control files of a session a tool call changed: a fingerprint of the session's control
// files (src/permissions/controlFiles.ts) before and after each call, compared. The fingerprint is
// metadata only (lstat: inode, size, mtime, ctime, mode), so it costs a few system calls per path;
// ctime moves on every write, rename and chmod and cannot be set back by an unprivileged process,
// so a write that restores mtime and size is still seen. Directories are walked to a bounded
// depth and entry count; symbolic links are recorded as links, never followed.
//
// The per-directory manifest (src/cli/controlManifest.ts) wants content instead, to compare across
// sessions: `hashControlFiles` walks the same set and hashes file contents.
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
async function lstat(path) {
    try {
        return await node_fs_1.promises.lstat(path, { bigint: true });
    }
    catch {
        return undefined;
    }
}
async function walk(set, visit, limits = {}) {
    const maxEntries = limits.maxEntries ?? 4_000;
    const maxPerDirectory = limits.maxPerDirectory ?? 500;
    const maxDepth = limits.maxDepth ?? 4;
    const entries = new Map();
    let truncated = false;
    let budget = 0;
    const add = async (path, st) => {
        if (entries.size >= maxEntries || budget <= 0) {
            truncated = true;
            return false;
        }
        budget--;
        entries.set(path, await visit(path, st));
        return true;
    };
    const dir = async (path, depth) => {
        let names;
        try {
            names = (await node_fs_1.promises.readdir(path)).sort();
        }
        catch {
            return true;
        }
        for (const name of names) {
            const child = (0, node_path_1.join)(path, name);
            if (set.holds && !set.holds(child))
                continue;
            const st = await lstat(child);
            if (!st)
                continue;
            if (!(await add(child, st)))
                return false;
            if (st.isDirectory()) {
                if (depth < maxDepth) {
                    if (!(await dir(child, depth + 1)))
                        return false;
                }
                else
                    truncated = true;
            }
        }
        return true;
    };
    budget = Infinity;
    // The named paths at once (most do not exist); then each directory's walk in turn.
    const files = [...new Set(set.files)];
    const fileStats = await Promise.all(files.map(lstat));
    for (const [i, f] of files.entries()) {
        const st = fileStats[i];
        if (st)
            await add(f, st);
    }
    const dirStats = await Promise.all(set.dirs.map(lstat));
    for (const [i, d] of set.dirs.entries()) {
        if (entries.has(d))
            continue;
        const st = dirStats[i];
        budget = maxPerDirectory + 1;
        if (!st || !(await add(d, st)))
            continue;
        if (st.isDirectory())
            await dir(d, 1);
    }
    return { entries, truncated };
}
const kind = (st) => st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
/** A cheap snapshot for one call: metadata only. */
function snapshotControlFiles(set, limits) {
    return walk(set, async (_path, st) => 
    // A directory's own times move with its entries, which are listed themselves.
    st.isDirectory() ? `dir:${st.ino}` : `${kind(st)}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.mode}`, limits);
}
/** Files above this size are fingerprinted by size and mtime instead of their content. */
const MAX_HASHED_BYTES = 8 * 1024 * 1024;
/** A snapshot by content, to compare across sessions: sha256 of each file, a link's target. */
function hashControlFiles(set, limits) {
    return walk(set, async (path, st) => {
        if (st.isDirectory())
            return 'dir';
        if (st.isSymbolicLink())
            return `link:${await node_fs_1.promises.readlink(path).catch(() => '?')}`;
        if (!st.isFile())
            return kind(st);
        if (st.size > BigInt(MAX_HASHED_BYTES))
            return `large:${st.size}:${st.mtimeNs}`;
        try {
            // O_NOFOLLOW: the path was a regular file at lstat; a swap to a link since then is not followed.
            const h = await node_fs_1.promises.open(path, node_fs_1.constants.O_RDONLY | node_fs_1.constants.O_NOFOLLOW | node_fs_1.constants.O_NONBLOCK);
            try {
                return `sha256:${(0, node_crypto_1.createHash)('sha256')
                    .update(await h.readFile())
                    .digest('hex')}`;
            }
            finally {
                await h.close();
            }
        }
        catch {
            return 'unreadable';
        }
    }, limits);
}
/**
 * What changed from `before` to `after`, sorted by path. A directory created or deleted together
 * with entries under it is named by its entries only.
 */
function controlChanges(before, after) {
    const out = [];
    for (const [path, sig] of after.entries) {
        const was = before.entries.get(path);
        if (was === undefined)
            out.push({ path, change: 'created' });
        else if (was !== sig)
            out.push({ path, change: 'modified' });
    }
    for (const path of before.entries.keys())
        if (!after.entries.has(path))
            out.push({ path, change: 'deleted' });
    const isDir = (p) => (after.entries.get(p) ?? before.entries.get(p) ?? '').startsWith('dir');
    const kept = out.filter((w) => !(w.change !== 'modified' && isDir(w.path) && out.some((o) => o !== w && o.path.startsWith(`${w.path}/`))));
    return kept.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
//# sourceMappingURL=controlWrites.js.map