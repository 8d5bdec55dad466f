// Protected files with another name (red team, issue 30, M11). Every protection of a sandboxed
// command is by PATH: the deny list binds a protected file's path read-only, the live guard watches
// its directory, the check after the command looks at that path. A hard link is the same file under
// another name: a nested repository's clean `sub/.git/config` that a command created (and the check
// after it kept, untouched) and linked to `sub/notes.txt` in the same command is written by the next
// command through `notes.txt` — no bind, no event, no path the check looks at — and the person's git
// runs the `core.fsmonitor` it now holds.
//
// Inside a sandboxed command a file on a read-only bind cannot get a new name (link(2) across mounts:
// EXDEV), so the other name can only have been made while the file was not yet protected: by the
// command that created it, or before (another name kept elsewhere in the project). The rule: a
// protected regular file with more than one name, inside what a command can write, is replaced by a
// copy of itself (a new inode: the other names keep the old one) — after each command's check and
// before each command's deny list is built. Its content and mode stay; only the link is cut.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ProtectedScan } from './protect';
import { removeEntry } from './anchored';

/** Files looked at below one protected directory, at most (`.vscode/`, `.git/hooks`: a few). */
export const DETACH_DIR_BUDGET = 500;

const under = (p: string, d: string) => p === d || p.startsWith(d.endsWith(path.sep) ? d : d + path.sep);

function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false }); // absent: no error built (issue 32: hundreds a call)
  } catch {
    return undefined;
  }
}

/** `file` (a regular file with st_nlink > 1) replaced by a copy of itself: same content and mode, a new inode. */
export function detach(file: string, st: fs.Stats): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.da-detach`);
  const data = fs.readFileSync(file);
  try {
    fs.writeFileSync(tmp, data, { flag: 'wx', mode: st.mode & 0o7777 });
    fs.chmodSync(tmp, st.mode & 0o7777);
    fs.renameSync(tmp, file);
  } catch (err) {
    removeEntry(tmp);
    throw err;
  }
}

/**
 * The protected files of `scan` (and the files below its protected directories, to the budget) that
 * lie inside `writable` and have more than one name, each replaced by a copy of itself. Returns one
 * line per file (for the tool result); `rel` names a path for it. Entries in `node_modules` (loose:
 * fingerprinted, src/sandbox/protect.ts) are left: a write through another name changes their
 * fingerprint, and pnpm's store links are theirs.
 */
export function detachHardLinks(
  scan: ProtectedScan,
  writable: readonly string[],
  rel: (p: string) => string = (p) => p,
): string[] {
  const notes: string[] = [];
  const seen = new Set<string>();
  const look = (p: string, depth: number, left: { n: number }) => {
    if (left.n-- <= 0 || seen.has(p)) return;
    seen.add(p);
    const st = lstat(p);
    if (!st) return;
    if (st.isFile()) {
      if (st.nlink <= 1) return;
      try {
        detach(p, st);
        notes.push(
          `${rel(p)}: replaced by a copy of itself (a protected file with another name, a hard link, that a command could write it through)`,
        );
      } catch (err) {
        notes.push(`${rel(p)}: has another name (a hard link) and could not be replaced (${(err as Error).message})`);
      }
      return;
    }
    if (st.isDirectory() && depth < 4) {
      let names: string[];
      try {
        names = fs.readdirSync(p);
      } catch {
        return;
      }
      for (const n of names) look(path.join(p, n), depth + 1, left);
    }
  };
  for (const e of scan.entries.values()) {
    if (e.loose !== undefined || !writable.some((w) => under(e.path, w))) continue;
    look(e.path, 0, { n: DETACH_DIR_BUDGET });
  }
  return notes;
}
