// Descriptor-bound file access (invariant 13: every check binds to what is actually opened).
// A path is checked, then opened; anything that can change the file system in between (a
// sandboxed Bash loop, a parallel subagent) could swap the file, or a directory on the way to it,
// for a symlink and make the open land somewhere the check never saw. So nothing here opens a
// path and trusts it: each function opens first, asks the kernel what it really opened (the
// descriptor's real path, `/proc/self/fd/N` on Linux), and only then lets the caller's check
// decide — and afterwards works on the descriptor (or on the directory it holds) only.
//
// Linux: the real path of a descriptor is exact, and `/proc/self/fd/N/name` reaches a name inside
// the very directory held open (as openat/mkdirat/renameat do), so a swap cannot win.
// Elsewhere (macOS: node has no F_GETPATH): the last component is never followed blindly
// (O_NOFOLLOW), and the descriptor's device and inode must equal those found at its real path;
// a directory swapped and swapped back between those two steps is not detected (docs/tools.md).
//
// The checks themselves (what a session may open) are the caller's: see builtin/fileAccess.ts.
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  promises as fs,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';

/** Decides whether a real path may be opened: undefined when it may, else why not. */
export type RealPathCheck = (real: string) => string | undefined;

/** The check refused what was opened (or a swap was seen): nothing was read or written. */
export class AccessRefusedError extends Error {
  readonly code = 'EACCESREFUSED';
  constructor(
    message: string,
    readonly realPath: string,
  ) {
    super(message);
    this.name = 'AccessRefusedError';
  }
}

export function isAccessRefused(err: unknown): err is AccessRefusedError {
  return err instanceof AccessRefusedError;
}

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
// Reading a FIFO must not hang the worker: O_NONBLOCK makes the open return at once (and the
// fstat then refuses it); on a regular file it changes nothing.
const READ_FLAGS = constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
const DIR_FLAGS = constants.O_RDONLY | O_DIRECTORY;

let procFd: boolean | undefined;

/** Does this system name descriptors under /proc/self/fd (Linux)? Probed once. */
export async function hasProcFd(): Promise<boolean> {
  if (procFd === undefined) {
    if (process.platform !== 'linux') procFd = false;
    else {
      try {
        const fh = await fs.open('/', DIR_FLAGS);
        try {
          procFd = (await fs.readlink(`/proc/self/fd/${fh.fd}`)) === '/';
        } finally {
          await fh.close();
        }
      } catch {
        procFd = false;
      }
    }
  }
  return procFd;
}

function errno(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null ? (err as NodeJS.ErrnoException).code : undefined;
}

function swapMessage(given: string, real: string, why: string): string {
  return `Refused to open ${given}: it resolved to ${real} when opened. ${why}`;
}

/**
 * The real path of what `fh` holds. Linux: the kernel's answer. Elsewhere: the real path of the
 * name it was opened by, accepted only when the same device and inode are found there.
 */
async function realPathOf(fh: FileHandle, openedAs: string, stat: Stats): Promise<string> {
  if (await hasProcFd()) return fs.readlink(`/proc/self/fd/${fh.fd}`);
  const real = await fs.realpath(openedAs);
  const there = await fs.stat(real);
  if (there.dev !== stat.dev || there.ino !== stat.ino) {
    throw new AccessRefusedError(
      swapMessage(
        openedAs,
        real,
        'The file there is not the one that was opened: the path changed while it was opened.',
      ),
      real,
    );
  }
  return real;
}

async function refuseUnless(fh: FileHandle, given: string, real: string, check: RealPathCheck): Promise<void> {
  const why = check(real);
  if (why !== undefined) {
    await fh.close().catch(() => undefined);
    throw new AccessRefusedError(swapMessage(given, real, why), real);
  }
}

export interface BoundFile {
  fh: FileHandle;
  /** The real path of the opened file, as the kernel reports it. */
  real: string;
  stat: Stats;
}

/**
 * Opens a regular file for reading, bound to what was opened: the last component is not
 * followed blindly (a symlink there is resolved once, by name, and its target opened without
 * following), the descriptor's real path must pass `check`, and only then is it looked at: a
 * directory or a non-regular file (FIFO, device, socket) is refused without blocking.
 * The caller reads from `fh` only, and closes it.
 */
