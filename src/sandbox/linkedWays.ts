// No directory on the way to a protected path becomes a symbolic link behind the check's back (red
// team t, T8, T8b, T11). The runtime denies protected paths by binding them, and the checks after a
// call put back or remove what the command changed through the directories as the scan saw them
// (anchored.ts): a command that renames a directory on the way aside and puts a link to its own
// directory in its place (`mv .venv/bin .venv/bin.old && ln -s ../tools/b .venv/bin`) made every
// such put-back fail with "its directory moved" — a note, and the person's tools then read the
// agent's files through the link (pre-commit's `INSTALL_PYTHON`, lefthook's package binary, the
// `package.json` script a hook runs with `npm --prefix web`). Before each call the identity of
// every directory on those ways is recorded; after it each one that is a link now is cut, and the
// directory that was there put back when the command only renamed it in the same parent. A directory
// ABSENT at the scan is recorded as such (T21: lefthook's `.config/lefthook-local.yml` under a `.config`
// the call made a link to its own directory): a link there after the call is the command's, and cut.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { undoDirectoryLink } from './anchored';

/** Directories recorded at most (the ways of a scan's entries share most of theirs). */
const MAX_DIRECTORIES = 20_000;

/** What {@link wayIdentities} records for a directory on a way that is not there at the scan. */
const ABSENT = 'absent';

/**
 * `device:inode` of each directory strictly between a root and each of `paths` (their ways), by path;
 * {@link ABSENT} for one not there (absent protected names included: their ways too).
 */
export function wayIdentities(paths: Iterable<string>, roots: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of paths) {
    const root = rootOf(p, roots);
    if (root === undefined) continue;
    for (let d = path.dirname(p); d !== root && !out.has(d) && d !== path.dirname(d); d = path.dirname(d)) {
      if (out.size >= MAX_DIRECTORIES) return out;
      const st = lstat(d);
      if (st?.isDirectory()) out.set(d, `${st.dev}:${st.ino}`);
      else if (!st) out.set(d, ABSENT);
    }
  }
  return out;
}

/**
 * After a call: each directory of `ways` that is a symbolic link now is unlinked (never followed)
 * and the directory it was put back when the command renamed it within its parent; the shallowest
 * first (a link higher up hides those below). One note each; `rel` names paths for the result.
 */
export function cutLinkedWays(ways: ReadonlyMap<string, string>, rel: (p: string) => string): string[] {
  const notes: string[] = [];
  const cut: string[] = [];
  const dirs = [...ways.keys()].sort((a, b) => a.split(path.sep).length - b.split(path.sep).length);
  for (const d of dirs) {
    if (cut.some((c) => d.startsWith(c + path.sep))) continue;
    if (!lstat(d)?.isSymbolicLink()) continue;
    try {
      const was = ways.get(d);
      const done = undoDirectoryLink(path.dirname(d), path.basename(d), was === ABSENT ? undefined : was);
      if (done === undefined) continue;
      cut.push(d);
      notes.push(`${rel(d)}: ${done} (a directory on the way to protected files made a link by this call)`);
    } catch (err) {
      notes.push(`${rel(d)}: a directory made a link by this call could not be undone (${(err as Error).message})`);
    }
  }
  return notes;
}

/**
 * `d`'s own status, or undefined when there is none to see: absent, or a way above it no directory (a
 * FILE made where a directory was: ENOTDIR), a loop, unsearchable. Never throws (session 26, round t's
 * lead: cutLinkedWays' ENOTDIR was "Error calling tool Bash" and every check after it was skipped).
 */
function lstat(d: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(d, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function rootOf(p: string, roots: readonly string[]): string | undefined {
  return roots.find((r) => p.startsWith(r.endsWith(path.sep) ? r : r + path.sep));
}
