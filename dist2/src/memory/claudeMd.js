"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.BINARY_EXTENSIONS = exports.LARGE_MEMORY_CHARS = exports.MAX_IMPORT_HOPS = exports.MAX_IMPORT_DEPTH = void 0;
exports.claudeConfigDir = claudeConfigDir;
exports.managedMemoryPath = managedMemoryPath;
exports.withoutCode = withoutCode;
exports.splitFrontmatter = splitFrontmatter;
exports.hasPathsCondition = hasPathsCondition;
exports.withoutHtmlComments = withoutHtmlComments;
exports.memoryText = memoryText;
exports.importsOf = importsOf;
exports.memoryCandidates = memoryCandidates;
exports.excludedBy = excludedBy;
exports.loadMemory = loadMemory;
exports.memoryReminder = memoryReminder;
exports.sha256 = sha256;
// Memory (`CLAUDE.md`) the way the reference (Claude Code 2.1.197) loads it: managed, user
// (`~/.claude/CLAUDE.md`, then `~/.claude/rules/**/*.md`), then every directory from the filesystem
// root down to the working directory (`CLAUDE.md`, `.claude/CLAUDE.md`, `.claude/rules/**/*.md`,
// `CLAUDE.local.md`), each file followed by the files it imports with `@path` (relative to the
// importing file, `~/…` or absolute; at most 4 hops; never inside code spans or fenced blocks; a
// project file's import outside the working directory is not followed). YAML frontmatter and
// block-level HTML comments are dropped from the text; a rule whose frontmatter has `paths:` is
// loaded by the reference only when matching files are read, and is not loaded here. Files closer
// to the working directory come later: the model weighs later instructions more.
//
// Loud configuration (invariant 12): an import that is missing, outside the project, a cycle, or
// beyond the depth limit, and a path-conditional rule, are reported (a warning naming the file),
// never silently dropped.
//
// The loader runs in the worker, outside the sandbox, and what it reads goes to the model: so every
// file is read through a descriptor bound to its real path (src/tools/safeFs.ts), and a file whose
// real path is a credential file (the sandbox's list) or is covered by a Read deny rule is never
// read, whatever symlink led there; a project import or rule must really lie inside the working
// directories (a symlink out is not followed, as the reference does not). A file refused is a
// warning naming it, never an error.
const node_crypto_1 = require("node:crypto");
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const paths_1 = require("../permissions/paths");
const credentials_1 = require("../permissions/credentials");
const safeFs_1 = require("../tools/safeFs");
/**
 * The reference's MAX_INCLUDE_DEPTH: a root file is depth 0 and a file at depth 5 is not read, so
 * an import chain is at most 4 hops long (checked against Claude Code 2.1.197).
 */
exports.MAX_IMPORT_DEPTH = 5;
/** The longest import chain that is loaded (root → 4 imports). */
exports.MAX_IMPORT_HOPS = exports.MAX_IMPORT_DEPTH - 1;
/** The reference warns above this many characters of memory ("may impact performance"). */
exports.LARGE_MEMORY_CHARS = 40_000;
function claudeConfigDir() {
    return process.env.CLAUDE_CONFIG_DIR ? (0, node_path_1.resolve)(process.env.CLAUDE_CONFIG_DIR) : (0, node_path_1.join)((0, node_os_1.homedir)(), '.claude');
}
function managedMemoryPath() {
    if (process.env.DURABLE_AGENT_MANAGED_MEMORY)
        return (0, node_path_1.resolve)(process.env.DURABLE_AGENT_MANAGED_MEMORY);
    if (process.platform === 'darwin')
        return '/Library/Application Support/ClaudeCode/CLAUDE.md';
    if (process.platform === 'win32')
        return 'C:\\ProgramData\\ClaudeCode\\CLAUDE.md';
    return '/etc/claude-code/CLAUDE.md';
}
/** Text with fenced code blocks and inline code spans blanked out (same length, newlines kept). */
function withoutCode(text) {
    const blank = (s) => s.replace(/[^\n]/g, ' ');
    let out = text.replace(/^( {0,3})(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:\n {0,3}\2[^\n]*(?=\n|$)|$)/gm, blank);
    out = out.replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, blank);
    return out;
}
/** Leading YAML frontmatter (`---` … `---`), split off: the reference never shows it to the model. */
function splitFrontmatter(text) {
    const m = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
    return m ? { frontmatter: m[1], body: text.slice(m[0].length) } : { body: text };
}
/** Whether a rule's frontmatter has a non-empty `paths:` (the reference loads such a rule only when matching files are read). */
function hasPathsCondition(frontmatter) {
    if (frontmatter === undefined)
        return false;
    const m = /^paths[ \t]*:[ \t]*(.*)$/m.exec(frontmatter);
    if (!m)
        return false;
    const inline = m[1].trim();
    if (inline !== '')
        return !/^(\[\s*\]|""|''|~|null)$/.test(inline);
    // A block list: `paths:` followed by `  - item` lines.
    const after = frontmatter.slice((m.index ?? 0) + m[0].length);
    return /^\n[ \t]*-[ \t]*\S/.test(after);
}
/** Block-level HTML comments (`<!-- … -->` starting a line, outside code) removed, as the reference does. */
function withoutHtmlComments(text) {
    const code = withoutCode(text);
    let out = '';
    let last = 0;
    const re = /^[ \t]{0,3}<!--[\s\S]*?-->[ \t]*(?:\r?\n|$)/gm;
    for (let m = re.exec(code); m; m = re.exec(code)) {
        // Inside code the blanked text has no `<!--`, so every match is outside code.
        out += text.slice(last, m.index);
        last = m.index + m[0].length;
    }
    return out + text.slice(last);
}
/** What the model sees of a memory file: without frontmatter and block-level HTML comments. */
function memoryText(raw) {
    return withoutHtmlComments(splitFrontmatter(raw).body);
}
/**
 * The `@path` imports of a memory file's text, in order (not inside code). As the reference: `@`
 * at the start of a line or after whitespace, the path runs to the next whitespace (`\ ` escapes
 * a space), a `#fragment` is dropped; nothing else is trimmed, so `@a.md,` names `a.md,`.
 */
