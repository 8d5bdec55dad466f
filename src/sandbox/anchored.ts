// Undoing what a sandboxed command wrote, through the directory the scan saw (red team, issue 30,
// P5 and P5b). The undo runs while the session's commands may still run (the live guard, a second
// call's after-call check, a background task): a check of a path and a removal or write by the
// same path resolve it twice, and a command that swaps a directory of it for a symlink between the
// two (renameat2 RENAME_EXCHANGE, atomic) turned the worker's removal of a new `.bashrc` into the
// removal of the person's `~/.bashrc`, and its put-back package.json into another project's.
// Here the directory is opened once, component by component from `/`, each with O_NOFOLLOW through
// the descriptor of the one before; what follows names entries through that descriptor
// (`/proc/<pid>/fd/<fd>/<name>`: the kernel resolves it through the open directory, whatever is
// renamed meanwhile). Without /proc (not Linux: no bubblewrap sandbox there either) the real path
// is compared as before.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { regularTextOrNull } from '../files/regularText';

const PROC_FD = `/proc/${process.pid}/fd`;
/** Linux's O_PATH (not in fs.constants): a descriptor that names an entry without the right to read it. */
const O_PATH = 0o10000000;
const errno = (err: unknown) => (err as NodeJS.ErrnoException).code;
let procFd: boolean | undefined;
function hasProcFd(): boolean {
  if (procFd === undefined) {
    try {
      procFd = fs.statSync(PROC_FD).isDirectory();
    } catch {
      procFd = false;
    }
  }
  return procFd;
}

/** The directory is not the one the scan saw: a component is a symlink now, or gone. */
export class DirectoryMoved extends Error {
  constructor(dir: string) {
    super(`its directory moved (${dir} is no longer the directory that was checked)`);
  }
}

function openAnchored(dir: string): number {
  // O_PATH: a directory the command made unreadable is still a step on the way (and one it made
  // unsearchable is given back to its owner, grantOwner).
  let fd = fs.openSync('/', O_PATH | fs.constants.O_DIRECTORY);
  try {
    for (const part of dir.split('/').filter(Boolean)) {
      let next: number;
      try {
        next = openStep(fd, part);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'ENOENT') throw new DirectoryMoved(dir);
        throw err;
      }
      fs.closeSync(fd);
      fd = next;
    }
    return fd;
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
}

function openStep(fd: number, part: string): number {
  const flags = O_PATH | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW;
  try {
    return fs.openSync(`${PROC_FD}/${fd}/${part}`, flags);
  } catch (err) {
    if (errno(err) !== 'EACCES') throw err;
    grantOwner(`${PROC_FD}/${fd}`);
    return fs.openSync(`${PROC_FD}/${fd}/${part}`, flags);
  }
}

/**
 * Runs `act` with `at(name)`: the path of `name` inside `dir` as the directory is now, pinned (see
 * above). `dir` is the real path the scan saw; a symlink or a missing directory on the way throws
 * DirectoryMoved. Another process given `at(…)` (git) resolves it through this process's descriptor.
 */
export function inAnchoredDirectory<T>(dir: string, act: (at: (name: string) => string) => T): T {
  const abs = path.resolve(dir);
  if (!hasProcFd()) {
    let real: string | undefined;
    try {
      real = fs.realpathSync.native(abs);
    } catch {
      real = undefined;
    }
    if (real !== abs) throw new DirectoryMoved(abs);
    return act((name) => path.join(abs, name));
  }
  const fd = openAnchored(abs);
  try {
    return act((name) => `${PROC_FD}/${fd}/${name}`);
  } finally {
    fs.closeSync(fd);
  }
}

/** `act` with the pinned path of `file` (its directory pinned as inAnchoredDirectory says). */
export function anchoredFile<T>(file: string, act: (pinned: string) => T): T {
  const abs = path.resolve(file);
  return inAnchoredDirectory(path.dirname(abs), (at) => act(at(path.basename(abs))));
}

/** Levels held open at once while removing; a deeper subtree is moved up beside the entry first. */
const MAX_DEPTH = 64;
/** Entries one removal may visit: a command that keeps adding them does not keep the worker busy. */
const MAX_ENTRIES = 500_000;

/**
 * Gives a pinned entry back to its owner (a command may chmod what it made: `555` on a new `.claude`
 * made the undo's unlink fail, and the hook stayed): u+rwx for a directory, u+rw for a file, never
 * through a symlink (opened O_PATH|O_NOFOLLOW, changed through that descriptor). Returns the mode
 * it had; undefined when there is nothing to change (gone, a symlink, not Linux).
 */
