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
exports.ripgrepCommand = ripgrepCommand;
exports.runRipgrep = runRipgrep;
// The ripgrep Grep engine: `rg --json` with the reference's flags, parsed into structured hits.
//
// Bound to what the permission decision checked (src/tools/safeFs.ts): the target is opened here
// and its real path judged, and rg is pointed at that descriptor (its cwd is
// `/proc/<pid>/fd/<dir>`, or its file argument `/proc/<pid>/fd/<file>`), so it searches the very
// directory or file that was checked. Below the root rg opens files by name and could be raced
// (a directory swapped for a symlink between its readdir and its open), so nothing it reports is
// believed: every hit's lines are compared, byte for byte at their offsets, with the file read
// again through a bound descriptor whose real path must lie under the root. A hit that does not
// match what is really there is dropped (with a warning), never shown. rg is never told to follow
// symlinks (no --follow).
const node_child_process_1 = require("node:child_process");
const path = __importStar(require("node:path"));
const safeFs_1 = require("../safeFs");
const gitignore_1 = require("./gitignore");
const paths_1 = require("./paths");
const grepTypes_1 = require("./grepTypes");
function ripgrepCommand() {
    return process.env.DURABLE_AGENT_RG_PATH || 'rg';
}
// ---------------------------------------------------------------------------------------------
// ripgrep
const RG_MAX_STDOUT_BYTES = 64 * 1024 * 1024;
function rgArgs(q, target) {
    const args = [
        '--no-config',
        // Respect .gitignore even outside a git repository, and nothing else (no global gitignore,
        // no .git/info/exclude, no .ignore/.rgignore): exactly what the JavaScript engine does.
        '--no-require-git',
        '--no-ignore-global',
        '--no-ignore-exclude',
        '--no-ignore-dot',
        '--hidden',
        '--no-messages',
        '--color',
        'never',
        q.caseInsensitive ? '--ignore-case' : '--case-sensitive',
    ];
    if (q.multiline)
        args.push('--multiline', '--multiline-dotall');
    if (q.typeGlobs && q.typeGlobs.length > 0) {
        for (const g of q.typeGlobs)
            args.push('--type-add', `agentsel:${g}`);
        args.push('--type', 'agentsel');
    }
    for (const g of q.globs)
        args.push('--glob', g);
    for (const d of gitignore_1.VCS_DIRECTORIES)
        args.push('--glob', `!${d}`);
    // JSON in every mode: each hit carries its lines and their byte offsets, which are checked
    // against the file itself before anything is shown. A file list needs only the first match.
    args.push('--json');
    if (q.mode === 'files_with_matches')
        args.push('--max-count', '1');
    if (q.mode === 'content') {
        if (q.before > 0)
            args.push('--before-context', String(q.before));
        if (q.after > 0)
            args.push('--after-context', String(q.after));
    }
    args.push('--regexp', q.pattern, '--', target);
    return args;
}
function rgBytes(v) {
    if (!v)
        return Buffer.alloc(0);
    return typeof v.text === 'string' ? Buffer.from(v.text, 'utf8') : Buffer.from(v.bytes ?? '', 'base64');
}
function stripTerminator(s) {
    return s.endsWith('\n') ? s.slice(0, -1) : s;
}
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** Does every block rg reported stand at its offset in `content` (rg drops a UTF-8 byte-order mark)? */
function reportMatches(report, content) {
    const text = content.subarray(0, 3).equals(UTF8_BOM) ? content.subarray(3) : content;
    return report.blocks.every((b) => b.offset >= 0 && text.subarray(b.offset, b.offset + b.bytes.length).equals(b.bytes));
}
async function runRipgrep(q) {
    (0, paths_1.throwIfAborted)(q.signal);
    const access = q.access ?? grepTypes_1.OPEN_ACCESS;
    const viaProc = await (0, safeFs_1.hasProcFd)();
    // The target, opened and judged once; rg searches the descriptor.
    let file;
    let dir;
    let cwd;
    let target;
    if (q.targetIsFile) {
        file = await (0, safeFs_1.openFileBound)(q.target, access.root);
        cwd = path.dirname(q.target);
        target = viaProc ? `/proc/${process.pid}/fd/${file.fh.fd}` : file.real;
    }
    else {
        dir = await (0, safeFs_1.openDirBound)(q.target, access.root);
        // Override globs are relative to rg's working directory: run it in the searched directory.
        cwd = viaProc ? `/proc/${process.pid}/fd/${dir.fh.fd}` : dir.real;
        target = '.';
    }
    try {
        const reports = await spawnRipgrep(q, cwd, target);
        const warnings = reports.warnings;
        const under = access.under(file ? file.real : dir.real);
        const hits = [];
        // Not named: what rg saw through a swap may be a name from outside the root.
        let changed = 0;
        for (const [rel, report] of reports.files) {
            const abs = file ? q.target : path.resolve(q.target, rel);
            let content;
            try {
                content = file ? await file.fh.readFile() : (await (0, safeFs_1.readFileBound)(abs, under)).buf;
            }
            catch (err) {
                if (!(0, safeFs_1.isAccessRefused)(err) &&
                    !['ENOENT', 'ENOTDIR', 'EISDIR', 'ENOTREG', 'EACCES'].includes(err.code ?? ''))
                    throw err;
                changed++;
                continue;
            }
            if (!reportMatches(report, content)) {
                changed++;
                continue;
            }
            const hit = { path: abs, count: q.mode === 'count' ? report.matches : 0, lines: [] };
            if (q.mode === 'content') {
                const lines = new Map();
                for (const b of report.blocks) {
                    stripTerminator(b.bytes.toString('utf8'))
                        .split('\n')
                        .forEach((text, i) => {
                        const n = b.first + i;
                        const prev = lines.get(n);
                        lines.set(n, {
                            n,
                            text,
                            match: b.match || (prev?.match ?? false),
                            ...(q.onlyMatching ? { parts: prev?.parts ?? [] } : {}),
                        });
                    });
                    if (q.onlyMatching) {
                        for (const s of b.subs) {
                            if (s.text === '')
                                continue;
                            let n = b.first;
                            for (let k = b.bytes.indexOf(10); k !== -1 && k < s.start; k = b.bytes.indexOf(10, k + 1))
                                n++;
                            lines.get(n)?.parts?.push(s.text);
                        }
                    }
                }
                hit.lines = [...lines.values()].sort((a, b) => a.n - b.n);
            }
            hits.push(hit);
        }
        if (changed > 0)
            warnings.push(`${changed} file${changed === 1 ? '' : 's'} not shown: changed while searched`);
        return { engine: 'ripgrep', hits, warnings };
    }
    finally {
        await file?.fh.close().catch(() => undefined);
        await dir?.close();
    }
}
/** Runs rg; its JSON messages grouped by the path it printed. */
async function spawnRipgrep(q, cwd, target) {
    const child = (0, node_child_process_1.spawn)(ripgrepCommand(), rgArgs(q, target), { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    let outBytes = 0;
    let err = '';
    let tooBig = false;
    const onAbort = () => child.kill('SIGKILL');
    q.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (b) => {
        outBytes += b.length;
        if (outBytes > RG_MAX_STDOUT_BYTES) {
            tooBig = true;
            child.kill('SIGKILL');
            return;
        }
        out.push(b);
    });
    child.stderr.on('data', (b) => {
        if (err.length < 64 * 1024)
            err += b.toString('utf8');
    });
    const code = await new Promise((resolve, reject) => {
        child.on('error', reject);
        child.on('close', (c) => resolve(c));
    }).finally(() => q.signal.removeEventListener('abort', onAbort));
    (0, paths_1.throwIfAborted)(q.signal);
    if (tooBig) {
        throw new Error(`The search produced more than ${RG_MAX_STDOUT_BYTES / 1024 / 1024} MB of output; narrow it with path, glob, type or a more specific pattern.`);
    }
    const stdout = Buffer.concat(out).toString('utf8');
    const warnings = [];
    if (code === 2) {
        if (stdout === '') {
            const msg = err.trim() || 'ripgrep failed';
            if (/regex parse error|error parsing|literal .* is not allowed|unclosed|unrecognized/i.test(msg)) {
                throw new grepTypes_1.GrepPatternError(`Invalid regular expression: ${msg}`);
            }
            throw new Error(`ripgrep failed: ${msg}`);
        }
        if (err.trim())
            warnings.push(err.trim());
    }
    else if (code !== 0 && code !== 1) {
        throw new Error(`ripgrep exited with code ${code}: ${err.trim()}`);
    }
    const files = new Map();
    for (const line of stdout.split('\n')) {
        if (line === '')
            continue;
        const msg = JSON.parse(line);
        if (msg.type !== 'match' && msg.type !== 'context' && msg.type !== 'end')
            continue;
        const p = rgBytes(msg.data.path).toString('utf8');
        let report = files.get(p);
        if (msg.type === 'end') {
            if (report)
                report.matches = msg.data.stats?.matches ?? report.matches;
            continue;
        }
        if (!report)
            files.set(p, (report = { blocks: [], matches: 0 }));
        report.blocks.push({
            offset: msg.data.absolute_offset ?? -1,
            bytes: rgBytes(msg.data.lines),
            first: msg.data.line_number ?? 0,
            match: msg.type === 'match',
            subs: (msg.data.submatches ?? []).map((s) => ({
                start: s.start ?? 0,
                text: rgBytes(s.match).toString('utf8'),
            })),
        });
    }
    // A file with only context lines has no match (rg prints none such, but be exact).
    for (const [p, r] of files)
        if (!r.blocks.some((b) => b.match))
            files.delete(p);
    return { files, warnings };
}
//# sourceMappingURL=grepRipgrep.js.map