function importsOf(text) {
    const found = [];
    const re = /(?:^|\s)@((?:[^\s\\]|\\ )+)/g;
    const scan = withoutCode(text);
    for (let m = re.exec(scan); m; m = re.exec(scan)) {
        let p = m[1].replace(/\\ /g, ' ');
        const hash = p.indexOf('#');
        if (hash !== -1)
            p = p.slice(0, hash);
        if (!p || p === '/')
            continue;
        if (!(p.startsWith('./') || p.startsWith('~/') || p.startsWith('/') || /^[A-Za-z0-9._-]/.test(p)))
            continue;
        found.push(p);
    }
    return found;
}
/** File types the reference never imports into memory (its binary-extension list, Claude Code 2.1.197). */
exports.BINARY_EXTENSIONS = new Set(('png jpg jpeg gif bmp ico webp tiff tif mp4 mov avi mkv webm wmv flv m4v mpeg mpg mp3 wav ogg flac aac m4a wma aiff opus ' +
    'zip tar gz bz2 7z rar xz z tgz iso exe dll so dylib bin o a obj lib app msi deb rpm pdf doc docx xls xlsx ppt pptx odt ods odp ' +
    'ttf otf woff woff2 eot pyc pyo class jar war ear node wasm rlib sqlite sqlite3 db mdb idx psd ai eps sketch fig xd blend 3ds max ' +
    'swf fla lockb dat data')
    .split(' ')
    .map((e) => `.${e}`));
function binaryExtension(path) {
    const m = /\.[^./]+$/.exec(path);
    return m !== null && exports.BINARY_EXTENSIONS.has(m[0].toLowerCase());
}
/** A spec that looks like a path (a slash or a file extension), not a mention like `@alice`. */
function looksLikePath(spec) {
    return spec.includes('/') || /\.[A-Za-z0-9]+$/.test(spec);
}
/**
 * Reads a memory file through a bound descriptor (safeFs.ts). `within`: directories its real path
 * must lie in (the working directories for a project import, its own directory for a project rule).
 */
