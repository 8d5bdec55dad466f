"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.AccessRefusedError = void 0;
exports.isAccessRefused = isAccessRefused;
exports.hasProcFd = hasProcFd;
exports.openFileBound = openFileBound;
exports.readFileBound = readFileBound;
exports.openDirBound = openDirBound;
exports.openChildDir = openChildDir;
exports.lstatIn = lstatIn;
exports.writeFileBound = writeFileBound;
exports.readFileBoundSync = readFileBoundSync;
// Descriptor-bound file access (invariant 13: every check binds to what is actually opened).
// A path is checked, then opened; anything that can change the file system in between (a
// sandboxed Bash loop, a parallel subagent) could swap the file, or a directory on the way to it,
// for a symlink and make the open land somewhere the check never saw. So nothing here opens a
// path and trusts it: each function opens first, asks the kernel what it really opened (the
// descriptor's real path, `/proc/self/fd/N` on Linux), and only then lets the caller's check
// decide — and afterwards works on the descriptor (or on the directory it holds) only.
//
// Linux: the real path of a descriptor is exact, and `/proc/self/fd/N/name` reaches a name inside
// the very directory held open (as openat/mkdirat/renameat do), so a swap cannot win.
// Elsewhere (macOS: node has no F_GETPATH): the last component is never followed blindly
// (O_NOFOLLOW), and the descriptor's device and inode must equal those found at its real path;
// a directory swapped and swapped back between those two steps is not detected (docs/tools.md).
//
// The checks themselves (what a session may open) are the caller's: see builtin/fileAccess.ts.
const node_fs_1 = require("node:fs");
const node_crypto_1 = require("node:crypto");
const path = __importStar(require("node:path"));
/** The check refused what was opened (or a swap was seen): nothing was read or written. */
class AccessRefusedError extends Error {
    realPath;
    code = 'EACCESREFUSED';
    constructor(message, realPath) {
        super(message);
        this.realPath = realPath;
        this.name = 'AccessRefusedError';
    }
}
exports.AccessRefusedError = AccessRefusedError;
function isAccessRefused(err) {
    return err instanceof AccessRefusedError;
}
const O_NOFOLLOW = node_fs_1.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = node_fs_1.constants.O_NONBLOCK ?? 0;
const O_DIRECTORY = node_fs_1.constants.O_DIRECTORY ?? 0;
// Reading a FIFO must not hang the worker: O_NONBLOCK makes the open return at once (and the
// fstat then refuses it); on a regular file it changes nothing.
const READ_FLAGS = node_fs_1.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
const DIR_FLAGS = node_fs_1.constants.O_RDONLY | O_DIRECTORY;
let procFd;
/** Does this system name descriptors under /proc/self/fd (Linux)? Probed once. */
async function hasProcFd() {
    if (procFd === undefined) {
        if (process.platform !== 'linux')
            procFd = false;
        else {
            try {
                const fh = await node_fs_1.promises.open('/', DIR_FLAGS);
                try {
                    procFd = (await node_fs_1.promises.readlink(`/proc/self/fd/${fh.fd}`)) === '/';
                }
                finally {
                    await fh.close();
                }
            }
            catch {
                procFd = false;
            }
        }
    }
    return procFd;
}
function errno(err) {
    return typeof err === 'object' && err !== null ? err.code : undefined;
}
function swapMessage(given, real, why) {
    return `Refused to open ${given}: it resolved to ${real} when opened. ${why}`;
}
/**
 * The real path of what `fh` holds. Linux: the kernel's answer. Elsewhere: the real path of the
 * name it was opened by, accepted only when the same device and inode are found there.
 */
