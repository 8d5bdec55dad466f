// Bash's process and output plumbing: the command's process group (alive? signal it) and its
// output file (the tail for progress, the whole output capped head + tail).
import type { promises as fs } from 'node:fs';

/** Output kept in the result's data; beyond it the middle is dropped (head and tail kept). */
export const BASH_MAX_OUTPUT_BYTES = 8 * 1024 * 1024;

export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Reads the tail of the output file, at most `bytes`, skipping a cut UTF-8 sequence. */
export async function readTail(fh: fs.FileHandle, size: number, bytes: number): Promise<string> {
  const start = Math.max(0, size - bytes);
  const buf = Buffer.alloc(size - start);
  const { bytesRead } = await fh.read(buf, 0, buf.length, start);
  let b = buf.subarray(0, bytesRead);
  if (start > 0) {
    let k = 0;
    while (k < b.length && k < 4 && ((b[k] as number) & 0xc0) === 0x80) k++;
    b = b.subarray(k);
  }
  return b.toString('utf8');
}

export async function readOutput(fh: fs.FileHandle): Promise<{ output: string; omittedBytes: number }> {
  const { size } = await fh.stat();
  if (size <= BASH_MAX_OUTPUT_BYTES) {
    const buf = Buffer.alloc(size);
    const { bytesRead } = await fh.read(buf, 0, size, 0);
    return { output: buf.subarray(0, bytesRead).toString('utf8'), omittedBytes: 0 };
  }
  const half = BASH_MAX_OUTPUT_BYTES / 2;
  const head = Buffer.alloc(half);
  await fh.read(head, 0, half, 0);
  const tail = await readTail(fh, size, half);
  const omitted = size - 2 * half;
  return { output: `${head.toString('utf8')}\n\n[... ${omitted} bytes of output omitted ...]\n\n${tail}`, omittedBytes: omitted };
}