function readMemoryFile(path, policy, within) {
    let refusal;
    try {
        const { buf } = (0, safeFs_1.readFileBoundSync)(path, (real) => {
            if ((0, credentials_1.isCredentialPath)(real, policy.home))
                refusal = `it is a credential file (${real})`;
            else if (policy.readDenied?.(real) || policy.readDenied?.(path))
                refusal = `a Read deny rule covers it (${real})`;
            else if (within && !(0, paths_1.insideWorkingDirs)([real], within))
                refusal = `it resolves to ${real}, outside ${within.join(', ')} (as Claude Code, a symlink out of the project is not followed)`;
            return refusal;
        });
        // A byte-order mark (an editor on Windows) is not text (the reference drops it too).
        const text = buf.toString('utf8');
        return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
    }
    catch (err) {
        if ((0, safeFs_1.isAccessRefused)(err))
            return { refused: refusal ?? err.message };
        return { missing: true };
    }
}
/** Only whether a regular file is there (followed), nothing read. */
function isFileThere(path) {
    try {
        return (0, node_fs_1.statSync)(path).isFile();
    }
    catch {
        return false;
    }
}
function resolveImport(spec, from, home) {
    if (spec === '~' || spec.startsWith('~/'))
        return (0, node_path_1.join)(home, spec.slice(1));
    return (0, node_path_1.isAbsolute)(spec) ? spec : (0, node_path_1.resolve)((0, node_path_1.dirname)(from), spec);
}
function inside(path, dir) {
    const r = (0, node_path_1.relative)(dir, path);
    return r === '' || (!r.startsWith(`..${node_path_1.sep}`) && r !== '..' && !(0, node_path_1.isAbsolute)(r));
}
/** `.md` files under a rules directory, depth first in directory order (as the reference lists them). */
function ruleFiles(dir) {
    let entries;
    try {
        entries = (0, node_fs_1.readdirSync)(dir, { withFileTypes: true });
    }
    catch {
        return [];
    }
    const out = [];
    for (const e of entries) {
        const p = (0, node_path_1.join)(dir, e.name);
        if (e.isDirectory())
            out.push(...ruleFiles(p));
        else if (e.name.endsWith('.md') && (e.isFile() || (e.isSymbolicLink() && isFileThere(p))))
            out.push(p);
    }
    return out;
}
/** The candidate files in discovery order (lowest priority first). */
function memoryCandidates(cwd, opts = {}) {
    const configDir = opts.configDir ?? claudeConfigDir();
    const out = [
        { path: opts.managed ?? managedMemoryPath(), type: 'managed' },
        { path: (0, node_path_1.join)(configDir, 'CLAUDE.md'), type: 'user' },
        ...ruleFiles((0, node_path_1.join)(configDir, 'rules')).map((path) => ({ path, type: 'user', rule: true })),
    ];
    const dirs = [];
    const root = (0, node_path_1.parse)((0, node_path_1.resolve)(cwd)).root;
    // From the working directory up to, not including, the filesystem root (as the reference).
    for (let d = (0, node_path_1.resolve)(cwd); d !== root; d = (0, node_path_1.dirname)(d))
        dirs.unshift(d);
    for (const d of dirs) {
        out.push({ path: (0, node_path_1.join)(d, 'CLAUDE.md'), type: 'project' }, { path: (0, node_path_1.join)(d, '.claude', 'CLAUDE.md'), type: 'project' });
        out.push(...ruleFiles((0, node_path_1.join)(d, '.claude', 'rules')).map((path) => ({
            path,
            type: 'project',
            rule: true,
            base: d,
        })));
        out.push({ path: (0, node_path_1.join)(d, 'CLAUDE.local.md'), type: 'local' });
    }
    return out;
}
/**
 * `claudeMdExcludes`: globs (or absolute paths) matched against a file's absolute path, as the
 * reference (`**` spans directories, dot directories included).
 */
