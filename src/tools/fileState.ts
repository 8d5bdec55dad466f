// The "read before you write" rule shared by Edit and Write: the session must have read the
// whole file (ctx.agent.readFiles, fed by Read's `fileRead` modifiers) and the file must not have
// changed since (same mtime). Checked in validateInput AND again in call(): in durable mode an
// approval can keep a call waiting for hours between the two.
import { promises as fs } from 'node:fs';
import type { AgentContext } from '../core/context';
import { isAccessRefused, readFileBound, type RealPathCheck } from '../files/safeFs';
import { isErrno } from './paths';

export type StateCheck = { ok: true } | { ok: false; message: string; errorCode: number };

export const NOT_READ_MESSAGE = 'File has not been read yet. Read it first before writing to it.';
export const PARTIAL_READ_MESSAGE =
  'File has only been partially read (with offset/limit, or it was longer than one page). Read the whole file first (pass a larger limit if it has more lines than the default page) before writing to it.';
export const MODIFIED_MESSAGE =
  'File has been modified since it was read, either by the user, a linter or another command. Read it again before writing to it.';

export async function checkReadState(agent: AgentContext, abs: string): Promise<StateCheck> {
  const state = agent.readFiles[abs];
  if (!state) return { ok: false, message: NOT_READ_MESSAGE, errorCode: 6 };
  if (state.partial) return { ok: false, message: PARTIAL_READ_MESSAGE, errorCode: 6 };
  const stat = await fs.stat(abs);
  if (stat.mtimeMs !== state.mtimeMs) return { ok: false, message: MODIFIED_MESSAGE, errorCode: 7 };
  return { ok: true };
}

/** The file's stats, or null when it does not exist. */
export async function statOrNull(abs: string): Promise<import('node:fs').Stats | null> {
  try {
    return await fs.stat(abs);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return null;
    throw err;
  }
}

/**
 * Does the existing file hold exactly `content` (UTF-8)? Cheap when the sizes differ. Read
 * through a descriptor bound by `check`; undefined when `check` refused what was opened.
 */
export async function hasExactContent(
  abs: string,
  size: number,
  content: string,
  check: RealPathCheck,
): Promise<boolean | undefined> {
  if (Buffer.byteLength(content, 'utf8') !== size) return false;
  try {
    return (await readFileBound(abs, check)).buf.equals(Buffer.from(content, 'utf8'));
  } catch (err) {
    if (isAccessRefused(err)) return undefined;
    throw err;
  }
}
