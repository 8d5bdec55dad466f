"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PREVIOUS_RELEASE = void 0;
exports.previousRelease = previousRelease;
// An earlier release of durable-agent, built for real, for the upgrade test
// (test/integration/upgrade): the commit is extracted with `git archive` (no worktree is
// registered) and installed with `npm ci` (which builds it) once into
// ~/.cache/durable-agent/releases/<commit>, then reused. `.ci/run` prepares it before the tests:
//   node dist/test/support/previousRelease.js
// Default commit: main at the start of issue 21's work; DURABLE_AGENT_PREVIOUS_RELEASE=<commit> picks another.
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
exports.PREVIOUS_RELEASE = process.env.DURABLE_AGENT_PREVIOUS_RELEASE ?? '02a3ad26b6be74e5ff9b2f6d99872f4157e6389a';
const repo = (() => {
    for (let dir = __dirname;; dir = (0, node_path_1.dirname)(dir)) {
        if ((0, node_fs_1.existsSync)((0, node_path_1.join)(dir, 'package.json')) && (0, node_fs_1.existsSync)((0, node_path_1.join)(dir, 'src')))
            return dir;
        if ((0, node_path_1.dirname)(dir) === dir)
            throw new Error('repo root not found');
    }
})();
/** The release's built worker script (workerProcess.js), building it first when needed; or why it cannot be had here. */
function previousRelease(commit = exports.PREVIOUS_RELEASE) {
    const dir = (0, node_path_1.join)(process.env.DURABLE_AGENT_CACHE_DIR ?? (0, node_path_1.join)((0, node_os_1.homedir)(), '.cache', 'durable-agent'), 'releases', commit);
    const script = (0, node_path_1.join)(dir, 'dist', 'test', 'support', 'workerProcess.js');
    if ((0, node_fs_1.existsSync)(script))
        return { script };
    try {
        (0, node_child_process_1.execFileSync)('git', ['-C', repo, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' });
    }
    catch {
        return { why: `commit ${commit} is not in this clone (a shallow clone?)` };
    }
    const t0 = Date.now();
    (0, node_child_process_1.execFileSync)('rm', ['-rf', dir]);
    (0, node_child_process_1.execFileSync)('mkdir', ['-p', dir]);
    (0, node_child_process_1.execFileSync)('sh', ['-c', `git -C '${repo}' archive ${commit} | tar -x -C '${dir}'`]);
    // `npm ci` builds too (prepare); the script is written last, so a half-done build is redone.
    (0, node_child_process_1.execFileSync)('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
    console.log(`[previous release] built ${commit.slice(0, 7)} in ${Math.round((Date.now() - t0) / 1000)} s`);
    return (0, node_fs_1.existsSync)(script) ? { script } : { why: `the build of ${commit} has no ${script}` };
}
if (require.main === module) {
    const r = previousRelease();
    console.log(r.script ? `[previous release] ${r.script}` : `[previous release] not available: ${r.why}`);
}
//# sourceMappingURL=previousRelease.js.map