export function grantOwner(pinned: string): number | undefined {
  if (!hasProcFd()) return undefined;
  // A pinned directory itself (`/proc/<pid>/fd/<n>`): its descriptor is at hand (opening the link
  // with O_NOFOLLOW would name the link).
  const held = pinned.startsWith(`${PROC_FD}/`) ? Number(pinned.slice(PROC_FD.length + 1)) : NaN;
  if (Number.isInteger(held)) return grantThrough(held);
  let fd: number;
  try {
    fd = fs.openSync(pinned, O_PATH | fs.constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    return grantThrough(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function grantThrough(fd: number): number | undefined {
  const st = fs.fstatSync(fd);
  if (st.isSymbolicLink()) return undefined;
  const mode = st.mode & 0o7777;
  const wanted = mode | (st.isDirectory() ? 0o700 : 0o600);
  if (wanted !== mode) fs.chmodSync(`${PROC_FD}/${fd}`, wanted);
  return mode;
}

/**
 * Removes `name` in the pinned directory `dir` (`at(…)`'s directory) and everything under it, each
 * level through the descriptor of the one above (red team, issue 30): Node's recursive rmSync walks
 * by path, so a command that swaps a directory inside the entry for a symlink between its lstat
 * and its readdir turned the removal into one of what the link leads to. A symlink here is removed
 * as a link. Directories the command made unreadable or unwritable are given to their owner first;
 * the mode of `dir` itself is put back afterwards.
 */
export function removeAnchored(dir: string, name: string): void {
  if (!hasProcFd()) {
    fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    return;
  }
  const state = { visited: 0, top: dir, parentMode: undefined as number | undefined, moved: [name] };
  try {
    while (state.moved.length > 0) removeLevel(dir, state.moved.pop()!, 0, state);
  } finally {
    if (state.parentMode !== undefined) fs.chmodSync(dir, state.parentMode);
  }
}

type RemovalState = { visited: number; top: string; parentMode: number | undefined; moved: string[] };

/** Runs `op`; when the directory `dir` refuses it (EACCES/EPERM), gives `dir` to its owner and runs it again. */
function inWritable(dir: string, state: RemovalState, op: () => void): void {
  try {
    op();
  } catch (err) {
    if (errno(err) !== 'EACCES' && errno(err) !== 'EPERM') throw err;
    const mode = grantOwner(dir);
    if (dir === state.top && state.parentMode === undefined) state.parentMode = mode;
    op();
  }
}

function openForRemoval(p: string): number | 'file' | 'gone' {
  const flags = fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW;
  for (let attempt = 0; ; attempt++) {
    try {
      return fs.openSync(p, flags);
    } catch (err) {
      const code = errno(err);
      if (code === 'ENOTDIR' || code === 'ELOOP') return 'file';
      if (code === 'ENOENT') return 'gone';
      if (code !== 'EACCES' || attempt > 0) throw err;
      grantOwner(p);
    }
  }
}

function removeLevel(dir: string, name: string, depth: number, state: RemovalState): void {
  if (++state.visited > MAX_ENTRIES) throw new Error(`more than ${MAX_ENTRIES} entries to remove`);
  const p = `${dir}/${name}`;
  for (let attempt = 0; ; attempt++) {
    const fd = openForRemoval(p);
    if (fd === 'gone') return;
    if (fd === 'file') {
      // unlink, never rmSync: rmSync looks again, and removes by path whatever directory it finds then.
      try {
        inWritable(dir, state, () => fs.unlinkSync(p));
        return;
      } catch (err) {
        if (errno(err) === 'ENOENT') return;
        if (errno(err) !== 'EISDIR' || attempt > 2) throw err;
        continue; // a directory was swapped in meanwhile: opened again
      }
    }
    const here = `${PROC_FD}/${fd}`;
    try {
      for (const child of fs.readdirSync(here)) {
        if (depth + 1 < MAX_DEPTH) removeLevel(here, child, depth + 1, state);
        else {
          // Too deep to hold every level open: moved up beside the entry, removed from there.
          const up = `.durable-agent-removing-${randomBytes(8).toString('hex')}`;
          inWritable(here, state, () => fs.renameSync(`${here}/${child}`, `${state.top}/${up}`));
          state.moved.push(up);
        }
      }
    } finally {
      fs.closeSync(fd);
    }
    try {
      inWritable(dir, state, () => fs.rmdirSync(p));
      return;
    } catch (err) {
      // Something was added meanwhile (a command still running): once more, then it is an error.
      if (errno(err) === 'ENOENT') return;
      if (errno(err) !== 'ENOTEMPTY' || attempt > 2) throw err;
    }
  }
}

/**
 * A directory's entries; one the command made unreadable (chmod 000, 0311) is given back to its
 * owner first, so that nothing a command wrote hides from the worker's scans below it.
 */
export function readdirOwned(dir: string): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if (errno(err) !== 'EACCES') throw err;
    grantOwner(dir);
    return fs.readdirSync(dir, { withFileTypes: true });
  }
}

/**
 * Makes `p` reachable again when a directory on its way below `root` was made unsearchable (an
 * lstat of `p` fails with EACCES): each such directory is given back to its owner.
 */
export function reachOwned(root: string, p: string): void {
  try {
    fs.lstatSync(p);
    return;
  } catch (err) {
    if (errno(err) !== 'EACCES') return;
  }
  const rel = path.relative(root, p);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return;
  let at = root;
  try {
    for (const part of rel.split(path.sep).slice(0, -1)) {
      at = path.join(at, part);
      const st = fs.lstatSync(at, { throwIfNoEntry: false });
      if (!st?.isDirectory()) return;
      if ((st.mode & 0o500) !== 0o500) grantOwner(at);
    }
  } catch {
    // Not ours to give back (the person's, or another user's): left as it is.
  }
}

/**
 * Runs an undo of `file`; when it is refused (EACCES/EPERM: the command took its own rights away
 * from what it made, `chmod 555 .git`, `chmod 000 config`), gives `file` and its directory back to
 * their owner and runs it once more.
 */
export function withOwnerRetry<T>(file: string, undo: () => T): T {
  try {
    return undo();
  } catch (err) {
    if (errno(err) !== 'EACCES' && errno(err) !== 'EPERM') throw err;
    anchoredFile(file, (pinned) => {
      grantOwner(path.dirname(pinned));
      grantOwner(pinned);
    });
    return undo();
  }
}

/** removeAnchored for one path (its directory as the path gives it; below it, by descriptors). */
export function removeEntry(p: string): void {
  removeAnchored(path.dirname(p), path.basename(p));
}

/**
 * Removes the tree at the real path `p`: its directory pinned (inAnchoredDirectory), everything
 * below it through descriptors (removeAnchored). For trees a session's commands may still shape
 * while the worker removes them (a worktree, its shadow git directory: red team r, R1).
 */
export function removeTree(p: string): void {
  const abs = path.resolve(p);
  const name = path.basename(abs);
  inAnchoredDirectory(path.dirname(abs), (at) => removeAnchored(path.dirname(at(name)), name));
}

/**
 * `name` in the directory `parent` made a symbolic link by a command (red team s, S1, S7: a git
 * directory's `objects` or `logs` led elsewhere, and what read or removed through it acted on the
 * person's files there): the link is unlinked, never followed, and the directory that was there put
 * back when the command only renamed it inside `parent` (found by its `device:inode`, `was`). Says
 * what was done; undefined when `name` is no link. Throws when it could not be undone.
 */
export function undoDirectoryLink(parent: string, name: string, was: string | undefined): string | undefined {
  return inAnchoredDirectory(parent, (at) => {
    if (!fs.lstatSync(at(name), { throwIfNoEntry: false })?.isSymbolicLink()) return undefined;
    fs.unlinkSync(at(name));
    if (was !== undefined)
      for (const e of fs.readdirSync(at(''))) {
        const s = fs.lstatSync(at(e), { throwIfNoEntry: false });
        if (s?.isDirectory() && `${s.dev}:${s.ino}` === was) {
          fs.renameSync(at(e), at(name));
          return `removed, and ${e} put back as ${name}`;
        }
      }
    return 'removed';
  });
}

/**
 * A small regular file's text (latin1), opened without following a link; undefined when absent
 * (a directory on the way that is a file too: git sees none there either), null when it is no
 * regular file, bigger than `max` or unreadable (the screens then fail closed). Never throws (red team
 * t, T13, T14: ENOTDIR from a FILE `.git/sequencer` or `.git/objects/info` skipped every screen after).
 */
export function readRegularFile(p: string, max: number): string | undefined | null {
  // Opened without blocking or following a link, checked on the descriptor, read to `max` only (files/regularText.ts).
  return regularTextOrNull(p, max, { encoding: 'latin1' });
}
