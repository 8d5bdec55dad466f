// A background task's output file: its id, the file created empty in the session's tasks directory,
// and opened bound (never through a planted link) for the run that writes it.
import { createHash } from 'node:crypto';
import { constants as fsConstants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as path from 'node:path';
import { sessionTasksPath, sessionTempDir } from '../../sandbox/host';
import { sessionTempRootDir } from '../../sandbox/sessionTemp';
import { openOwnFileIn } from '../../files/safeFs';

/** A background task's id: `b` + 8 lowercase letters and digits, derived from the call (a retried call names the same task). */
export function backgroundTaskId(sessionId: string, toolUseId: string): string {
  const digest = createHash('sha256').update(`${sessionId}/${toolUseId}`).digest();
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let id = 'b';
  for (let i = 0; i < 8; i++) id += alphabet[(digest[i] as number) % alphabet.length];
  return id;
}

/**
 * A background task's output file, created empty in the session's tasks dir on this worker
 * (`<session temp dir>/tasks/<id>.output`; Read may read it). Sandboxed commands may write that
 * directory, so the worker opens it bound (safeFs `openOwnFileIn`): a symlink, hard link or FIFO
 * planted at the name or at `tasks` is refused, never written through. Returns the file's path.
 */
export async function createTaskOutput(sessionId: string, taskId: string): Promise<string> {
  await sessionTempDir(sessionId);
  const dir = sessionTasksPath(sessionId);
  const name = `${taskId}.output`;
  const fh = await openOwnFileIn(dir, name, fsConstants.O_WRONLY | fsConstants.O_APPEND, { create: true });
  await fh.close();
  return path.join(dir, name);
}

/**
 * The task's output file for its run (the worker's spool writes it; the trailer and the stored
 * output go through the same descriptor): bound as createTaskOutput's, then emptied.
 */
export async function openTaskOutput(outputPath: string): Promise<FileHandle> {
  // Another worker may run the task: its session temp dir may not exist yet (the worker's own directory).
  await sessionTempRootDir();
  await fs.mkdir(path.dirname(path.dirname(outputPath)), { recursive: true, mode: 0o700 });
  const fh = await openOwnFileIn(path.dirname(outputPath), path.basename(outputPath), fsConstants.O_RDWR, {
    create: true,
  });
  try {
    await fh.truncate(0);
    return fh;
  } catch (err) {
    await fh.close().catch(() => undefined);
    throw err;
  }
}
