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
exports.walkFiles = walkFiles;
exports.walkFileStats = walkFileStats;
// Directory walk shared by Glob and the JavaScript Grep engine: skips VCS directories and
// symbolic links (as ripgrep does without --follow), honours .gitignore (see gitignore.ts),
// checks the abort signal between directories. The walk is bound to what it opened
// (src/tools/safeFs.ts): the root is opened once and its real path judged by `rootCheck`, and
// every directory below is opened through its parent's descriptor without following a symlink,
// so a directory swapped for a symlink mid-walk is skipped, never walked into.
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
const safeFs_1 = require("../safeFs");
const gitignore_1 = require("./gitignore");
const paths_1 = require("./paths");
const VCS = new Set(gitignore_1.VCS_DIRECTORIES);
/** Absolute paths of the regular files under `root` that survive the filters. */
async function walkFiles(options) {
    return (await walkFileStats(options)).map((f) => f.abs);
}
/** walkFiles with the mtimes `statFile` asks for. Paths are `root` joined with what was walked. */
async function walkFileStats(options) {
    const { root, signal } = options;
    const respect = options.respectGitignore !== false;
    const files = [];
    const baseSets = respect ? await (0, gitignore_1.loadParentIgnores)(root) : [];
    const visit = async (dir, bound, sets) => {
        (0, paths_1.throwIfAborted)(signal);
        let dirents;
        try {
            dirents = await node_fs_1.promises.readdir(bound.at, { withFileTypes: true });
        }
        catch {
            return; // unreadable directory: skipped, as ripgrep does (it reports on stderr)
        }
        let here = sets;
        if (respect && dirents.some((d) => d.name === '.gitignore')) {
            const own = await (0, gitignore_1.loadIgnoreFile)(dir, bound.at);
            if (own)
                here = [...sets, own];
        }
        dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        const subdirs = [];
        for (const d of dirents) {
            if (d.isSymbolicLink())
                continue;
            const isDir = d.isDirectory();
            if (!isDir && !d.isFile())
                continue;
            if (VCS.has(d.name))
                continue; // a `.git` file (worktree, submodule) too, like rg --glob !.git
            const abs = path.join(dir, d.name);
            const entry = { abs, rel: (0, paths_1.relPosix)(root, abs), name: d.name, isDir };
            const forced = options.override?.(entry);
            if (forced === 'exclude')
                continue;
            if (forced !== 'include' && respect && (0, gitignore_1.matchIgnore)(here, abs, isDir) === true)
                continue;
            if (isDir) {
                if (!options.descend || options.descend(entry.rel))
                    subdirs.push(d.name);
            }
            else if (options.statFile?.(entry.rel)) {
                let mtimeMs;
                try {
                    const st = await node_fs_1.promises.lstat(path.join(bound.at, d.name));
                    if (!st.isFile())
                        continue; // swapped since readdir
                    mtimeMs = st.mtimeMs;
                }
                catch {
                    continue; // gone since readdir
                }
                files.push({ abs, mtimeMs });
            }
            else {
                files.push({ abs, mtimeMs: 0 });
            }
        }
        for (const name of subdirs) {
            let child;
            try {
                child = await (0, safeFs_1.openChildDir)(bound, name);
            }
            catch {
                continue; // gone, or swapped for a symlink since readdir: not walked into
            }
            try {
                await visit(path.join(dir, name), child, here);
            }
            finally {
                await child.close();
            }
        }
    };
    let top;
    try {
        top = await (0, safeFs_1.openDirBound)(root, options.rootCheck ?? (() => undefined));
    }
    catch (err) {
        const code = err.code;
        if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES')
            return files; // nothing to walk
        throw err;
    }
    try {
        await visit(root, top, baseSets);
    }
    finally {
        await top.close();
    }
    return files;
}
//# sourceMappingURL=walk.js.map