// Which control files of a session a tool call changed: a fingerprint of the session's control
// files (src/permissions/controlFiles.ts) before and after each call, compared. The fingerprint is
// metadata only (lstat: inode, size, mtime, ctime, mode), so it costs a few system calls per path;
// ctime moves on every write, rename and chmod and cannot be set back by an unprivileged process,
// so a write that restores mtime and size is still seen. Directories are walked to a bounded
// depth and entry count; symbolic links are recorded as links, never followed.
//
// The per-directory manifest (src/cli/controlManifest.ts) wants content instead, to compare across
// sessions: `hashControlFiles` walks the same set and hashes file contents.
import { createHash } from 'node:crypto';
import { constants, promises as fs, type BigIntStats } from 'node:fs';
import { join } from 'node:path';
import type { ControlWrite } from '../core/toolRecords';
import type { ControlPathSet } from './controlFiles';

export interface WalkLimits {
  /** Entries looked at in all (files, links, directories). Default 4,000. */
  maxEntries?: number;
  /** Entries looked at below one control directory (a large `.yarn` must not hide the others). Default 500. */
  maxPerDirectory?: number;
  /** Levels below each control directory. Default 4. */
  maxDepth?: number;
}

/** path → what it is now (absent: the path does not exist); `truncated`: a walk hit its limits. */
export interface ControlSnapshot {
  entries: Map<string, string>;
  truncated: boolean;
}

type Visit = (path: string, st: BigIntStats) => Promise<string>;

async function lstat(path: string): Promise<BigIntStats | undefined> {
  try {
    return await fs.lstat(path, { bigint: true });
  } catch {
    return undefined;
  }
}

async function walk(set: ControlPathSet, visit: Visit, limits: WalkLimits = {}): Promise<ControlSnapshot> {
  const maxEntries = limits.maxEntries ?? 4_000;
  const maxPerDirectory = limits.maxPerDirectory ?? 500;
  const maxDepth = limits.maxDepth ?? 4;
  const entries = new Map<string, string>();
  let truncated = false;
  let budget = 0;
  const add = async (path: string, st: BigIntStats): Promise<boolean> => {
    if (entries.size >= maxEntries || budget <= 0) {
      truncated = true;
      return false;
    }
    budget--;
    entries.set(path, await visit(path, st));
    return true;
  };
  const dir = async (path: string, depth: number): Promise<boolean> => {
    let names: string[];
    try {
      names = (await fs.readdir(path)).sort();
    } catch {
      return true;
    }
    for (const name of names) {
      const child = join(path, name);
      if (set.holds && !set.holds(child)) continue;
      const st = await lstat(child);
      if (!st) continue;
      if (!(await add(child, st))) return false;
      if (st.isDirectory()) {
        if (depth < maxDepth) {
          if (!(await dir(child, depth + 1))) return false;
        } else truncated = true;
      }
    }
    return true;
  };
  budget = Infinity;
  // The named paths at once (most do not exist); then each directory's walk in turn.
  const files = [...new Set(set.files)];
  const fileStats = await Promise.all(files.map(lstat));
  for (const [i, f] of files.entries()) {
    const st = fileStats[i];
    if (st) await add(f, st);
  }
  const dirStats = await Promise.all(set.dirs.map(lstat));
  for (const [i, d] of set.dirs.entries()) {
    if (entries.has(d)) continue;
    const st = dirStats[i];
    budget = maxPerDirectory + 1;
    if (!st || !(await add(d, st))) continue;
    if (st.isDirectory()) await dir(d, 1);
  }
  return { entries, truncated };
}

const kind = (st: BigIntStats): string =>
  st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';

/** A cheap snapshot for one call: metadata only. */
export function snapshotControlFiles(set: ControlPathSet, limits?: WalkLimits): Promise<ControlSnapshot> {
  return walk(
    set,
    async (_path, st) =>
      // A directory's own times move with its entries, which are listed themselves.
      st.isDirectory() ? `dir:${st.ino}` : `${kind(st)}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.mode}`,
    limits,
  );
}

/** Files above this size are fingerprinted by size and mtime instead of their content. */
const MAX_HASHED_BYTES = 8 * 1024 * 1024;

/** A snapshot by content, to compare across sessions: sha256 of each file, a link's target. */
export function hashControlFiles(set: ControlPathSet, limits?: WalkLimits): Promise<ControlSnapshot> {
  return walk(
    set,
    async (path, st) => {
      if (st.isDirectory()) return 'dir';
      if (st.isSymbolicLink()) return `link:${await fs.readlink(path).catch(() => '?')}`;
      if (!st.isFile()) return kind(st);
      if (st.size > BigInt(MAX_HASHED_BYTES)) return `large:${st.size}:${st.mtimeNs}`;
      try {
        // O_NOFOLLOW: the path was a regular file at lstat; a swap to a link since then is not followed.
        const h = await fs.open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
        try {
          return `sha256:${createHash('sha256')
            .update(await h.readFile())
            .digest('hex')}`;
        } finally {
          await h.close();
        }
      } catch {
        return 'unreadable';
      }
    },
    limits,
  );
}

/**
 * What changed from `before` to `after`, sorted by path. A directory created or deleted together
 * with entries under it is named by its entries only.
 */
export function controlChanges(before: ControlSnapshot, after: ControlSnapshot): ControlWrite[] {
  const out: ControlWrite[] = [];
  for (const [path, sig] of after.entries) {
    const was = before.entries.get(path);
    if (was === undefined) out.push({ path, change: 'created' });
    else if (was !== sig) out.push({ path, change: 'modified' });
  }
  for (const path of before.entries.keys()) if (!after.entries.has(path)) out.push({ path, change: 'deleted' });
  const isDir = (p: string): boolean => (after.entries.get(p) ?? before.entries.get(p) ?? '').startsWith('dir');
  const kept = out.filter(
    (w) => !(w.change !== 'modified' && isDir(w.path) && out.some((o) => o !== w && o.path.startsWith(`${w.path}/`))),
  );
  return kept.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
