// NotebookEdit: replaces, inserts or deletes one cell of a Jupyter notebook (.ipynb) the session
// has read. The same protections as Edit: read-before-edit, permission as an edit of the path
// (protected paths ask), the old content read and the new one written through descriptors bound
// to what the permission decision covered (src/files/safeFs.ts).
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { hiddenPathFilter } from '../permissions/resultFilter';
import { buildTool, type ToolUseContext } from '../toolProtocol/Tool';
import { isAccessRefused, readFileBound, writeFileBound } from '../files/safeFs';
import { readCheck, writeCheck } from './fileAccess';
import { checkReadState, NOT_READ_MESSAGE, statOrNull } from './fileState';
import { cellSource, findCell, isNotebookPath, notebookLanguage, parseNotebook, type NotebookCell } from './notebook';
import { resolvePath, throwIfAborted, withAbsolutePath } from './paths';
import { checkReadableFile } from './read';

/** The largest notebook NotebookEdit reads or writes (a notebook above it is edited with Bash). */
export const NOTEBOOK_MAX_BYTES = 10 * 1024 * 1024;

const inputSchema = z.strictObject({
  notebook_path: z.string().describe('Path of the .ipynb notebook: absolute, or relative to the working directory.'),
  cell_id: z
    .string()
    .optional()
    .describe(
      'The cell to change or delete (its id, or `cell-<n>` for the n-th cell counting from 0, as Read shows it). With edit_mode insert: the new cell goes after this one (at the start when omitted).',
    ),
  new_source: z.string().describe('The new source of the cell (ignored by delete).'),
  cell_type: z
    .enum(['code', 'markdown'])
    .optional()
    .describe('code or markdown. Required to insert; to replace, defaults to the type the cell has.'),
  edit_mode: z.enum(['replace', 'insert', 'delete']).optional().describe('replace (default), insert or delete.'),
});

export type NotebookEditInput = z.infer<typeof inputSchema>;

export interface NotebookEditOutput {
  new_source: string;
  /** The cell's source before (replace and delete). */
  old_source?: string;
  cell_id?: string;
  cell_type: 'code' | 'markdown';
  language: string;
  edit_mode: 'replace' | 'insert' | 'delete';
  error: string;
  notebook_path: string;
  original_file: string;
  updated_file: string;
  mtimeMs: number;
}

const PROMPT = `Changes one cell of a Jupyter notebook (.ipynb): replace its source, insert a new cell, or delete it.

Usage:
- Read the notebook first (Read shows each cell with its id); the edit fails if the notebook changed since.
- cell_id names the cell: its id as Read shows it (\`cell-<n>\` for a cell without an id, n counting from 0).
- edit_mode replace (default) sets the cell's source (a code cell's outputs and execution count are cleared); cell_type may change its type.
- edit_mode insert adds a cell after cell_id (at the start when cell_id is omitted); cell_type is required.
- edit_mode delete removes the cell.
- For any other change to a notebook, use this tool rather than editing the JSON.`;

type Plan =
  | { ok: false; message: string; errorCode: number }
  | { ok: true; deferred: true }
  | { ok: true; abs: string; raw: string; index: number; cells: NotebookCell[] };

type PlanContext = Pick<ToolUseContext, 'agent' | 'permission' | 'permittedPaths'>;

async function plan(input: NotebookEditInput, ctx: PlanContext, phase: 'validate' | 'call'): Promise<Plan> {
  const mode = input.edit_mode ?? 'replace';
  const abs = resolvePath(ctx.agent.cwd, input.notebook_path);
  if (!isNotebookPath(abs))
    return {
      ok: false,
      // The reference's text names its FileEdit tool; ours is Edit.
      message: 'File must be a Jupyter notebook (.ipynb file). For editing other file types, use the Edit tool.',
      errorCode: 2,
    };
  if (mode === 'insert' && !input.cell_type)
    return { ok: false, message: 'Cell type is required when using edit_mode=insert.', errorCode: 5 };
  if (!(await statOrNull(abs))) {
    // A notebook never read is refused as such, as the reference does (whether it exists or not).
    if (!ctx.agent.readFiles[abs]) return { ok: false, message: NOT_READ_MESSAGE, errorCode: 6 };
    const check = await checkReadableFile(input.notebook_path, ctx.agent.cwd, hiddenPathFilter('Read', ctx));
    return { ok: false, message: check.ok ? 'Notebook file does not exist.' : check.message, errorCode: 1 };
  }
  const state = await checkReadState(ctx.agent, abs);
  if (!state.ok) return state;
  let raw: Buffer;
  try {
    raw = (await readFileBound(abs, readCheck(ctx, 'NotebookEdit', input.notebook_path, phase))).buf;
  } catch (err) {
    if (isAccessRefused(err) && phase === 'validate') return { ok: true, deferred: true };
    throw err;
  }
  if (raw.length > NOTEBOOK_MAX_BYTES)
    return {
      ok: false,
      message: `The notebook is larger than ${NOTEBOOK_MAX_BYTES} bytes; NotebookEdit does not edit it.`,
      errorCode: 13,
    };
  const text = raw.toString('utf8');
  const parsed = parseNotebook(text);
  if (!parsed.ok) return { ok: false, message: parsed.message, errorCode: 6 };
  const index = findCell(parsed.notebook.cells, input.cell_id, mode);
  if (typeof index !== 'number') return { ok: false, ...index };
  return { ok: true, abs, raw: text, index, cells: parsed.notebook.cells };
}

