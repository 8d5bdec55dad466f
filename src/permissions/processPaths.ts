// Per-process /proc entries (issue 30, round e): the file tools run in the worker, outside the OS
// sandbox, so `/proc/<pid>/…`, `/proc/self/…` and `/proc/thread-self/…` are the worker's processes
// (its own environment: the API key, the database URL, the webhook and codec headers; another
// process's memory, open files, working directory, root). Every path there is refused to the file
// tools in every mode, whatever a rule or hook says, on any form of the path (as given, logical,
// real): a symlink into /proc counts, and so does a /proc path that leads back out (its `cwd`,
// `root` or `fd/N` links). Shared /proc entries (/proc/cpuinfo, /proc/meminfo) stay readable.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isInside, resolveReal } from './paths';

const PROCESS_DIR = /^\/proc\/(?:\d+|self|thread-self)(?:\/|$)/;

/** Is this absolute path (one form of it) a per-process /proc entry or directory? */
export function isProcessPath(p: string): boolean {
  return PROCESS_DIR.test(path.posix.normalize(p));
}

/** Symbolic links followed at most on one path (the kernel's own limit is 40). */
const MAX_HOPS = 40;

/**
 * Does the way to `p` pass through a per-process /proc directory at any hop — a symbolic link on the
 * way whose target is one (`r -> /proc/self/root`, `c -> /proc/<pid>/cwd`, `f -> /dev/fd`, which
 * itself leads to `/proc/self/fd`)? Their real paths hide it: the kernel names `/proc/<pid>/root` as
 * `/` and `cwd` as the directory, so `r/etc/x` resolves to `/etc/x` while the open goes through the
 * other process's root (its mount namespace: another sandbox's private directories).
 */
export function linksThroughProcess(p: string): boolean {
  if (!path.isAbsolute(p)) return false;
  let todo = path.posix.normalize(p).split('/').filter(Boolean);
  let cur = '/';
  for (let hops = 0; todo.length > 0;) {
    const next = path.posix.join(cur, todo.shift()!);
    if (isProcessPath(next)) return true;
    let target: string;
    try {
      if (!fs.lstatSync(next).isSymbolicLink()) {
        cur = next;
        continue;
      }
      target = fs.readlinkSync(next);
    } catch {
      return false; // absent from here on: nothing more to follow
    }
    if (++hops > MAX_HOPS) return true; // a loop: refused rather than guessed
    const to = path.posix.resolve(cur, target);
    if (isProcessPath(to)) return true;
    todo = [...to.split('/').filter(Boolean), ...todo];
    cur = '/';
  }
  return false;
}

/**
 * Does any form lie in a per-process /proc directory, or its directory resolve into one
 * (`/dev/fd/3`: `/dev/fd` is a link to `/proc/self/fd`, while the real path of `/dev/fd/3` is the
 * file the descriptor holds), or does the way to it pass through one (linksThroughProcess)?
 */
export function inProcessDir(forms: readonly string[]): boolean {
  return forms.some(
    (f) =>
      isProcessPath(f) ||
      isProcessPath(resolveReal(path.dirname(f))) ||
      // Only a path with a symbolic link on the way can pass through one (the walk lstats each component).
      (resolveReal(f) !== path.posix.normalize(f) && linksThroughProcess(f)),
  );
}

/** Could a search of this directory (any of its forms) reach a per-process /proc entry? */
export function reachesProcessDir(dirs: readonly string[]): boolean {
  return dirs.some((d) => isInside('/proc', d) || isProcessPath(d) || linksThroughProcess(d));
}

export function processPathMessage(toolName: string, shown: string): string {
  return `${toolName} denied: ${shown} is a per-process /proc entry (a process's secrets, memory or open files on this worker); the file tools never read or write /proc/<pid>, /proc/self or /proc/thread-self.`;
}
