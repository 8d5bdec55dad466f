"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.prepareRunWorktree = prepareRunWorktree;
exports.worktreeNotice = worktreeNotice;
exports.worktreeSandbox = worktreeSandbox;
// `run --worktree [NAME]`: the session works in a git worktree of the repository holding `--cwd`,
// made (or reused) before the session starts, at the reference's place and on its branch
// (`.claude/worktrees/<name>`, `worktree-<name>`: src/tools/worktree.ts). The worktree is then the
// session's cwd: its only working directory (with --add-dir's), so the sandbox's write allowlist,
// the protected paths and the permission rules are the worktree's, and parallel sessions in other
// worktrees of the same repository never see each other's files.
const node_path_1 = require("node:path");
const worktree_1 = require("../tools/worktree");
const options_1 = require("./options");
/** `--worktree` given bare (true) or with a name: the worktree to run in; a bad name or no repository is a UsageError. */
async function prepareRunWorktree(cwd, flag) {
    const name = flag === true ? (0, worktree_1.randomWorktreeName)() : flag;
    const problem = (0, worktree_1.worktreeNameProblem)(name);
    if (problem)
        throw new options_1.UsageError(`--worktree: ${problem} (put the prompt before --worktree, or write --worktree=NAME, when the next word is not a name)`);
    try {
        return await (0, worktree_1.createOrReuseWorktree)(cwd, name);
    }
    catch (err) {
        throw new options_1.UsageError(`--worktree: ${err instanceof Error ? err.message : String(err)}`);
    }
}
/** The line `run` prints to stderr. */
function worktreeNotice(wt) {
    return `durable-agent: ${wt.created ? 'created' : 'reusing'} worktree ${(0, node_path_1.relative)(wt.repoRoot, wt.path)} on branch ${wt.branch} (${wt.path})\n`;
}
/**
 * The session's sandbox settings with what git needs of the main repository's git directory (its
 * objects, refs and logs and the worktree's own git directory; never config, hooks or pointers:
 * worktreeGitAccess), so that sandboxed Bash can commit on the worktree's branch.
 */
function worktreeSandbox(sandbox, wt) {
    const access = (0, worktree_1.worktreeGitAccess)(wt.commonDir, wt.gitDir);
    return {
        ...(sandbox ?? {}),
        filesystem: {
            ...sandbox?.filesystem,
            allowWrite: [...(sandbox?.filesystem?.allowWrite ?? []), ...access.allowWrite],
            denyWrite: [...(sandbox?.filesystem?.denyWrite ?? []), ...access.denyWrite],
        },
    };
}
//# sourceMappingURL=worktree.js.map