// Directory listings kept while the directory is unchanged (issue 32: per-call cost). The protected
// paths' walk (protect.ts scanProtected) reads every directory of a working directory to depth 5
// before each sandboxed command and again after it, and the object screen (movedObjects.ts) each
// `objects/xx` directory after it: in a project of a few thousand files, a fifth of the worker's CPU
// per call went to listings that mostly did not change.
//
// A directory's listing (names and types) changes only through an entry made, removed or renamed in
// it, and each of those sets the directory's change time (ctime) to the clock's now; no unprivileged
// process can set a ctime back (utimes sets it to now too). So a listing is reused while the
// directory's stamp — device, inode, ctime, mtime, size, link count, mode — is the one it had when it
// was read. A change made in the same clock tick as the read leaves the stamp as it was (the file
// system's clock is coarser than the read; git's "racy" case), so a listing is kept only when the
// directory last changed well before it was read (2 s, the object screen's margin); else it
// is read again next time. What is read from the entries themselves (a file's content, a link) is
// never cached: only the list of names and types.
import * as fs from 'node:fs';
import { readdirOwned } from './anchored';

/** How long before a listing's read its directory must have last changed for the listing to be kept. */
let marginMs = 2_000;
/** Listings kept at most (the least recently used goes first): about the walk's budget of entries. */
const MAX_DIRS = 20_000;

const all = new Set<StampedListings<unknown>>();

/** Tests: the margin (ms; Infinity keeps nothing), every kept listing forgotten. */
export function setListingMarginForTests(ms: number): void {
  marginMs = ms;
  for (const l of all) l.clear();
}

const stampOf = (st: fs.Stats) => `${st.dev}:${st.ino}:${st.ctimeMs}:${st.mtimeMs}:${st.size}:${st.nlink}:${st.mode}`;

/**
 * What one reader makes of directories' listings (`derive`: a pure function of the directory's
 * path and its entries' names and types), kept per directory while its stamp is the same.
 */
export class StampedListings<T> {
  private readonly kept = new Map<string, { stamp: string; value: T }>();

  constructor(private readonly derive: (dir: string, entries: readonly fs.Dirent[]) => T) {
    all.add(this);
  }

  /**
   * `derive` of `dir`'s entries (readdirOwned: one made unreadable is given back to its owner first;
   * throws as it does), from the last read while `dir`'s stamp is the same. `taken`: `dir`'s lstat
   * the caller took just now, before anything of it was read (its stamp is the listing's).
   */
  of(dir: string, taken?: fs.Stats): T {
    const st = taken ?? fs.lstatSync(dir, { throwIfNoEntry: false });
    const hit = this.kept.get(dir);
    this.kept.delete(dir); // kept again below, most recently used last
    if (!st?.isDirectory()) return this.derive(dir, readdirOwned(dir));
    const stamp = stampOf(st);
    if (hit?.stamp === stamp) {
      this.kept.set(dir, hit);
      return hit.value;
    }
    const readAt = Date.now();
    const value = this.derive(dir, readdirOwned(dir));
    // The stamp was taken before the read: a change after it gives a new stamp next time.
    if (Math.max(st.ctimeMs, st.mtimeMs) < readAt - marginMs) {
      this.kept.set(dir, { stamp, value });
      if (this.kept.size > MAX_DIRS) this.kept.delete(this.kept.keys().next().value!);
    }
    return value;
  }

  /** Forgets every kept listing. */
  clear(): void {
    this.kept.clear();
  }
}
