// Files the worker owns in the shadow, and files a command may have written there: read without
// following a symlink, through directories held open (Linux: /proc/self/fd; elsewhere by path).
import { constants, promises as fs, type Dirent } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { HEX } from './layout';

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
// --- files the worker owns, and files a command may have written ------------------------------------

export async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await fs.writeFile(tmp, text, { flag: 'wx' });
  await fs.rename(tmp, file);
}

/** A directory of the shadow a command may have replaced (by a symlink, a file): made a directory again. */
export async function repairDir(dir: string): Promise<void> {
  const st = await fs.lstat(dir).catch(() => undefined);
  if (st && !st.isDirectory()) await fs.rm(dir, { force: true });
  await ensureDir(dir);
}

/** mkdir that refuses a symlink (or anything else) in the way. */
export async function ensureDir(dir: string): Promise<void> {
  await fs.mkdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  const st = await fs.lstat(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory (a symlink or a file is in the way)`);
}

/** Linux reaches a name inside a directory held open through /proc (openat); elsewhere by path. */
const PROC_FD = process.platform === 'linux';

/** A directory a command may have written, opened without following a symlink. */
export async function openDirNoFollow(dir: string): Promise<{ at: string; close: () => Promise<void> } | undefined> {
  let fh: FileHandle;
  try {
    fh = await fs.open(dir, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch {
    return undefined; // absent, a symlink or not a directory: nothing to read there
  }
  return { at: PROC_FD ? `/proc/self/fd/${fh.fd}` : dir, close: () => fh.close().catch(() => undefined) };
}

/** A regular file a command may have written: never a symlink, a FIFO or a device. */
export async function openRegularNoFollow(file: string): Promise<FileHandle | undefined> {
  let fh: FileHandle;
  try {
    fh = await fs.open(file, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return undefined;
  }
  if (!(await fh.stat()).isFile()) {
    await fh.close();
    return undefined;
  }
  return fh;
}

export async function readRegular(file: string, max = 4096): Promise<string | undefined> {
  const fh = await openRegularNoFollow(file);
  if (!fh) return undefined;
  try {
    const buf = Buffer.alloc(max);
    const { bytesRead } = await fh.read(buf, 0, max, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
}

export async function entriesOf(at: string): Promise<Dirent[]> {
  return fs.readdir(at, { withFileTypes: true }).catch(() => [] as Dirent[]);
}

/** A branch or tag name as git accepts it (git check-ref-format's rules; a file name a command made). */
export function safeRefName(name: string): boolean {
  // No control character, space, ~ ^ : ? * [ \ or DEL anywhere; no "@{"; not "@" alone.
  if (!/^refs\/(heads|tags)\/[^\x00-\x20~^:?*[\\\x7f]+$/.test(name) || name.includes('@{')) return false;
  return !name
    .split('/')
    .some(
      (c) => c === '' || c === '@' || c.startsWith('.') || c.endsWith('.lock') || c.endsWith('.') || c.includes('..'),
    );
}

/** The shadow's loose refs under refs/heads and refs/tags (what commands wrote there), never following a symlink. */
export async function shadowLooseRefs(shadow: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let budget = 100_000;
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    const d = await openDirNoFollow(dir);
    if (!d) return;
    try {
      for (const e of await entriesOf(d.at)) {
        if (--budget < 0) return;
        const name = `${rel}/${e.name}`;
        const p = path.join(d.at, e.name);
        if (e.isDirectory() && depth < 16) await walk(p, name, depth + 1);
        else if (e.isFile() && !e.name.endsWith('.lock')) {
          const text = (await readRegular(p, 200))?.trim();
          if (text && HEX.test(text) && safeRefName(name)) found.set(name, text);
        }
      }
    } finally {
      await d.close();
    }
  };
  for (const top of ['heads', 'tags']) await walk(path.join(shadow, 'refs', top), `refs/${top}`, 0);
  return found;
}
