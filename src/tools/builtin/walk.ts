// Directory walk shared by Glob and the JavaScript Grep engine: skips VCS directories and
// symbolic links (as ripgrep does without --follow), honours .gitignore (see gitignore.ts),
// checks the abort signal between directories.
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
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
}

const VCS = new Set<string>(VCS_DIRECTORIES);

/** Absolute paths of the regular files under `root` that survive the filters. */
export async function walkFiles(options: WalkOptions): Promise<string[]> {
  const { root, signal } = options;
  const respect = options.respectGitignore !== false;
  const files: string[] = [];
  const baseSets: IgnoreRuleSet[] = respect ? await loadParentIgnores(root) : [];

  const visit = async (dir: string, sets: IgnoreRuleSet[]): Promise<void> => {
    throwIfAborted(signal);
    let dirents: import('node:fs').Dirent[];
    try {
      dirents = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return; // unreadable directory: skipped, as ripgrep does (it reports on stderr)
    }
    let here = sets;
    if (respect && dirents.some((d) => d.name === '.gitignore')) {
      const own = await loadIgnoreFile(dir);
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
        if (!options.descend || options.descend(entry.rel)) subdirs.push(abs);
      } else {
        files.push(abs);
      }
    }
    for (const sub of subdirs) await visit(sub, here);
  };

  await visit(root, baseSets);
  return files;
}
