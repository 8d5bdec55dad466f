"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.stdioCommands = stdioCommands;
exports.fileFingerprint = fileFingerprint;
exports.mcpServerFiles = mcpServerFiles;
exports.pinMcpServers = pinMcpServers;
exports.changedPins = changedPins;
exports.pinChange = pinChange;
// The files a stdio MCP server runs from the session's working directories, pinned at the start.
// The worker starts a server outside the sandbox, as its user, when a session first needs it and
// again after the server crashed: a server whose command line names a file the agent could write
// (`node ./server.js`, `./bin/mcp`, `python -m pkg`, `npx tsx ./x.ts`, a local `node_modules`
// copy of an `npx` package) would otherwise run whatever the session wrote there. Those files are
// protected paths of the session (src/permissions/protectedPaths.ts mcpServerControlFiles: the
// file tools ask, the sandbox denies, writes are named); here, their content is recorded when the
// session starts (`pinnedFiles`, in the session input) and checked by the manager before every
// start, so a file changed since then (an approved Write, bypassPermissions, the user) stops the
// server from starting in that session with an error naming the file, instead of running it.
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const protectedPaths_1 = require("../permissions/protectedPaths");
const config_1 = require("./config");
/** The stdio servers' command lines (remote servers run nothing here). */
function stdioCommands(servers) {
    return Object.values(servers ?? {}).flatMap((s) => (0, config_1.isRemoteMcpServer)(s) ? [] : [{ command: s.command, ...(s.args ? { args: s.args } : {}) }]);
}
/** Entries a directory's fingerprint reads at most (a local package, a python package). */
const MAX_TREE_ENTRIES = 2_000;
/** Bytes a fingerprint hashes at most; past it a file counts by size and mtime. */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;
function hashFile(path, st, budget) {
    if (st.size > budget.bytes)
        return `large:${st.size}:${st.mtimeMs}`;
    budget.bytes -= st.size;
    const h = (0, node_crypto_1.createHash)('sha256');
    // O_NOFOLLOW: the path was a regular file at lstat; a link put there since is not followed.
    const fd = (0, node_fs_1.openSync)(path, node_fs_1.constants.O_RDONLY | node_fs_1.constants.O_NOFOLLOW | node_fs_1.constants.O_NONBLOCK);
    try {
        const buf = Buffer.alloc(1 << 20);
        for (;;) {
            const n = (0, node_fs_1.readSync)(fd, buf, 0, buf.length, null);
            if (n === 0)
                break;
            h.update(buf.subarray(0, n));
        }
    }
    finally {
        (0, node_fs_1.closeSync)(fd);
    }
    return `sha256:${h.digest('hex')}`;
}
function treeHash(dir, budget) {
    const h = (0, node_crypto_1.createHash)('sha256');
    let left = MAX_TREE_ENTRIES;
    const walk = (d, rel, depth) => {
        let names;
        try {
            names = (0, node_fs_1.readdirSync)(d).sort();
        }
        catch {
            return;
        }
        for (const name of names) {
            if (--left < 0)
                return;
            const p = (0, node_path_1.join)(d, name);
            const r = rel ? `${rel}/${name}` : name;
            let st;
            try {
                st = (0, node_fs_1.lstatSync)(p);
            }
            catch {
                continue;
            }
            if (st.isDirectory()) {
                h.update(`d ${r}\n`);
                if (depth < 12)
                    walk(p, r, depth + 1);
            }
            else if (st.isSymbolicLink())
                h.update(`l ${r} ${safe(() => (0, node_fs_1.readlinkSync)(p))}\n`);
            else if (st.isFile())
                h.update(`f ${r} ${st.mode & 0o111 ? 'x' : '-'} ${safe(() => hashFile(p, st, budget))}\n`);
            else
                h.update(`o ${r}\n`);
        }
    };
    walk(dir, '', 0);
    return `tree:${h.digest('hex')}${left < 0 ? ':truncated' : ''}`;
}
function safe(f) {
    try {
        return f();
    }
    catch {
        return 'unreadable';
    }
}
/**
 * What a path is now, to compare with a pin: `absent`, a file's sha256 (and whether it is
 * executable), a directory's tree (names, kinds, file hashes; bounded), a link's target and what
 * it leads to.
 */
function fileFingerprint(path, budget = { bytes: MAX_HASHED_BYTES }) {
    let st;
    try {
        st = (0, node_fs_1.lstatSync)(path);
    }
    catch {
        return 'absent';
    }
    if (st.isSymbolicLink()) {
        const target = safe(() => (0, node_fs_1.readlinkSync)(path));
        let real;
        try {
            real = (0, node_fs_1.realpathSync)(path);
        }
        catch {
            real = undefined;
        }
        return `link:${target}:${real === undefined ? 'absent' : fileFingerprint(real, budget)}`;
    }
    if (st.isDirectory())
        return treeHash(path, budget);
    if (st.isFile())
        return `${st.mode & 0o111 ? 'x' : '-'}${safe(() => hashFile(path, st, budget))}`;
    return 'other';
}
/**
 * The files one stdio server runs from the working directories (cwd: where it is started). The
 * local copy of a package runner's package is included even when absent (a copy planted later is
 * what `npx` would run), unlike in the protected paths, where an absent one would mask `node_modules`.
 */
function mcpServerFiles(server, cwd, dirs) {
    return (0, protectedPaths_1.mcpServerControlFiles)([{ command: server.command, ...(server.args ? { args: server.args } : {}) }], cwd, dirs, undefined, () => true);
}
/**
 * The servers with the files each one runs from the working directories pinned (`pinnedFiles`:
 * path → fingerprint, absent ones included, so that a file created later is seen too). A server
 * already pinned (a subagent's, a continued session's) keeps its pins. `cwd`: where the worker
 * starts the servers (the session's first working directory).
 */
function pinMcpServers(servers, cwd, dirs) {
    const out = {};
    const roots = [...new Set([cwd, ...dirs].map((d) => (0, node_path_1.resolve)(d)))];
    for (const [name, s] of Object.entries(servers)) {
        if ((0, config_1.isRemoteMcpServer)(s) || s.pinnedFiles) {
            out[name] = s;
            continue;
        }
        const files = mcpServerFiles(s, cwd, roots);
        out[name] =
            files.length > 0 ? { ...s, pinnedFiles: Object.fromEntries(files.map((f) => [f, fileFingerprint(f)])) } : s;
    }
    return out;
}
/** The pinned files that are not what they were when the session started, and how. */
function changedPins(pinned) {
    const out = [];
    for (const [path, was] of Object.entries(pinned ?? {})) {
        const now = fileFingerprint(path);
        if (now !== was)
            out.push({ path, change: pinChange(was, now) });
    }
    return out;
}
/** How a pinned file changed, for messages (never its content). */
function pinChange(was, now) {
    return was === 'absent' ? 'created' : now === 'absent' ? 'deleted' : 'modified';
}
//# sourceMappingURL=pins.js.map