// Read: a text file's lines in `cat -n` style, a page at a time; records what was read.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { hiddenPathFilter } from '../permissions/resultFilter';
import { maskGitSecrets, repositoryConfigWithSecret } from '../hostProcess/gitConfigSecrets';
import { buildTool } from '../toolProtocol/Tool';
import { isAccessRefused, openDirBound, openFileBound, type RealPathCheck } from '../files/safeFs';
import { readCheck, searchRootCheck } from './fileAccess';
import { formatNumberedLine, isErrno, looksBinary, resolvePath, throwIfAborted, withAbsolutePath } from './paths';
import { isNotebookPath, notebookText, parseNotebook, renderCells, type RenderedCell } from './notebook';

/** The largest notebook Read parses (a larger one is read with Bash and jq). */
const NOTEBOOK_READ_MAX_BYTES = 10 * 1024 * 1024;

export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_LINE_CHARS = 2000;
/** Self-imposed budget for one Read's text: beyond it the page ends early (with a notice). */
export const READ_MAX_OUTPUT_CHARS = 100_000;
const BINARY_SNIFF_BYTES = 8192;
const CHUNK_BYTES = 64 * 1024;
// Enough bytes to hold READ_MAX_LINE_CHARS characters of any UTF-8 text (4 bytes max each).
const MAX_LINE_BYTES = READ_MAX_LINE_CHARS * 4 + 4;

export const EMPTY_FILE_NOTICE =
  '<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>';

const inputSchema = z.strictObject({
  file_path: z.string().describe('Path of the file to read: absolute, or relative to the working directory.'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('1-based line number to start reading from. Only provide it if the file is too large to read at once.'),
  limit: z
    .number()
    .int()
    .gt(0)
    .optional()
    .describe(
      `Number of lines to read (default ${READ_DEFAULT_LIMIT}). Only provide it if the file is too large to read at once.`,
    ),
  pages: z
    .string()
    .optional()
    .describe('Page range of a PDF file, e.g. "1-5". PDF reading is not supported here: any value is refused.'),
  allow_large: z
    .boolean()
    .optional()
    .describe(
      `Lift the size limits: the output budget of ${READ_MAX_OUTPUT_CHARS} characters and the notebook size limit. Lines are still cut and limit still applies.`,
    ),
});

export type ReadInput = z.infer<typeof inputSchema>;

export interface ReadOutput {
  /** Absolute path read. */
  filePath: string;
  /** The numbered lines, `cat -n` style (empty when no line was shown). */
  content: string;
  /** First line shown (1-based) and how many lines were shown. */
  startLine: number;
  numLines: number;
  totalLines: number;
  /** Lines longer than READ_MAX_LINE_CHARS that were cut. */
  truncatedLines: number;
  /** Not every line of the file was shown. */
  partial: boolean;
  /** The file ends with a line break (the reference counts an empty last line after it: hooks see that). */
  endsWithNewline: boolean;
  /** Why the page ended before the requested limit, if it did. */
  stoppedBy?: 'charBudget';
  mtimeMs: number;
  /** A Jupyter notebook (.ipynb): its cells, shown as cells (content is their text). */
  notebook?: RenderedCell[];
}

const PROMPT = `Reads a text file from the local filesystem and returns its contents with line numbers.

Usage:
- file_path may be absolute or relative to the working directory.
- By default it reads up to ${READ_DEFAULT_LIMIT} lines from the start of the file. For long files, pass offset (1-based line number) and limit to read a page; the result says how to continue.
- Lines longer than ${READ_MAX_LINE_CHARS} characters are cut.
- Output is in \`cat -n\` format: the line number, a tab, then the line as it is in the file. When you copy text into Edit's old_string, copy what follows the tab, never the number.
- Reading a file in full is required before Edit or Write may change it; a read with offset/limit that does not cover the whole file does not count.
- Directories cannot be read (use Glob, or Bash \`ls\`); binary files are refused.
- An empty file, or an offset past the end, gives a warning instead of content.
- Read several files in one turn when you need them: reads run concurrently.`;

/** A close existing name in the same directory, for "did you mean" hints. */
async function suggestSimilar(
  abs: string,
  hidden?: (abs: string) => boolean,
  dirCheck?: RealPathCheck,
): Promise<string | undefined> {
  let names: string[];
  try {
    // Listed through the directory held open and judged: a directory swapped for a symlink must
    // not put a name from outside into the hint.
    const dir = await openDirBound(path.dirname(abs), dirCheck ?? (() => undefined));
    try {
      names = await fs.readdir(dir.at);
    } finally {
      await dir.close();
    }
  } catch {
    return undefined;
  }
  // A name a Read deny/ask rule covers is never suggested (that would reveal that it exists).
  if (hidden) names = names.filter((n) => !hidden(path.join(path.dirname(abs), n)));
  const want = path.basename(abs);
  const lower = want.toLowerCase();
  const stem = (n: string) => n.replace(/\.[^.]*$/, '').toLowerCase();
  const found =
    names.find((n) => n.toLowerCase() === lower) ??
    names.find((n) => stem(n) === stem(want) && stem(want) !== '') ??
    names.find((n) => editDistance(n.toLowerCase(), lower) <= 2);
  return found === undefined ? undefined : path.join(path.dirname(abs), found);
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[b.length] as number;
}

/** validateInput-style check shared by the file tools: exists, is a regular file. */
export async function checkReadableFile(
  filePath: string,
  cwd: string,
  hidden?: (abs: string) => boolean,
  /** Judges the real path of the directory listed for a "Did you mean" (fileAccess.ts). */
  dirCheck?: RealPathCheck,
): Promise<{ ok: true; abs: string; size: number } | { ok: false; message: string; missing: boolean }> {
  const abs = resolvePath(cwd, filePath);
  let stat;
  try {
    stat = await fs.stat(abs);
  } catch (err) {
    if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) {
      const similar = await suggestSimilar(abs, hidden, dirCheck);
      const where = path.isAbsolute(filePath) ? '' : ` (resolved against the working directory ${cwd})`;
      return {
        ok: false,
        missing: true,
        message: `File does not exist: ${filePath}${where}.${similar ? ` Did you mean ${similar}?` : ''}`,
      };
    }
    return { ok: false, missing: false, message: `Cannot access ${filePath}: ${(err as Error).message}` };
  }
  if (stat.isDirectory()) {
    return {
      ok: false,
      missing: false,
      message: `EISDIR: ${filePath} is a directory, not a file. Use Glob to find files in it, or Bash \`ls\` to list it.`,
    };
  }
  if (!stat.isFile())
    return { ok: false, missing: false, message: `${filePath} is not a regular file (device, socket or pipe).` };
  return { ok: true, abs, size: stat.size };
}

