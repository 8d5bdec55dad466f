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
exports.compileJsRegex = compileJsRegex;
exports.runJavaScript = runJavaScript;
// The JavaScript Grep engine, used where ripgrep is not installed: the same walk (.gitignore,
// VCS directories, globs, types) and the same structured hits as ripgrep. Bound to what the
// permission decision checked (src/tools/safeFs.ts): the root is opened and judged once, the
// walk never follows a directory swapped for a symlink, and each file is read through a
// descriptor whose real path must lie under the root's.
const path = __importStar(require("node:path"));
const safeFs_1 = require("../safeFs");
const gitignore_1 = require("./gitignore");
const globPattern_1 = require("./globPattern");
const paths_1 = require("./paths");
const walk_1 = require("./walk");
const grepTypes_1 = require("./grepTypes");
// ---------------------------------------------------------------------------------------------
// JavaScript fallback
const JS_MAX_FILE_BYTES = 100 * 1024 * 1024;
const JS_CONCURRENCY = 8;
/**
 * Compiles a ripgrep (Rust regex) pattern as a JavaScript RegExp. Translates the differences
 * that commonly matter: `(?P<name>` groups, leading inline flags like `(?i)`, `\A` and `\z`.
 */
function compileJsRegex(pattern, opts) {
    let src = pattern;
    let flags = 'g';
    if (opts.caseInsensitive)
        flags += 'i';
    if (opts.multiline)
        flags += 'ms';
    const lead = /^\(\?([imsxU]+)\)/.exec(src);
    if (lead) {
        src = src.slice(lead[0].length);
        for (const f of lead[1]) {
            if (f === 'i' && !flags.includes('i'))
                flags += 'i';
            if (f === 's' && !flags.includes('s'))
                flags += 's';
            if (f === 'm' && !flags.includes('m'))
                flags += 'm';
        }
    }
    src = src
        .replace(/\(\?P</g, '(?<')
        .replace(/\\A/g, '^')
        .replace(/\\z/g, '$(?![\\s\\S])');
    try {
        return new RegExp(src, `${flags}u`);
    }
    catch {
        try {
            return new RegExp(src, flags);
        }
        catch (err) {
            const message = err.message;
            throw new grepTypes_1.GrepPatternError(message.startsWith('Invalid regular expression') ? message : `Invalid regular expression: ${message}`);
        }
    }
}
/** Match spans, skipping an empty match right where the previous match ended (as Rust's regex does). */
function matchSpans(re, s, max = Infinity) {
    const spans = [];
    re.lastIndex = 0;
    let prevEnd = -1;
    while (spans.length < max) {
        const m = re.exec(s);
        if (!m)
            break;
        const start = m.index;
        const end = start + m[0].length;
        if (end === start) {
            // Step over a whole code point: in unicode mode a lastIndex inside a surrogate pair backs up
            // to the pair's start, and the same empty match would come back forever (e.g. '' on '🌍').
            const c = s.charCodeAt(start);
            const pair = re.unicode &&
                c >= 0xd800 &&
                c <= 0xdbff &&
                start + 1 < s.length &&
                (s.charCodeAt(start + 1) & 0xfc00) === 0xdc00;
            re.lastIndex = start + (pair ? 2 : 1);
            if (start === prevEnd) {
                if (start >= s.length)
                    break;
                continue;
            }
        }
        spans.push([start, end]);
        prevEnd = end;
        if (start >= s.length)
            break;
    }
    return spans;
}
function compileOverrides(globs) {
    const out = [];
    for (const g of globs) {
        const whitelist = !g.startsWith('!');
        const rules = (0, gitignore_1.parseIgnorePattern)(whitelist ? g : g.slice(1), { braces: true });
        for (const rule of rules ?? [])
            out.push({ rule, whitelist });
    }
    return out;
}
/** ripgrep's --glob semantics: last matching glob wins and beats .gitignore; with any
 * whitelist glob, a file matching none is skipped; directories matching none fall through. */
function overrideDecision(rules, entry) {
    let decision;
    for (const { rule, whitelist } of rules) {
        if (rule.dirOnly && !entry.isDir)
            continue;
        if (rule.regex.test(entry.rel))
            decision = whitelist ? 'include' : 'exclude';
    }
    if (decision === undefined && !entry.isDir && rules.some((r) => r.whitelist))
        return 'exclude';
    return decision;
}
async function listCandidateFiles(q, rootReal) {
    if (q.targetIsFile)
        return [q.target]; // an explicit file is always searched, like rg
    const overrides = compileOverrides(q.globs);
    const typeRes = (q.typeGlobs ?? []).map((g) => (0, globPattern_1.globToRegExp)(g, { braces: true }));
    const forced = new Set();
    const files = await (0, walk_1.walkFiles)({
        root: q.target,
        signal: q.signal,
        // The same directory that was judged a moment ago, or nothing.
        rootCheck: (real) => (real === rootReal ? undefined : `the search root changed while it was searched (${real})`),
        override: (entry) => {
            const d = overrideDecision(overrides, entry);
            if (d === 'include' && !entry.isDir)
                forced.add(entry.abs);
            return d;
        },
    });
    if (typeRes.length === 0)
        return files;
    // A file selected by a glob is not filtered by type (ripgrep checks types only when no glob matched).
    return files.filter((f) => forced.has(f) || typeRes.some((re) => re.test(path.basename(f))));
}
function searchText(text, re, q) {
    let lines = text.split('\n');
    if (lines.length > 0 && lines[lines.length - 1] === '')
        lines = lines.slice(0, -1);
    const matched = new Set(); // 0-based line indexes
    const parts = new Map(); // onlyMatching: line index → matched texts
    const addPart = (i, s) => {
        if (s === '')
            return;
        const list = parts.get(i);
        if (list)
            list.push(s);
        else
            parts.set(i, [s]);
    };
    let count = 0;
    const wantAll = q.mode !== 'files_with_matches';
    if (q.multiline) {
        const spans = matchSpans(re, text, wantAll ? Infinity : 1);
        if (spans.length === 0)
            return null;
        count = spans.length;
        if (q.mode === 'content') {
            const starts = [0];
            for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1))
                starts.push(i + 1);
            const lineOf = (offset) => {
                let lo = 0;
                let hi = starts.length - 1;
                while (lo < hi) {
                    const mid = (lo + hi + 1) >> 1;
                    if (starts[mid] <= offset)
                        lo = mid;
                    else
                        hi = mid - 1;
                }
                return lo;
            };
            for (const [s, e] of spans) {
                const first = lineOf(s);
                const last = lineOf(e > s ? e - 1 : s);
                for (let i = first; i <= Math.min(last, lines.length - 1); i++)
                    matched.add(i);
                if (q.onlyMatching)
                    addPart(first, text.slice(s, e));
            }
        }
    }
    else {
        for (let i = 0; i < lines.length; i++) {
            const spans = matchSpans(re, lines[i], wantAll ? Infinity : 1);
            const n = spans.length;
            if (n === 0)
                continue;
            if (q.onlyMatching && q.mode === 'content')
                for (const [s, e] of spans)
                    addPart(i, lines[i].slice(s, e));
            count += n;
            matched.add(i);
            if (!wantAll)
                break;
        }
        if (count === 0)
            return null;
    }
    const hit = { path: '', count: q.mode === 'count' ? count : 0, lines: [] };
    if (q.mode === 'content') {
        const shown = new Set(matched);
        for (const i of matched) {
            for (let j = Math.max(0, i - q.before); j <= Math.min(lines.length - 1, i + q.after); j++)
                shown.add(j);
        }
        hit.lines = [...shown]
            .sort((a, b) => a - b)
            .map((i) => ({
            n: i + 1,
            text: lines[i],
            match: matched.has(i),
            ...(q.onlyMatching ? { parts: parts.get(i) ?? [] } : {}),
        }));
    }
    return hit;
}
async function runJavaScript(q) {
    const re = compileJsRegex(q.pattern, { caseInsensitive: q.caseInsensitive, multiline: q.multiline });
    const access = q.access ?? grepTypes_1.OPEN_ACCESS;
    let check;
    let rootReal = q.target;
    if (q.targetIsFile) {
        check = access.root;
    }
    else {
        const root = await (0, safeFs_1.openDirBound)(q.target, access.root);
        rootReal = root.real;
        await root.close();
        check = access.under(rootReal);
    }
    const files = await listCandidateFiles(q, rootReal);
    const hits = [];
    const warnings = [];
    let next = 0;
    let changed = 0;
    const worker = async () => {
        // Each worker needs its own RegExp: lastIndex is state.
        const myRe = new RegExp(re.source, re.flags);
        while (next < files.length) {
            (0, paths_1.throwIfAborted)(q.signal);
            const file = files[next++];
            let buf;
            try {
                const { fh, stat } = await (0, safeFs_1.openFileBound)(file, check);
                try {
                    if (stat.size > JS_MAX_FILE_BYTES) {
                        warnings.push(`${file}: skipped (larger than ${JS_MAX_FILE_BYTES} bytes)`);
                        continue;
                    }
                    buf = await fh.readFile();
                }
                finally {
                    await fh.close();
                }
            }
            catch (err) {
                if ((0, safeFs_1.isAccessRefused)(err))
                    changed++;
                continue; // unreadable: skipped, as rg --no-messages does
            }
            if (buf.includes(0))
                continue; // binary (ripgrep stops searching a file at a NUL byte)
            let text = buf.toString('utf8');
            if (text.charCodeAt(0) === 0xfeff)
                text = text.slice(1);
            const hit = searchText(text, myRe, q);
            if (hit) {
                hit.path = file;
                hits.push(hit);
            }
        }
    };
    await Promise.all(Array.from({ length: Math.min(JS_CONCURRENCY, files.length) }, worker));
    if (changed > 0)
        warnings.push(`${changed} file${changed === 1 ? '' : 's'} not searched: changed while searched`);
    return { engine: 'javascript', hits, warnings };
}
//# sourceMappingURL=grepJs.js.map