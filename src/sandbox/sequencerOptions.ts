// The state files a stopped rebase or cherry-pick reads beside its todo (sequencerState.ts), which
// the main checkout's sandbox can write like the rest of `.git/` (red team s, S6; gitq):
//  - the merge strategy: `rebase-merge/strategy` and `sequencer/opts`' `options.strategy`. git runs a
//    strategy that is not one of its own as the command `git-merge-<name>` (a name with a `/` is a
//    path from the work tree's top: `/../lint.sh` with a directory `git-merge-` there runs
//    `./lint.sh`) at the person's `git rebase --continue` or `git cherry-pick --continue`;
//  - the commits the operation goes back to or starts from: `orig-head` and `onto` (`rebase-merge/`,
//    `rebase-apply/`), a cherry-pick's `sequencer/head` and `abort-safety`. The person's `git rebase
//    --abort` resets their branch and work tree to `orig-head`: P1's commit there put its hooks on disk;
//    and `autostash`, a stash git applies to the work tree when the rebase ends (S10b).
// After a command, a strategy it wrote that is not git's own is taken out (the default strategy runs);
// a commit one of those files names that carries a git directory or changes the repository's hooks
// (the ref screen's rules, sequencerState.ts TodoWordScreen) makes the whole state directory go: the
// operation can be neither continued nor aborted into it. A bisection's `BISECT_START` (a revision
// `git bisect reset` checks out) and a merge's `MERGE_AUTOSTASH` (a stash its --abort applies) are screened
// the same way, and removed alone (red team t, T5, T5b).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatGitConfig, parseGitConfig } from '../hostProcess/gitConfigText';
import { anchoredFile, readdirOwned, readRegularFile, removeTree } from './anchored';

/**
 * Does a word of a todo line (a commit, or a label as the sequencer reads it) lead to a commit whose
 * pick would bring a git directory or a hook in, for the repository of `gitDir`? (movedRefs.ts todoScreen)
 */
export type TodoWordScreen = (gitDir: string, word: string) => boolean;

/** git's own strategies (`git merge -s`). */
const OWN_STRATEGIES = new Set(['ort', 'recursive', 'resolve', 'octopus', 'ours', 'subtree']);
const STRATEGY = path.join('rebase-merge', 'strategy');
/** The strategy's `-X` options (` --subtree=.githooks`), read when `strategy` is there (red team w, W14). */
const STRATEGY_OPTS = path.join('rebase-merge', 'strategy_opts');
const OPTS = path.join('sequencer', 'opts');
/**
 * `-X` options that move no path (git's parse_merge_opt): anything else the command wrote is taken out —
 * ort's `subtree=<dir>` (and `subtree`, a guessed shift) splices a picked commit's tree into a directory: a
 * top-level `post-commit` became `.githooks/post-commit` at the person's `git rebase --continue` (W14).
 */
const SAFE_STRATEGY_OPTION =
  /^(?:ours|theirs|patience|histogram|minimal|renormalize|no-renormalize|no-renames|ignore-space-change|ignore-all-space|ignore-space-at-eol|ignore-cr-at-eol|find-renames(?:=\d+%?)?|rename-threshold=\d+%?|diff-algorithm=[a-z]+)$/;
/** Are all the `-X` options of a `strategy_opts` text (git's ` --x` words, sq-quoted in newer gits) safe? */
const strategyOptsSafe = (text: string): boolean =>
  text
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => SAFE_STRATEGY_OPTION.test(w.replace(/^'(.*)'$/s, '$1').replace(/^--/, '')));
const HEADS = [
  'rebase-merge/orig-head',
  'rebase-merge/onto',
  'rebase-apply/orig-head',
  'rebase-apply/onto',
  // The stash git applies to the work tree when the rebase ends, continued or aborted (red team s, S10b).
  'rebase-merge/autostash',
  'rebase-apply/autostash',
  'sequencer/head',
  'sequencer/abort-safety',
];
/**
 * State files git hands to a command as a REVISION, not read as a ref (red team t, T5): `git bisect
 * reset` runs `git checkout <BISECT_START's text>` — an abbreviated id, `c^0`, `:/tidy`, `main@{1}`…,
 * where the ref screen reads full ids only. Resolved as git would (movedRefs.ts todoScreen: rev-parse
 * `<text>^{commit}` through the door) and screened like a todo word; a refused one is removed alone.
 */
