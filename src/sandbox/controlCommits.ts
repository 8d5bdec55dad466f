// Control files carried by commits (red team x, X1). The sandbox denies every protected name on disk
// (`.claude/settings.json`, `.mcp.json`, `.envrc`, `.vscode/`…: src/permissions/protectedPaths.ts), but
// the main checkout's sandbox writes `.git/objects` and `.git/refs`, so git plumbing built a commit
// adding `.claude/settings.json` (a SessionStart hook, `sandbox.hooks: "host"`) without writing the
// file, and moved a branch (or `refs/stash`) to it. The person's merge (or `git stash pop`) put the
// file on disk, and their next session ran its hook on the host. A ref a command moves is screened
// for what git would write of it, as for the hooks (movedRefs.ts, refRange.ts): a commit whose tree
// adds, changes or removes a protected path against the HEAD the command started from, or one it
// brings in that does so against a parent, is what the sandbox could not have written: put back.
// At any depth (a new `packages/app/.envrc` runs at the person's next `cd` there). Through the door,
// with the screens' git; what git could not answer in time or within its bounds counts as carrying one.
// A gitlink a commit moves is followed into the submodule's objects (gitlinkCommits.ts; red team y, Y4).
import { protectedRepositoryEntry } from '../permissions/protectedPaths';
import { listingChangesControl, rawListing, treeListing } from './gitlinkCommits';
import { screenGit } from './screenGit';
import { keep, recall } from './verdictCache';

/** Bytes of one listing (about 800,000 names): more is not screened (red team v, V10's bound). */
const LISTING_BYTES = 32 << 20;
/**
 * Time one of these git runs may hold the worker's one thread (they run synchronously): past it a tree
 * bomb is not screened, and counts as carrying a protected path (red team w, W2's class).
 */
const GIT_MS = 750;
const MAX_CACHE = 5_000;
/** gitDir + object whose range git could not list within the bounds: counts as carrying one, not asked again. */
const unscreenable = new Set<string>();
/** gitDir + object + base → does it change a control path against base (definite answers only). */
const tips = new Map<string, boolean>();
/** gitDir + tree of HEAD → the control entries it tracks. */
const tracked = new Map<string, readonly string[]>();

const paths = (stdout: string) => stdout.split('\0').filter((p) => p !== '');

/** Kept for the check after a call; a live round's in its own map (verdictCache.ts: its objects are not verified yet). */
const remember = <T>(cache: Map<string, T>, key: string, v: T): T => keep(cache, key, v, MAX_CACHE);

/**
 * Does the tree of `oid` add, change or remove a protected path against `base` (every path of it when
 * there is no base)? True too when that could not be told; false for a blob a tag names (nothing a
 * checkout writes).
 */
export function tipChangesControl(gitDir: string, oid: string, base: string | undefined): boolean {
  const key = `${gitDir}\0${oid}\0${base ?? ''}`;
  const known = recall(tips, key);
  if (known !== undefined) return known;
  const r =
    base === undefined
      ? screenGit(gitDir, ['ls-tree', '-r', '-z', '--full-tree', oid], undefined, LISTING_BYTES, GIT_MS)
      : screenGit(
          gitDir,
          ['diff-tree', '-r', '-z', '--no-renames', '--ignore-submodules=none', base, oid],
          undefined,
          LISTING_BYTES,
          GIT_MS,
        );
  if (r.code === 0)
    return remember(
      tips,
      key,
      listingChangesControl(gitDir, (base === undefined ? treeListing : rawListing)(r.stdout)),
    );
  if (r.timedOut || r.spawnError || r.signal) return remember(tips, key, true);
  // Not a tree-ish: a blob puts nothing on disk; an object that is not there yet could be written later.
  const type = screenGit(gitDir, ['cat-file', '-t', oid]);
  return type.code !== 0 || !/^blob\s*$/.test(type.stdout);
}

/**
 * Does a commit reachable from `oid` and from none of `olds` add, change or remove a protected path
 * against one of its parents (a root commit: any path of it)? True too when that could not be told.
 */
export function rangeChangesControl(gitDir: string, oid: string, olds: ReadonlySet<string>): boolean {
  if (olds.has(oid)) return false; // a ref led there before: it brings in no commit no ref reached
  if (unscreenable.has(`${gitDir}\0${oid}`)) return true;
  const r = screenGit(
    gitDir,
    [
      'log',
      '--no-ext-diff',
      '--no-textconv',
      '--no-renames',
      '--full-history',
      '--root',
      '-m',
      '-z',
      '--raw',
      '--no-abbrev',
      '--ignore-submodules=none',
      '--format=format:',
      '--ignore-missing',
      '--stdin',
      oid,
    ],
    [...olds].map((o) => `^${o}\n`).join(''),
    LISTING_BYTES,
    GIT_MS,
  );
  if (r.code === 0) return listingChangesControl(gitDir, rawListing(r.stdout));
  if (r.timedOut || r.spawnError || r.signal) {
    if (unscreenable.size >= MAX_CACHE) unscreenable.delete(unscreenable.values().next().value!);
    unscreenable.add(`${gitDir}\0${oid}`);
    return true;
  }
  const type = screenGit(gitDir, ['cat-file', '-t', oid]);
  return type.code !== 0 || /^(commit|tag)\s*$/.test(type.stdout);
}

/**
 * The protected entries HEAD's tree tracks (`.claude`, `.vscode`, `src/.envrc`…: a directory for what
 * lies in a protected directory), so that the hook-path screens compare them as they compare the hooks
 * (a rename git's merge would carry into one, an index entry, a patch). Undefined when the tree could
 * not be listed.
 */
export function trackedControl(gitDir: string): readonly string[] | undefined {
  const head = screenGit(gitDir, ['rev-parse', '--verify', '-q', 'HEAD^{tree}']);
  const tree = head.stdout.trim();
  if (head.code !== 0 || !/^[0-9a-f]{40,64}$/.test(tree)) return head.code === 0 ? undefined : [];
  const key = `${gitDir}\0${tree}`;
  const known = recall(tracked, key);
  if (known) return known;
  const r = screenGit(
    gitDir,
    ['ls-tree', '-r', '-z', '--name-only', '--full-tree', tree],
    undefined,
    LISTING_BYTES,
    3_000,
  );
  if (r.code !== 0) return undefined;
  const out = new Set<string>();
  for (const p of paths(r.stdout)) {
    const e = protectedRepositoryEntry(p);
    if (e !== undefined) out.add(e);
  }
  return remember(tracked, key, [...out].sort());
}
