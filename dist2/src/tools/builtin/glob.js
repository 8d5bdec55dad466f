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
exports.GlobTool = exports.GLOB_MAX_RESULTS = void 0;
// Glob: file paths matching a glob pattern, most recently modified first.
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
const zod_1 = require("zod");
const resultFilter_1 = require("../../permissions/resultFilter");
const Tool_1 = require("../Tool");
const globPattern_1 = require("./globPattern");
const paths_1 = require("./paths");
const fileAccess_1 = require("./fileAccess");
const walk_1 = require("./walk");
exports.GLOB_MAX_RESULTS = 100;
const inputSchema = zod_1.z.strictObject({
    pattern: zod_1.z
        .string()
        .describe('The glob pattern to match file paths against, e.g. "**/*.ts", "src/**/*.{ts,tsx}", "*.md" (top level only).'),
    path: zod_1.z
        .string()
        .optional()
        .describe('Directory to search in: absolute, or relative to the working directory. Omit it to search the working directory.'),
});
const PROMPT = `Fast file pattern matching for any codebase size.

Usage:
- Supports glob patterns like "**/*.js", "src/**/*.{ts,tsx}" or "test/unit/tools-*.test.ts": "*" and "?" never cross "/", "**" matches any number of directories, {a,b} gives alternatives, [abc] a character class. The pattern is matched against the whole path relative to the search directory, so "*.ts" only matches files directly in it; use "**/*.ts" to search recursively.
- Returns absolute file paths sorted by modification time, most recently modified first; at most ${exports.GLOB_MAX_RESULTS} are listed (the result says when it is truncated).
- Files ignored by .gitignore, and version-control directories such as .git, are skipped; hidden files are included.
- Use it to find files by name. To search file contents use Grep. You can run several searches in one turn: they run concurrently.`;
/**
 * The directory a pattern really searches, and the pattern relative to it: an absolute pattern's
 * literal prefix and leading `../` steps move the root (walked paths never start with "..").
 * One function for the search and for the permission check, so that both see the same directory.
 */
function splitSearch(root, rawPattern, join) {
    let pattern = rawPattern.replace(/^(\.\/)+/, '');
    if (path.isAbsolute(pattern)) {
        const { base, rest } = (0, globPattern_1.splitStaticPrefix)(pattern);
        root = base === '' ? '/' : base;
        pattern = rest;
    }
    while (pattern.startsWith('../')) {
        root = join(root, '..');
        pattern = pattern.slice(3).replace(/^(\.\/)+/, '');
    }
    return { root, pattern };
}
/** Search root (absolute) and root-relative pattern. */
function planSearch(input, cwd) {
    return splitSearch((0, paths_1.resolvePath)(cwd, input.path ?? '.'), input.pattern, (dir) => path.dirname(dir));
}
exports.GlobTool = (0, Tool_1.buildTool)({
    name: 'Glob',
    inputSchema,
    maxResultSizeChars: 100_000,
    prompt: () => PROMPT,
    summary: (input) => `Glob "${input.pattern}"${input.path ? ` in ${input.path}` : ''}`,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    isIdempotent: () => true,
    // The directory actually searched: an absolute pattern's literal prefix, and `../` steps of
    // the pattern move it up (so `../../*` is checked as the directory it reads, not as `.`).
    getPath: (input) => splitSearch(input.path ?? '.', input.pattern, path.join).root,
    observableInput: (input, cwd) => (0, paths_1.withAbsolutePath)(input, 'path', cwd),
    async validateInput(input, ctx) {
        if (input.pattern === '')
            return { result: false, message: 'pattern must not be empty', errorCode: 3 };
        if (input.path === undefined)
            return { result: true };
        const abs = (0, paths_1.resolvePath)(ctx.agent.cwd, input.path);
        try {
            const stat = await node_fs_1.promises.stat(abs);
            if (!stat.isDirectory())
                return { result: false, message: `Path is not a directory: ${input.path}`, errorCode: 2 };
        }
        catch (err) {
            if ((0, paths_1.isErrno)(err, 'ENOENT') || (0, paths_1.isErrno)(err, 'ENOTDIR')) {
                return { result: false, message: `Path does not exist: ${input.path}`, errorCode: 1 };
            }
            throw err;
        }
        return { result: true };
    },
    async call(input, ctx) {
        const started = Date.now();
        const { root, pattern } = planSearch(input, ctx.agent.cwd);
        const alternatives = (0, globPattern_1.expandBraces)(pattern);
        const regex = new RegExp(`^(?:${alternatives.map(globPattern_1.globToRegExpSource).join('|')})$`);
        const bases = alternatives.map((alt) => (0, globPattern_1.splitStaticPrefix)(alt).base);
        // Only walk directories that can lead to a match: on the way to, or below, a literal prefix.
        const descend = (relDir) => bases.some((b) => b === '' || b === relDir || b.startsWith(`${relDir}/`) || relDir.startsWith(`${b}/`));
        // Bound to the root the permission decision checked: its real path is judged once it is open,
        // and the walk below never follows a directory swapped for a symlink (walk.ts, safeFs.ts).
        const relOf = (abs) => path.relative(root, abs).split(path.sep).join('/');
        const walked = await (0, walk_1.walkFileStats)({
            root,
            signal: ctx.abortSignal,
            descend,
            rootCheck: (0, fileAccess_1.searchRootCheck)(ctx, 'Glob', root),
            statFile: (rel) => regex.test(rel),
        });
        const hidden = (0, resultFilter_1.hiddenPathFilter)('Glob', ctx);
        const withTimes = walked.filter((f) => regex.test(relOf(f.abs)) && !hidden?.(f.abs));
        const matches = withTimes;
        withTimes.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.abs < b.abs ? -1 : a.abs > b.abs ? 1 : 0));
        const filenames = withTimes.slice(0, exports.GLOB_MAX_RESULTS).map((f) => f.abs);
        return {
            data: {
                filenames,
                numFiles: filenames.length,
                totalMatches: matches.length,
                truncated: matches.length > filenames.length,
                durationMs: Date.now() - started,
            },
        };
    },
    mapToolResultToToolResultBlockParam(data, toolUseId) {
        let text = data.numFiles === 0 ? 'No files found' : data.filenames.join('\n');
        if (data.truncated) {
            text += `\n(Results are truncated: showing the ${data.numFiles} most recently modified of ${data.totalMatches} matching files. Use a more specific path or pattern.)`;
        }
        return { type: 'tool_result', tool_use_id: toolUseId, content: text };
    },
});
//# sourceMappingURL=glob.js.map