"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readCheck = readCheck;
exports.writeCheck = writeCheck;
exports.searchRootCheck = searchRootCheck;
exports.underRootCheck = underRootCheck;
// What a file tool may open, judged on the REAL path of what it opened (src/tools/safeFs.ts
// binds every open to it). The permission decision looked at a path's forms (logical, real,
// physical); the pipeline hands those to call() as ctx.permittedPaths. A real path among them is
// what the decision covered. Any other real path means the file system changed between the check
// and the open (a symlink swapped in, a directory replaced): a read may still go on when the new
// place passes the read checks themselves (inside the working directories, no Read deny/ask rule,
// not a credential file), a write never.
const matcher_1 = require("../../permissions/matcher");
const paths_1 = require("../../permissions/paths");
const resultFilter_1 = require("../../permissions/resultFilter");
const credentials_1 = require("../../permissions/credentials");
/** The forms the decision covered; outside the pipeline (a direct call()), the forms right now. */
function covered(ctx, given, fallbackNow) {
    if (ctx.permittedPaths)
        return ctx.permittedPaths;
    return fallbackNow ? (0, paths_1.pathForms)(given, ctx.agent.cwd) : [(0, paths_1.resolveLogical)(given, ctx.agent.cwd)];
}
const CHANGED = 'The permission check was made for another path: the file system changed between the check and the open (e.g. a symlink was swapped in), so nothing was read.';
/** The read checks for a real path the decision did not see; undefined when it passes. */
function readPolicy(ctx, toolName, real) {
    if ((0, credentials_1.isCredentialPath)(real))
        return `${CHANGED} ${real} is a credential file.`;
    if (!(0, paths_1.insideWorkingDirs)([real], (0, matcher_1.permissionEnvOf)(ctx).workingDirectories))
        return `${CHANGED} ${real} is outside the working directories.`;
    if ((0, resultFilter_1.hiddenPathFilter)(toolName, ctx)?.(real))
        return `${CHANGED} A permission rule covers ${real}.`;
    return undefined;
}
/**
 * The check for reading the file at `given` (Read, Edit's old content, Write's comparison).
 * `phase: 'validate'` is for validateInput, before any decision: only the path as given, or a
 * place that passes the read checks.
 */
function readCheck(ctx, toolName, given, phase = 'call') {
    const ok = covered(ctx, given, phase === 'call');
    return (real) => (ok.includes(real) ? undefined : readPolicy(ctx, toolName, real));
}
/** The check for writing the file at `given`: only a real path the decision covered. */
function writeCheck(ctx, given) {
    const ok = covered(ctx, given, true);
    return (real) => ok.includes(real)
        ? undefined
        : `The permission check was made for another path: the file system changed between the check and the write (e.g. a symlink was swapped in), so nothing was written. ${real} is not ${ok[ok.length - 1] ?? given}.`;
}
/**
 * The check for a search root (Glob, Grep; the directory a "Did you mean" lists): a form the
 * decision covered, or a place that passes the read checks. `validate`: before the decision.
 */
function searchRootCheck(ctx, toolName, given, phase = 'call') {
    const ok = phase === 'validate' ? [(0, paths_1.resolveLogical)(given, ctx.agent.cwd)] : covered(ctx, given, true);
    return (real) => (ok.includes(real) ? undefined : readPolicy(ctx, toolName, real));
}
/** The check for a file found under a bound search root: inside its real path, or a place that passes the read checks. */
function underRootCheck(ctx, toolName, rootReal) {
    const hidden = (0, resultFilter_1.hiddenPathFilter)(toolName, ctx);
    return (real) => {
        if ((0, paths_1.isInside)(real, rootReal))
            return hidden?.(real) ? `A permission rule covers ${real}.` : undefined;
        return readPolicy(ctx, toolName, real);
    };
}
//# sourceMappingURL=fileAccess.js.map