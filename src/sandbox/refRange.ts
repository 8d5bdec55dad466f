// The commits a moved ref brings in, screened for the hooks (red team u, U5). The ref screen
// (movedRefs.ts) compares the hook paths of the commit a new ref names — its tip — with the HEAD the
// command started from; a branch whose tip puts the person's hook back on a parent that replaces it
// passed, and the person's `git rebase -i` with `reword` (or `edit` and `commit --amend`) on that
// parent committed with the agent's hook on disk and ran it. So every commit the ref reaches that no
// ref reached before the command is screened: one that changes a hook path against one of its
// parents (a merge against either: `--full-history`) counts as the tip would.
import { runHostProcessSync } from '../hostProcess/door';
import { GIT_GUARD_ENV } from '../hostProcess/git';
import { hooksUnread } from './hookPathspecs';

/** git on a repository the command could write: its hooks off, no lazy fetch, no replace refs. */
export function screenGit(gitDir: string, args: readonly string[], input?: string, maxBuffer = 256 << 20) {
  return runHostProcessSync(
    {
      purpose: 'git',
      command: 'git',
      args: [`--git-dir=${gitDir}`, '-c', 'core.hooksPath=/dev/null', ...args],
      cwd: '/',
      env: { ...GIT_GUARD_ENV, HOME: '/nonexistent', GIT_NO_LAZY_FETCH: '1', GIT_NO_REPLACE_OBJECTS: '1' },
    },
    { timeoutMs: 10_000, maxBuffer, ...(input === undefined ? {} : { input }) },
  );
}

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
): boolean {
  if (hooksUnread(specs)) return true; // the hook configuration could not be read (V11)
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
  if (r.code === 0) return r.stdout.trim() !== '';
  if (r.timedOut || r.spawnError || r.signal) return true;
  const type = screenGit(gitDir, ['cat-file', '-t', oid]);
  return type.code !== 0 || /^(commit|tag)\s*$/.test(type.stdout);
}
