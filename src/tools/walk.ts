// Directory walk shared by Glob and the JavaScript Grep engine: skips VCS directories and
// symbolic links (as ripgrep does without --follow), honours .gitignore (see gitignore.ts),
// checks the abort signal between directories. The walk is bound to what it opened
// (src/files/safeFs.ts): the root is opened once and its real path judged by `rootCheck`, and
// every directory below is opened through its parent's descriptor without following a symlink,
// so a directory swapped for a symlink mid-walk is skipped, never walked into.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { openChildDir, openDirBound, type BoundDir, type RealPathCheck } from '../files/safeFs';
import { loadIgnoreFile, loadParentIgnores, matchIgnore, VCS_DIRECTORIES, type IgnoreRuleSet } from './gitignore';
import { relPosix, throwIfAborted } from './paths';

export interface WalkEntry {
  abs: string;
  /** POSIX path relative to the walk root. */
  rel: string;
  name: string;
  isDir: boolean;
}

export interface WalkOptions {
  root: string;
  signal?: AbortSignal;
  /** Default true. */
  respectGitignore?: boolean;
  /**
   * Consulted before .gitignore: 'include' keeps the entry whatever .gitignore says,
   * 'exclude' drops it, undefined lets .gitignore decide.
   */
  override?(entry: WalkEntry): 'include' | 'exclude' | undefined;
  /** Return false to skip a directory (and everything below it). */
  descend?(relDir: string): boolean;
  /** Judges the root's real path once it is open (default: any). A refusal throws AccessRefusedError. */
  rootCheck?: RealPathCheck;
  /** Files for which walkFileStats records an mtime (lstat inside the bound directory). */
  statFile?(rel: string): boolean;
}

export interface WalkedFile {
  abs: string;
  /** With `statFile`: the file's mtime, read through the bound directory (0 when not asked or gone). */
  mtimeMs: number;
}

const VCS = new Set<string>(VCS_DIRECTORIES);

/** Absolute paths of the regular files under `root` that survive the filters. */
export async function walkFiles(options: WalkOptions): Promise<string[]> {
  return (await walkFileStats(options)).map((f) => f.abs);
}

/** walkFiles with the mtimes `statFile` asks for. Paths are `root` joined with what was walked. */
export async function walkFileStats(options: WalkOptions): Promise<WalkedFile[]> {
  const { root, signal } = options;
  const respect = options.respectGitignore !== false;
  const files: WalkedFile[] = [];
  const baseSets: IgnoreRuleSet[] = respect ? await loadParentIgnores(root) : [];

  const visit = async (dir: string, bound: BoundDir, sets: IgnoreRuleSet[]): Promise<void> => {
    throwIfAborted(signal);
    let dirents: import('node:fs').Dirent[];
    try {
      dirents = await fs.readdir(bound.at, { withFileTypes: true });
    } catch {
      return; // unreadable directory: skipped, as ripgrep does (it reports on stderr)
    }
    let here = sets;
    if (respect && dirents.some((d) => d.name === '.gitignore')) {
      const own = await loadIgnoreFile(dir, bound.at);
      if (own) here = [...sets, own];
    }
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const d of dirents) {
      if (d.isSymbolicLink()) continue;
      const isDir = d.isDirectory();
      if (!isDir && !d.isFile()) continue;
      if (VCS.has(d.name)) continue; // a `.git` file (worktree, submodule) too, like rg --glob !.git
      const abs = path.join(dir, d.name);
      const entry: WalkEntry = { abs, rel: relPosix(root, abs), name: d.name, isDir };
      const forced = options.override?.(entry);
      if (forced === 'exclude') continue;
      if (forced !== 'include' && respect && matchIgnore(here, abs, isDir) === true) continue;
      if (isDir) {
        if (!options.descend || options.descend(entry.rel)) subdirs.push(d.name);
      } else if (options.statFile?.(entry.rel)) {
        let mtimeMs: number;
        try {
          const st = await fs.lstat(path.join(bound.at, d.name));
          if (!st.isFile()) continue; // swapped since readdir
          mtimeMs = st.mtimeMs;
        } catch {
          continue; // gone since readdir
        }
        files.push({ abs, mtimeMs });
      } else {
        files.push({ abs, mtimeMs: 0 });
      }
    }
    for (const name of subdirs) {
      let child: BoundDir;
      try {
        child = await openChildDir(bound, name);
      } catch {
        continue; // gone, or swapped for a symlink since readdir: not walked into
      }
      try {
        await visit(path.join(dir, name), child, here);
      } finally {
        await child.close();
      }
    }
  };

  let top: BoundDir;
  try {
    top = await openDirBound(root, options.rootCheck ?? (() => undefined));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') return files; // nothing to walk
    throw err;
  }
  try {
    await visit(root, top, baseSets);
  } finally {
    await top.close();
  }
  return files;
}
