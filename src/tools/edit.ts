// Edit: exact string replacement in a file that the session has fully read.
import { dirname } from 'node:path';
import { z } from 'zod';
import { hiddenPathFilter } from '../permissions/resultFilter';
import { buildTool, type ToolUseContext } from '../toolProtocol/Tool';
import { isAccessRefused, readFileBound, writeFileBound } from '../files/safeFs';
import { readCheck, searchRootCheck, writeCheck } from './fileAccess';
import { checkReadState, statOrNull } from './fileState';
import { manifestWriteRefusal } from './manifestGuard';
import { filePatch, type PatchHunk } from './patch';
import { formatNumberedLine, resolvePath, throwIfAborted, withAbsolutePath } from './paths';
import { checkReadableFile, READ_MAX_LINE_CHARS } from './read';

const SNIPPET_CONTEXT_LINES = 4;
const SNIPPET_MAX_LINES = 60;

const inputSchema = z.strictObject({
  file_path: z.string().describe('Path of the file to modify: absolute, or relative to the working directory.'),
  old_string: z
    .string()
    .describe(
      'The exact text to replace, character for character (indentation included). Must occur exactly once unless replace_all is true.',
    ),
  new_string: z.string().describe('The text to replace it with (must differ from old_string).'),
  replace_all: z
    .boolean()
    .default(false)
    .describe('Replace every occurrence of old_string (default false). Useful to rename a variable throughout a file.'),
});

// The input side: replace_all may be absent (its default, false, is in the schema as the reference's).
export type EditInput = z.input<typeof inputSchema>;

export interface EditOutput {
  type: 'create' | 'update';
  filePath: string;
  replacements: number;
  replaceAll: boolean;
  /** `cat -n` lines around the (first) edited region. */
  snippet: string;
  mtimeMs: number;
  /**
   * Only when a PostToolUse hook will see the call (ToolUseContext.fileChangeForHooks): the content
   * before ('' when created; with Windows line endings as '\n', as the reference reports it).
   */
  originalFile?: string;
  /** With originalFile: the hunks from it to the edited content. */
  structuredPatch?: PatchHunk[];
}

const PROMPT = `Performs exact string replacements in a file.

Usage:
- You must have read the whole file with Read in this session before editing it, and it must not have changed since (otherwise the edit fails: Read it again). A read with offset/limit that did not cover the whole file does not count.
- old_string must match the file exactly, including whitespace and indentation. Read shows lines as: line number, a tab, then the line; copy only what follows the tab.
- The edit fails if old_string is not found, or if it occurs more than once and replace_all is not set: then add surrounding lines to old_string to make it unique, or set replace_all to replace every occurrence.
- old_string and new_string must differ.
- With an empty old_string and a file_path that does not exist, the file is created with new_string as its content.
- Prefer editing existing files to creating new ones.`;

type Plan =
  | { ok: false; message: string; errorCode: number }
  /** validateInput could not open the file under its check: call() plans again after the decision. */
  | { ok: true; deferred: true }
  | { ok: true; abs: string; create: true; updated: string }
  | {
      ok: true;
      abs: string;
      create: false;
      original: string;
      updated: string;
      crlf: boolean;
      firstIndex: number;
      replacements: number;
    };

function countOccurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

type PlanContext = Pick<ToolUseContext, 'agent' | 'permission' | 'permittedPaths'>;

/** All the checks of an edit, and its result. Run by validateInput and again by call(). */
async function plan(input: EditInput, ctx: PlanContext, phase: 'validate' | 'call'): Promise<Plan> {
  const p = await planEdit(input, ctx, phase);
  if (!p.ok || 'deferred' in p) return p;
  // A package.json's durable-agent bin or control keys (src/tools/manifestGuard.ts): refused in every mode.
  const before = p.create ? null : p.original;
  const refused = await manifestWriteRefusal(p.abs, p.updated, () => Promise.resolve(before));
  return refused ? { ok: false, message: refused, errorCode: 14 } : p;
}