export async function openFileBound(abs: string, check: RealPathCheck): Promise<BoundFile> {
  let fh: FileHandle;
  let openedAs = abs;
  try {
    fh = await fs.open(abs, READ_FLAGS);
  } catch (err) {
    // The last component is a symlink (ELOOP; EMLINK on some BSDs): follow it once by name. The
    // descriptor's real path decides below whether what it led to may be read.
    if (errno(err) !== 'ELOOP' && errno(err) !== 'EMLINK') throw err;
    openedAs = await fs.realpath(abs);
    fh = await fs.open(openedAs, READ_FLAGS);
  }
  try {
    const stat = await fh.stat();
    const real = await realPathOf(fh, openedAs, stat);
    await refuseUnless(fh, abs, real, check);
    if (stat.isDirectory())
      throw Object.assign(new Error(`EISDIR: ${abs} is a directory, not a file.`), { code: 'EISDIR' });
    if (!stat.isFile())
      throw Object.assign(new Error(`${abs} is not a regular file (device, socket or pipe).`), { code: 'ENOTREG' });
    return { fh, real, stat };
  } catch (err) {
    await fh.close().catch(() => undefined);
    throw err;
  }
}

/** A whole regular file read through a bound descriptor. */
export async function readFileBound(
  abs: string,
  check: RealPathCheck,
): Promise<{ buf: Buffer; real: string; stat: Stats }> {
  const { fh, real, stat } = await openFileBound(abs, check);
  try {
    return { buf: await fh.readFile(), real, stat };
  } finally {
    await fh.close();
  }
}

/** A directory held open: names inside it are reached through `at`, never through its path. */
export interface BoundDir {
  fh: FileHandle;
  /** The directory's real path, as the kernel reports it. */
  real: string;
  /** A path that reaches this very directory (`/proc/self/fd/N` on Linux, else its real path). */
  at: string;
  close(): Promise<void>;
}

async function bindDir(fh: FileHandle, openedAs: string): Promise<BoundDir> {
  try {
    const stat = await fh.stat();
    if (!stat.isDirectory())
      throw Object.assign(new Error(`ENOTDIR: ${openedAs} is not a directory`), { code: 'ENOTDIR' });
    const real = await realPathOf(fh, openedAs, stat);
    const at = (await hasProcFd()) ? `/proc/self/fd/${fh.fd}` : real;
    return { fh, real, at, close: () => fh.close().catch(() => undefined) };
  } catch (err) {
    await fh.close().catch(() => undefined);
    throw err;
  }
}

/** Opens a directory (symlinks on the way are followed) and binds it; `check` judges its real path. */
export async function openDirBound(abs: string, check: RealPathCheck): Promise<BoundDir> {
  const dir = await bindDir(await fs.open(abs, DIR_FLAGS), abs);
  const why = check(dir.real);
  if (why !== undefined) {
    await dir.close();
    throw new AccessRefusedError(swapMessage(abs, dir.real, why), dir.real);
  }
  return dir;
}

/** A subdirectory of a bound directory, opened through it; a symlink there is refused (ELOOP/ENOTDIR). */
export async function openChildDir(parent: BoundDir, name: string): Promise<BoundDir> {
  const fh = await fs.open(path.join(parent.at, name), DIR_FLAGS | O_NOFOLLOW);
  return bindDir(fh, path.join(parent.real, name));
}

/** lstat of a name inside a bound directory (not followed). */
export function lstatIn(dir: BoundDir, name: string): Promise<Stats> {
  return fs.lstat(path.join(dir.at, name));
}

/**
 * The parent directory for a write, bound; missing directories are created one by one, each
 * through the descriptor of the one before and never through a symlink. `check` judges the real
 * path the file will have BEFORE anything is created, and again once the directory is bound.
 */
async function openParentForWrite(
  dirAbs: string,
  name: string,
  check: RealPathCheck,
  create: boolean,
): Promise<BoundDir> {
  const missing: string[] = [];
  let cur = dirAbs;
  let dir: BoundDir | undefined;
  for (;;) {
    try {
      dir = await bindDir(await fs.open(cur, DIR_FLAGS), cur);
      break;
    } catch (err) {
      const parent = path.dirname(cur);
      if (!create || errno(err) !== 'ENOENT' || parent === cur) throw err;
      missing.unshift(path.basename(cur));
      cur = parent;
    }
  }
  const prospective = path.join(dir.real, ...missing, name);
  const why = check(prospective);
  if (why !== undefined) {
    await dir.close();
    throw new AccessRefusedError(swapMessage(path.join(dirAbs, name), prospective, why), prospective);
  }
  for (const part of missing) {
    try {
      await fs.mkdir(path.join(dir.at, part));
    } catch (err) {
      if (errno(err) !== 'EEXIST') {
        await dir.close();
        throw err;
      }
    }
    let child: BoundDir;
    try {
      child = await openChildDir(dir, part);
    } finally {
      await dir.close();
    }
    dir = child;
  }
  return dir;
}

export interface WriteBoundResult {
  /** The real path written. */
  real: string;
  /** The file's stats after the write (mtime for the read-file state). */
  stat: Stats;
  /** No file was there before. */
  created: boolean;
}

