"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
const strict_1 = __importDefault(require("node:assert/strict"));
const node_fs_1 = require("node:fs");
const path = __importStar(require("node:path"));
const node_test_1 = require("node:test");
const toolResponse_1 = require("../../src/hooks/toolResponse");
const decide_1 = require("../../src/permissions/decide");
const notebook_1 = require("../../src/tools/builtin/notebook");
const notebookEdit_1 = require("../../src/tools/builtin/notebookEdit");
const read_1 = require("../../src/tools/builtin/read");
const tools_harness_1 = require("./tools-harness");
let dir;
(0, node_test_1.before)(async () => {
    dir = await (0, tools_harness_1.makeTmpDir)('notebook-test-');
});
(0, node_test_1.after)(() => (0, tools_harness_1.removeDir)(dir));
const NB = {
    cells: [
        { cell_type: 'markdown', id: 'intro', metadata: {}, source: ['# Title\n', 'text'] },
        {
            cell_type: 'code',
            id: 'c1',
            metadata: {},
            execution_count: 3,
            source: 'print(1)',
            outputs: [{ output_type: 'stream', name: 'stdout', text: ['1\n'] }],
        },
        { cell_type: 'code', metadata: {}, execution_count: null, source: 'x = 2', outputs: [] },
    ],
    metadata: { language_info: { name: 'python' } },
    nbformat: 4,
    nbformat_minor: 5,
};
async function notebook(name, nb = NB) {
    await (0, tools_harness_1.writeTree)(dir, { [name]: `${JSON.stringify(nb, null, 1)}\n` });
    return path.join(dir, name);
}
const cellsOf = async (abs) => JSON.parse(await node_fs_1.promises.readFile(abs, 'utf8')).cells;
(0, node_test_1.describe)('Read of a notebook', () => {
    (0, node_test_1.it)('shows the cells with their ids, types and outputs, and counts as a full read', async () => {
        const abs = await notebook('read.ipynb');
        const s = new tools_harness_1.ToolSession(dir);
        const r = await s.run(read_1.ReadTool, { file_path: 'read.ipynb' });
        strict_1.default.equal(r.isError, false);
        strict_1.default.equal(r.text, '<cell id="intro"><cell_type>markdown</cell_type># Title\ntext</cell id="intro">\n' +
            '<cell id="c1">print(1)</cell id="c1">\n\n1\n\n' +
            '<cell id="cell-2">x = 2</cell id="cell-2">');
        strict_1.default.equal(s.agent.readFiles[abs]?.partial, false);
        const response = (0, toolResponse_1.hookToolResponse)('Read', r.data, { file_path: 'read.ipynb' });
        strict_1.default.equal(response.type, 'notebook');
        strict_1.default.deepEqual(response.file.cells[1], {
            cellType: 'code',
            source: 'print(1)',
            cell_id: 'c1',
            execution_count: 3,
            language: 'python',
            outputs: [{ output_type: 'stream', text: '1\n' }],
        });
    });
    (0, node_test_1.it)('a file that is not a notebook is an error, not lines', async () => {
        await (0, tools_harness_1.writeTree)(dir, { 'bad.ipynb': '{"cells": 3}' });
        const r = await new tools_harness_1.ToolSession(dir).run(read_1.ReadTool, { file_path: 'bad.ipynb' });
        strict_1.default.equal(r.isError, true);
        strict_1.default.match(r.text, /not a valid Jupyter notebook/);
    });
});
(0, node_test_1.describe)('NotebookEdit', () => {
    (0, node_test_1.it)('needs a prior read, then replaces a cell (code: outputs and count cleared)', async () => {
        const abs = await notebook('replace.ipynb');
        const s = new tools_harness_1.ToolSession(dir);
        const before = await s.run(notebookEdit_1.NotebookEditTool, { notebook_path: abs, cell_id: 'c1', new_source: 'print(2)' });
        strict_1.default.match(before.invalid ?? '', /has not been read yet/);
        await s.run(read_1.ReadTool, { file_path: abs });
        const r = await s.run(notebookEdit_1.NotebookEditTool, { notebook_path: abs, cell_id: 'c1', new_source: 'print(2)' });
        strict_1.default.equal(r.text, 'Updated cell c1 with print(2)');
        const cells = await cellsOf(abs);
        strict_1.default.equal(cells[1]?.source, 'print(2)');
        strict_1.default.deepEqual(cells[1]?.outputs, []);
        strict_1.default.equal(cells[1]?.execution_count, null);
        strict_1.default.equal(r.data.old_source, 'print(1)');
        // Jupyter's layout and the final newline are kept.
        strict_1.default.ok((await node_fs_1.promises.readFile(abs, 'utf8')).endsWith('}\n'));
        // The edit counts as knowing the file: a second edit needs no new Read.
        const again = await s.run(notebookEdit_1.NotebookEditTool, { notebook_path: abs, cell_id: 'cell-2', new_source: 'y = 3' });
        strict_1.default.equal(again.isError, false);
        strict_1.default.equal((await cellsOf(abs))[2]?.source, 'y = 3');
    });
    (0, node_test_1.it)('inserts after a cell (a new 8-character id in nbformat 4.5), at the start without cell_id; type required', async () => {
        const abs = await notebook('insert.ipynb');
        const s = new tools_harness_1.ToolSession(dir);
        await s.run(read_1.ReadTool, { file_path: abs });
        const noType = await s.run(notebookEdit_1.NotebookEditTool, { notebook_path: abs, edit_mode: 'insert', new_source: 'z' });
        strict_1.default.match(noType.invalid ?? '', /cell_type is required/);
        const r = await s.run(notebookEdit_1.NotebookEditTool, {
            notebook_path: abs,
            cell_id: 'intro',
            edit_mode: 'insert',
            cell_type: 'markdown',
            new_source: '## Part',
        });
        strict_1.default.equal(r.isError, false);
        const cells = await cellsOf(abs);
        strict_1.default.equal(cells.length, 4);
        strict_1.default.equal(cells[1]?.source, '## Part');
        strict_1.default.equal(cells[1]?.cell_type, 'markdown');
        strict_1.default.match(String(cells[1].id), /^[0-9a-f]{8}$/);
        strict_1.default.equal(r.text, `Inserted cell ${cells[1].id} with ## Part`);
        await s.run(notebookEdit_1.NotebookEditTool, { notebook_path: abs, edit_mode: 'insert', cell_type: 'code', new_source: 'first' });
        strict_1.default.equal((await cellsOf(abs))[0]?.source, 'first');
    });
    (0, node_test_1.it)('deletes a cell; a missing cell, a missing cell_id and a changed notebook are errors', async () => {
        const abs = await notebook('delete.ipynb');
        const s = new tools_harness_1.ToolSession(dir);
        await s.run(read_1.ReadTool, { file_path: abs });
        const missing = await s.run(notebookEdit_1.NotebookEditTool, { notebook_path: abs, cell_id: 'nope', new_source: '' });
        strict_1.default.match(missing.invalid ?? '', /Cell with ID "nope" not found/);
        const noId = await s.run(notebookEdit_1.NotebookEditTool, { notebook_path: abs, new_source: '' });
        strict_1.default.match(noId.invalid ?? '', /Cell ID must be specified/);
        const r = await s.run(notebookEdit_1.NotebookEditTool, {
            notebook_path: abs,
            cell_id: 'intro',
            edit_mode: 'delete',
            new_source: '',
        });
        strict_1.default.equal(r.text, 'Deleted cell intro');
        strict_1.default.deepEqual((await cellsOf(abs)).map((c) => c.source), ['print(1)', 'x = 2']);
        // Someone else changes the notebook: the next edit must read it again.
        const t = new Date(Date.now() + 10_000);
        await node_fs_1.promises.utimes(abs, t, t);
        const stale = await s.run(notebookEdit_1.NotebookEditTool, { notebook_path: abs, cell_id: 'c1', new_source: 'q' });
        strict_1.default.match(stale.invalid ?? '', /modified since it was read/);
    });
    (0, node_test_1.it)('refuses files that are not notebooks, and the JSON of a broken one', async () => {
        await (0, tools_harness_1.writeTree)(dir, { 'plain.txt': 'x\n', 'broken.ipynb': '{not json' });
        const s = new tools_harness_1.ToolSession(dir);
        await s.run(read_1.ReadTool, { file_path: 'plain.txt' });
        const txt = await s.run(notebookEdit_1.NotebookEditTool, { notebook_path: 'plain.txt', cell_id: 'cell-0', new_source: 'y' });
        strict_1.default.match(txt.invalid ?? '', /only edits Jupyter notebooks/);
        strict_1.default.equal(await node_fs_1.promises.readFile(path.join(dir, 'plain.txt'), 'utf8'), 'x\n');
    });
    (0, node_test_1.it)('is an edit for permissions: Edit rules cover it, a protected path asks, plan mode denies', async () => {
        const env = { cwd: dir, workingDirectories: [dir] };
        const rules = { allow: [], ask: [], deny: ['Edit(/secret/**)'] };
        const input = { notebook_path: `${dir}/secret/a.ipynb`, cell_id: 'c', new_source: '' };
        const denied = (0, decide_1.decidePermissionSync)(notebookEdit_1.NotebookEditTool, input, { mode: 'acceptEdits', rules, workingDirectories: [dir] }, env);
        strict_1.default.equal(denied.behavior, 'deny');
        const prot = (0, decide_1.decidePermissionSync)(notebookEdit_1.NotebookEditTool, { notebook_path: `${dir}/.claude/x.ipynb`, cell_id: 'c', new_source: '' }, { mode: 'acceptEdits', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [dir] }, env);
        strict_1.default.equal(prot.behavior, 'ask');
        strict_1.default.equal(prot.decisionReason?.type, 'safetyCheck');
        const plan = (0, decide_1.decidePermissionSync)(notebookEdit_1.NotebookEditTool, { notebook_path: `${dir}/a.ipynb`, cell_id: 'c', new_source: '' }, { mode: 'plan', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [dir] }, env);
        strict_1.default.equal(plan.behavior, 'deny');
    });
    (0, node_test_1.it)('findCell and parseNotebook follow the reference', () => {
        const cells = (0, notebook_1.parseNotebook)(JSON.stringify(NB));
        strict_1.default.ok(cells.ok);
        strict_1.default.equal((0, notebook_1.findCell)(cells.notebook.cells, 'c1', 'replace'), 1);
        strict_1.default.equal((0, notebook_1.findCell)(cells.notebook.cells, 'c1', 'insert'), 2);
        strict_1.default.equal((0, notebook_1.findCell)(cells.notebook.cells, 'cell-2', 'delete'), 2);
        strict_1.default.deepEqual((0, notebook_1.findCell)(cells.notebook.cells, 'cell-7', 'replace'), {
            message: 'Cell with index 7 does not exist in notebook.',
            errorCode: 7,
        });
        strict_1.default.equal((0, notebook_1.parseNotebook)('{"cells":[{"source":1}]}').ok, false);
    });
});
//# sourceMappingURL=tools-notebook.test.js.map