async function realPathOf(fh, openedAs, stat) {
    if (await hasProcFd())
        return node_fs_1.promises.readlink(`/proc/self/fd/${fh.fd}`);
    const real = await node_fs_1.promises.realpath(openedAs);
    const there = await node_fs_1.promises.stat(real);
    if (there.dev !== stat.dev || there.ino !== stat.ino) {
        throw new AccessRefusedError(swapMessage(openedAs, real, 'The file there is not the one that was opened: the path changed while it was opened.'), real);
    }
    return real;
}
async function refuseUnless(fh, given, real, check) {
    const why = check(real);
    if (why !== undefined) {
        await fh.close().catch(() => undefined);
        throw new AccessRefusedError(swapMessage(given, real, why), real);
    }
}
/**
 * Opens a regular file for reading, bound to what was opened: the last component is not
 * followed blindly (a symlink there is resolved once, by name, and its target opened without
 * following), the descriptor's real path must pass `check`, and only then is it looked at: a
 * directory or a non-regular file (FIFO, device, socket) is refused without blocking.
 * The caller reads from `fh` only, and closes it.
 */
async function openFileBound(abs, check) {
    let fh;
    let openedAs = abs;
    try {
        fh = await node_fs_1.promises.open(abs, READ_FLAGS);
    }
    catch (err) {
        // The last component is a symlink (ELOOP; EMLINK on some BSDs): follow it once by name. The
        // descriptor's real path decides below whether what it led to may be read.
        if (errno(err) !== 'ELOOP' && errno(err) !== 'EMLINK')
            throw err;
        openedAs = await node_fs_1.promises.realpath(abs);
        fh = await node_fs_1.promises.open(openedAs, READ_FLAGS);
    }
    try {
        const stat = await fh.stat();
        const real = await realPathOf(fh, openedAs, stat);
        await refuseUnless(fh, abs, real, check);
        if (stat.isDirectory())
            throw Object.assign(new Error(`EISDIR: ${abs} is a directory, not a file.`), { code: 'EISDIR' });
        if (!stat.isFile())
            throw Object.assign(new Error(`${abs} is not a regular file (device, socket or pipe).`), { code: 'ENOTREG' });
        return { fh, real, stat };
    }
    catch (err) {
        await fh.close().catch(() => undefined);
        throw err;
    }
}
/** A whole regular file read through a bound descriptor. */
async function readFileBound(abs, check) {
    const { fh, real, stat } = await openFileBound(abs, check);
    try {
        return { buf: await fh.readFile(), real, stat };
    }
    finally {
        await fh.close();
    }
}
async function bindDir(fh, openedAs) {
    try {
        const stat = await fh.stat();
        if (!stat.isDirectory())
            throw Object.assign(new Error(`ENOTDIR: ${openedAs} is not a directory`), { code: 'ENOTDIR' });
        const real = await realPathOf(fh, openedAs, stat);
        const at = (await hasProcFd()) ? `/proc/self/fd/${fh.fd}` : real;
        return { fh, real, at, close: () => fh.close().catch(() => undefined) };
    }
    catch (err) {
        await fh.close().catch(() => undefined);
        throw err;
    }
}
/** Opens a directory (symlinks on the way are followed) and binds it; `check` judges its real path. */
async function openDirBound(abs, check) {
    const dir = await bindDir(await node_fs_1.promises.open(abs, DIR_FLAGS), abs);
    const why = check(dir.real);
    if (why !== undefined) {
        await dir.close();
        throw new AccessRefusedError(swapMessage(abs, dir.real, why), dir.real);
    }
    return dir;
}
/** A subdirectory of a bound directory, opened through it; a symlink there is refused (ELOOP/ENOTDIR). */
async function openChildDir(parent, name) {
    const fh = await node_fs_1.promises.open(path.join(parent.at, name), DIR_FLAGS | O_NOFOLLOW);
    return bindDir(fh, path.join(parent.real, name));
}
/** lstat of a name inside a bound directory (not followed). */
function lstatIn(dir, name) {
    return node_fs_1.promises.lstat(path.join(dir.at, name));
}
/**
 * The parent directory for a write, bound; missing directories are created one by one, each
 * through the descriptor of the one before and never through a symlink. `check` judges the real
 * path the file will have BEFORE anything is created, and again once the directory is bound.
 */
