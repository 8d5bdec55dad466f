// The hash of a loose object a sandboxed command wrote, taken without holding the worker's event
// loop (red team s, S9). The object screen (movedObjects.ts) checks each loose object the command
// wrote against its name; inflating and hashing them synchronously held the worker's one JS thread
// for the screen's whole 30 s budget (45 zlib bombs: 200 MiB each from ≈ 200 KiB on disk) and every
// session on the worker lost its heartbeats. Here the file is read and inflated in chunks (zlib's
// work runs on libuv's thread pool), each chunk hashed as it comes, so timers and I/O run between
// them. What one object may cost is bounded three ways, each an object left unverified (the screen
// removes it, as git would refuse it or as one it had no time for):
// - its header: a size over MAX_OBJECT, or bytes past the size the header says, stops the inflation
//   at once (git refuses such a file too);
// - the pass's inflate budget (`Budget.bytes`): what the screen inflates after one command is at
//   most INFLATE_FLOOR plus INFLATE_RATIO times the bytes the command wrote as loose objects — git's
//   own compression of real content stays far under that ratio, a zlib bomb (≈ 1000:1) does not;
// - the pass's deadline (wall time).
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';

/**
 * Objects larger than this are not inflated in the worker (git's own `core.bigFileThreshold`, 512 MiB,
 * sends larger blobs to packs): one the command wrote is removed unverified.
 */
export const MAX_OBJECT = 256 << 20;
/** Inflated bytes every pass may spend whatever the command wrote (one object up to MAX_OBJECT). */
export const INFLATE_FLOOR = MAX_OBJECT;
/** Inflated bytes a pass may spend per byte the command wrote as loose objects. */
export const INFLATE_RATIO = 32;
const CHUNK = 64 << 10;
const TYPES = new Set(['blob', 'tree', 'commit', 'tag']);

/** What a pass may still spend: inflated bytes and wall time (epoch ms). */
export interface Budget {
  bytes: number;
  deadline: number;
}

/** A loose object's id, or why there is none: `bad` (no well-formed object), `over` (past the budget). */
export type LooseResult = { id: string } | { bad: true } | { over: true };

/** `<type> <size>` → size, or -1. */
function parseHeader(h: string): number {
  const m = /^([a-z]+) (0|[1-9][0-9]{0,15})$/.exec(h);
  return m && TYPES.has(m[1]!) ? Number(m[2]) : -1;
}

/**
 * The id of the object a loose object file holds (sha1 or sha256 of its inflated body), read and
 * inflated in chunks; what it inflates is taken from `budget.bytes`.
 */
export async function looseObjectId(file: string, algo: 'sha1' | 'sha256', budget: Budget): Promise<LooseResult> {
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return { bad: true };
  }
  try {
    const st = await fh.stat();
    if (!st.isFile() || st.size > MAX_OBJECT) return { bad: true };
    if (budget.bytes <= 0 || Date.now() > budget.deadline) return { over: true };
    return await inflateAndHash(fh, algo, budget);
  } catch {
    return { bad: true }; // not a zlib stream, truncated
  } finally {
    await fh.close().catch(() => undefined);
  }
}

function inflateAndHash(fh: fs.promises.FileHandle, algo: 'sha1' | 'sha256', budget: Budget): Promise<LooseResult> {
  return new Promise<LooseResult>((resolve) => {
    const input = fh.createReadStream({ highWaterMark: CHUNK, autoClose: false });
    const inflate = zlib.createInflate({ chunkSize: CHUNK });
    const hash = crypto.createHash(algo);
    let head = Buffer.alloc(0);
    let expected = -1; // the whole inflated length the header says (header, NUL, body)
    let seen = 0;
    let done = false;
    const finish = (r: LooseResult) => {
      if (done) return;
      done = true;
      input.unpipe(inflate);
      input.destroy();
      inflate.destroy();
      resolve(r);
    };
    inflate.on('data', (chunk: Buffer) => {
      if (done) return;
      seen += chunk.length;
      budget.bytes -= chunk.length;
      if (expected < 0) {
        head = Buffer.concat([head, chunk.subarray(0, 64)]);
        const nul = head.subarray(0, 64).indexOf(0);
        if (nul < 0 && head.length < 64) return void hash.update(chunk);
        const size = nul < 0 ? -1 : parseHeader(head.subarray(0, nul).toString('latin1'));
        if (size < 0 || size > MAX_OBJECT) return finish({ bad: true });
        expected = nul + 1 + size;
        // What the header says is more than the pass may still inflate: not started on.
        if (expected - seen > budget.bytes) return finish({ over: true });
      }
      if (seen > expected) return finish({ bad: true });
      if (Date.now() > budget.deadline) return finish({ over: true });
      hash.update(chunk);
    });
    inflate.on('end', () => finish(expected >= 0 && seen === expected ? { id: hash.digest('hex') } : { bad: true }));
    inflate.on('error', () => finish({ bad: true }));
    input.on('error', () => finish({ bad: true }));
    input.pipe(inflate);
  });
}