const MAX_LINK_HOPS = 40;

/**
 * Writes a whole file bound to the directory it lands in. A symlink at the given name is followed
 * (by name, as writeFile would) to its target; then the target's parent directory is bound (and
 * created through bound descriptors when `createParents`), the final real path must pass `check`,
 * the content goes to a new temp file created there with O_CREAT|O_EXCL|O_NOFOLLOW, and a rename
 * puts it in place. A rename replaces whatever the final name is at that moment — a symlink or a
 * hard link swapped in is replaced, never written through.
 *
 * What a rename changes (docs/tools.md): the file gets a new inode, so other hard links keep the
 * old content; its mode is copied from the old file (permission bits), its owner too when the
 * worker may (root), extended attributes and ACLs are not. When the directory does not let us
 * create the temp file (EACCES, EPERM, EROFS) but the file itself is writable, the file is
 * rewritten in place through the bound directory with O_NOFOLLOW.
 */
export async function writeFileBound(
  abs: string,
  data: string | Buffer,
  check: RealPathCheck,
  opts: { createParents?: boolean } = {},
): Promise<WriteBoundResult> {
  let target = abs;
  for (let hops = 0; ; hops++) {
    let st: Stats;
    try {
      st = await fs.lstat(target);
    } catch (err) {
      if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') break;
      throw err;
    }
    if (!st.isSymbolicLink()) break;
    if (hops >= MAX_LINK_HOPS)
      throw Object.assign(new Error(`ELOOP: too many symbolic links at ${abs}`), { code: 'ELOOP' });
    target = path.resolve(path.dirname(target), await fs.readlink(target));
  }
  const name = path.basename(target);
  const dir = await openParentForWrite(path.dirname(target), name, check, opts.createParents === true);
  try {
    const finalReal = path.join(dir.real, name);
    const why = check(finalReal);
    if (why !== undefined) throw new AccessRefusedError(swapMessage(abs, finalReal, why), finalReal);
    let before: Stats | undefined;
    try {
      before = await lstatIn(dir, name);
    } catch (err) {
      if (errno(err) !== 'ENOENT') throw err;
    }
    if (before?.isDirectory()) throw Object.assign(new Error(`EISDIR: ${abs} is a directory.`), { code: 'EISDIR' });
    if (before && !before.isFile() && !before.isSymbolicLink())
      throw Object.assign(new Error(`${abs} is not a regular file.`), { code: 'ENOTREG' });
    const keep = before?.isFile() ? before : undefined;
    const tmpName = `.${name.slice(0, 100)}.${randomBytes(6).toString('hex')}.tmp`;
    let tmp: FileHandle;
    try {
      tmp = await fs.open(
        path.join(dir.at, tmpName),
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW,
        0o666,
      );
    } catch (err) {
      if (keep && ['EACCES', 'EPERM', 'EROFS'].includes(errno(err) ?? ''))
        return await rewriteInPlace(dir, name, abs, data, check);
      throw err;
    }
    let renamed = false;
    try {
      const tmpReal = await realPathOf(tmp, path.join(dir.real, tmpName), await tmp.stat());
      if (tmpReal !== path.join(dir.real, tmpName)) {
        throw new AccessRefusedError(
          swapMessage(abs, tmpReal, 'The temporary file did not land in the checked directory.'),
          tmpReal,
        );
      }
      if (keep) {
        await tmp.chmod(keep.mode & 0o777);
        if (process.getuid?.() === 0 && (keep.uid !== 0 || keep.gid !== 0))
          await tmp.chown(keep.uid, keep.gid).catch(() => undefined);
      }
      await tmp.writeFile(data);
      await fs.rename(path.join(dir.at, tmpName), path.join(dir.at, name));
      renamed = true;
      return { real: finalReal, stat: await tmp.stat(), created: before === undefined };
    } finally {
      await tmp.close().catch(() => undefined);
      if (!renamed) await fs.unlink(path.join(dir.at, tmpName)).catch(() => undefined);
    }
  } finally {
    await dir.close();
  }
}

