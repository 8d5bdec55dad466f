// The commits a moved ref brings in, screened for the hooks (red team u, U5). The ref screen
// (movedRefs.ts) compares the hook paths of the commit a new ref names — its tip — with the HEAD the
// command started from; a branch whose tip puts the person's hook back on a parent that replaces it
// passed, and the person's `git rebase -i` with `reword` (or `edit` and `commit --amend`) on that
// parent committed with the agent's hook on disk and ran it. So every commit the ref reaches that no
// ref reached before the command is screened: one that changes a hook path against one of its
// parents (a merge against either: `--full-history`) counts as the tip would.
import { rangeChangesControl } from './controlCommits';
import { renamesIntoHooks } from './renamedHooks';
import { screenGit } from './screenGit';
import { hooksUnread } from './hookPathspecs';

/**
 * Does a commit reachable from `oid` and from none of `olds` (every object the refs led to before
 * the command) change one of `specs` against a parent — or could that not be told (git failed on a
 * commit, or ran out of time)? A tree or blob `oid` brings in no commits.
 */
export function rangeChangesHooks(
  gitDir: string,
  oid: string,
  olds: ReadonlySet<string>,
  specs: readonly string[],
  base?: string,
): boolean {
  if (hooksUnread(specs)) return true; // the hook configuration could not be read (V11)
  if (olds.has(oid)) return false; // a ref led there before: it brings in no commit no ref reached
  // One answer per object for one set of old objects (one command's screen: 3,000 tags on one new commit).
  let memo = answers.get(olds);
  if (!memo) answers.set(olds, (memo = new Map()));
  const key = `${gitDir}\0${oid}\0${base ?? ''}\0${specs.join('\0')}`;
  let v = memo.get(key);
  if (v === undefined) memo.set(key, (v = rangeChanges(gitDir, oid, olds, specs, base)));
  return v;
}

/** The answers of rangeChangesHooks, per set of old objects (a screen's; gone with it). */
const answers = new WeakMap<ReadonlySet<string>, Map<string, boolean>>();

function rangeChanges(
  gitDir: string,
  oid: string,
  olds: ReadonlySet<string>,
  specs: readonly string[],
  base?: string,
): boolean {
  if (rangeChangesControl(gitDir, oid, olds)) return true; // a protected path at any depth (red team x, X1)
  if (specs.length === 0) return false;
  const r = screenGit(
    gitDir,
    [
      'rev-list',
      '--ignore-missing',
      '--stdin',
      '--full-history',
      '--max-count=1',
      oid,
      '--',
      ...specs.map((s) => `:(literal)${s}`),
    ],
    [...olds].map((o) => `^${o}\n`).join(''),
  );
  // None changes a hook path by name: what ort's rename detection would carry into one (V15).
  if (r.code === 0) return r.stdout.trim() !== '' || renamesIntoHooks(gitDir, oid, olds, specs, undefined, base);
  if (r.timedOut || r.spawnError || r.signal) return true;
  const type = screenGit(gitDir, ['cat-file', '-t', oid]);
  return type.code !== 0 || /^(commit|tag)\s*$/.test(type.stdout);
}
