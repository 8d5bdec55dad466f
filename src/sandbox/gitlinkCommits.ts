// Gitlinks followed into the submodule's objects (red team y, Y4). X1's screen (controlCommits.ts)
// reads what a commit changes in THIS repository's tree; a submodule's commit is a gitlink there (mode
// 160000, no protected name). The sandbox writes a submodule's object store (`.git/modules/sub/objects`)
// as it writes `.git/objects`, so plumbing there built a commit of the submodule adding
// `.claude/settings.json` and `.envrc`, and the superproject's gitlink `sub` was moved to it (committed,
// or only staged: Y4b). The person's `git submodule update` checked it out: both files on disk in `sub/`,
// which the sandbox never lets a command write there. So every gitlink a screened listing puts on its new
// side is followed: its commit is looked up in the submodules' object stores (`modules/<name>`, nested
// too; the work tree's `<path>/.git`; the repository itself — objects are named by their content, so any
// store that holds the commit answers for all), and its tree is screened against the gitlink's old
// commit (in full when there is none, or it is not there) with the same protected-path predicate, its
// paths below the gitlink's path; a submodule's own gitlinks in turn, to a bounded depth. What could not
// be told — a commit in no store, a tree git could not list in time, too deep, too many — carries one.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { protectedRepositoryEntry } from '../permissions/protectedPaths';
import { commonDirOf, submoduleGitDirs, workTreeOf } from './repoConfigTargets';
import { screenGit } from './screenGit';
import { keep, recall } from './verdictCache';

/** Time one git run may hold the worker's one thread (controlCommits.ts' GIT_MS). */
const GIT_MS = 750;
/** Bytes of one listing (controlCommits.ts' bound). */
const LISTING_BYTES = 32 << 20;
/** Distinct gitlinks one listing may move (a range of commits too); more counts as carrying one. */
export const MAX_GITLINKS = 32;
/** Submodules of submodules followed at most; a gitlink deeper than this counts as carrying one. */
export const MAX_DEPTH = 3;
/** Object stores asked for one gitlink's commit at most. */
const MAX_STORES = 64;
/** Linked worktrees whose submodules are looked in at most. */
const MAX_WORKTREES = 16;
/** Time the gitlinks of one listing may take in all (each run bounded besides); past it: carries one. */
const BUDGET_MS = 1_500;
const MAX_CACHE = 5_000;
/** Prefixed path + old + new commit → does the move change a protected path (definite answers only). */
const verdicts = new Map<string, boolean>();

/** A gitlink on the new side of a listing: its path, its commit, the old gitlink's commit if there was one. */
export interface Gitlink {
  path: string;
  oid: string;
  old?: string;
}

/** What a listing names: every path (for the predicate), and the gitlinks it puts on its new side. */
export interface Listing {
  paths: string[];
  gitlinks: Gitlink[];
}

const NULL_ID = /^0+$/;
/** A raw header: `:<mode> <mode> <id> <id> <status>`, or a merge's combined one (`::`, a mode and an id per parent and the result's). */
const RAW = /^\n*(:+)(\d{6}(?: \d{6})+) ([0-9a-f]{40,64}(?: [0-9a-f]{40,64})+) ([A-Z]+)\d*$/;
const TREE = /^(\d{6}) [a-z]+ ([0-9a-f]{40,64})\t(.*)$/s;
const GITLINK = '160000';

/** A name, and its lines too when it holds a newline (a separator git may print beside a name: checked both ways). */
const withLines = (name: string): string[] => (name.includes('\n') ? [name, ...name.split('\n')] : [name]);

/**
 * A `-z` raw diff (`diff-tree`, `log --raw`, `diff-index`): every path, and the gitlinks on its new
 * side. A record that is not a raw header is taken as a path (what `--name-only` gave).
 */