/** The fallback of writeFileBound when no temp file can be made: the file itself, through the bound directory, not followed. */
async function rewriteInPlace(
  dir: BoundDir,
  name: string,
  abs: string,
  data: string | Buffer,
  check: RealPathCheck,
): Promise<WriteBoundResult> {
  const fh = await fs.open(path.join(dir.at, name), constants.O_WRONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    const stat = await fh.stat();
    const real = await realPathOf(fh, path.join(dir.real, name), stat);
    await refuseUnless(fh, abs, real, check);
    if (!stat.isFile()) throw Object.assign(new Error(`${abs} is not a regular file.`), { code: 'ENOTREG' });
    await fh.truncate(0);
    await fh.writeFile(data);
    return { real, stat: await fh.stat(), created: false };
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/**
 * readFileBound for synchronous callers (the memory loader runs before a session starts): the
 * same steps — not followed blindly, the descriptor's real path judged, then read from it.
 */
export function readFileBoundSync(abs: string, check: RealPathCheck): { buf: Buffer; real: string } {
  let fd: number;
  let openedAs = abs;
  try {
    fd = openSync(abs, READ_FLAGS);
  } catch (err) {
    if (errno(err) !== 'ELOOP' && errno(err) !== 'EMLINK') throw err;
    openedAs = realpathSync.native(abs);
    fd = openSync(openedAs, READ_FLAGS);
  }
  try {
    const stat = fstatSync(fd);
    let real: string | undefined;
    if (process.platform === 'linux' && procFd !== false) {
      try {
        real = readlinkSync(`/proc/self/fd/${fd}`);
        procFd ??= true;
      } catch {
        procFd = false;
      }
    }
    if (real === undefined) {
      real = realpathSync.native(openedAs);
      const there = statSync(real);
      if (there.dev !== stat.dev || there.ino !== stat.ino) {
        throw new AccessRefusedError(
          swapMessage(
            abs,
            real,
            'The file there is not the one that was opened: the path changed while it was opened.',
          ),
          real,
        );
      }
    }
    const why = check(real);
    if (why !== undefined) throw new AccessRefusedError(swapMessage(abs, real, why), real);
    if (stat.isDirectory())
      throw Object.assign(new Error(`EISDIR: ${abs} is a directory, not a file.`), { code: 'EISDIR' });
    if (!stat.isFile())
      throw Object.assign(new Error(`${abs} is not a regular file (device, socket or pipe).`), { code: 'ENOTREG' });
    return { buf: readFileSync(fd), real };
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens the worker's own file `<dirAbs>/<name>` where a less trusted hand may change `dirAbs` (a
 * sandboxed command writes the session's temp dir, where background tasks keep their output):
 * `dirAbs` is reached from its parent without following a symlink (created 0700 when `create`),
 * the file is opened through that directory's descriptor without following one (O_NOFOLLOW;
 * O_NONBLOCK so a FIFO does not hang the worker), and it must be a regular file with a single
 * link — a symlink, a hard link to a file elsewhere, a FIFO or a device planted there is refused,
 * never written or read through. `flags` must not hold O_TRUNC (it would act before the check):
 * truncate the returned handle instead. The parent of `dirAbs` is the worker's and trusted.
 */
export async function openOwnFileIn(
  dirAbs: string,
  name: string,
  flags: number,
  opts: { create?: boolean } = {},
): Promise<FileHandle> {
  if (name.includes('/') || name === '.' || name === '..') throw new Error(`not a file name: ${name}`);
  const refused = (why: string): AccessRefusedError =>
    new AccessRefusedError(`Refused to open ${path.join(dirAbs, name)}: ${why}`, path.join(dirAbs, name));
  const parent = await openDirBound(path.dirname(dirAbs), () => undefined);
  let dir: BoundDir;
  try {
    if (opts.create) {
      await fs.mkdir(path.join(parent.at, path.basename(dirAbs)), { mode: 0o700 }).catch((err: unknown) => {
        if (errno(err) !== 'EEXIST') throw err;
      });
    }
    dir = await openChildDir(parent, path.basename(dirAbs)).catch((err: unknown) => {
      if (errno(err) === 'ELOOP' || errno(err) === 'ENOTDIR')
        throw refused(`${dirAbs} is not a directory of its own (a symlink?)`);
      throw err;
    });
  } finally {
    await parent.close();
  }
  let fh: FileHandle;
  try {
    const create = opts.create ? constants.O_CREAT : 0;
    fh = await fs
      .open(path.join(dir.at, name), flags | create | O_NOFOLLOW | O_NONBLOCK, 0o600)
      .catch((err: unknown) => {
        if (errno(err) === 'ELOOP' || errno(err) === 'EMLINK') throw refused('it is a symlink');
        if (errno(err) === 'ENXIO') throw refused('it is not a regular file (a pipe or socket)');
        throw err;
      });
  } finally {
    await dir.close();
  }
  try {
    const stat = await fh.stat();
    if (!stat.isFile()) throw refused('it is not a regular file');
    if (stat.nlink !== 1) throw refused(`it has ${stat.nlink} links (a hard link to another file?)`);
    return fh;
  } catch (err) {
    await fh.close().catch(() => undefined);
    throw err;
  }
}
