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
import * as fs from 'node:fs';
import * as path from 'node:path';

const PROC_FD = `/proc/${process.pid}/fd`;
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
  const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = fs.constants;
  let fd = fs.openSync('/', O_RDONLY | O_DIRECTORY);
  try {
    for (const part of dir.split('/').filter(Boolean)) {
      let next: number;
      try {
        next = fs.openSync(`${PROC_FD}/${fd}/${part}`, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
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

/** How many directories below an entry removeAnchored keeps open at once; a deeper one is moved up beside the entry first. */
const OPEN_DEPTH = 64;

const errCode = (err: unknown) => (err as NodeJS.ErrnoException).code;

/** Unlinks the name itself (a file, or a symlink: never what it leads to); gone already is fine. */
function unlinkName(p: string): void {
  try {
    fs.unlinkSync(p);
  } catch (err) {
    if (errCode(err) !== 'ENOENT') throw err;
  }
}

/**
 * Removes `name` of the directory `dir` (a `/proc/<pid>/fd/<fd>` path): a directory is opened with
 * O_NOFOLLOW through `dir`, listed and emptied through its own descriptor, then removed as a name
 * of `dir`; `deep` takes a directory past OPEN_DEPTH instead.
 */
function removeName(dir: string, name: string, depth: number, deep: (dir: string, name: string) => void): void {
  const p = `${dir}/${name}`;
  let st: fs.Stats;
  try {
    st = fs.lstatSync(p);
  } catch (err) {
    if (errCode(err) === 'ENOENT') return;
    throw err;
  }
  if (!st.isDirectory()) return unlinkName(p);
  if (depth >= OPEN_DEPTH) return deep(dir, name);
  const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (err) {
    // Swapped for a symlink or a file since the look: that name is what goes.
    if (errCode(err) === 'ELOOP' || errCode(err) === 'ENOTDIR') return unlinkName(p);
    if (errCode(err) === 'ENOENT') return;
    throw err;
  }
  try {
    const here = `${PROC_FD}/${fd}`;
    for (const child of fs.readdirSync(here)) removeName(here, child, depth + 1, deep);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.rmdirSync(p);
  } catch (err) {
    if (errCode(err) === 'ENOTDIR') return unlinkName(p);
    if (errCode(err) !== 'ENOENT') throw err;
  }
}

/**
 * Removes what is at `pinned` — a path anchoredFile or inAnchoredDirectory gave, `<pinned
 * directory>/<name>` — whatever it is (a symlink itself, never what it leads to), a directory with
 * everything below it, never resolving a path below the pinned directory twice (red team, issue 30,
 * Q3): `fs.rmSync(recursive)` walked the entry's inside by path again for each child, so a command
 * that swapped a directory inside its new `.claude/` for a symlink to HOME while the worker removed
 * it led the walk into HOME. Each directory is opened without following a symlink through the
 * descriptor of the one above and emptied through its own; one past OPEN_DEPTH is first moved up
 * beside the entry (a fresh name in the pinned directory), so a deep tree holds few descriptors.
 */
export function removeAnchored(pinned: string): void {
  const cut = pinned.lastIndexOf('/');
  const top = pinned.slice(0, cut);
  if (!hasProcFd() || !top.startsWith(`${PROC_FD}/`)) return fs.rmSync(pinned, { recursive: true, force: true });
  const moved: string[] = [];
  const deep = (dir: string, name: string) => {
    const aside = `.da-removing-${process.pid}-${Date.now().toString(36)}-${moved.length}-${Math.random().toString(36).slice(2)}`;
    fs.renameSync(`${dir}/${name}`, `${top}/${aside}`);
    moved.push(aside);
  };
  removeName(top, pinned.slice(cut + 1), 0, deep);
  for (let next = moved.pop(); next !== undefined; next = moved.pop()) removeName(top, next, 0, deep);
}