const REVISIONS = ['BISECT_START', 'MERGE_AUTOSTASH'];
/** What the person's git does with each revision file (for the note). */
const REVISION_USE: Record<string, string> = {
  BISECT_START: 'the person’s `git bisect reset` would check it out',
  // `git merge --autostash`: the stash applied at `git merge --abort` or the commit ending the merge (T5b).
  MERGE_AUTOSTASH: 'the person’s `git merge --abort` or next commit would apply it to the work tree',
};
/**
 * `git rebase --update-refs` (git 2.38+): for each branch its name, the commit it had and the commit
 * git moves it to when the rebase ends, whatever the todo holds (red team t, T17: the person's
 * `feature` moved to P1's commit at their `--continue`). Each `after` is screened like a todo word.
 */
const UPDATE_REFS = path.join('rebase-merge', 'update-refs');
/** A state file bigger than this is not read: treated as the command's and its operation's state removed. */
const MAX_STATE = 64 << 10;

/** The git directories whose sequencer state git reads: each one and its linked worktrees' own. */
export function sequencerDirs(gitDirs: readonly string[]): string[] {
  const out: string[] = [];
  for (const g of gitDirs) {
    out.push(g);
    let wts: fs.Dirent[] = [];
    try {
      wts = readdirOwned(path.join(g, 'worktrees'));
    } catch {
      // none
    }
    for (const w of wts) if (w.isDirectory()) out.push(path.join(g, 'worktrees', w.name));
  }
  return out;
}

/** The state files screened here, by path. */
export function stateFiles(gitDirs: readonly string[]): string[] {
  return sequencerDirs(gitDirs).flatMap((g) =>
    [STRATEGY, STRATEGY_OPTS, OPTS, UPDATE_REFS, ...HEADS, ...REVISIONS].map((f) => path.join(g, f)),
  );
}

/** A state file's text; undefined when absent, null when no regular file or too big. */
export function readState(p: string, max = MAX_STATE): string | undefined | null {
  return readRegularFile(p, max);
}

/** `p` rewritten as `text` (removed when undefined), through its pinned directory. */
function rewrite(p: string, text: string | undefined): void {
  if (text === undefined) return removeTree(p);
  anchoredFile(p, (pinned) => {
    const tmp = `${pinned}.da-undo-${randomBytes(6).toString('hex')}`;
    fs.writeFileSync(tmp, text, { encoding: 'latin1', flag: 'wx' });
    fs.renameSync(tmp, pinned);
  });
}

/** The strategies `opts` (a git config text) names that are not git's own; all of it when git would refuse it. */
function foreignStrategies(opts: string): { bad: boolean; kept?: string } {
  const entries = parseGitConfig(opts);
  if (!entries) return { bad: true };
  const foreign = (e: (typeof entries)[number]) =>
    e.section === 'options' &&
    ((e.key === 'strategy' && !OWN_STRATEGIES.has((e.value ?? '').trim())) ||
      (e.key === 'strategy-option' && !strategyOptsSafe(e.value ?? '')));
  if (!entries.some(foreign)) return { bad: false };
  return { bad: true, kept: formatGitConfig(entries.filter((e) => !foreign(e))) };
}

