"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.controlPathSet = controlPathSet;
// The session's control files as the write detector and the per-directory manifest see them: the
// concrete protected paths at each working directory (src/permissions/protectedPaths.ts, the one
// definition) plus the files the session's hooks run.
const node_path_1 = require("node:path");
const protectedPaths_1 = require("./protectedPaths");
/** The control files of a session with these working directories (cwd first) and these hook-run files. */
function controlPathSet(workingDirectories, hookFiles = []) {
    const roots = [...new Set(workingDirectories.map((d) => (0, node_path_1.resolve)(d)))];
    const c = (0, protectedPaths_1.controlFiles)(roots, { extra: hookFiles });
    return { files: c.files, dirs: c.directories, holds: (p) => (0, protectedPaths_1.isProtectedPath)(p, roots, { extra: hookFiles }) };
}
//# sourceMappingURL=controlFiles.js.map