export function rawListing(stdout: string): Listing {
  const tokens = stdout.split('\0');
  const out: Listing = { paths: [], gitlinks: [] };
  for (let i = 0; i < tokens.length; i++) {
    const m = RAW.exec(tokens[i]!);
    const modes = m?.[2]!.split(' ') ?? [];
    const ids = m?.[3]!.split(' ') ?? [];
    if (!m || modes.length !== m[1]!.length + 1 || ids.length !== modes.length) {
      if (tokens[i] !== '') out.paths.push(...withLines(tokens[i]!));
      continue;
    }
    const names = tokens.slice(i + 1, i + 1 + (m[4] === 'R' || m[4] === 'C' ? 2 : 1));
    i += names.length;
    for (const n of names) out.paths.push(...withLines(n));
    // The new side is the last (the result's); the old, the first parent's.
    const p = names[names.length - 1];
    const [mode, id] = [modes[modes.length - 1]!, ids[ids.length - 1]!];
    if (p === undefined || mode !== GITLINK || NULL_ID.test(id)) continue;
    out.gitlinks.push({
      path: p,
      oid: id,
      ...(modes[0] === GITLINK && !NULL_ID.test(ids[0]!) ? { old: ids[0]! } : {}),
    });
  }
  return out;
}

/** A `-z` `ls-tree -r` listing (no `--name-only`): every path, and its gitlinks (none old). */
export function treeListing(stdout: string): Listing {
  const out: Listing = { paths: [], gitlinks: [] };
  for (const rec of stdout.split('\0')) {
    const m = TREE.exec(rec);
    if (!m) {
      if (rec !== '') out.paths.push(rec);
      continue;
    }
    out.paths.push(m[3]!);
    if (m[1] === GITLINK) out.gitlinks.push({ path: m[3]!, oid: m[2]! });
  }
  return out;
}

/**
 * Does a listing of `gitDir` name a protected path (below `prefix`), or move a gitlink to a commit whose
 * tree does against the old gitlink's — or could that not be told?
 */
export function listingChangesControl(
  gitDir: string,
  listing: Listing,
  prefix = '',
  depth = 0,
  until = Date.now() + BUDGET_MS,
): boolean {
  if (listing.paths.some((p) => protectedRepositoryEntry(prefix + p) !== undefined)) return true;
  if (listing.gitlinks.length === 0) return false;
  const links = new Map(listing.gitlinks.map((g) => [`${g.path}\0${g.oid}\0${g.old ?? ''}`, g]));
  if (links.size > MAX_GITLINKS || depth >= MAX_DEPTH) return true;
  for (const g of links.values()) {
    if (Date.now() > until) return true; // not screened in time: carries one
    if (gitlinkChangesControl(gitDir, g, prefix, depth, until)) return true;
  }
  return false;
}

/** Does one of `gitlinks` (of a listing of `gitDir`) lead to a commit that changes a protected path in its submodule — or could that not be told? */
export const gitlinksChangeControl = (gitDir: string, gitlinks: readonly Gitlink[]): boolean =>
  listingChangesControl(gitDir, { paths: [], gitlinks: [...gitlinks] });

/** Does moving gitlink `g` of `gitDir` to its commit add, change or remove a protected path in the submodule? */
export function gitlinkChangesControl(
  gitDir: string,
  g: Gitlink,
  prefix = '',
  depth = 0,
  until = Date.now() + BUDGET_MS,
): boolean {
  const where = `${prefix}${g.path}/`;
  const key = `${where}\0${g.oid}\0${g.old ?? ''}`;
  const known = recall(verdicts, key);
  if (known !== undefined) return known;
  for (const store of storesFor(gitDir, g.path)) {
    // Stores whose git hangs (an `objects/info/alternates` to a FIFO) share one budget: past it, carries one.
    if (Date.now() > until) return true;
    const has = present(store, [g.oid, ...(g.old ? [g.old] : [])]);
    if (!has[0]) continue;
    const r = has[1]
      ? screenGit(
          store,
          ['diff-tree', '-r', '-z', '--no-renames', '--ignore-submodules=none', g.old!, g.oid],
          undefined,
          LISTING_BYTES,
          GIT_MS,
        )
      : screenGit(store, ['ls-tree', '-r', '-z', '--full-tree', g.oid], undefined, LISTING_BYTES, GIT_MS);
    // A tree git could not list (in time, whole): not screened, and remembered (the next ref to it pays nothing).
    if (r.code !== 0) return keep(verdicts, key, true, MAX_CACHE);
    const listing = has[1] ? rawListing(r.stdout) : treeListing(r.stdout);
    return keep(verdicts, key, listingChangesControl(store, listing, where, depth + 1, until), MAX_CACHE);
  }
  return true; // in no store: what the person's git would fetch or fail on was not screened
}

