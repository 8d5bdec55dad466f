"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EditTool = void 0;
// Edit: exact string replacement in a file that the session has fully read.
const node_path_1 = require("node:path");
const zod_1 = require("zod");
const resultFilter_1 = require("../../permissions/resultFilter");
const Tool_1 = require("../Tool");
const safeFs_1 = require("../safeFs");
const fileAccess_1 = require("./fileAccess");
const fileState_1 = require("./fileState");
const patch_1 = require("./patch");
const paths_1 = require("./paths");
const read_1 = require("./read");
const SNIPPET_CONTEXT_LINES = 4;
const SNIPPET_MAX_LINES = 60;
const inputSchema = zod_1.z.strictObject({
    file_path: zod_1.z.string().describe('Path of the file to modify: absolute, or relative to the working directory.'),
    old_string: zod_1.z
        .string()
        .describe('The exact text to replace, character for character (indentation included). Must occur exactly once unless replace_all is true.'),
    new_string: zod_1.z.string().describe('The text to replace it with (must differ from old_string).'),
    replace_all: zod_1.z
        .boolean()
        .default(false)
        .describe('Replace every occurrence of old_string (default false). Useful to rename a variable throughout a file.'),
});
const PROMPT = `Performs exact string replacements in a file.

Usage:
- You must have read the whole file with Read in this session before editing it, and it must not have changed since (otherwise the edit fails: Read it again). A read with offset/limit that did not cover the whole file does not count.
- old_string must match the file exactly, including whitespace and indentation. Read shows lines as: line number, a tab, then the line; copy only what follows the tab.
- The edit fails if old_string is not found, or if it occurs more than once and replace_all is not set: then add surrounding lines to old_string to make it unique, or set replace_all to replace every occurrence.
- old_string and new_string must differ.
- With an empty old_string and a file_path that does not exist, the file is created with new_string as its content.
- Prefer editing existing files to creating new ones.`;
function countOccurrences(haystack, needle) {
    let n = 0;
    for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length))
        n++;
    return n;
}
/** All the checks of an edit, and its result. Run by validateInput and again by call(). */
async function plan(input, ctx, phase) {
    const hidden = (0, resultFilter_1.hiddenPathFilter)('Read', ctx);
    const { old_string: oldString, new_string: newString } = input;
    if (oldString === newString) {
        return { ok: false, message: 'No changes to make: old_string and new_string are exactly the same.', errorCode: 1 };
    }
    const abs = (0, paths_1.resolvePath)(ctx.agent.cwd, input.file_path);
    const stat = await (0, fileState_1.statOrNull)(abs);
    if (!stat) {
        if (oldString === '')
            return { ok: true, abs, create: true, updated: newString };
        const check = await (0, read_1.checkReadableFile)(input.file_path, ctx.agent.cwd, hidden, (0, fileAccess_1.searchRootCheck)(ctx, 'Edit', (0, node_path_1.dirname)(abs), 'validate'));
        return { ok: false, message: check.ok ? `File does not exist: ${input.file_path}.` : check.message, errorCode: 4 };
    }
    const readable = await (0, read_1.checkReadableFile)(input.file_path, ctx.agent.cwd, hidden, (0, fileAccess_1.searchRootCheck)(ctx, 'Edit', (0, node_path_1.dirname)(abs), 'validate'));
    if (!readable.ok)
        return { ok: false, message: readable.message, errorCode: 2 };
    const state = await (0, fileState_1.checkReadState)(ctx.agent, abs);
    if (!state.ok)
        return state;
    // The old content through a bound descriptor: neither the snippet nor a "not found" may come
    // from a file swapped in after the check (safeFs.ts).
    let raw;
    try {
        raw = (await (0, safeFs_1.readFileBound)(abs, (0, fileAccess_1.readCheck)(ctx, 'Edit', input.file_path, phase))).buf;
    }
    catch (err) {
        if ((0, safeFs_1.isAccessRefused)(err) && phase === 'validate')
            return { ok: true, deferred: true };
        throw err;
    }
    if (raw.includes(0))
        return {
            ok: false,
            message: `${input.file_path} looks binary (it contains NUL bytes); Edit only changes text files.`,
            errorCode: 5,
        };
    const original = raw.toString('utf8');
    if (oldString === '') {
        if (original.length > 0) {
            return {
                ok: false,
                message: 'Cannot create new file - file already exists. To change it, give the text to replace in old_string (or use Write to replace it whole).',
                errorCode: 3,
            };
        }
        return {
            ok: true,
            abs,
            create: false,
            original: '',
            updated: newString,
            crlf: false,
            firstIndex: 0,
            replacements: 1,
        };
    }
    // Files with Windows line endings: Read shows lines without '\r', so the model's strings use
    // '\n'. Match on a '\n' version and write '\r\n' back (only when every '\n' is a '\r\n').
    const crlf = original.includes('\r\n') && !/(^|[^\r])\n/.test(original) && !oldString.includes('\r');
    const text = crlf ? original.replace(/\r\n/g, '\n') : original;
    const firstIndex = text.indexOf(oldString);
    if (firstIndex === -1) {
        return { ok: false, message: `String to replace not found in file.\nString: ${oldString}`, errorCode: 8 };
    }
    const replacements = countOccurrences(text, oldString);
    if (replacements > 1 && !input.replace_all) {
        return {
            ok: false,
            message: `Found ${replacements} matches of the string to replace, but replace_all is false. ` +
                'To replace all occurrences, set replace_all to true. To replace only one occurrence, ' +
                'add more surrounding context to old_string so that it matches exactly one place.\n' +
                `String: ${oldString}`,
            errorCode: 9,
        };
    }
    const edited = input.replace_all
        ? text.split(oldString).join(newString)
        : text.slice(0, firstIndex) + newString + text.slice(firstIndex + oldString.length);
    return { ok: true, abs, create: false, original: text, updated: edited, crlf, firstIndex, replacements };
}
/** `cat -n` lines around the replacement that starts at `index` of the edited ('\n') text. */
function snippetAround(text, index, newString) {
    const lines = text.split('\n');
    const firstLine = text.slice(0, index).split('\n').length; // 1-based
    const lastLine = firstLine + Math.max(0, newString.split('\n').length - 1);
    const from = Math.max(1, firstLine - SNIPPET_CONTEXT_LINES);
    const to = Math.min(lines.length, lastLine + SNIPPET_CONTEXT_LINES, from + SNIPPET_MAX_LINES - 1);
    const out = [];
    for (let n = from; n <= to; n++) {
        let line = (lines[n - 1] ?? '').replace(/\r$/, '');
        if (line.length > read_1.READ_MAX_LINE_CHARS)
            line = `${line.slice(0, read_1.READ_MAX_LINE_CHARS)}… [line truncated]`;
        out.push((0, paths_1.formatNumberedLine)(n, line));
    }
    return out.join('\n');
}
exports.EditTool = (0, Tool_1.buildTool)({
    name: 'Edit',
    inputSchema,
    maxResultSizeChars: 100_000,
    prompt: () => PROMPT,
    summary: (input) => `Edit ${input.file_path}${input.replace_all ? ' (replace all)' : ''}`,
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    // Not idempotent: re-running "replace A by B" after it landed fails (A is gone) or, worse,
    // replaces another occurrence. The default (false unless read-only) is what we want.
    isIdempotent: () => false,
    getPath: (input) => input.file_path,
    observableInput: (input, cwd) => ({
        ...(0, paths_1.withAbsolutePath)(input, 'file_path', cwd),
        replace_all: input.replace_all ?? false,
    }),
    async validateInput(input, ctx) {
        if (input.file_path === '')
            return { result: false, message: 'file_path must not be empty', errorCode: 9 };
        const p = await plan(input, ctx, 'validate');
        return p.ok ? { result: true } : { result: false, message: p.message, errorCode: p.errorCode };
    },
    async call(input, ctx) {
        const p = await plan(input, ctx, 'call');
        if (!p.ok)
            throw new Error(p.message);
        if ('deferred' in p)
            throw new Error(`Edit could not open ${input.file_path}`);
        (0, paths_1.throwIfAborted)(ctx.abortSignal);
        // Written as Write does: a temp file in the bound directory, renamed into place (safeFs.ts).
        const content = p.create ? p.updated : p.crlf ? p.updated.replace(/\n/g, '\r\n') : p.updated;
        const written = await (0, safeFs_1.writeFileBound)(p.abs, content, (0, fileAccess_1.writeCheck)(ctx, input.file_path), { createParents: p.create });
        const mtimeMs = written.stat.mtimeMs;
        const data = {
            type: p.create ? 'create' : 'update',
            filePath: p.abs,
            replacements: p.create ? 1 : p.replacements,
            replaceAll: input.replace_all === true,
            snippet: snippetAround(p.updated, p.create ? 0 : p.firstIndex, input.new_string),
            mtimeMs,
        };
        if (ctx.fileChangeForHooks) {
            data.originalFile = p.create ? '' : p.original;
            data.structuredPatch = (0, patch_1.filePatch)(data.originalFile, p.updated);
        }
        return { data, contextModifiers: [{ type: 'fileWritten', path: p.abs, mtimeMs }] };
    },
    mapToolResultToToolResultBlockParam(data, toolUseId) {
        let text;
        if (data.type === 'create') {
            text = `File created successfully at: ${data.filePath}`;
        }
        else if (data.replaceAll && data.replacements > 1) {
            text =
                `The file ${data.filePath} has been updated. All ${data.replacements} occurrences of old_string were replaced with new_string. ` +
                    `Here's the result of running \`cat -n\` on a snippet around the first one:\n${data.snippet}`;
        }
        else {
            text = `The file ${data.filePath} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${data.snippet}`;
        }
        return { type: 'tool_result', tool_use_id: toolUseId, content: text };
    },
});
//# sourceMappingURL=edit.js.map