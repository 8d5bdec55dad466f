"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.WriteTool = void 0;
// Write: creates or overwrites a whole file. Overwriting needs a full, current read.
const node_fs_1 = require("node:fs");
const zod_1 = require("zod");
const Tool_1 = require("../Tool");
const safeFs_1 = require("../safeFs");
const fileAccess_1 = require("./fileAccess");
const fileState_1 = require("./fileState");
const patch_1 = require("./patch");
const paths_1 = require("./paths");
const inputSchema = zod_1.z.strictObject({
    file_path: zod_1.z
        .string()
        .describe('Path of the file to write: absolute, or relative to the working directory. Parent directories are created.'),
    content: zod_1.z.string().describe('The complete new content of the file.'),
});
const PROMPT = `Writes a file to the local filesystem, replacing its whole content.

Usage:
- file_path may be absolute or relative to the working directory; missing parent directories are created.
- Creating a new file needs no prior read. Overwriting an existing file requires that you have read the whole file with Read in this session and that it has not changed since; otherwise the call fails and you must Read it first.
- Prefer Edit for changing part of an existing file: it sends only the change.
- Do not create documentation or README files unless asked.`;
async function plan(input, ctx, phase) {
    const abs = (0, paths_1.resolvePath)(ctx.agent.cwd, input.file_path);
    const stat = await (0, fileState_1.statOrNull)(abs);
    if (!stat)
        return { ok: true, abs, exists: false, unchanged: false };
    if (stat.isDirectory())
        return { ok: false, message: `EISDIR: ${input.file_path} is a directory.`, errorCode: 2 };
    if (!stat.isFile())
        return { ok: false, message: `${input.file_path} is not a regular file.`, errorCode: 2 };
    // Writing what is already there is a no-op whatever the read state: this is what makes a
    // retried Write (after a lost worker, when its modifier was never applied) succeed. The
    // comparison reads the file through a bound descriptor: it must not become an oracle on a file
    // swapped in by a symlink. Refused before the decision: call() compares again.
    const exact = await (0, fileState_1.hasExactContent)(abs, stat.size, input.content, (0, fileAccess_1.readCheck)(ctx, 'Write', input.file_path, phase));
    if (exact === undefined && phase === 'validate')
        return { ok: true, abs, exists: true, unchanged: false };
    if (exact === undefined)
        throw new Error(`Refused to read ${input.file_path}: it is not the file the permission check covered (the file system changed after the check).`);
    if (exact)
        return { ok: true, abs, exists: true, unchanged: true };
    const state = await (0, fileState_1.checkReadState)(ctx.agent, abs);
    if (!state.ok)
        return state;
    return { ok: true, abs, exists: true, unchanged: false };
}
exports.WriteTool = (0, Tool_1.buildTool)({
    name: 'Write',
    inputSchema,
    maxResultSizeChars: 100_000,
    prompt: () => PROMPT,
    summary: (input) => {
        const lines = input.content === '' ? 0 : input.content.split('\n').length;
        return `Write ${input.file_path} (${lines} line${lines === 1 ? '' : 's'})`;
    },
    isReadOnly: () => false,
    isConcurrencySafe: () => false,
    // Write is idempotent: writing the same content again leaves the same state, and a repeated
    // call whose first attempt already landed finds the content in place and succeeds without
    // writing (see plan()). So a Write may be re-run after a lost worker.
    isIdempotent: () => true,
    getPath: (input) => input.file_path,
    observableInput: (input, cwd) => (0, paths_1.withAbsolutePath)(input, 'file_path', cwd),
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
        const bytes = Buffer.byteLength(input.content, 'utf8');
        const originalFile = !ctx.fileChangeForHooks
            ? undefined
            : p.exists
                ? (await (0, safeFs_1.readFileBound)(p.abs, (0, fileAccess_1.readCheck)(ctx, 'Write', input.file_path))).buf.toString('utf8')
                : null;
        let mtimeMs;
        if (!p.unchanged) {
            (0, paths_1.throwIfAborted)(ctx.abortSignal);
            // A temp file in the bound parent directory, renamed into place (safeFs.ts): a symlink
            // swapped in after the check is replaced, never written through.
            mtimeMs = (await (0, safeFs_1.writeFileBound)(p.abs, input.content, (0, fileAccess_1.writeCheck)(ctx, input.file_path), { createParents: true }))
                .stat.mtimeMs;
        }
        else {
            mtimeMs = (await node_fs_1.promises.stat(p.abs)).mtimeMs;
        }
        const data = {
            type: p.exists ? 'update' : 'create',
            filePath: p.abs,
            bytes,
            mtimeMs,
            ...(p.unchanged ? { unchanged: true } : {}),
            ...(originalFile === undefined
                ? {}
                : { originalFile, structuredPatch: originalFile === null ? [] : (0, patch_1.filePatch)(originalFile, input.content) }),
        };
        return { data, contextModifiers: [{ type: 'fileWritten', path: p.abs, mtimeMs }] };
    },
    mapToolResultToToolResultBlockParam(data, toolUseId) {
        const text = data.type === 'create'
            ? `File created successfully at: ${data.filePath}`
            : data.unchanged
                ? `The file ${data.filePath} already had exactly this content; nothing needed to be written.`
                : `The file ${data.filePath} has been updated successfully.`;
        return { type: 'tool_result', tool_use_id: toolUseId, content: text };
    },
});
//# sourceMappingURL=write.js.map