/** Which of `oids` name a tree-ish in `store` (one `cat-file --batch-check`); none when git failed. */
function present(store: string, oids: readonly string[]): boolean[] {
  const r = screenGit(store, ['cat-file', '--batch-check'], oids.map((o) => `${o}^{tree}\n`).join(''), 1 << 16, GIT_MS);
  const lines = r.code === 0 ? r.stdout.split('\n') : [];
  return oids.map((_, i) => / tree \d+$/.test(lines[i] ?? ''));
}

/**
 * The object stores that may hold a gitlink's commit, the likeliest first: `modules/<path>` (a
 * submodule's default name), the work tree's `<path>/.git` (a submodule not absorbed), every
 * submodule's git directory below `modules/` (and a linked worktree's repository's), and `gitDir`.
 */
function storesFor(gitDir: string, link: string): string[] {
  const out = new Set<string>();
  const segs = link.split('/');
  const byName = path.join(gitDir, 'modules', ...segs);
  if (!segs.some((s) => s === '' || s === '.' || s === '..') && isGitDir(byName)) out.add(byName);
  const inTree = inWorkTree(gitDir, link);
  if (inTree) out.add(inTree);
  // The submodules of the repository, of its common directory, and of each linked worktree's
  // (`worktrees/<x>/modules/<name>`: a worktree's submodules have their own git directories).
  const common = commonDirOf(gitDir);
  const worktrees = readdirOr(path.join(common, 'worktrees')).slice(0, MAX_WORKTREES);
  for (const g of [gitDir, common, ...worktrees.map((w) => path.join(common, 'worktrees', w))])
    for (const d of submoduleGitDirs(g)) out.add(d);
  out.add(gitDir).add(common);
  return [...out].slice(0, MAX_STORES);
}

/** `<work tree>/<link>/.git` when it is a git directory, reached through real directories only (no link). */
function inWorkTree(gitDir: string, link: string): string | undefined {
  let dir = workTreeOf(gitDir);
  for (const seg of [...link.split('/'), '.git']) {
    if (seg === '' || seg === '.' || seg === '..') return undefined;
    dir = path.join(dir, seg);
    if (!fs.lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  }
  return isGitDir(dir) ? dir : undefined;
}

/** The names in a directory (none when it cannot be read). */
function readdirOr(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** A directory with a `HEAD` and an `objects` directory, links not followed. */
function isGitDir(dir: string): boolean {
  return (
    fs.lstatSync(path.join(dir, 'HEAD'), { throwIfNoEntry: false }) !== undefined &&
    fs.lstatSync(path.join(dir, 'objects'), { throwIfNoEntry: false })?.isDirectory() === true
  );
}

const SUBPROJECT = /^([-+])Subproject commit (\S*)/;

/**
 * The gitlinks a patch moves (a stopped `git am`'s, sequencerPatches.ts): git apply reads a gitlink's
 * hunk as `-Subproject commit <old>` / `+Subproject commit <new>` under the file's `+++ b/<path>`.
 * Undefined when a `+Subproject commit` names no full object id (not screenable).
 */
export function patchGitlinks(text: string): Gitlink[] | undefined {
  const out: Gitlink[] = [];
  let file = '';
  let old: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.startsWith('diff --git ')) old = undefined;
    const to = /^\+\+\+ (.*)$/.exec(line);
    if (to)
      file = to[1]!
        .split('\t')[0]!
        .replace(/^"?[^/]*\//, '')
        .replace(/"$/, '');
    const m = SUBPROJECT.exec(line);
    if (!m) continue;
    if (!/^[0-9a-f]{40,64}$/.test(m[2]!)) return undefined;
    if (m[1] === '-') old = m[2]!;
    else out.push({ path: file, oid: m[2]!, ...(old ? { old } : {}) });
  }
  return out;
}