/** A new cell id as nbformat 4.5 wants one (8 hex characters), only for notebooks that have ids. */
function newCellId(nb: { nbformat?: number; nbformat_minor?: number }): string | undefined {
  const major = nb.nbformat ?? 0;
  const minor = nb.nbformat_minor ?? 0;
  return major > 4 || (major === 4 && minor >= 5) ? randomBytes(4).toString('hex') : undefined;
}

export const NotebookEditTool = buildTool<NotebookEditInput, NotebookEditOutput>({
  name: 'NotebookEdit',
  // Deferred behind ToolSearch when tool search is on (the reference defers it too).
  shouldDefer: true,
  inputSchema,
  maxResultSizeChars: 100_000,
  prompt: () => PROMPT,
  summary: (input) => {
    const mode = input.edit_mode ?? 'replace';
    return `NotebookEdit ${input.notebook_path} (${mode}${input.cell_id ? ` ${input.cell_id}` : ''})`;
  },
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  // An insert run twice inserts two cells.
  isIdempotent: () => false,
  getPath: (input) => input.notebook_path,
  observableInput: (input, cwd) => withAbsolutePath(input, 'notebook_path', cwd),

  async validateInput(input, ctx) {
    const p = await plan(input, ctx, 'validate');
    return p.ok ? { result: true } : { result: false, message: p.message, errorCode: p.errorCode };
  },

  async call(input, ctx) {
    const p = await plan(input, ctx, 'call');
    if (!p.ok) throw new Error(p.message);
    if ('deferred' in p) throw new Error(`NotebookEdit could not open ${input.notebook_path}`);
    const mode = input.edit_mode ?? 'replace';
    const nb = parseNotebook(p.raw);
    if (!nb.ok) throw new Error(nb.message);
    const notebook = nb.notebook;
    const language = notebookLanguage(notebook);
    let cellId = input.cell_id;
    let oldSource: string | undefined;
    if (mode === 'delete') {
      oldSource = cellSource(notebook.cells[p.index] as NotebookCell);
      notebook.cells.splice(p.index, 1);
    } else if (mode === 'insert') {
      cellId = newCellId(notebook);
      const cell: NotebookCell =
        input.cell_type === 'markdown'
          ? { cell_type: 'markdown', ...(cellId ? { id: cellId } : {}), source: input.new_source, metadata: {} }
          : {
              cell_type: 'code',
              ...(cellId ? { id: cellId } : {}),
              source: input.new_source,
              metadata: {},
              execution_count: null,
              outputs: [],
            };
      notebook.cells.splice(p.index, 0, cell);
    } else {
      const cell = notebook.cells[p.index] as NotebookCell;
      oldSource = cellSource(cell);
      cell.source = input.new_source;
      if (cell.cell_type === 'code') {
        cell.execution_count = null;
        cell.outputs = [];
      }
      if (input.cell_type && input.cell_type !== cell.cell_type) cell.cell_type = input.cell_type;
    }
    // Jupyter's own layout: one-space indent, the final newline kept as the file had it.
    const updated = JSON.stringify(notebook, null, 1) + (p.raw.endsWith('\n') ? '\n' : '');
    if (Buffer.byteLength(updated) > NOTEBOOK_MAX_BYTES)
      throw new Error(
        `The edited notebook would be larger than ${NOTEBOOK_MAX_BYTES} bytes; the file was left unchanged.`,
      );
    throwIfAborted(ctx.abortSignal);
    const written = await writeFileBound(p.abs, updated, writeCheck(ctx, input.notebook_path));
    const mtimeMs = written.stat.mtimeMs;
    const data: NotebookEditOutput = {
      new_source: input.new_source,
      ...(oldSource !== undefined ? { old_source: oldSource } : {}),
      ...(cellId ? { cell_id: cellId } : {}),
      cell_type: input.cell_type ?? 'code',
      language,
      edit_mode: mode,
      error: '',
      notebook_path: p.abs,
      original_file: p.raw,
      updated_file: updated,
      mtimeMs,
    };
    // The whole notebook was read and written: it counts as read (a second edit needs no new Read).
    return { data, contextModifiers: [{ type: 'fileWritten', path: p.abs, mtimeMs }] };
  },

  mapToolResultToToolResultBlockParam(data, toolUseId) {
    const text =
      data.edit_mode === 'replace'
        ? `Updated cell ${data.cell_id} with ${data.new_source}`
        : data.edit_mode === 'insert'
          ? `Inserted ${data.cell_id ? `cell ${data.cell_id}` : 'a new cell'} with ${data.new_source}`
          : `Deleted cell ${data.cell_id}`;
    return { type: 'tool_result', tool_use_id: toolUseId, content: text };
  },
});
