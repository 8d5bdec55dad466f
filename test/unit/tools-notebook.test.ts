import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hookToolResponse } from '../../src/hooks/toolResponse';
import { decidePermissionSync } from '../../src/permissions/decide';
import { findCell, parseNotebook } from '../../src/tools/notebook';
import { NotebookEditTool } from '../../src/tools/notebookEdit';
import { ReadTool } from '../../src/tools/read';
import { EditTool } from '../../src/tools/edit';
import { runToolPipeline } from '../../src/toolCall/pipeline';
import { applyContextModifier } from '../../src/core/context';
import { makeTmpDir, removeDir, ToolSession, writeTree } from './tools-harness';
import { makeEnv, use } from './pipelineFixtures';

let dir: string;
before(async () => {
  dir = await makeTmpDir('notebook-test-');
});
after(() => removeDir(dir));

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

async function notebook(name: string, nb: unknown = NB): Promise<string> {
  await writeTree(dir, { [name]: `${JSON.stringify(nb, null, 1)}\n` });
  return path.join(dir, name);
}

const cellsOf = async (abs: string) => (JSON.parse(await fs.readFile(abs, 'utf8')) as typeof NB).cells;

describe('Read of a notebook', () => {
  it('shows the cells with their ids, types and outputs, and counts as a full read', async () => {
    const abs = await notebook('read.ipynb');
    const s = new ToolSession(dir);
    const r = await s.run(ReadTool, { file_path: 'read.ipynb' });
    assert.equal(r.isError, false);
    assert.equal(
      r.text,
      '<cell id="intro"><cell_type>markdown</cell_type># Title\ntext</cell id="intro">\n' +
        '<cell id="c1">print(1)</cell id="c1">\n\n1\n\n' +
        '<cell id="cell-2">x = 2</cell id="cell-2">',
    );
    assert.equal(s.agent.readFiles[abs]?.partial, false);
    const response = hookToolResponse('Read', r.data, { file_path: 'read.ipynb' }) as {
      type: string;
      file: { cells: Array<Record<string, unknown>> };
    };
    assert.equal(response.type, 'notebook');
    assert.deepEqual(response.file.cells[1], {
      cellType: 'code',
      source: 'print(1)',
      cell_id: 'c1',
      execution_count: 3,
      language: 'python',
      outputs: [{ output_type: 'stream', text: '1\n' }],
    });
  });

  it('a file that is not a notebook is an error, not lines', async () => {
    await writeTree(dir, { 'bad.ipynb': '{"cells": 3}' });
    const r = await new ToolSession(dir).run(ReadTool, { file_path: 'bad.ipynb' });
    assert.equal(r.isError, true);
    assert.match(r.text, /not a valid Jupyter notebook/);
  });
});