/** Does the file start with a NUL byte in its first 8 KiB? Read through a bound descriptor. */
async function sniffBinary(fh: fs.FileHandle): Promise<boolean> {
  const buf = Buffer.alloc(BINARY_SNIFF_BYTES);
  const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
  return looksBinary(buf.subarray(0, bytesRead));
}

/** validateInput's sniff: undefined when the file cannot be opened under `check` (call() then decides). */
async function sniffBinaryAt(abs: string, check: RealPathCheck): Promise<boolean | undefined> {
  let bound;
  try {
    bound = await openFileBound(abs, check);
  } catch (err) {
    if (isAccessRefused(err)) return undefined;
    throw err;
  }
  try {
    return await sniffBinary(bound.fh);
  } finally {
    await bound.fh.close();
  }
}

function binaryMessage(filePath: string): string {
  return `This tool cannot read binary files: ${filePath} contains NUL bytes. Use Bash (e.g. \`file\`, \`xxd ${filePath} | head\`) to inspect it.`;
}

interface PageResult {
  lines: string[];
  totalLines: number;
  truncatedLines: number;
  stoppedByBudget: boolean;
  endsWithNewline: boolean;
}

/** A repository configuration's lines [start, start+limit) with each credential masked (a small file: read whole). */
async function maskedPage(fh: fs.FileHandle, start: number, limit: number): Promise<PageResult> {
  const text = maskGitSecrets((await fh.readFile({ encoding: 'utf8' })).slice(0, 1 << 20));
  const all = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  if (endsWithNewline) all.pop();
  const lines = all.slice(start - 1, start - 1 + limit).map((l, i) => formatNumberedLine(start + i, l));
  return { lines, totalLines: all.length, truncatedLines: 0, stoppedByBudget: false, endsWithNewline };
}

