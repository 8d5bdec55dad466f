// The one reader of a small control file the worker reads by path while sandboxed commands may
// change it (a hook's script, a framework's configuration, a direnv or mise file, a package.json, a
// start-up file): opened without blocking and checked on the descriptor, never lstat-then-read. A
// FIFO swapped in between a check by path and the read held the worker's one thread (red team t,
// T19b; the leads of round t: hookFrameworks, repoConfigTargets, toolConfigTargets, startupSources,
// hookPackageRuns each had such a window).
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

/**
 * The text of `p` when it is a regular file of at most `max` bytes; undefined otherwise (absent, a
 * link unless `follow`, a FIFO, a device, a directory, too big unless `prefix`, unreadable). Never
 * blocks, never throws.
 */
export function regularText(p: string, max: number, o: RegularTextOptions = {}): string | undefined {
  let fd: number;
  try {
    fd = fs.openSync(p, fs.constants.O_RDONLY | O_NONBLOCK | (o.follow ? 0 : O_NOFOLLOW));
  } catch {
    return undefined;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile() || (st.size > max && !o.prefix)) return undefined;
    if (st.size <= max) return fs.readFileSync(fd, o.encoding ?? 'utf8');
    const buf = Buffer.alloc(max);
    return buf.subarray(0, fs.readSync(fd, buf, 0, max, 0)).toString(o.encoding ?? 'utf8');
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}