async function openParentForWrite(dirAbs, name, check, create) {
    const missing = [];
    let cur = dirAbs;
    let dir;
    for (;;) {
        try {
            dir = await bindDir(await node_fs_1.promises.open(cur, DIR_FLAGS), cur);
            break;
        }
        catch (err) {
            const parent = path.dirname(cur);
            if (!create || errno(err) !== 'ENOENT' || parent === cur)
                throw err;
            missing.unshift(path.basename(cur));
            cur = parent;
        }
    }
    const prospective = path.join(dir.real, ...missing, name);
    const why = check(prospective);
    if (why !== undefined) {
        await dir.close();
        throw new AccessRefusedError(swapMessage(path.join(dirAbs, name), prospective, why), prospective);
    }
    for (const part of missing) {
        try {
            await node_fs_1.promises.mkdir(path.join(dir.at, part));
        }
        catch (err) {
            if (errno(err) !== 'EEXIST') {
                await dir.close();
                throw err;
            }
        }
        let child;
        try {
            child = await openChildDir(dir, part);
        }
        finally {
            await dir.close();
        }
        dir = child;
    }
    return dir;
}
const MAX_LINK_HOPS = 40;
/**
 * Writes a whole file bound to the directory it lands in. A symlink at the given name is followed
 * (by name, as writeFile would) to its target; then the target's parent directory is bound (and
 * created through bound descriptors when `createParents`), the final real path must pass `check`,
 * the content goes to a new temp file created there with O_CREAT|O_EXCL|O_NOFOLLOW, and a rename
 * puts it in place. A rename replaces whatever the final name is at that moment — a symlink or a
 * hard link swapped in is replaced, never written through.
 *
 * What a rename changes (docs/tools.md): the file gets a new inode, so other hard links keep the
 * old content; its mode is copied from the old file (permission bits), its owner too when the
 * worker may (root), extended attributes and ACLs are not. When the directory does not let us
 * create the temp file (EACCES, EPERM, EROFS) but the file itself is writable, the file is
 * rewritten in place through the bound directory with O_NOFOLLOW.
 */
