"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MODIFIED_MESSAGE = exports.PARTIAL_READ_MESSAGE = exports.NOT_READ_MESSAGE = void 0;
exports.checkReadState = checkReadState;
exports.statOrNull = statOrNull;
exports.hasExactContent = hasExactContent;
// The "read before you write" rule shared by Edit and Write: the session must have read the
// whole file (ctx.agent.readFiles, fed by Read's `fileRead` modifiers) and the file must not have
// changed since (same mtime). Checked in validateInput AND again in call(): in durable mode an
// approval can keep a call waiting for hours between the two.
const node_fs_1 = require("node:fs");
const safeFs_1 = require("../safeFs");
const paths_1 = require("./paths");
exports.NOT_READ_MESSAGE = 'File has not been read yet. Read it first before writing to it.';
exports.PARTIAL_READ_MESSAGE = 'File has only been partially read (with offset/limit, or it was longer than one page). Read the whole file first (pass a larger limit if it has more lines than the default page) before writing to it.';
exports.MODIFIED_MESSAGE = 'File has been modified since it was read, either by the user, a linter or another command. Read it again before writing to it.';
async function checkReadState(agent, abs) {
    const state = agent.readFiles[abs];
    if (!state)
        return { ok: false, message: exports.NOT_READ_MESSAGE, errorCode: 6 };
    if (state.partial)
        return { ok: false, message: exports.PARTIAL_READ_MESSAGE, errorCode: 6 };
    const stat = await node_fs_1.promises.stat(abs);
    if (stat.mtimeMs !== state.mtimeMs)
        return { ok: false, message: exports.MODIFIED_MESSAGE, errorCode: 7 };
    return { ok: true };
}
/** The file's stats, or null when it does not exist. */
async function statOrNull(abs) {
    try {
        return await node_fs_1.promises.stat(abs);
    }
    catch (err) {
        if ((0, paths_1.isErrno)(err, 'ENOENT'))
            return null;
        throw err;
    }
}
/**
 * Does the existing file hold exactly `content` (UTF-8)? Cheap when the sizes differ. Read
 * through a descriptor bound by `check`; undefined when `check` refused what was opened.
 */
async function hasExactContent(abs, size, content, check) {
    if (Buffer.byteLength(content, 'utf8') !== size)
        return false;
    try {
        return (await (0, safeFs_1.readFileBound)(abs, check)).buf.equals(Buffer.from(content, 'utf8'));
    }
    catch (err) {
        if ((0, safeFs_1.isAccessRefused)(err))
            return undefined;
        throw err;
    }
}
//# sourceMappingURL=fileState.js.map