async function planEdit(input: EditInput, ctx: PlanContext, phase: 'validate' | 'call'): Promise<Plan> {
  const hidden = hiddenPathFilter('Read', ctx);
  const { old_string: oldString, new_string: newString } = input;
  if (oldString === newString) {
    return { ok: false, message: 'No changes to make: old_string and new_string are exactly the same.', errorCode: 1 };
  }
  const abs = resolvePath(ctx.agent.cwd, input.file_path);
  const stat = await statOrNull(abs);
  if (!stat) {
    if (oldString === '') return { ok: true, abs, create: true, updated: newString };
    const check = await checkReadableFile(
      input.file_path,
      ctx.agent.cwd,
      hidden,
      searchRootCheck(ctx, 'Edit', dirname(abs), 'validate'),
    );
    return { ok: false, message: check.ok ? `File does not exist: ${input.file_path}.` : check.message, errorCode: 4 };
  }
  const readable = await checkReadableFile(
    input.file_path,
    ctx.agent.cwd,
    hidden,
    searchRootCheck(ctx, 'Edit', dirname(abs), 'validate'),
  );
  if (!readable.ok) return { ok: false, message: readable.message, errorCode: 2 };

  const state = await checkReadState(ctx.agent, abs);
  if (!state.ok) return state;

  // The old content through a bound descriptor: neither the snippet nor a "not found" may come
  // from a file swapped in after the check (safeFs.ts).
  let raw: Buffer;
  try {
    raw = (await readFileBound(abs, readCheck(ctx, 'Edit', input.file_path, phase))).buf;
  } catch (err) {
    if (isAccessRefused(err) && phase === 'validate') return { ok: true, deferred: true };
    throw err;
  }
  if (raw.includes(0))
    return {
      ok: false,
      message: `${input.file_path} looks binary (it contains NUL bytes); Edit only changes text files.`,
      errorCode: 5,
    };
  const original = raw.toString('utf8');

  if (oldString === '') {
    if (original.length > 0) {
      return {
        ok: false,
        message:
          'Cannot create new file - file already exists. To change it, give the text to replace in old_string (or use Write to replace it whole).',
        errorCode: 3,
      };
    }
    return {
      ok: true,
      abs,
      create: false,
      original: '',
      updated: newString,
      crlf: false,
      firstIndex: 0,
      replacements: 1,
    };
  }

  // Files with Windows line endings: Read shows lines without '\r', so the model's strings use
  // '\n'. Match on a '\n' version and write '\r\n' back (only when every '\n' is a '\r\n').
  const crlf = original.includes('\r\n') && !/(^|[^\r])\n/.test(original) && !oldString.includes('\r');
  const text = crlf ? original.replace(/\r\n/g, '\n') : original;
  const firstIndex = text.indexOf(oldString);
  if (firstIndex === -1) {
    return { ok: false, message: `String to replace not found in file.\nString: ${oldString}`, errorCode: 8 };
  }
  const replacements = countOccurrences(text, oldString);
  if (replacements > 1 && !input.replace_all) {
    return {
      ok: false,
      message:
        `Found ${replacements} matches of the string to replace, but replace_all is false. ` +
        'To replace all occurrences, set replace_all to true. To replace only one occurrence, ' +
        'add more surrounding context to old_string so that it matches exactly one place.\n' +
        `String: ${oldString}`,
      errorCode: 9,
    };
  }
  const edited = input.replace_all
    ? text.split(oldString).join(newString)
    : text.slice(0, firstIndex) + newString + text.slice(firstIndex + oldString.length);
  return { ok: true, abs, create: false, original: text, updated: edited, crlf, firstIndex, replacements };
}

/** `cat -n` lines around the replacement that starts at `index` of the edited ('\n') text. */
function snippetAround(text: string, index: number, newString: string): string {
  const lines = text.split('\n');
  const firstLine = text.slice(0, index).split('\n').length; // 1-based
  const lastLine = firstLine + Math.max(0, newString.split('\n').length - 1);
  const from = Math.max(1, firstLine - SNIPPET_CONTEXT_LINES);
  const to = Math.min(lines.length, lastLine + SNIPPET_CONTEXT_LINES, from + SNIPPET_MAX_LINES - 1);
  const out: string[] = [];
  for (let n = from; n <= to; n++) {
    let line = (lines[n - 1] ?? '').replace(/\r$/, '');
    if (line.length > READ_MAX_LINE_CHARS) line = `${line.slice(0, READ_MAX_LINE_CHARS)}… [line truncated]`;
    out.push(formatNumberedLine(n, line));
  }
  return out.join('\n');
}

export const EditTool = buildTool<EditInput, EditOutput>({
  name: 'Edit',
  inputSchema,
  maxResultSizeChars: 100_000,
  prompt: () => PROMPT,
  summary: (input) => `Edit ${input.file_path}${input.replace_all ? ' (replace all)' : ''}`,
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  // Not idempotent: re-running "replace A by B" after it landed fails (A is gone) or, worse,
  // replaces another occurrence. The default (false unless read-only) is what we want.
  isIdempotent: () => false,
  getPath: (input) => input.file_path,
  observableInput: (input, cwd) => ({
    ...withAbsolutePath(input, 'file_path', cwd),
    replace_all: input.replace_all ?? false,
  }),

  async validateInput(input, ctx) {
    if (input.file_path === '') return { result: false, message: 'file_path must not be empty', errorCode: 9 };
    const p = await plan(input, ctx, 'validate');
    return p.ok ? { result: true } : { result: false, message: p.message, errorCode: p.errorCode };
  },

  async call(input, ctx) {
    const p = await plan(input, ctx, 'call');
    if (!p.ok) throw new Error(p.message);
    if ('deferred' in p) throw new Error(`Edit could not open ${input.file_path}`);
    throwIfAborted(ctx.abortSignal);
    // Written as Write does: a temp file in the bound directory, renamed into place (safeFs.ts).
    const content = p.create ? p.updated : p.crlf ? p.updated.replace(/\n/g, '\r\n') : p.updated;
    const written = await writeFileBound(p.abs, content, writeCheck(ctx, input.file_path), { createParents: p.create });
    const mtimeMs = written.stat.mtimeMs;
    const data: EditOutput = {
      type: p.create ? 'create' : 'update',
      filePath: p.abs,
      replacements: p.create ? 1 : p.replacements,
      replaceAll: input.replace_all === true,
      snippet: snippetAround(p.updated, p.create ? 0 : p.firstIndex, input.new_string),
      mtimeMs,
    };
    if (ctx.fileChangeForHooks) {
      data.originalFile = p.create ? '' : p.original;
      data.structuredPatch = filePatch(data.originalFile, p.updated);
    }
    return { data, contextModifiers: [{ type: 'fileWritten', path: p.abs, mtimeMs }] };
  },

  mapToolResultToToolResultBlockParam(data, toolUseId) {
    let text: string;
    if (data.type === 'create') {
      text = `File created successfully at: ${data.filePath}`;
    } else if (data.replaceAll && data.replacements > 1) {
      text =
        `The file ${data.filePath} has been updated. All ${data.replacements} occurrences of old_string were replaced with new_string. ` +
        `Here's the result of running \`cat -n\` on a snippet around the first one:\n${data.snippet}`;
    } else {
      text = `The file ${data.filePath} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${data.snippet}`;
    }
    return { type: 'tool_result', tool_use_id: toolUseId, content: text };
  },
});