async function writeFileBound(abs, data, check, opts = {}) {
    let target = abs;
    for (let hops = 0;; hops++) {
        let st;
        try {
            st = await node_fs_1.promises.lstat(target);
        }
        catch (err) {
            if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR')
                break;
            throw err;
        }
        if (!st.isSymbolicLink())
            break;
        if (hops >= MAX_LINK_HOPS)
            throw Object.assign(new Error(`ELOOP: too many symbolic links at ${abs}`), { code: 'ELOOP' });
        target = path.resolve(path.dirname(target), await node_fs_1.promises.readlink(target));
    }
    const name = path.basename(target);
    const dir = await openParentForWrite(path.dirname(target), name, check, opts.createParents === true);
    try {
        const finalReal = path.join(dir.real, name);
        const why = check(finalReal);
        if (why !== undefined)
            throw new AccessRefusedError(swapMessage(abs, finalReal, why), finalReal);
        let before;
        try {
            before = await lstatIn(dir, name);
        }
        catch (err) {
            if (errno(err) !== 'ENOENT')
                throw err;
        }
        if (before?.isDirectory())
            throw Object.assign(new Error(`EISDIR: ${abs} is a directory.`), { code: 'EISDIR' });
        if (before && !before.isFile() && !before.isSymbolicLink())
            throw Object.assign(new Error(`${abs} is not a regular file.`), { code: 'ENOTREG' });
        const keep = before?.isFile() ? before : undefined;
        const tmpName = `.${name.slice(0, 100)}.${(0, node_crypto_1.randomBytes)(6).toString('hex')}.tmp`;
        let tmp;
        try {
            tmp = await node_fs_1.promises.open(path.join(dir.at, tmpName), node_fs_1.constants.O_WRONLY | node_fs_1.constants.O_CREAT | node_fs_1.constants.O_EXCL | O_NOFOLLOW, 0o666);
        }
        catch (err) {
            if (keep && ['EACCES', 'EPERM', 'EROFS'].includes(errno(err) ?? ''))
                return await rewriteInPlace(dir, name, abs, data, check);
            throw err;
        }
        let renamed = false;
        try {
            const tmpReal = await realPathOf(tmp, path.join(dir.real, tmpName), await tmp.stat());
            if (tmpReal !== path.join(dir.real, tmpName)) {
                throw new AccessRefusedError(swapMessage(abs, tmpReal, 'The temporary file did not land in the checked directory.'), tmpReal);
            }
            if (keep) {
                await tmp.chmod(keep.mode & 0o777);
                if (process.getuid?.() === 0 && (keep.uid !== 0 || keep.gid !== 0))
                    await tmp.chown(keep.uid, keep.gid).catch(() => undefined);
            }
            await tmp.writeFile(data);
            await node_fs_1.promises.rename(path.join(dir.at, tmpName), path.join(dir.at, name));
            renamed = true;
            return { real: finalReal, stat: await tmp.stat(), created: before === undefined };
        }
        finally {
            await tmp.close().catch(() => undefined);
            if (!renamed)
                await node_fs_1.promises.unlink(path.join(dir.at, tmpName)).catch(() => undefined);
        }
    }
    finally {
        await dir.close();
    }
}
/** The fallback of writeFileBound when no temp file can be made: the file itself, through the bound directory, not followed. */
async function rewriteInPlace(dir, name, abs, data, check) {
    const fh = await node_fs_1.promises.open(path.join(dir.at, name), node_fs_1.constants.O_WRONLY | O_NOFOLLOW | O_NONBLOCK);
    try {
        const stat = await fh.stat();
        const real = await realPathOf(fh, path.join(dir.real, name), stat);
        await refuseUnless(fh, abs, real, check);
        if (!stat.isFile())
            throw Object.assign(new Error(`${abs} is not a regular file.`), { code: 'ENOTREG' });
        await fh.truncate(0);
        await fh.writeFile(data);
        return { real, stat: await fh.stat(), created: false };
    }
    finally {
        await fh.close().catch(() => undefined);
    }
}
/**
 * readFileBound for synchronous callers (the memory loader runs before a session starts): the
 * same steps — not followed blindly, the descriptor's real path judged, then read from it.
 */
function readFileBoundSync(abs, check) {
    let fd;
    let openedAs = abs;
    try {
        fd = (0, node_fs_1.openSync)(abs, READ_FLAGS);
    }
    catch (err) {
        if (errno(err) !== 'ELOOP' && errno(err) !== 'EMLINK')
            throw err;
        openedAs = node_fs_1.realpathSync.native(abs);
        fd = (0, node_fs_1.openSync)(openedAs, READ_FLAGS);
    }
    try {
        const stat = (0, node_fs_1.fstatSync)(fd);
        let real;
        if (process.platform === 'linux' && procFd !== false) {
            try {
                real = (0, node_fs_1.readlinkSync)(`/proc/self/fd/${fd}`);
                procFd ??= true;
            }
            catch {
                procFd = false;
            }
        }
        if (real === undefined) {
            real = node_fs_1.realpathSync.native(openedAs);
            const there = (0, node_fs_1.statSync)(real);
            if (there.dev !== stat.dev || there.ino !== stat.ino) {
                throw new AccessRefusedError(swapMessage(abs, real, 'The file there is not the one that was opened: the path changed while it was opened.'), real);
            }
        }
        const why = check(real);
        if (why !== undefined)
            throw new AccessRefusedError(swapMessage(abs, real, why), real);
        if (stat.isDirectory())
            throw Object.assign(new Error(`EISDIR: ${abs} is a directory, not a file.`), { code: 'EISDIR' });
        if (!stat.isFile())
            throw Object.assign(new Error(`${abs} is not a regular file (device, socket or pipe).`), { code: 'ENOTREG' });
        return { buf: (0, node_fs_1.readFileSync)(fd), real };
    }
    finally {
        (0, node_fs_1.closeSync)(fd);
    }
}
//# sourceMappingURL=safeFs.js.map