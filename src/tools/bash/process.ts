// Bash's process and output plumbing: the command's process group (alive? signal it) and its
// output spool (a socket copied to a file up to a cap; the tail for progress, the whole output
// capped head + tail).
import { promises as fsp, type promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

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
  return {
    output: `${head.toString('utf8')}\n\n[... ${omitted} bytes of output omitted ...]\n\n${tail}`,
    omittedBytes: omitted,
  };
}

/** The spool's default cap: past it the command is stopped (DURABLE_AGENT_BASH_MAX_SPOOL_BYTES overrides it). */
export const BASH_DEFAULT_SPOOL_CAP_BYTES = 64 * 1024 * 1024;
export const BASH_SPOOL_CAP_ENV = 'DURABLE_AGENT_BASH_MAX_SPOOL_BYTES';

/**
 * The most output one Bash call may spool to the worker's temp directory: the worker's
 * DURABLE_AGENT_BASH_MAX_SPOOL_BYTES (bytes, or with a K, M or G suffix: binary units), else
 * 64 MiB. A malformed value is an error naming the variable.
 */
export function bashSpoolCapBytes(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env[BASH_SPOOL_CAP_ENV];
  if (raw === undefined || raw.trim() === '') return BASH_DEFAULT_SPOOL_CAP_BYTES;
  const m = /^\s*(\d+)\s*([kmg]i?b?)?\s*$/i.exec(raw);
  const unit = m?.[2]?.[0]?.toLowerCase();
  const n = m ? Number(m[1]) * (unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1) : NaN;
  if (!Number.isSafeInteger(n) || n < 1024) {
    throw new Error(
      `${BASH_SPOOL_CAP_ENV}=${raw} is not a size: use bytes (at least 1024) or a number with K, M or G (e.g. 64M)`,
    );
  }
  return n;
}

/**
 * Where a command's output goes: one end of a connected Unix socket pair (stdout and stderr both:
 * one open file description, so their writes stay in order) that the worker copies into the spool file up to `capBytes`. Past
 * the cap nothing more is written (onCap fires once: the caller stops the command); the writer
 * never gets ahead of the disk (the socket blocks it), so the file never exceeds the cap. After the
 * shell exits, drain() waits for what it wrote; later writes of children it left running are
 * read and dropped (they neither block nor get SIGPIPE), as they went nowhere before.
 */
export interface OutputSpool {
  /** Give it to the child as stdout and stderr; close it with closeWriteEnd() once spawned. */
  readonly writeEnd: net.Socket;
  closeWriteEnd(): void;
  /** The spool file (progress reads its tail; the result reads it). */
  readonly file: fs.FileHandle;
  /** Bytes in the file. */
  spooled(): number;
  /** Bytes the command wrote (also past the cap, until it was stopped). */
  received(): number;
  readonly capBytes: number;
  capped(): boolean;
  onCap(cb: () => void): void;
  /** After the shell exited: resolves once what it wrote is in the file. */
  drain(): Promise<void>;
}

/** `file`: where the output goes (default `<dir>/output`; a background task's output file, opened bound by the caller). */
export async function openOutputSpool(
  dir: string,
  capBytes: number,
  file?: () => Promise<fs.FileHandle>,
): Promise<OutputSpool> {
  // A socket pair made in the call's own directory (0700: nobody else can connect), with no
  // process to spawn and nothing that blocks the worker. The child's writes block while the
  // worker has not read what came before.
  const address = path.join(dir, 'out.sock');
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => resolve());
  });
  const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
  const writeEnd = net.connect(address);
  writeEnd.pause(); // nothing is ever sent this way
  try {
    await new Promise<void>((resolve, reject) => {
      writeEnd.once('connect', () => resolve());
      writeEnd.once('error', reject);
    });
  } finally {
    server.close();
  }
  const sock = await accepted;
  let fh: fs.FileHandle;
  try {
    fh = file ? await file() : await fsp.open(path.join(dir, 'output'), 'w+');
  } catch (err) {
    writeEnd.destroy();
    sock.destroy();
    throw err;
  }
  let offset = 0;
  let received = 0;
  let chunks = 0;
  let capped = false;
  let draining = false;
  let ended = false;
  let writing: Promise<void> = Promise.resolve();
  let busy = false;
  const capListeners: Array<() => void> = [];
  sock.on('data', (chunk: Buffer) => {
    chunks++;
    received += chunk.length;
    if (capped || draining) return;
    const n = Math.min(chunk.length, capBytes - offset);
    if (n < chunk.length) {
      capped = true;
      for (const cb of capListeners.splice(0)) cb();
    }
    if (n <= 0) return;
    sock.pause();
    busy = true;
    const at = offset;
    offset += n;
    writing = (async () => {
      let done = 0;
      while (done < n) done += (await fh.write(chunk, done, n - done, at + done)).bytesWritten;
    })()
      .catch(() => undefined)
      .finally(() => {
        busy = false;
        sock.resume();
      });
  });
  const finished = (): void => {
    ended = true;
    sock.destroy();
  };
  sock.once('end', finished);
  sock.once('error', finished);
  const immediate = () => new Promise<void>((r) => setImmediate(r));
  return {
    writeEnd,
    closeWriteEnd: () => void writeEnd.destroy(),
    file: fh,
    spooled: () => offset,
    received: () => received,
    capBytes,
    capped: () => capped,
    onCap: (cb) => void capListeners.push(cb),
    async drain() {
      // EOF comes at once unless a child the shell left running holds the pipe; then what the
      // shell wrote is what arrives before the pipe goes quiet (it was in the pipe when it exited).
      for (;;) {
        if (ended) break;
        await writing;
        const seen = chunks;
        await immediate();
        await immediate();
        if (ended || (!busy && chunks === seen)) break;
      }
      await writing;
      draining = true;
      sock.unref();
    },
  };
}