/** Streams the file: keeps lines [start, start+limit) within the char budget, counts them all. */
async function readPage(
  fh: fs.FileHandle,
  start: number,
  limit: number,
  signal: AbortSignal,
  budgetChars: number = READ_MAX_OUTPUT_CHARS,
): Promise<PageResult> {
  const buf = Buffer.alloc(CHUNK_BYTES);
  const lines: string[] = [];
  let truncatedLines = 0;
  let budget = budgetChars;
  let collecting = true;
  let stoppedByBudget = false;
  let lineNo = 1;
  let parts: Buffer[] = [];
  let partBytes = 0;
  let lineTooLong = false;
  let pendingBytes = 0; // bytes of the current (unterminated) line seen so far
  let pos = 0;

  const finishLine = (): void => {
    if (collecting && lineNo >= start) {
      let text = Buffer.concat(parts, partBytes).toString('utf8');
      if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (text.endsWith('\r')) text = text.slice(0, -1);
      if (lineTooLong || text.length > READ_MAX_LINE_CHARS) {
        text = `${text.slice(0, READ_MAX_LINE_CHARS)}… [line truncated]`;
        truncatedLines++;
      }
      const formatted = formatNumberedLine(lineNo, text);
      if (lines.length > 0 && formatted.length + 1 > budget) {
        collecting = false;
        stoppedByBudget = true;
      } else {
        lines.push(formatted);
        budget -= formatted.length + 1;
        if (lines.length >= limit) collecting = false;
      }
    }
    lineNo++;
    parts = [];
    partBytes = 0;
    lineTooLong = false;
    pendingBytes = 0;
  };

  const keep = (chunk: Buffer): void => {
    if (!collecting || lineNo < start) return;
    const room = MAX_LINE_BYTES - partBytes;
    if (room <= 0) {
      lineTooLong = true;
      return;
    }
    const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (chunk.length > room) lineTooLong = true;
    parts.push(Buffer.from(piece));
    partBytes += piece.length;
  };

  for (;;) {
    throwIfAborted(signal);
    const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
    if (bytesRead === 0) break;
    pos += bytesRead;
    const chunk = buf.subarray(0, bytesRead);
    let s = 0;
    for (;;) {
      const nl = chunk.indexOf(10, s);
      if (nl === -1) {
        keep(chunk.subarray(s));
        pendingBytes += bytesRead - s;
        break;
      }
      keep(chunk.subarray(s, nl));
      finishLine();
      s = nl + 1;
    }
  }
  const endsWithNewline = pos > 0 && pendingBytes === 0;
  if (pendingBytes > 0) finishLine();
  return { lines, totalLines: lineNo - 1, truncatedLines, stoppedByBudget, endsWithNewline };
}

/** A whole notebook, its cells rendered as the reference's Read shows them; read in full (Edit and NotebookEdit may follow). */
async function readNotebook(
  fh: fs.FileHandle,
  stat: import('node:fs').Stats,
  abs: string,
  given: string,
  allowLarge = false,
): Promise<{
  data: ReadOutput;
  contextModifiers: [{ type: 'fileRead'; path: string; mtimeMs: number; partial: false }];
}> {
  if (!allowLarge && stat.size > NOTEBOOK_READ_MAX_BYTES)
    throw new Error(
      `${given} is a notebook of ${stat.size} bytes, more than Read shows (${NOTEBOOK_READ_MAX_BYTES}). Read parts of it with Bash and jq, e.g. jq '.cells[:20]' ${given}`,
    );
  const parsed = parseNotebook((await fh.readFile()).toString('utf8'));
  if (!parsed.ok) throw new Error(`${given}: ${parsed.message}`);
  const cells = renderCells(parsed.notebook, abs);
  const content = notebookText(cells);
  const lines = content === '' ? 0 : content.split('\n').length;
  const data: ReadOutput = {
    filePath: abs,
    content,
    startLine: 1,
    numLines: lines,
    totalLines: lines,
    truncatedLines: 0,
    partial: false,
    endsWithNewline: false,
    mtimeMs: stat.mtimeMs,
    notebook: cells,
  };
  return { data, contextModifiers: [{ type: 'fileRead', path: abs, mtimeMs: stat.mtimeMs, partial: false }] };
}

