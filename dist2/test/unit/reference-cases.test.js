"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
// unit: the differential test's data (test/reference/cases.ts) is well formed and its deliberate
// differences are the ones docs/tools.md lists.
const node_test_1 = require("node:test");
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
const cases_1 = require("../reference/cases");
const root = (0, node_path_1.join)(__dirname, '..', '..', '..');
(0, node_test_1.test)('unit: reference cases have unique names and unique tool_use ids per case', () => {
    strict_1.default.ok(cases_1.CASES.length >= 25);
    strict_1.default.equal(new Set(cases_1.CASES.map((c) => c.name)).size, cases_1.CASES.length);
    for (const c of cases_1.CASES) {
        const ids = c.turns.flat().map((t) => t.id);
        strict_1.default.equal(new Set(ids).size, ids.length, c.name);
    }
    strict_1.default.ok((0, cases_1.deliberateReason)('Grep content', { tool: 'Grep', aspect: 'is_error' }));
    strict_1.default.equal((0, cases_1.deliberateReason)('Write new file', { tool: 'Write', aspect: 'tool_response' }), undefined);
    strict_1.default.ok((0, cases_1.deliberateReason)('Read missing file', { tool: 'Read', aspect: 'PreToolUse ran' }));
    strict_1.default.equal((0, cases_1.deliberateReason)('Read normal', { tool: 'Read', aspect: 'tool_response keys' }), undefined);
    strict_1.default.equal((0, cases_1.deliberateReason)('Read normal', { tool: 'Read', aspect: 'is_error' }), undefined);
    strict_1.default.equal((0, cases_1.deliberateReason)('Bash exit 0', { tool: 'Bash', aspect: 'tool_response keys' }), undefined);
    // A row naming files covers only those files: a stray file in the same case stays unexpected.
    const addDir = 'protected: sandboxed Bash in an additional directory';
    strict_1.default.ok((0, cases_1.deliberateReason)(addDir, { tool: 'Bash', aspect: 'is_error' }));
    strict_1.default.ok((0, cases_1.deliberateReason)(addDir, { aspect: 'file', path: '$OTHER/.bashrc' }));
    strict_1.default.ok((0, cases_1.deliberateReason)(addDir, { aspect: 'file', path: '$OTHER/.vscode/' }));
    strict_1.default.equal((0, cases_1.deliberateReason)(addDir, { aspect: 'file', path: '$OTHER/.bash_profile' }), undefined);
});
(0, node_test_1.test)('unit: docs/tools.md lists exactly the deliberate differences of test/reference/cases.ts', () => {
    const doc = (0, node_fs_1.readFileSync)((0, node_path_1.join)(root, 'docs', 'tools.md'), 'utf8');
    const block = /<!-- reference-deliberate:start -->([\s\S]*?)<!-- reference-deliberate:end -->/.exec(doc)?.[1] ?? '';
    const rows = block
        .split('\n')
        .filter((l) => l.startsWith('| ') && !l.startsWith('| Cases') && !l.startsWith('| ---'))
        .map((l) => l.slice(2, -2).split(' | '));
    strict_1.default.deepEqual(rows.map(([cases, tools, aspect, reason]) => ({ cases, tools, aspect, reason })), cases_1.DELIBERATE.map((d) => ({
        cases: d.cases,
        tools: d.tools?.join(', ') ?? 'any',
        aspect: `${d.aspect ?? 'any'}${d.files ? `; files ${d.files.join(', ')}` : ''}`,
        reason: d.reason,
    })));
});
//# sourceMappingURL=reference-cases.test.js.map