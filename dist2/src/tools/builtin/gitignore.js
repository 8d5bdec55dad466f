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
exports.VCS_DIRECTORIES = void 0;
exports.parseIgnorePattern = parseIgnorePattern;
exports.parseIgnoreFile = parseIgnoreFile;
exports.matchIgnore = matchIgnore;
exports.loadIgnoreFile = loadIgnoreFile;
exports.loadParentIgnores = loadParentIgnores;
// .gitignore support for Glob and the JavaScript Grep engine (same rules ripgrep applies with
// `--no-require-git`): .gitignore files in the searched directory, in every directory below it,
// and in every parent directory; blank lines and '#' comments skipped; '!' re-includes; a
// trailing '/' matches directories only; a pattern with a '/' at its start or middle is anchored
// to the .gitignore's directory, otherwise it matches at any depth; last matching rule wins.
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
const globPattern_1 = require("./globPattern");
const paths_1 = require("./paths");
/** Version-control directories never searched (as the reference passes `--glob !.git` etc.). */
exports.VCS_DIRECTORIES = ['.git', '.svn', '.hg', '.bzr', '.jj', '.sl'];
/** Parses one gitignore-style pattern; null for blank lines and comments. */
function parseIgnorePattern(line, options = {}) {
    let s = line.replace(/\r$/, '');
    if (s === '' || s.startsWith('#'))
        return null;
    // Trailing spaces are ignored unless escaped with a backslash.
    s = s.replace(/(?<!\\)\s+$/, '');
    if (s === '')
        return null;
    let negate = false;
    if (s.startsWith('!')) {
        negate = true;
        s = s.slice(1);
    }
    else if (s.startsWith('\\!') || s.startsWith('\\#')) {
        s = s.slice(1);
    }
    let dirOnly = false;
    if (s.endsWith('/') && !s.endsWith('\\/')) {
        dirOnly = true;
        s = s.replace(/\/+$/, '');
    }
    if (s === '')
        return null;
    const alternatives = options.braces ? (0, globPattern_1.expandBraces)(s) : [s];
    return alternatives.map((alt) => {
        let p = alt;
        const anchored = p.slice(0, -1).includes('/') || p.startsWith('/');
        if (p.startsWith('/'))
            p = p.slice(1);
        if (!anchored && !p.startsWith('**/'))
            p = `**/${p}`;
        return { regex: new RegExp(`^(?:${(0, globPattern_1.globToRegExpSource)(p)})$`), negate, dirOnly };
    });
}
function parseIgnoreFile(text) {
    const rules = [];
    for (const line of text.split('\n')) {
        const parsed = parseIgnorePattern(line);
        if (parsed)
            rules.push(...parsed);
    }
    return rules;
}
/**
 * Decision for `abs` given rule sets ordered outermost first: true = ignored,
 * false = explicitly re-included, undefined = no rule matched.
 */
function matchIgnore(sets, abs, isDir) {
    let decision;
    for (const set of sets) {
        const rel = (0, paths_1.relPosix)(set.base, abs);
        if (rel === '' || rel.startsWith('../') || rel === '..')
            continue;
        for (const rule of set.rules) {
            if (rule.dirOnly && !isDir)
                continue;
            if (rule.regex.test(rel))
                decision = !rule.negate;
        }
    }
    return decision;
}
/**
 * Reads `<dir>/.gitignore` (null when absent or unreadable). `readFrom` reaches the same directory
 * through a bound descriptor (walk.ts); the file itself is not followed when it is a symlink there.
 */
async function loadIgnoreFile(dir, readFrom) {
    try {
        const text = readFrom === undefined
            ? await node_fs_1.promises.readFile(path.join(dir, '.gitignore'), 'utf8')
            : await node_fs_1.promises.readFile(path.join(readFrom, '.gitignore'), {
                encoding: 'utf8',
                flag: node_fs_1.constants.O_RDONLY | node_fs_1.constants.O_NOFOLLOW | node_fs_1.constants.O_NONBLOCK,
            });
        const rules = parseIgnoreFile(text);
        return rules.length > 0 ? { base: dir, rules } : null;
    }
    catch (err) {
        if (['ENOENT', 'ENOTDIR', 'EACCES', 'EISDIR', 'ELOOP', 'EAGAIN'].some((c) => (0, paths_1.isErrno)(err, c)))
            return null;
        throw err;
    }
}
/** .gitignore rule sets of every strict ancestor of `dir`, outermost first. */
async function loadParentIgnores(dir) {
    const ancestors = [];
    let cur = path.dirname(dir);
    let prev = dir;
    while (cur !== prev) {
        ancestors.unshift(cur);
        prev = cur;
        cur = path.dirname(cur);
    }
    const sets = await Promise.all(ancestors.map((a) => loadIgnoreFile(a)));
    return sets.filter((s) => s !== null);
}
//# sourceMappingURL=gitignore.js.map