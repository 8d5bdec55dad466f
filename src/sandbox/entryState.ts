// What a protected entry is, for the check after a call (protect.ts): its fingerprint (an entry in
// node_modules is not denied, but compared), and the symlinks among the entries. The runtime denies
// the way a symlink leads to, never the link itself, which a command in a writable directory may
// replace (red team r, R2: `.venv/bin/python3 -> /usr/bin/python3`, the interpreter pre-commit's
// git hook names; a dotfiles `.mcp.json` link at the project's top): such a link is put back after
// the call, through its directory as the scan saw it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { anchoredFile, DirectoryMoved, readdirOwned, removeAnchored, withOwnerRetry } from './anchored';
import { lstat } from './treeNames';

export interface ProtectedEntry {
  path: string;
  /** What it is for the check after the call. */
  kind: 'file' | 'dir' | 'gitConfig' | 'gitHooks' | 'gitPointer' | 'gitWorktrees';
  /** It was there, with content, when the scan ran. */
  existed: boolean;
  /**
   * Denied even when absent (a git directory's `commondir` and `config.worktree`: git reads them as
   * soon as they appear, so undoing them after the call comes too late for the person's own git
   * meanwhile; an absent one is held by a placeholder while the command runs, placeholders.ts).
   */
  denyAbsent?: boolean;
  /**
   * Inside a `node_modules` directory: not denied (a command must be able to remove and reinstall
   * packages, `npm ci`), but fingerprinted (fingerprint()); changed by the call, it is undone (removed)
   * like a new one.
   */
  loose?: string;
  /** Absent: not denied (a placeholder breaks the tool reading it, `.lintstagedrc`), removed when a call makes it. */
  absentUndone?: boolean;
  /** A symlink when the scan saw it: where it led, put back after the call (entryState.ts, R2). */
  link?: string;
}

export interface ProtectedScan {
  entries: Map<string, ProtectedEntry>;
  /** The scan stopped at the budget: entries below what it reached are unknown. */
  truncated: boolean;
}

/** Directory entries one fingerprint reads at most (a protected directory in node_modules is small). */
export const FINGERPRINT_BUDGET = 2_000;

function readdir(p: string): fs.Dirent[] {
  try {
    return readdirOwned(p);
  } catch {
    return [];
  }
}

/**
 * What a protected entry is now, as far as a write could change it: every path below it (to the
 * budget) with its inode, size and change time (ctime: no write, chmod or rename keeps it, and no
 * utime sets it).
 */
export function fingerprint(p: string, budget = FINGERPRINT_BUDGET): string {
  const parts: string[] = [];
  const walk = (q: string, rel: string) => {
    if (parts.length >= budget) return;
    const st = lstat(q);
    if (!st) return;
    parts.push(`${rel}:${st.ino}:${st.size}:${st.ctimeMs}:${st.mode}`);
    if (st.isDirectory())
      for (const e of readdir(q).sort((a, b) => (a.name < b.name ? -1 : 1)))
        walk(path.join(q, e.name), `${rel}/${e.name}`);
  };
  walk(p, '.');
  return parts.join('\n');
}

/** Records where each denied entry of `scan` that is a symlink leads (`link`), so that it can be put back. */
export function withLinks(scan: ProtectedScan): ProtectedScan {
  for (const e of scan.entries.values()) {
    if (e.loose !== undefined || !lstat(e.path)?.isSymbolicLink()) continue;
    try {
      e.link = fs.readlinkSync(e.path);
    } catch {
      // gone meanwhile: nothing to put back
    }
  }
  return scan;
}

/**
 * Puts back each protected symlink of `before` the call replaced or removed, through its directory
 * as the scan saw it (a directory made unwritable is given to its owner first); one note each.
 */
export function restoreLinks(before: ProtectedScan, rel: (p: string) => string, notes: string[]): void {
  for (const e of before.entries.values()) {
    const link = e.link;
    if (link === undefined) continue;
    const st = lstat(e.path);
    try {
      if (st?.isSymbolicLink() && fs.readlinkSync(e.path) === link) continue;
    } catch {
      // unreadable now: put back below
    }
    try {
      withOwnerRetry(e.path, () =>
        anchoredFile(e.path, (pinned) => {
          if (lstat(e.path)) removeAnchored(path.dirname(pinned), path.basename(pinned));
          fs.symlinkSync(link, pinned);
        }),
      );
      notes.push(`${rel(e.path)}: put back (a protected symlink this call ${st ? 'replaced' : 'removed'})`);
    } catch (err) {
      const why = err instanceof DirectoryMoved ? 'its directory moved' : (err as Error).message;
      notes.push(`${rel(e.path)}: could not be put back (${why.replace(/\/proc\/\d+\/fd\/\d+\//g, '')})`);
    }
  }
}
