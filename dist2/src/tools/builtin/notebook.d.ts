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
    metadata?: {
        language_info?: {
            name?: string;
        };
    } & Record<string, unknown>;
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
    outputs?: Array<{
        output_type: string;
        text: string;
        image?: {
            image_data: string;
            media_type: string;
        };
    }>;
}
export declare const NOT_A_NOTEBOOK = "The file is not a valid Jupyter notebook: its top-level \"cells\" must be an array of cell objects, each with a string or string-array \"source\".";
export declare function isNotebookPath(p: string): boolean;
/** The parsed notebook, or a message saying why the text is not one. */
export declare function parseNotebook(text: string): {
    ok: true;
    notebook: Notebook;
} | {
    ok: false;
    message: string;
};
export declare function cellSource(cell: NotebookCell): string;
export declare function notebookLanguage(nb: Notebook): string;
/**
 * The index a cell_id names: the cell with that `id`, else `cell-<n>` (the id Read shows for a
 * cell without one) as an index. For an insert, the index to insert at (after the named cell;
 * 0 without a cell_id). The reference's lookup, with its error codes.
 */
export declare function findCell(cells: readonly NotebookCell[], cellId: string | undefined, mode: 'replace' | 'insert' | 'delete'): number | {
    message: string;
    errorCode: number;
};
/** Every cell as the reference's Read reports it (outputs over the budget replaced by a pointer). */
export declare function renderCells(nb: Notebook, notebookPath: string): RenderedCell[];
/**
 * The text the model gets for a notebook: each cell as `<cell id="…">` (its type when not code,
 * its language when not python) followed by its text outputs; images are named, not sent.
 */
export declare function notebookText(cells: readonly RenderedCell[]): string;
export {};
