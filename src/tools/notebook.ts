// Jupyter notebooks (.ipynb): the cell model shared by Read (cells shown as the reference shows
// them) and NotebookEdit (replace, insert or delete one cell). Pure: parsing, lookup, rendering.

/** A notebook cell as the file holds it (only what we read or write). */
export interface NotebookCell {
  cell_type: string;
  id?: string;
  source: string | string[];
  metadata?: Record<string, unknown>;
  execution_count?: number | null;
  outputs?: NotebookOutput[];
  [key: string]: unknown;
}

interface NotebookOutput {
  output_type: string;
  text?: string | string[];
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
  traceback?: string[];
}

export interface Notebook {
  cells: NotebookCell[];
  metadata?: { language_info?: { name?: string } } & Record<string, unknown>;
  nbformat?: number;
  nbformat_minor?: number;
  [key: string]: unknown;
}

/** A cell as Read reports it to hooks (the reference's `tool_response.file.cells`). */
export interface RenderedCell {
  cellType: string;
  source: string;
  execution_count?: number;
  cell_id: string;
  language?: string;
  outputs?: Array<{ output_type: string; text: string; image?: { image_data: string; media_type: string } }>;
}

export const NOT_A_NOTEBOOK =
  'The file is not a valid Jupyter notebook: its top-level "cells" must be an array of cell objects, each with a string or string-array "source".';

/** Above this many characters of outputs (text and images) in one cell, Read leaves them out and says how to get them. */
const MAX_CELL_OUTPUT_CHARS = 10_000;

export function isNotebookPath(p: string): boolean {
  return p.toLowerCase().endsWith('.ipynb');
}

/** The parsed notebook, or a message saying why the text is not one. */
export function parseNotebook(text: string): { ok: true; notebook: Notebook } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `The notebook is not valid JSON: ${(err as Error).message}` };
  }
  const cells = (value as { cells?: unknown } | null)?.cells;
  const valid =
    Array.isArray(cells) &&
    cells.every(
      (c: unknown) =>
        typeof c === 'object' &&
        c !== null &&
        (typeof (c as NotebookCell).source === 'string' ||
          (Array.isArray((c as NotebookCell).source) &&
            ((c as NotebookCell).source as unknown[]).every((s) => typeof s === 'string'))),
    );
  return valid ? { ok: true, notebook: value as Notebook } : { ok: false, message: NOT_A_NOTEBOOK };
}

export function cellSource(cell: NotebookCell): string {
  return Array.isArray(cell.source) ? cell.source.join('') : cell.source;
}

export function notebookLanguage(nb: Notebook): string {
  const name = nb.metadata?.language_info?.name;
  return typeof name === 'string' ? name : 'python';
}

/**
 * The index a cell_id names: the cell with that `id`, else `cell-<n>` (the id Read shows for a
 * cell without one) as an index. For an insert, the index to insert at (after the named cell;
 * 0 without a cell_id). The reference's lookup, with its error codes.
 */
export function findCell(
  cells: readonly NotebookCell[],
  cellId: string | undefined,
  mode: 'replace' | 'insert' | 'delete',
): number | { message: string; errorCode: number } {
  const insert = mode === 'insert';
  if (!cellId)
    return insert ? 0 : { message: 'Cell ID must be specified when not inserting a new cell.', errorCode: 7 };
  let index = cells.findIndex((c) => c.id === cellId);
  if (index === -1) {
    const n = /^cell-(\d+)$/.exec(cellId)?.[1];
    if (n === undefined) return { message: `Cell with ID "${cellId}" not found in notebook.`, errorCode: 8 };
    index = parseInt(n, 10);
    if (!cells[index]) return { message: `Cell with index ${index} does not exist in notebook.`, errorCode: 7 };
  }
  return insert ? index + 1 : index;
}

function outputText(text: string | string[] | undefined): string {
  if (text === undefined) return '';
  return Array.isArray(text) ? text.join('') : String(text);
}

function renderOutput(o: NotebookOutput): NonNullable<RenderedCell['outputs']>[number] | undefined {
  switch (o.output_type) {
    case 'stream':
      return { output_type: o.output_type, text: outputText(o.text) };
    case 'execute_result':
    case 'display_data': {
      const data = o.data ?? {};
      const out: NonNullable<RenderedCell['outputs']>[number] = {
        output_type: o.output_type,
        text: outputText(data['text/plain'] as string | string[] | undefined),
      };
      for (const type of ['image/png', 'image/jpeg']) {
        const img = data[type];
        if (typeof img === 'string') {
          out.image = { image_data: img.replace(/\s/g, ''), media_type: type };
          break;
        }
      }
      return out;
    }
    case 'error':
      return {
        output_type: o.output_type,
        text: `${o.ename ?? ''}: ${o.evalue ?? ''}\n${(o.traceback ?? []).join('\n')}`,
      };
    default:
      return undefined;
  }
}

/** Every cell as the reference's Read reports it (outputs over the budget replaced by a pointer). */
export function renderCells(nb: Notebook, notebookPath: string): RenderedCell[] {
  const language = notebookLanguage(nb);
  return nb.cells.map((cell, index) => {
    const out: RenderedCell = {
      cellType: cell.cell_type,
      source: cellSource(cell),
      cell_id: typeof cell.id === 'string' ? cell.id : `cell-${index}`,
    };
    if (cell.cell_type === 'code') {
      if (typeof cell.execution_count === 'number' && cell.execution_count !== 0)
        out.execution_count = cell.execution_count;
      out.language = language;
    }
    if (cell.cell_type === 'code' && Array.isArray(cell.outputs) && cell.outputs.length > 0) {
      const outputs = cell.outputs.map(renderOutput);
      const size = outputs.reduce((n, o) => n + (o?.text.length ?? 0) + (o?.image?.image_data.length ?? 0), 0);
      out.outputs =
        size > MAX_CELL_OUTPUT_CHARS
          ? [
              {
                output_type: 'stream',
                text: `The outputs of this cell are too large to show here (${size} characters). Read them with Bash: jq '.cells[${index}].outputs' ${notebookPath}`,
              },
            ]
          : outputs.map((o) => o ?? { output_type: 'unknown', text: '(an output of an unknown type is not shown)' });
    }
    return out;
  });
}

/**
 * The text the model gets for a notebook: each cell as `<cell id="…">` (its type when not code,
 * its language when not python) followed by its text outputs; images are named, not sent.
 */
export function notebookText(cells: readonly RenderedCell[]): string {
  const parts: string[] = [];
  for (const c of cells) {
    const tags: string[] = [];
    if (c.cellType !== 'code') tags.push(`<cell_type>${c.cellType}</cell_type>`);
    if (c.cellType === 'code' && c.language !== undefined && c.language !== 'python')
      tags.push(`<language>${c.language}</language>`);
    let text = `<cell id="${c.cell_id}">${tags.join('')}${c.source}</cell id="${c.cell_id}">`;
    for (const o of c.outputs ?? []) {
      if (o.text) text += `\n\n${o.text}`;
      if (o.image) text += `\n\n[image output: ${o.image.media_type}, ${o.image.image_data.length} base64 characters]`;
    }
    parts.push(text);
  }
  return parts.join('\n');
}
