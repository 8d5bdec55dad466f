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