describe('NotebookEdit', () => {
  it('needs a prior read, then replaces a cell (code: outputs and count cleared)', async () => {
    const abs = await notebook('replace.ipynb');
    const s = new ToolSession(dir);
    const before = await s.run(NotebookEditTool, { notebook_path: abs, cell_id: 'c1', new_source: 'print(2)' });
    assert.match(before.invalid ?? '', /has not been read yet/);
    await s.run(ReadTool, { file_path: abs });
    const r = await s.run(NotebookEditTool, { notebook_path: abs, cell_id: 'c1', new_source: 'print(2)' });
    assert.equal(r.text, 'Updated cell c1 with print(2)');
    const cells = await cellsOf(abs);
    assert.equal(cells[1]?.source, 'print(2)');
    assert.deepEqual(cells[1]?.outputs, []);
    assert.equal(cells[1]?.execution_count, null);
    assert.equal(r.data.old_source, 'print(1)');
    // Jupyter's layout and the final newline are kept.
    assert.ok((await fs.readFile(abs, 'utf8')).endsWith('}\n'));
    // The edit counts as knowing the file: a second edit needs no new Read.
    const again = await s.run(NotebookEditTool, { notebook_path: abs, cell_id: 'cell-2', new_source: 'y = 3' });
    assert.equal(again.isError, false);
    assert.equal((await cellsOf(abs))[2]?.source, 'y = 3');
  });

  it('inserts after a cell (a new 8-character id in nbformat 4.5), at the start without cell_id; type required', async () => {
    const abs = await notebook('insert.ipynb');
    const s = new ToolSession(dir);
    await s.run(ReadTool, { file_path: abs });
    const noType = await s.run(NotebookEditTool, { notebook_path: abs, edit_mode: 'insert', new_source: 'z' });
    assert.match(noType.invalid ?? '', /^Cell type is required when using edit_mode=insert\.$/);
    const r = await s.run(NotebookEditTool, {
      notebook_path: abs,
      cell_id: 'intro',
      edit_mode: 'insert',
      cell_type: 'markdown',
      new_source: '## Part',
    });
    assert.equal(r.isError, false);
    const cells = await cellsOf(abs);
    assert.equal(cells.length, 4);
    assert.equal(cells[1]?.source, '## Part');
    assert.equal(cells[1]?.cell_type, 'markdown');
    assert.match(String((cells[1] as { id?: string }).id), /^[0-9a-f]{8}$/);
    assert.equal(r.text, `Inserted cell ${(cells[1] as { id?: string }).id} with ## Part`);
    await s.run(NotebookEditTool, { notebook_path: abs, edit_mode: 'insert', cell_type: 'code', new_source: 'first' });
    assert.equal((await cellsOf(abs))[0]?.source, 'first');
  });

  it('deletes a cell; a missing cell, a missing cell_id and a changed notebook are errors', async () => {
    const abs = await notebook('delete.ipynb');
    const s = new ToolSession(dir);
    await s.run(ReadTool, { file_path: abs });
    const missing = await s.run(NotebookEditTool, { notebook_path: abs, cell_id: 'nope', new_source: '' });
    assert.match(missing.invalid ?? '', /Cell with ID "nope" not found/);
    const noId = await s.run(NotebookEditTool, { notebook_path: abs, new_source: '' });
    assert.match(noId.invalid ?? '', /Cell ID must be specified/);
    const r = await s.run(NotebookEditTool, {
      notebook_path: abs,
      cell_id: 'intro',
      edit_mode: 'delete',
      new_source: '',
    });
    assert.equal(r.text, 'Deleted cell intro');
    assert.deepEqual(
      (await cellsOf(abs)).map((c) => c.source),
      ['print(1)', 'x = 2'],
    );
    // Someone else changes the notebook: the next edit must read it again.
    const t = new Date(Date.now() + 10_000);
    await fs.utimes(abs, t, t);
    const stale = await s.run(NotebookEditTool, { notebook_path: abs, cell_id: 'c1', new_source: 'q' });
    assert.match(stale.invalid ?? '', /modified since it was read/);
  });

  it('refuses files that are not notebooks, and the JSON of a broken one', async () => {
    await writeTree(dir, { 'plain.txt': 'x\n', 'broken.ipynb': '{not json' });
    const s = new ToolSession(dir);
    await s.run(ReadTool, { file_path: 'plain.txt' });
    const txt = await s.run(NotebookEditTool, { notebook_path: 'plain.txt', cell_id: 'cell-0', new_source: 'y' });
    assert.equal(
      txt.invalid,
      'File must be a Jupyter notebook (.ipynb file). For editing other file types, use the Edit tool.',
    );
    assert.equal(await fs.readFile(path.join(dir, 'plain.txt'), 'utf8'), 'x\n');
  });

  it('is an edit for permissions: Edit rules cover it, a protected path asks, plan mode denies', async () => {
    const env = { cwd: dir, workingDirectories: [dir] };
    const rules = { allow: [], ask: [], deny: ['Edit(/secret/**)'] };
    const input = { notebook_path: `${dir}/secret/a.ipynb`, cell_id: 'c', new_source: '' };
    const denied = decidePermissionSync(
      NotebookEditTool,
      input,
      { mode: 'acceptEdits', rules, workingDirectories: [dir] },
      env,
    );
    assert.equal(denied.behavior, 'deny');
    const prot = decidePermissionSync(
      NotebookEditTool,
      { notebook_path: `${dir}/.claude/x.ipynb`, cell_id: 'c', new_source: '' },
      { mode: 'acceptEdits', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [dir] },
      env,
    );
    assert.equal(prot.behavior, 'ask');
    assert.equal(prot.decisionReason?.type, 'safetyCheck');
    const plan = decidePermissionSync(
      NotebookEditTool,
      { notebook_path: `${dir}/a.ipynb`, cell_id: 'c', new_source: '' },
      { mode: 'plan', rules: { allow: [], ask: [], deny: [] }, workingDirectories: [dir] },
      env,
    );
    assert.equal(plan.behavior, 'deny');
  });

  it('findCell and parseNotebook follow the reference', () => {
    const cells = parseNotebook(JSON.stringify(NB));
    assert.ok(cells.ok);
    assert.equal(findCell(cells.notebook.cells, 'c1', 'replace'), 1);
    assert.equal(findCell(cells.notebook.cells, 'c1', 'insert'), 2);
    assert.equal(findCell(cells.notebook.cells, 'cell-2', 'delete'), 2);
    assert.deepEqual(findCell(cells.notebook.cells, 'cell-7', 'replace'), {
      message: 'Cell with index 7 does not exist in notebook.',
      errorCode: 7,
    });
    assert.equal(parseNotebook('{"cells":[{"source":1}]}').ok, false);
  });

  it("input errors come in the reference's <tool_use_error> tags through the pipeline (as every tool's)", async () => {
    const abs = await notebook('tags.ipynb');
    const env = makeEnv(dir, { tools: [NotebookEditTool, ReadTool, EditTool], mode: 'bypassPermissions' });
    const run = async (input: Record<string, unknown>) => {
      const out = await runToolPipeline(use('NotebookEdit', input), env);
      assert.equal(out.status, 'error');
      assert.equal(out.result?.is_error, true);
      return out.result?.content;
    };
    const tag = (m: string) => `<tool_use_error>${m}</tool_use_error>`;
    // Never read, present or not: the reference's read-before-edit refusal comes first.
    assert.equal(
      await run({ notebook_path: abs, cell_id: 'c1', new_source: 'x' }),
      tag('File has not been read yet. Read it first before writing to it.'),
    );
    assert.equal(
      await run({ notebook_path: path.join(dir, 'missing.ipynb'), cell_id: 'c1', new_source: 'x' }),
      tag('File has not been read yet. Read it first before writing to it.'),
    );
    const read = await runToolPipeline(use('Read', { file_path: abs }), env);
    for (const m of read.contextModifiers) env.agent = applyContextModifier(env.agent, m);
    assert.ok(env.agent.readFiles[abs], 'the Read counts');
    assert.equal(
      await run({ notebook_path: abs, cell_id: 'nope', new_source: 'x' }),
      tag('Cell with ID "nope" not found in notebook.'),
    );
    assert.equal(
      await run({ notebook_path: abs, cell_id: 'c1', new_source: 'x', edit_mode: 'insert' }),
      tag('Cell type is required when using edit_mode=insert.'),
    );
    const schema = await run({ notebook_path: abs, cell_id: 'c1', new_source: 'x', edit_mode: 'append', x: 1 });
    assert.match(
      String(schema),
      /^<tool_use_error>InputValidationError: NotebookEdit failed[\s\S]*<\/tool_use_error>$/,
    );
    // Another tool's input error comes in the tags too.
    const edit = await runToolPipeline(use('Edit', { file_path: abs }), env);
    assert.match(
      String(edit.result?.content),
      /^<tool_use_error>InputValidationError: Edit failed[\s\S]*<\/tool_use_error>$/,
    );
  });
});
