// The one reader of a small control file the worker reads by path while sandboxed commands may
// change it (a hook's script, a framework's configuration, a direnv or mise file, a package.json, a
// start-up file, the screens' git state files): opened without blocking and checked on the
// descriptor, never lstat-then-read, and read to its cap only. A FIFO swapped in between a check by
// path and the read held the worker's one thread (red team t, T19b; the leads of round t:
// hookFrameworks, repoConfigTargets, toolConfigTargets, startupSources, hookPackageRuns each had such
// a window); a file emptied and then filled as fast as a background task can (`yes >>`) made
// `readFileSync(fd)` read on with no bound (red team u's lead).
import * as fs from 'node:fs';

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

export interface RegularTextOptions {
  /** Follow a link at the last component (a dotfiles `.bashrc`, a linked package.json: read as their tools read them). */
  follow?: boolean;
  encoding?: BufferEncoding;
  /** A bigger file's first `max` bytes instead of none (a start-up file is read that far). */
  prefix?: boolean;
}

/** At most `limit` bytes from `fd`, from where it is, `first` bytes asked for first (the size fstat gave, and one). */
function readBounded(fd: number, first: number, limit: number): Buffer {
  let buf = Buffer.allocUnsafe(Math.max(1, Math.min(first, limit)));
  let got = 0;
  for (;;) {
    if (got === buf.length) {
      if (buf.length >= limit) break;
      const more = Buffer.allocUnsafe(Math.min(limit, buf.length * 2));
      buf.copy(more, 0, 0, got);
      buf = more;
    }
    const n = fs.readSync(fd, buf, got, buf.length - got, null);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/**
 * The text of `p` when it is a regular file of at most `max` bytes; `undefined` when it is absent (or a
 * directory on the way is a file: nothing is there for its tool either), `null` otherwise (a link
 * unless `follow`, a FIFO, a device, a directory, too big unless `prefix`, unreadable). Never blocks,
 * never throws, never reads more than `max` (+1 to tell a file that grew past it).
 */
export function regularTextOrNull(p: string, max: number, o: RegularTextOptions = {}): string | undefined | null {
  // Absent, told without an exception (a failed open's costs seven times as much): the screens ask for
  // a dozen absent state files per repository, and a thousand `.git` directories held the worker's
  // event loop for seconds (red team u, U10). What is there is still read through the descriptor only.
  if (absent(p)) return undefined;
  let fd: number;
  try {
    fd = fs.openSync(p, fs.constants.O_RDONLY | O_NONBLOCK | (o.follow ? 0 : O_NOFOLLOW));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : null;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || (st.size > max && !o.prefix)) return null;
    const buf = readBounded(fd, st.size + 1, o.prefix ? max : max + 1);
    return buf.length > max ? null : buf.toString(o.encoding ?? 'utf8');
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** Nothing at `p` (not even a link), or a directory on the way is a file. */
function absent(p: string): boolean {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false }) === undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOTDIR';
  }
}

/** {@link regularTextOrNull}, absent and unreadable alike: the text, or undefined. */
export function regularText(p: string, max: number, o: RegularTextOptions = {}): string | undefined {
  return regularTextOrNull(p, max, o) ?? undefined;
}
