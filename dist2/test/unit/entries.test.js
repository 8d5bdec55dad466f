"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the package's entry points, split by where code runs (package.json "exports"). Each entry
// is loaded by its package name (a self-reference, so the "exports" map itself is under test) in
// a fresh child process, and the modules it pulled in are read from require.cache:
// `durable-agent/tools` loads no Temporal package and none of the node-only rooms,
// `durable-agent/workflow` loads nothing of @temporalio/worker or @temporalio/client,
// `durable-agent/client` loads no @temporalio/worker, and the fake Messages API is only in
// `durable-agent/testing`.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const root = (() => {
    for (let dir = __dirname;; dir = (0, node_path_1.dirname)(dir)) {
        if ((0, node_fs_1.existsSync)((0, node_path_1.join)(dir, 'package.json')) && (0, node_fs_1.existsSync)((0, node_path_1.join)(dir, 'tsconfig.json')))
            return dir;
        if ((0, node_path_1.dirname)(dir) === dir)
            throw new Error(`package root not found above ${__dirname}`);
    }
})();
/** The files `require(spec)` loads in a fresh process, and the names the entry exports. */
function load(spec) {
    const code = `const m = require(${JSON.stringify(spec)}); process.stdout.write(JSON.stringify({ files: Object.keys(require.cache), exports: Object.keys(m) }));`;
    const r = (0, node_child_process_1.spawnSync)(process.execPath, ['-e', code], { cwd: root, encoding: 'utf8' });
    strict_1.default.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout);
}
const pkgOf = (f) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f)?.[1];
const roomOf = (f) => /dist\/src\/([^/.]+)/.exec(f)?.[1];
(0, node_test_1.test)('unit: durable-agent/tools loads no Temporal package and no node-only room', () => {
    const { files, exports } = load('durable-agent/tools');
    strict_1.default.deepEqual(files.map(pkgOf).filter((p) => p !== undefined && p !== 'zod'), []);
    // Only the tool protocol, the pure engine and the entry itself.
    strict_1.default.deepEqual([...new Set(files.map(roomOf).filter((r) => r !== undefined))].sort(), ['engine', 'entry', 'tools']);
    strict_1.default.ok(!files.some((f) => /dist\/src\/tools\/builtin\//.test(f)), 'the built-in tools (node fs, child_process) are not loaded');
    for (const name of ['buildTool', 'PERMISSION_MODES', 'applyContextModifier', 'DurableAgentError'])
        strict_1.default.ok(exports.includes(name), name);
});
(0, node_test_1.test)('unit: durable-agent/workflow is workflow-safe: no @temporalio/worker, no @temporalio/client', () => {
    const { files, exports } = load('durable-agent/workflow');
    const pkgs = new Set(files.map(pkgOf).filter((p) => p !== undefined));
    strict_1.default.ok(pkgs.has('@temporalio/workflow'), 'it does load the workflow API (the definitions)');
    for (const p of pkgs)
        strict_1.default.ok(!['@temporalio/worker', '@temporalio/client', '@temporalio/activity', '@anthropic-ai/sdk'].includes(p), `loads ${p}`);
    for (const r of new Set(files.map(roomOf)))
        strict_1.default.ok(r === undefined || ['engine', 'entry', 'tools', 'workflows', 'hooks'].includes(r), `loads src/${r}`);
    for (const name of ['statusQuery', 'approveUpdate', 'END_REASONS', 'buildTool'])
        strict_1.default.ok(exports.includes(name), name);
});
(0, node_test_1.test)('unit: durable-agent/client never loads @temporalio/worker', () => {
    const { files, exports } = load('durable-agent/client');
    strict_1.default.deepEqual(files.filter((f) => pkgOf(f) === '@temporalio/worker'), []);
    for (const name of ['startSession', 'approveToolUse', 'buildAudit', 'SessionNotFoundError'])
        strict_1.default.ok(exports.includes(name), name);
});
(0, node_test_1.test)('unit: the main entry and durable-agent/worker have the worker; only durable-agent/testing has the fake Messages API', () => {
    const main = load('durable-agent');
    for (const name of ['createAgentWorker', 'startSession', 'buildTool', 'runToolPipeline', 'startLocalSession'])
        strict_1.default.ok(main.exports.includes(name), name);
    strict_1.default.ok(!main.exports.includes('startFakeAnthropic'));
    strict_1.default.ok(!main.files.some((f) => f.includes('dist/src/testing/')), 'the main entry loads no test utility');
    const worker = load('durable-agent/worker');
    strict_1.default.ok(worker.exports.includes('createAgentWorker'));
    strict_1.default.ok(!worker.files.some((f) => f.includes('dist/src/testing/')));
    const testing = load('durable-agent/testing');
    strict_1.default.ok(testing.exports.includes('startFakeAnthropic'));
});
//# sourceMappingURL=entries.test.js.map