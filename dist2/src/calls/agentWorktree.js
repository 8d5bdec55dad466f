"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.prepareAgentWorktree = prepareAgentWorktree;
exports.settleAgentWorktree = settleAgentWorktree;
const worktree_1 = require("../tools/worktree");
const AGENT = { agentInvoked: true };
/** `.claude/worktrees/<name>` on branch `worktree-<name>` of the repository holding `cwd` (reused if it exists: a retry). */
async function prepareAgentWorktree(input) {
    try {
        const wt = await (0, worktree_1.createOrReuseWorktree)(input.cwd, input.name, AGENT);
        return {
            path: wt.path,
            branch: wt.branch,
            base: wt.base,
            repoRoot: wt.repoRoot,
            ...(0, worktree_1.worktreeGitAccess)(wt.commonDir, wt.gitDir),
        };
    }
    catch (err) {
        return { error: err instanceof Error ? err.message : String(err) };
    }
}
/** After the child: an unchanged worktree (no file, no commit since its base) is removed with its branch; a changed one is kept. */
async function settleAgentWorktree(input) {
    const wt = input.worktree;
    try {
        const registered = (await (0, worktree_1.listWorktrees)(wt.repoRoot, AGENT)).some((w) => w.path === wt.path);
        if (!registered)
            return null;
        const changes = await (0, worktree_1.worktreeChanges)(wt.path, wt.base, AGENT);
        if (changes.files > 0 || changes.commits > 0)
            return { path: wt.path, branch: wt.branch };
        await (0, worktree_1.removeWorktree)(wt.repoRoot, wt.path, wt.branch, AGENT);
        return null;
    }
    catch {
        // Unsure: keep it (never remove work) and say where it is.
        return { path: wt.path, branch: wt.branch };
    }
}
//# sourceMappingURL=agentWorktree.js.map