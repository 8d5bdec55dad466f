// The names the tree watch (treeWatch.ts) records and the shape of a git directory it looks for:
// pure predicates over one directory entry, and the two file-system reads they need.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  PROTECTED_DIRECTORY_NAMES,
  isProtectedFileName,
  isLinkableNpmDir,
  isProtectedTailEntry,
  isSequenceHead,
} from '../permissions/protectedPaths';
import { isWatchedManifest } from './manifestBins';
import { isLintManifest } from './lintKeys';

/** The entries of a git directory a watch looks at when something in it changes. */
export const GIT_ENTRY_NAMES = new Set(['config', 'config.worktree', 'commondir', 'hooks', 'gitdir']);

export const fold = (s: string) => s.normalize('NFC').toLowerCase();

/** Directory names recorded wherever they appear (folded), besides `.git`. */
const PROTECTED_DIRS = new Set<string>(PROTECTED_DIRECTORY_NAMES.filter((n) => n !== '.git').map(fold));

/**
 * Is an entry of this (folded) name recorded wherever it appears: what configures the agent, an
 * editor, a shell or a tool (a protected directory or file name), or a sequence's head (`.config`
 * for its `git/` and `mise/`, `mise` for its `config.toml`)?
 */
const isProtectedName = (folded: string): boolean =>
  PROTECTED_DIRS.has(folded) || isProtectedFileName(folded) || isSequenceHead(folded);

/**
 * Is the entry `folded` of `dir` recorded: a protected name, a protected tail's end
 * (`node_modules/.bin/durable-agent`), a package.json whose bins are watched (manifestBins.ts), or a
 * pyproject.toml, setup.cfg or tox.ini whose linter keys are (lintKeys.ts)?
 */
export const isRecorded = (dir: string, folded: string): boolean =>
  isProtectedName(folded) ||
  isProtectedTailEntry(dir, folded) ||
  isWatchedManifest(dir, folded) ||
  isLintManifest(dir, folded) ||
  (isLinkableNpmDir(dir, folded) && lstat(path.join(dir, folded))?.isSymbolicLink() === true);

/**
 * The file a protected tail that is a symlink leads to (npm's `node_modules/.bin/node ->
 * ../node/bin/node`, red team n, N8): what the person's npx runs is the target, an ordinary file,
 * so it is fingerprinted like the tail (changed by a command: removed). Only a regular file inside
 * the directory that holds the `node_modules` (a directory a link leads to — a workspace package —
 * stays the project's; elsewhere the command cannot write).
 */
export function tailTarget(p: string): string | undefined {
  const dir = path.dirname(p);
  if (!isProtectedTailEntry(dir, fold(path.basename(p)))) return undefined;
  try {
    const real = fs.realpathSync.native(p);
    const nm = path.basename(dir) === '.bin' ? path.dirname(dir) : dir;
    const top = fs.realpathSync.native(path.dirname(nm));
    return fs.statSync(real).isFile() && real.startsWith(top + path.sep) ? real : undefined;
  } catch {
    return undefined;
  }
}

/** The names whose appearance can make a directory a git directory (git's is_git_directory). */
export const BARE_MARKERS = new Set(['HEAD', 'objects', 'refs', 'commondir']);

/**
 * Could git take `dir` for a git directory (a bare repository) when it runs inside it, now or once
 * a symlink's target appears? Its `HEAD`, and `objects` and `refs` or a `commondir` naming where
 * they are. Git asks only that `objects` and `refs` be searchable (`access(X_OK)`): an executable
 * file or a symlink to `/bin/true` passes (red team m, M1), and a symlink that dangles now may lead
 * to a directory made later elsewhere, where no event of this directory says so (M1b). So any entry
 * of those names counts, whatever it is.
 */
export function looksLikeGitDirectory(dir: string): boolean {
  if (!lstat(path.join(dir, 'HEAD'))) return false;
  if (lstat(path.join(dir, 'commondir'))) return true;
  return lstat(path.join(dir, 'objects')) !== undefined && lstat(path.join(dir, 'refs')) !== undefined;
}

export function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p, { throwIfNoEntry: false }); // absent: no error built (issue 32: hundreds a call)
  } catch {
    return undefined;
  }
}

/** Could an entry of this name matter to the tree watch (treeWatch.ts `consider`) when it is a regular file? */
const mayMatter = (dir: string, name: string): boolean => {
  const folded = fold(name);
  return folded === '.git' || isRecorded(dir, folded) || BARE_MARKERS.has(name) || GIT_ENTRY_NAMES.has(name);
};

/**
 * The entries of `dir` to consider when something changed there with no name given (a hot
 * directory's read: watchFlood.ts), without — when `skipPlain` — the regular files no rule looks at
 * (a directory of 20,000 files is one readdir, not 20,000 lstats); `any`: it has entries at all.
 */
export function entriesToConsider(dir: string, skipPlain: boolean): { names: string[]; any: boolean } {
  let here: fs.Dirent[];
  try {
    here = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return { names: [], any: false };
  }
  const kept = skipPlain ? here.filter((e) => !e.isFile() || mayMatter(dir, e.name)) : here;
  return { names: kept.map((e) => e.name), any: here.length > 0 };
}

/**
 * Is `gitDir` a repository's git directory as git's discovery takes it: a `HEAD`, and an `objects`
 * directory or a `commondir` (a linked worktree's)? An empty `.git` the command made is none (git
 * walks past it: red team u, U6, U9).
 */
export function isRepositoryDir(gitDir: string): boolean {
  const at = (n: string) => {
    try {
      return fs.lstatSync(path.join(gitDir, n), { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
  };
  return at('HEAD') !== undefined && (at('objects')?.isDirectory() === true || at('commondir')?.isFile() === true);
}
