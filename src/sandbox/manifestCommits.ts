// P1's rule for package.json keys (red team w, W9): the ref screens (movedRefs.ts) compare a new commit's
// hook PATHS, but what a hook's `npm run lint` runs is a KEY, `scripts.lint`, which a sandboxed command may
// not change in the work tree (manifestBins.ts puts it back) — a branch whose commit changed it ran the
// agent's script at the person's checkout of it and next commit. So every commit a moved ref (a todo word,
// a reflog line, an imported worktree branch) brings in that changes a package.json is judged by the same
// rule the file tools apply to an edit (manifestBins.ts `manifestEditRefusal`: the control keys, the
// scripts and bins the person's hooks run, a durable-agent bin) against each of its parents.
import * as path from 'node:path';
import { hookedFor, manifestEditRefusal } from './manifestBins';
import { hookManifestKeys, workTreeOf } from './repoConfigTargets';
import { screenGit } from './screenGit';

/**
 * Commits, and package.json changes over all of them, judged at most (each a few synchronous git runs; the
 * commits one command made): past either, the range counts as changing one (put back, named).
 */
const MAX_COMMITS = 16;
const MAX_FILES = 32;
const MANIFESTS = ':(glob)**/package.json';

/** A blob's text at `rev:rel`, or undefined (none there). */
function blobAt(gitDir: string, rev: string, rel: string): string | undefined {
  const r = screenGit(gitDir, ['cat-file', 'blob', `${rev}:${rel}`], undefined, 16 << 20);
  return r.code === 0 ? r.stdout : undefined;
}

/**
 * Does a commit reachable from `oid` and from none of `olds` change a package.json key the sandbox may not
 * write — against one of its parents (a root commit: against nothing) — or could that not be told?
 */
export function rangeChangesManifestKeys(gitDir: string, oid: string, olds: ReadonlySet<string>): boolean {
  if (olds.has(oid)) return false; // a ref led there before: it brings in no commit no ref reached
  // One answer per object for one set of old objects (one screen: 3,000 tags on one new commit took 12 s).
  let memo = answers.get(olds);
  if (!memo) answers.set(olds, (memo = new Map()));
  const key = `${gitDir}\0${oid}`;
  let v = memo.get(key);
  if (v === undefined) memo.set(key, (v = rangeChanges(gitDir, oid, olds)));
  return v;
}

/** The answers of rangeChangesManifestKeys, per set of old objects (a screen's; gone with it). */
const answers = new WeakMap<ReadonlySet<string>, Map<string, boolean>>();

function rangeChanges(gitDir: string, oid: string, olds: ReadonlySet<string>): boolean {
  const r = screenGit(
    gitDir,
    [
      'rev-list',
      '--ignore-missing',
      '--stdin',
      '--full-history',
      `--max-count=${MAX_COMMITS + 1}`,
      oid,
      '--',
      MANIFESTS,
    ],
    [...olds].map((o) => `^${o}\n`).join(''),
  );
  if (r.code !== 0) {
    if (r.timedOut || r.spawnError || r.signal) return true;
    const type = screenGit(gitDir, ['cat-file', '-t', oid]);
    return type.code !== 0 || /^(commit|tag)\s*$/.test(type.stdout);
  }
  const commits = r.stdout.split('\n').filter((l) => /^[0-9a-f]{40,64}$/.test(l));
  if (commits.length === 0) return false;
  if (commits.length > MAX_COMMITS) return true;
  const tree = workTreeOf(gitDir);
  const hooked = hookManifestKeys([tree]);
  let files = 0;
  for (const c of commits) {
    const p = screenGit(gitDir, ['rev-list', '--parents', '-n', '1', c]);
    if (p.code !== 0) return true;
    const parents = p.stdout.trim().split(/\s+/).slice(1);
    for (const parent of parents.length > 0 ? parents : [undefined]) {
      const names = parent
        ? screenGit(gitDir, ['diff-tree', '-r', '-z', '--no-renames', '--name-only', parent, c, '--', MANIFESTS])
        : screenGit(gitDir, ['ls-tree', '-r', '-z', '--name-only', c, '--', MANIFESTS]);
      if (names.code !== 0) return true;
      const rels = names.stdout.split('\0').filter((n) => n !== '');
      if ((files += rels.length) > MAX_FILES) return true;
      for (const rel of rels) {
        const after = blobAt(gitDir, c, rel);
        if (after === undefined) continue; // removed: the tools fall back to the person's own configuration
        const file = path.join(tree, ...rel.split('/'));
        const before = parent ? (blobAt(gitDir, parent, rel) ?? null) : null;
        if (manifestEditRefusal(file, before, after, hookedFor(hooked, file)) !== undefined) return true;
      }
    }
  }
  return false;
}