export const ReadTool = buildTool<ReadInput, ReadOutput>({
  name: 'Read',
  inputSchema,
  // Read limits itself (a page of lines within a char budget): persisting its output to a file
  // the model would then have to Read would be circular.
  maxResultSizeChars: Number.MAX_SAFE_INTEGER,
  prompt: () => PROMPT,
  summary: (input) => {
    if (input.offset === undefined && input.limit === undefined) return `Read ${input.file_path}`;
    const from = Math.max(1, input.offset ?? 1);
    return `Read ${input.file_path} (lines ${from}-${input.limit === undefined ? '' : from + input.limit - 1})`;
  },
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  isIdempotent: () => true,
  getPath: (input) => input.file_path,
  observableInput: (input, cwd) => withAbsolutePath(input, 'file_path', cwd),

  async validateInput(input, ctx) {
    if (input.file_path === '') return { result: false, message: 'file_path must not be empty', errorCode: 4 };
    if (input.pages !== undefined) {
      return {
        result: false,
        message: `pages is for PDF files, and reading PDF files is not supported here (${input.file_path}). Extract the text with Bash instead (e.g. pdftotext).`,
        errorCode: 5,
      };
    }
    const check = await checkReadableFile(
      input.file_path,
      ctx.agent.cwd,
      hiddenPathFilter('Read', ctx),
      searchRootCheck(ctx, 'Read', path.dirname(resolvePath(ctx.agent.cwd, input.file_path)), 'validate'),
    );
    // A large result of this session kept in a shared store but missing on this host is recreated
    // by call(), after the permission decision, at the worker's own path of it only (sharedResultStore.ts).
    const abs = resolvePath(ctx.agent.cwd, input.file_path);
    if (!check.ok && check.missing && (await ctx.resultStore?.stored?.(abs))) return { result: true };
    // The reference finds these in call(): its model gets them without <tool_use_error> tags.
    if (!check.ok) return { result: false, message: check.message, errorCode: check.missing ? 1 : 2, untagged: true };
    // Before the permission decision only the path as given (or a place the read checks allow)
    // is opened; anything else is left to call(), which opens what the decision covered.
    if (check.size > 0 && (await sniffBinaryAt(check.abs, readCheck(ctx, 'Read', input.file_path, 'validate')))) {
      return { result: false, message: binaryMessage(input.file_path), errorCode: 3 };
    }
    return { result: true };
  },

  async call(input, ctx) {
    const abs = resolvePath(ctx.agent.cwd, input.file_path);
    const start = Math.max(1, input.offset ?? 1);
    const limit = input.limit ?? READ_DEFAULT_LIMIT;
    await ctx.resultStore?.materialize?.(abs);
    // Bound to what the permission decision covered: a file or directory swapped for a symlink
    // after the check is refused here, before a byte is read (safeFs.ts).
    const { fh, stat, real } = await openFileBound(abs, readCheck(ctx, 'Read', input.file_path));
    try {
      if (stat.size > 0 && (await sniffBinary(fh))) throw new Error(binaryMessage(input.file_path));
      if (isNotebookPath(abs)) return await readNotebook(fh, stat, abs, input.file_path, input.allow_large === true);
      // A repository configuration holding a credential reads as the sandbox's copy does: masked (O12).
      const masked = repositoryConfigWithSecret(real);
      const page = masked
        ? await maskedPage(fh, start, limit)
        : await readPage(
            fh,
            start,
            limit,
            ctx.abortSignal,
            input.allow_large ? Number.MAX_SAFE_INTEGER : READ_MAX_OUTPUT_CHARS,
          );
      const numLines = page.lines.length;
      const partial = page.totalLines > 0 && (numLines === 0 || start > 1 || start + numLines - 1 < page.totalLines);
      const data: ReadOutput = {
        filePath: abs,
        content: page.lines.join('\n'),
        startLine: start,
        numLines,
        totalLines: page.totalLines,
        truncatedLines: page.truncatedLines,
        partial,
        endsWithNewline: page.endsWithNewline,
        mtimeMs: stat.mtimeMs,
        ...(page.stoppedByBudget ? { stoppedBy: 'charBudget' as const } : {}),
      };
      return { data, contextModifiers: [{ type: 'fileRead', path: abs, mtimeMs: stat.mtimeMs, partial }] };
    } finally {
      await fh.close();
    }
  },

  mapToolResultToToolResultBlockParam(data, toolUseId) {
    let text: string;
    if (data.notebook) {
      text = data.notebook.length === 0 ? EMPTY_FILE_NOTICE : data.content;
    } else if (data.totalLines === 0) {
      text = EMPTY_FILE_NOTICE;
    } else if (data.numLines === 0) {
      text = `<system-reminder>Warning: the file exists but is shorter than the provided offset (${data.startLine}). The file has ${data.totalLines} lines.</system-reminder>`;
    } else {
      text = data.content;
      const last = data.startLine + data.numLines - 1;
      const notes: string[] = [];
      if (last < data.totalLines) {
        const why =
          data.stoppedBy === 'charBudget' ? ` (output budget of ${READ_MAX_OUTPUT_CHARS} characters reached)` : '';
        notes.push(
          `Showing lines ${data.startLine}-${last} of ${data.totalLines}${why}. To read more, call Read with offset: ${last + 1}.`,
        );
      }
      if (data.truncatedLines > 0) {
        notes.push(`${data.truncatedLines} line(s) longer than ${READ_MAX_LINE_CHARS} characters were cut.`);
      }
      if (notes.length > 0) text += `\n\n<system-reminder>${notes.join(' ')}</system-reminder>`;
    }
    return { type: 'tool_result', tool_use_id: toolUseId, content: text };
  },
});
