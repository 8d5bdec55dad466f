// Write: creates or overwrites a whole file. Overwriting needs a full, current read.
import { promises as fs } from 'node:fs';
import { z } from 'zod';
import { buildTool, type ToolUseContext } from '../toolProtocol/Tool';
import { readFileBound, writeFileBound } from '../files/safeFs';
import { readCheck, writeCheck } from './fileAccess';
import { checkReadState, hasExactContent, statOrNull } from './fileState';
import { manifestWriteRefusal } from './manifestGuard';
import { filePatch, type PatchHunk } from './patch';
import { resolvePath, throwIfAborted, withAbsolutePath } from './paths';

const inputSchema = z.strictObject({
  file_path: z
    .string()
    .describe(
      'Path of the file to write: absolute, or relative to the working directory. Parent directories are created.',
    ),
  content: z.string().describe('The complete new content of the file.'),
});

export type WriteInput = z.infer<typeof inputSchema>;

export interface WriteOutput {
  type: 'create' | 'update';
  filePath: string;
  /** The file already held exactly this content: nothing was written (e.g. a retried call). */
  unchanged?: boolean;
  bytes: number;
  mtimeMs: number;
  /** Only when a PostToolUse hook will see the call (ToolUseContext.fileChangeForHooks): the content before (null: created). */
  originalFile?: string | null;
  /** With originalFile: the hunks from it to the new content. */
  structuredPatch?: PatchHunk[];
}

const PROMPT = `Writes a file to the local filesystem, replacing its whole content.

Usage:
- file_path may be absolute or relative to the working directory; missing parent directories are created.
- Creating a new file needs no prior read. Overwriting an existing file requires that you have read the whole file with Read in this session and that it has not changed since; otherwise the call fails and you must Read it first.
- Prefer Edit for changing part of an existing file: it sends only the change.
- Do not create documentation or README files unless asked.`;

type Plan =
  { ok: false; message: string; errorCode: number } | { ok: true; abs: string; exists: boolean; unchanged: boolean };

type PlanContext = Pick<ToolUseContext, 'agent' | 'permission' | 'permittedPaths'>;

async function plan(input: WriteInput, ctx: PlanContext, phase: 'validate' | 'call'): Promise<Plan> {
  const abs = resolvePath(ctx.agent.cwd, input.file_path);
  const stat = await statOrNull(abs);
  if (!stat) {
    const refused = await manifestWriteRefusal(abs, input.content, () => Promise.resolve(null));
    if (refused) return { ok: false, message: refused, errorCode: 14 };
    return { ok: true, abs, exists: false, unchanged: false };
  }
  if (stat.isDirectory()) return { ok: false, message: `EISDIR: ${input.file_path} is a directory.`, errorCode: 2 };
  if (!stat.isFile()) return { ok: false, message: `${input.file_path} is not a regular file.`, errorCode: 2 };
  // Writing what is already there is a no-op whatever the read state: this is what makes a
  // retried Write (after a lost worker, when its modifier was never applied) succeed. The
  // comparison reads the file through a bound descriptor: it must not become an oracle on a file
  // swapped in by a symlink. Refused before the decision: call() compares again.
  const exact = await hasExactContent(abs, stat.size, input.content, readCheck(ctx, 'Write', input.file_path, phase));
  if (exact === undefined && phase === 'validate') return { ok: true, abs, exists: true, unchanged: false };
  if (exact === undefined)
    throw new Error(
      `Refused to read ${input.file_path}: it is not the file the permission check covered (the file system changed after the check).`,
    );
  if (exact) return { ok: true, abs, exists: true, unchanged: true };
  const state = await checkReadState(ctx.agent, abs);
  if (!state.ok) return state;
  // A package.json's durable-agent bin or control keys (src/tools/manifestGuard.ts): refused in every mode.
  const check = readCheck(ctx, 'Write', input.file_path, phase);
  const refused = await manifestWriteRefusal(abs, input.content, async () =>
    (await readFileBound(abs, check)).buf.toString('utf8'),
  );
  if (refused) return { ok: false, message: refused, errorCode: 14 };
  return { ok: true, abs, exists: true, unchanged: false };
}

export const WriteTool = buildTool<WriteInput, WriteOutput>({
  name: 'Write',
  inputSchema,
  maxResultSizeChars: 100_000,
  prompt: () => PROMPT,
  summary: (input) => {
    const lines = input.content === '' ? 0 : input.content.split('\n').length;
    return `Write ${input.file_path} (${lines} line${lines === 1 ? '' : 's'})`;
  },
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  // Write is idempotent: writing the same content again leaves the same state, and a repeated
  // call whose first attempt already landed finds the content in place and succeeds without
  // writing (see plan()). So a Write may be re-run after a lost worker.
  isIdempotent: () => true,
  getPath: (input) => input.file_path,
  observableInput: (input, cwd) => withAbsolutePath(input, 'file_path', cwd),

  async validateInput(input, ctx) {
    if (input.file_path === '') return { result: false, message: 'file_path must not be empty', errorCode: 9 };
    const p = await plan(input, ctx, 'validate');
    return p.ok ? { result: true } : { result: false, message: p.message, errorCode: p.errorCode };
  },

  async call(input, ctx) {
    const p = await plan(input, ctx, 'call');
    if (!p.ok) throw new Error(p.message);
    const bytes = Buffer.byteLength(input.content, 'utf8');
    const originalFile = !ctx.fileChangeForHooks
      ? undefined
      : p.exists
        ? (await readFileBound(p.abs, readCheck(ctx, 'Write', input.file_path))).buf.toString('utf8')
        : null;
    let mtimeMs: number;
    if (!p.unchanged) {
      throwIfAborted(ctx.abortSignal);
      // A temp file in the bound parent directory, renamed into place (safeFs.ts): a symlink
      // swapped in after the check is replaced, never written through.
      mtimeMs = (await writeFileBound(p.abs, input.content, writeCheck(ctx, input.file_path), { createParents: true }))
        .stat.mtimeMs;
    } else {
      mtimeMs = (await fs.stat(p.abs)).mtimeMs;
    }
    const data: WriteOutput = {
      type: p.exists ? 'update' : 'create',
      filePath: p.abs,
      bytes,
      mtimeMs,
      ...(p.unchanged ? { unchanged: true } : {}),
      ...(originalFile === undefined
        ? {}
        : { originalFile, structuredPatch: originalFile === null ? [] : filePatch(originalFile, input.content) }),
    };
    return { data, contextModifiers: [{ type: 'fileWritten', path: p.abs, mtimeMs }] };
  },

  mapToolResultToToolResultBlockParam(data, toolUseId) {
    const text =
      data.type === 'create'
        ? `File created successfully at: ${data.filePath}`
        : data.unchanged
          ? `The file ${data.filePath} already had exactly this content; nothing needed to be written.`
          : `The file ${data.filePath} has been updated successfully.`;
    return { type: 'tool_result', tool_use_id: toolUseId, content: text };
  },
});
