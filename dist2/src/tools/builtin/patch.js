"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.filePatch = filePatch;
// The hunks of a file change, in the shape Claude Code's Write and Edit report them to hooks
// (`structuredPatch`): 3 lines of context, `-`/`+`/` ` prefixed lines, `\ No newline at end of
// file` markers. Computed only when a PostToolUse hook will see the call (ToolUseContext).
const diff_1 = require("diff");
const CONTEXT_LINES = 3;
/** A diff that takes longer than this is given as one hunk replacing the whole file. */
const DIFF_TIMEOUT_MS = 1000;
function splitLines(text) {
    if (text === '')
        return [];
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '')
        lines.pop();
    return lines;
}
/** The whole file replaced: what a diff that timed out is reported as. */
function wholeFileHunk(before, after) {
    const oldL = splitLines(before);
    const newL = splitLines(after);
    const lines = [
        ...oldL.map((l) => `-${l}`),
        ...(before !== '' && !before.endsWith('\n') ? ['\\ No newline at end of file'] : []),
    ];
    lines.push(...newL.map((l) => `+${l}`), ...(after !== '' && !after.endsWith('\n') ? ['\\ No newline at end of file'] : []));
    return [{ oldStart: 1, oldLines: oldL.length, newStart: 1, newLines: newL.length, lines }];
}
/** The hunks that turn `before` into `after` ([] when they are equal). */
function filePatch(before, after) {
    if (before === after)
        return [];
    const patch = (0, diff_1.structuredPatch)('a', 'b', before, after, undefined, undefined, {
        context: CONTEXT_LINES,
        timeout: DIFF_TIMEOUT_MS,
    });
    if (!patch)
        return wholeFileHunk(before, after);
    return patch.hunks.map((h) => ({
        oldStart: h.oldStart,
        oldLines: h.oldLines,
        newStart: h.newStart,
        newLines: h.newLines,
        lines: h.lines,
    }));
}
//# sourceMappingURL=patch.js.map