/** One state file the command wrote or changed: what to do with it (a note), or undefined when it is harmless. */
function judgeState(
  p: string,
  now: string | null,
  screen?: TodoWordScreen,
): { note: string; act: () => void } | undefined {
  if (REVISIONS.includes(path.basename(p))) return judgeRevision(p, now, screen);
  const rel = path.join(path.basename(path.dirname(p)), path.basename(p));
  const stateDir = path.dirname(p);
  const dropDir = () => removeTree(stateDir);
  if (now === null)
    return { note: `${rel} is no regular file (or too big to read): the operation's state removed`, act: dropDir };
  if (rel === STRATEGY) {
    const name = now.trim();
    if (OWN_STRATEGIES.has(name)) return undefined;
    return {
      note: `${rel} names a merge strategy git would run as a program (git-merge-${name.slice(0, 40)}): taken out`,
      act: () => rewrite(p, undefined),
    };
  }
  if (rel === STRATEGY_OPTS) {
    if (strategyOptsSafe(now)) return undefined;
    return {
      note: `${rel} holds a merge option that moves paths (ort's -Xsubtree puts a picked commit's files into any directory, the hooks' too): taken out`,
      act: () => rewrite(p, undefined),
    };
  }
  if (rel === OPTS) {
    const f = foreignStrategies(now);
    if (!f.bad) return undefined;
    return {
      note: `${rel} names a merge strategy git would run as a program, or a merge option that moves paths: taken out`,
      act: () => rewrite(p, f.kept),
    };
  }
  if (rel === UPDATE_REFS) return judgeUpdateRefs(rel, now, stateDir, dropDir, screen);
  const oid = /^\s*([0-9a-f]{4,64})\s*$/i.exec(now)?.[1];
  if (!screen || (oid !== undefined && !screen(path.dirname(stateDir), oid))) return undefined;
  return {
    note: `${rel} names ${oid === undefined ? 'something that is no commit id' : 'a commit carrying a git directory or changing the repository’s hooks'} (the person’s --abort or --continue would check it out): the operation's state removed`,
    act: dropDir,
  };
}

/** `update-refs` the command wrote: the state removed when a commit a branch would move to is refused, or the file is no list of them. */
function judgeUpdateRefs(
  rel: string,
  now: string,
  stateDir: string,
  dropDir: () => void,
  screen?: TodoWordScreen,
): { note: string; act: () => void } | undefined {
  if (!screen) return undefined;
  const lines = now.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const afters = lines.filter((_, i) => i % 3 === 2).map((l) => l.trim());
  const refused = (a: string) =>
    !/^0+$/.test(a) && (!/^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(a) || screen(path.dirname(stateDir), a));
  if (lines.length % 3 === 0 && !afters.some(refused)) return undefined;
  return {
    note: `${rel} moves a branch to a commit carrying a git directory or changing the repository’s hooks, or is no list of branch moves (the person’s --continue would move it): the operation's state removed`,
    act: dropDir,
  };
}

/** A REVISIONS file the command wrote: refused (and removed) when its text leads to a commit `screen` refuses. */
function judgeRevision(
  p: string,
  now: string | null,
  screen?: TodoWordScreen,
): { note: string; act: () => void } | undefined {
  const name = path.basename(p);
  const act = () => removeTree(p);
  const text = now?.trim();
  const use = REVISION_USE[name] ?? 'the person’s git would check it out';
  if (text === undefined || text === '' || /\s/.test(text))
    return { note: `${name} holds no single revision (${use}): removed`, act };
  if (!screen || !screen(path.dirname(p), text)) return undefined;
  return {
    note: `${name} names a commit carrying a git directory or changing the repository’s hooks, or nothing yet (${use}): removed`,
    act,
  };
}

/** The state files of `gitDirs` now (before a command). */
export function stateSnapshots(gitDirs: readonly string[]): Map<string, string | undefined | null> {
  return new Map(stateFiles(gitDirs).map((p) => [p, readState(p)]));
}

/** After a command: the state files it wrote or changed that run or check out what they must not, undone; one note each. */
export function undoStateFiles(
  before: ReadonlyMap<string, string | undefined | null>,
  gitDirs: readonly string[],
  rel: (p: string) => string,
  screen?: TodoWordScreen,
): string[] {
  const notes: string[] = [];
  for (const p of stateFiles(gitDirs)) {
    const now = readState(p);
    if (now === undefined || (now === before.get(p) && now !== null)) continue;
    if (now === null && before.get(p) === null) continue; // the person's own, untouched as far as can be told
    const verdict = judgeState(p, now, screen);
    if (!verdict) continue;
    let ok = true;
    try {
      verdict.act();
    } catch {
      ok = false;
    }
    const gitDir = REVISIONS.includes(path.basename(p)) ? path.dirname(p) : path.dirname(path.dirname(p));
    notes.push(`${rel(gitDir)}: ${verdict.note}${ok ? '' : ' — could not be undone'}`);
  }
  return notes;
}
