// Per-process /proc entries (issue 30, round e): the file tools run in the worker, outside the OS
// sandbox, so `/proc/<pid>/…`, `/proc/self/…` and `/proc/thread-self/…` are the worker's processes
// (its own environment: the API key, the database URL, the webhook and codec headers; another
// process's memory, open files, working directory, root). Every path there is refused to the file
// tools in every mode, whatever a rule or hook says, on any form of the path (as given, logical,
// real): a symlink into /proc counts, and so does a /proc path that leads back out (its `cwd`,
// `root` or `fd/N` links). Shared /proc entries (/proc/cpuinfo, /proc/meminfo) stay readable.
import * as path from 'node:path';
import { isInside, resolveReal } from './paths';

const PROCESS_DIR = /^\/proc\/(?:\d+|self|thread-self)(?:\/|$)/;

/** Is this absolute path (one form of it) a per-process /proc entry or directory? */
export function isProcessPath(p: string): boolean {
  return PROCESS_DIR.test(path.posix.normalize(p));
}

/**
 * Does any form lie in a per-process /proc directory, or its directory resolve into one
 * (`/dev/fd/3`: `/dev/fd` is a link to `/proc/self/fd`, while the real path of `/dev/fd/3` is the
 * file the descriptor holds)?
 */
export function inProcessDir(forms: readonly string[]): boolean {
  return forms.some((f) => isProcessPath(f) || isProcessPath(resolveReal(path.dirname(f))));
}

/** Could a search of this directory (any of its forms) reach a per-process /proc entry? */
export function reachesProcessDir(dirs: readonly string[]): boolean {
  return dirs.some((d) => isInside('/proc', d) || isProcessPath(d));
}

export function processPathMessage(toolName: string, shown: string): string {
  return `${toolName} denied: ${shown} is a per-process /proc entry (a process's secrets, memory or open files on this worker); the file tools never read or write /proc/<pid>, /proc/self or /proc/thread-self.`;
}