function excludedBy(patterns) {
    const res = patterns.map((p) => new RegExp(`^${(0, paths_1.globToRegex)(p)}$`, 's'));
    return (path) => res.some((re) => re.test(path));
}
function loadMemory(cwd, opts = {}) {
    const home = opts.home ?? (0, node_os_1.homedir)();
    const excluded = excludedBy(opts.excludes ?? []);
    const project = (0, node_path_1.resolve)(cwd);
    const files = [];
    const warnings = [];
    const seen = new Set();
    const policy = {
        home,
        workingDirectories: opts.workingDirectories ?? [project],
        ...(opts.readDenied ? { readDenied: opts.readDenied } : {}),
    };
    const refusedWarning = (path, why, importedBy, spec) => importedBy ? `${importedBy}: @import ${spec ?? path} is not loaded: ${why}` : `${path}: not loaded: ${why}`;
    /** `within`: directories the file's real path must lie in (a project import or rule). */
    const visit = (path, type, depth, chain, importedBy, spec, within) => {
        // The managed memory (and what it imports) cannot be excluded (as the reference).
        if (type !== 'managed' && excluded(path))
            return;
        if (seen.has(path)) {
            if (chain.includes(path))
                warnings.push(`${importedBy ?? path}: @import ${path} is a cycle (${[...chain, path].join(' -> ')}); it is loaded once`);
            return;
        }
        const read = readMemoryFile(path, policy, within);
        if ('missing' in read) {
            if (importedBy && spec !== undefined && looksLikePath(spec))
                warnings.push(`${importedBy}: @import ${path} was not found; it is not loaded`);
            return;
        }
        if ('refused' in read) {
            warnings.push(refusedWarning(path, read.refused, importedBy, spec));
            return;
        }
        const raw = read.text;
        seen.add(path);
        files.push({ path, type, content: memoryText(raw), ...(importedBy ? { importedBy } : {}) });
        // User and managed memory may import any file; a project file only files inside the working
        // directory (the reference asks before following such an import; an unattended run cannot).
        const external = type === 'user' || type === 'managed';
        for (const s of importsOf(withoutHtmlComments(splitFrontmatter(raw).body))) {
            const target = resolveImport(s, path, home);
            if (depth + 1 >= exports.MAX_IMPORT_DEPTH) {
                warnings.push(`${path}: @import ${s} is nested more than ${exports.MAX_IMPORT_HOPS} imports deep; it is not loaded`);
                continue;
            }
            if (binaryExtension(target) && isFileThere(target)) {
                warnings.push(`${path}: @import ${s} is a binary file type; it is not loaded (as Claude Code)`);
                continue;
            }
            if (!external && !inside(target, project) && isFileThere(target)) {
                warnings.push(`${path}: @import ${s} is outside the working directory ${project}; it is not loaded (as Claude Code without approval of external imports)`);
                continue;
            }
            // A project import that looks inside but resolves outside (a symlink, or a symlinked
            // directory on the way) is refused on its real path when it is read.
            visit(target, type, depth + 1, [...chain, path], path, s, external ? undefined : policy.workingDirectories);
        }
    };
    for (const c of memoryCandidates(cwd, opts)) {
        if (c.type !== 'managed' && excluded(c.path))
            continue;
        // A project rule must really lie in the project: the reference does not read a rule that is a
        // symlink out of it (nor a rules directory that is one). CLAUDE.md and CLAUDE.local.md
        // themselves are followed wherever they lead, as the reference, but never to a credential file.
        const within = c.base === undefined ? undefined : [c.base];
        if (c.rule) {
            const read = readMemoryFile(c.path, policy, within);
            if ('text' in read && !seen.has(c.path) && hasPathsCondition(splitFrontmatter(read.text).frontmatter)) {
                warnings.push(`${c.path}: a rule with paths: in its frontmatter is loaded by Claude Code only when matching files are read; durable-agent does not load it`);
                continue;
            }
        }
        visit(c.path, c.type, 0, [], undefined, undefined, within);
    }
    // Claude Code's auto memory index for this directory: the reference loads it; durable-agent does not (docs/settings.md).
    const auto = (0, node_path_1.join)(opts.configDir ?? claudeConfigDir(), 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), 'memory', 'MEMORY.md');
    if (isFileThere(auto))
        warnings.push(`${auto}: Claude Code's auto memory is not loaded by durable-agent (its sessions neither read nor write it)`);
    const chars = files.reduce((n, f) => n + f.content.length, 0);
    if (chars > exports.LARGE_MEMORY_CHARS)
        warnings.push(`memory: ${chars} characters of CLAUDE.md files (${files.map((f) => f.path).join(', ')}); above ${exports.LARGE_MEMORY_CHARS} the reference warns that large memory costs context`);
    return { files, warnings };
}
const DESCRIPTIONS = {
    managed: 'managed policy instructions for all users',
    user: "user's private global instructions for all projects",
    project: 'project instructions, checked into the codebase',
    local: "user's private project instructions, not checked in",
};
/**
 * The memory as the reference hands it to the model: a `<system-reminder>` at the start of the
 * first user message ("claudeMd" user context), one section per file.
 */
function memoryReminder(files) {
    if (files.length === 0)
        return '';
    const sections = files.map((f) => `Contents of ${f.path} (${DESCRIPTIONS[f.type]}):\n\n${f.content.trim()}`);
    return [
        '<system-reminder>',
        "As you answer the user's questions, you can use the following context:",
        '# claudeMd',
        'Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.',
        '',
        sections.join('\n\n'),
        '',
        'IMPORTANT: this context may or may not be relevant to your tasks. You should not respond to this context unless it is highly relevant to your task.',
        '</system-reminder>',
    ].join('\n');
}
function sha256(text) {
    return (0, node_crypto_1.createHash)('sha256').update(text).digest('hex');
}
//# sourceMappingURL=claudeMd.js.map