// Refs a sandboxed command moved to a commit that carries a git directory (red team n, N3, N3b, N3c).
//
// The main checkout's sandbox may write `.git/objects` and `.git/refs` (so that the agent's own
// `git commit` works), so plumbing (`hash-object`, `mktree`, `commit-tree`, `update-ref`) can move a
// branch the person works on to a commit whose tree holds `src/HEAD`, `src/objects/…`, `src/refs/…`
// and `src/config` (`core.worktree = ..`, `core.fsmonitor`) — with nothing written in the working
// tree for the watch to see. The person's own `git checkout`, `reset --hard`, `stash` or a merge then
// puts a bare repository on disk, and their `git status` below `src/` runs its fsmonitor. M5's screen
// covers checkouts the worker or the CLI make; this covers the refs themselves: after each command,
// every name git could resolve in the working directories' repositories (refFiles.ts: loose refs,
// symbolic refs followed as git follows them, pseudorefs such as ORIG_HEAD, packed refs) that now
// leads to an object it did not lead to before is screened, and one that leads to a commit carrying
// a git directory is put back (its files as they were; removed when new) and named in the result.
// Git never needs a `HEAD` below a tree's top.
//
// Bounded (N3c): a screened object id is remembered; at most MAX_CHECKS new ones are screened per
// command and within BUDGET_MS — more is hostile and every such ref is put back unscreened; a ref
// that is a symbolic link, a replace ref, a ref to an object that is not there (a later command
// could write it) or a tree git could not list in time is put back too.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { changedLogs, dropLogLines, undoLogsLink } from './movedLogs';
import { commonDirOf, submoduleGitDirs, workTreeOf } from './repoConfigTargets';
import { hookPathspecs, hooksUnread } from './hookPathspecs';
import { readRefState, refNames, resolveName, sameRefFile, type RefFile, type RefState } from './refFiles';
import { inAnchoredDirectory } from './anchored';
import { putBack, removeUnknownLoose, retried } from './refPutBack';
import { rangeChangesHooks } from './refRange';
import { rangeChangesManifestKeys } from './manifestCommits';
import { tipChangesControl } from './controlCommits';
import { inLiveRound, keep, leave, overdue, recall, LEFT_GRACE_MS, type LiveRound } from './verdictCache';
import { screenGit } from './screenGit';

/** Each repository's refs when a command started, by git directory. */
export type RefSnapshots = Map<string, RefState>;

/** What makes a directory a git directory for git and what git then runs from it (M5's list). */
const CARRIED = new Set(['config', 'config.worktree', 'commondir', 'hooks']);
/** New object ids screened per command at most; more is hostile (N3c). */
export const MAX_CHECKS = 256;
/** Time the screening of one command may take; what is left then is put back unscreened. */
const BUDGET_MS = 20_000;
/**
 * Time the reflog screen, and the todo screen, of one command may take (each holds the worker's one
 * thread: git runs synchronously). Lines and words left then are taken out unscreened (red team v,
 * V10: six reflog lines naming commits of a tree bomb held the event loop 16 s).
 */
const LINES_BUDGET_MS = 1_500;
/** Why a name left unjudged by the rounds while the command ran is put back (red team z, Z1). */
const LATE = `could not be screened while the command ran within ${LEFT_GRACE_MS / 1000} s (hostile: put back unscreened; the check after the command judges what it makes again)`;
/** Bytes of one tree's listing (about 800,000 names): a bigger tree is not screened (V10). */
const LISTING_BYTES = 32 << 20;
const MAX_CACHE = 20_000;
/** gitDir + object id → does it carry a git directory (only definite answers). */
const screened = new Map<string, boolean>();
const knownVerdict = (key: string) => recall(screened, key);
const remember = (key: string, v: boolean) => keep(screened, key, v, MAX_CACHE);

/** The refs of a git directory now (refFiles.ts). */
export const readRefs = readRefState;

/**
 * The git directories of the working directories (a `.git` directory at a root) and their
 * submodules' (`.git/modules/<name>`, nested too: the sandbox writes their objects and refs; red
 * team q, Q18), with their refs now.
 */
export function refSnapshots(roots: readonly string[]): RefSnapshots {
  const out: RefSnapshots = new Map();
  for (const r of roots) {
    const g = path.join(r, '.git');
    if (!fs.lstatSync(g, { throwIfNoEntry: false })?.isDirectory()) continue;
    for (const d of [g, ...submoduleGitDirs(g)]) out.set(d, readRefState(d));
  }
  return out;
}

const git = screenGit;

/** Does a listing hold a directory below its top with a `HEAD` and what git runs beside it? */
function listingCarries(paths: readonly string[]): boolean {
  const heads = new Set<string>();
  for (const p of paths) {
    const i = p.lastIndexOf('/');
    if (i > 0 && p.slice(i + 1).toUpperCase() === 'HEAD') heads.add(p.slice(0, i).toLowerCase());
  }
  if (heads.size === 0) return false;
  return paths.some((p) => {
    for (let i = p.indexOf('/'); i > 0; i = p.indexOf('/', i + 1))
      if (
        heads.has(p.slice(0, i).toLowerCase()) &&
        CARRIED.has(
          p
            .slice(i + 1)
            .split('/')[0]!
            .toLowerCase(),
        )
      )
        return true;
    return false;
  });
}

/** Does `oid` carry a git directory — or could it not be screened (missing, too big to list in time)? */
function carriesGitDirectory(gitDir: string, oid: string): boolean {
  const key = `${gitDir}\0${oid}`;
  const known = knownVerdict(key);
  if (known !== undefined) return known;
  // A listing over LISTING_BYTES (a tree bomb: red team v, V10) is stopped there: not screened.
  const r = git(gitDir, ['ls-tree', '-r', '--name-only', '-z', oid], undefined, LISTING_BYTES);
  let carries: boolean;
  if (r.code === 0) carries = listingCarries(r.stdout.split('\0').filter(Boolean));
  else if (r.timedOut || r.spawnError || r.signal)
    carries = true; // too big to list: not screened, and remembered as such (V10: each line paid it again)
  else {
    // Not a tree-ish: a blob a tag names is nothing a checkout puts on disk; an object that is not
    // there is what a later command could write (its id is known in advance): not left to chance.
    if (git(gitDir, ['cat-file', '-e', oid]).code !== 0) return true;
    carries = false;
  }
  remember(key, carries);
  return carries;
}

/** `ls-tree` of `oid` limited to `specs`: path → mode and object; undefined when it could not be listed. */
function hookListing(gitDir: string, oid: string, specs: readonly string[]): Map<string, string> | undefined {
  const r = git(gitDir, ['ls-tree', '-r', '-z', '--full-tree', oid, '--', ...specs.map((s) => `:(literal)${s}`)]);
  if (r.code !== 0) return undefined;
  const out = new Map<string, string>();
  for (const rec of r.stdout.split('\0')) {
    const tab = rec.indexOf('\t');
    if (tab > 0) out.set(rec.slice(tab + 1), rec.slice(0, tab));
  }
  return out;
}

/** Does `oid` hold a hook path (hookPathspecs) or a protected path other than `base` holds — or could it not be listed? */
function carriesHooks(gitDir: string, oid: string, base: string | undefined, specs: readonly string[]): boolean {
  if (hooksUnread(specs)) return true; // V11: not screenable, put back
  if (tipChangesControl(gitDir, oid, base)) return true; // a protected path at any depth (X1)
  if (specs.length === 0) return false;
  const key = `hooks\0${gitDir}\0${oid}\0${base ?? ''}\0${specs.join('\0')}`;
  const known = knownVerdict(key);
  if (known !== undefined) return known;
  const now = hookListing(gitDir, oid, specs);
  const was = base === undefined ? new Map<string, string>() : hookListing(gitDir, base, specs);
  // A tree that cannot be listed (a blob a tag names has no hooks; a missing object is screened as such).
  if (now === undefined) return false;
  const carries = was === undefined || [...now].some(([p, v]) => was.get(p) !== v);
  remember(key, carries);
  return carries;
}

interface Moved {
  name: string;
  /** Object ids it leads to now and did not before. */
  fresh: string[];
  /** The entries on its way that the command changed: what is put back. */
  changed: string[];
  /** Put back unscreened: a symbolic link, a replace ref. */
  forced: boolean;
}

function entryChanged(was: RefState, now: RefState, entry: string): boolean {
  if (entry.startsWith('packed:')) return was.packedText !== now.packedText;
  return !sameRefFile(was.files.get(entry), now.files.get(entry));
}

/** Put back unscreened: a link, or a file over the bound of what is read (red team v, V3). */
const isLink = (f: RefFile | undefined) => f?.kind === 'link' || (f?.kind === 'file' && f.over === true);

/** The names that lead somewhere new since `was`, with what changed on their way. */
function movedNames(was: RefState, now: RefState): Moved[] {
  const out: Moved[] = [];
  for (const name of refNames(now)) {
    const n = resolveName(now, name);
    const w = resolveName(was, name);
    const changed = n.via.filter((v) => entryChanged(was, now, v));
    const forced =
      changed.some((v) => isLink(now.files.get(v))) || (/^(packed:)?refs\/replace\//.test(name) && changed.length > 0);
    const fresh = n.oids.filter((o) => !w.oids.includes(o));
    if (fresh.length > 0 || forced) out.push({ name, fresh, changed: changed.length ? changed : [name], forced });
  }
  return out;
}

/** Every object the refs led to in `was`: the commits the person had before the command. */
function oldOids(was: RefState): Set<string> {
  return new Set(refNames(was).flatMap((n) => resolveName(was, n).oids));
}

/** Which of `moved` must be put back, and why (one reason for all when the bound is passed). */
function judge(
  gitDir: string,
  moved: readonly Moved[],
  truncated: boolean,
  olds: ReadonlySet<string>,
  base?: string,
  live?: { budgetMs: number; left: Moved[]; round: LiveRound },
): Map<Moved, string> {
  const out = new Map<Moved, string>();
  const hooks =
    'named a commit that changes the repository’s hooks, a file they run or a protected file such as .claude/settings.json (the person’s checkout or merge of it would put it on disk)';
  const hooksOnTheWay =
    'named a commit with a parent, not on any ref before, that changes the repository’s hooks, a file they run or a protected file (the person’s rebase or cherry-pick of it would put it on disk)';
  const keys =
    'named a commit that changes a package.json key the person’s hooks or tools run (a script a hook runs, a control key: W9)';
  let specs: readonly string[] | undefined;
  const unread =
    'named a new commit, and the repository’s hook configuration could not be read to screen it (put back unscreened)';
  const carry =
    'named a commit carrying a git directory (a HEAD below the top with its config or hooks: the person’s checkout of it would run its config)';
  const fresh = new Set(moved.filter((m) => !m.forced).flatMap((m) => m.fresh));
  const unknown = [...fresh].filter((o) => knownVerdict(`${gitDir}\0${o}`) === undefined);
  if (truncated || unknown.length > MAX_CHECKS) {
    const why = truncated
      ? 'was among more loose refs than are read after a command (hostile: put back unscreened)'
      : `was among ${unknown.length} new objects refs led to, more than ${MAX_CHECKS} screened after a command (hostile: put back unscreened)`;
    for (const m of moved) out.set(m, why);
    return out;
  }
  const started = Date.now();
  const stop = live && started + live.budgetMs;
  for (const m of moved) {
    // By name, not target: moving a left name elsewhere does not start its wait again.
    const leftKey = `ref\0${gitDir}\0${m.name}`;
    if (m.forced)
      out.set(m, 'was a symbolic link, a replace ref or a ref file too big to read (over 1 MiB) a command wrote');
    else if (live && overdue(live.round, leftKey, started))
      out.set(m, LATE); // left unjudged by rounds for LEFT_GRACE_MS (red team z, Z1)
    else if (stop && Date.now() > stop && moved.indexOf(m) > 0)
      leave(live.round, leftKey, live.left, m); // the next round's; each round judges one at least
    else if (Date.now() - started > BUDGET_MS) out.set(m, 'could not be screened in time');
    else if (m.fresh.some((o) => carriesGitDirectory(gitDir, o))) out.set(m, carry);
    else if (m.fresh.length > 0 && hooksUnread((specs ??= hookPathspecs(gitDir)))) out.set(m, unread);
    else if (m.fresh.some((o) => carriesHooks(gitDir, o, base, (specs ??= hookPathspecs(gitDir))))) out.set(m, hooks);
    else if (m.fresh.some((o) => rangeChangesHooks(gitDir, o, olds, (specs ??= hookPathspecs(gitDir)), base)))
      out.set(m, hooksOnTheWay);
    else if (m.fresh.some((o) => rangeChangesManifestKeys(gitDir, o, olds))) out.set(m, keys);
    if (live && live.left.at(-1) !== m) live.round.since.delete(leftKey); // judged (or put back): a later leave waits afresh
  }
  return out;
}

/**
 * A packed-refs the screen could not read (over its bound, or unreadable: red team q, Q19) that the
 * command wrote or changed: put back as it was before (removed when there was none), or — the
 * person's own was not read either, so there is nothing to put back — moved aside under a name git
 * does not read, and named. `now` is made to hold what is there afterwards.
 */
function undoUnreadPacked(gitDir: string, was: RefState, now: RefState, where: string): string | undefined {
  if (now.packedUnread === undefined && was.packedUnread === undefined) return undefined;
  if (now.packedUnread === was.packedUnread) return undefined; // the person's, untouched
  if (was.packedUnread === undefined) {
    const link = was.files.get('packed-refs');
    const ok = link ? putBack(gitDir, was, 'packed-refs') : putBack(gitDir, was, 'packed:');
    Object.assign(now, { packed: was.packed, packedText: was.packedText, packedUnread: undefined });
    return `${where}: a packed-refs too big to screen (or unreadable) the command wrote; ${ok ? (was.packedText === undefined ? 'removed' : 'put back') : 'could not be undone'}`;
  }
  if (now.packedText === undefined && now.packedUnread === undefined) return undefined; // removed: hides refs, carries none
  const aside = `packed-refs.da-unscreened-${randomBytes(6).toString('hex')}`;
  let ok = true;
  try {
    retried(() => inAnchoredDirectory(gitDir, (at) => fs.renameSync(at('packed-refs'), at(aside))));
  } catch {
    ok = false;
  }
  Object.assign(now, { packed: new Map<string, string[]>(), packedText: undefined, packedUnread: undefined });
  return `${where}: the command changed a packed-refs too big to screen (or unreadable), so its refs could not be compared with what was there; ${ok ? `moved aside to .git/${aside} (its refs are unscreened: read it before you put it back)` : 'could not be undone'}`;
}

const HOSTILE = '-';

/** What a `moving from`/`to` word of a reflog line leads to: an object id, nothing to screen, or HOSTILE. */
function wordTarget(gitDir: string, now: RefState, word: string): string | undefined {
  if (now.files.has(`refs/heads/${word}`) || now.packed.has(`refs/heads/${word}`)) return undefined; // a branch: screened as a ref
  if (word.startsWith('-')) return HOSTILE;
  const r = git(gitDir, ['rev-parse', '--verify', '-q', `${word}^{commit}`]);
  const oid = r.stdout.trim().toLowerCase();
  if (r.code === 0 && /^[0-9a-f]{40,64}$/.test(oid)) return oid;
  // An abbreviated id of an object a later command writes: not left to chance.
  return /^[0-9a-f]{4,}$/i.test(word) ? HOSTILE : undefined;
}

/**
 * Reflog lines the command added (N3d) that lead to a commit carrying a git directory, or to one
 * that changes the hooks directory or a file its hooks run against `base` (the HEAD the command
 * started from; red team q, Q8: `checkout: moving from <P1's commit> to main` and the person's `git
 * checkout -` ran the hook): taken out.
 */
function undoCarriedLogs(
  gitDir: string,
  was: RefState,
  now: RefState,
  where: string,
  base?: string,
  live?: LiveRound,
): string[] {
  if (!was.logs || !now.logs) return [];
  const known = new Set<string>();
  for (const l of was.logs.values()) for (const n of l.names ?? []) known.add(n);
  const logs = changedLogs(gitDir, was.logs, now.logs, known);
  if (logs.length === 0) return [];
  const words = new Set(logs.flatMap((l) => l.lines.flatMap((x) => x.fresh.filter((f) => f.startsWith('@')))));
  const oids = new Set(logs.flatMap((l) => l.lines.flatMap((x) => x.fresh.filter((f) => /^[0-9a-f]+$/.test(f)))));
  const hostile =
    words.size + [...oids].filter((o) => knownVerdict(`${gitDir}\0${o}`) === undefined).length > MAX_CHECKS;
  const verdict = new Map<string, boolean>();
  const until = Date.now() + (live?.budgetMs ?? LINES_BUDGET_MS);
  let specs: readonly string[] | undefined;
  let olds: Set<string> | undefined;
  // The commits a line's commit brings in too, as for a moved ref (red team v, V2: a tip that puts the hook back on a parent that replaces it).
  const carries = (oid: string) =>
    (!live && Date.now() > until) ||
    carriesGitDirectory(gitDir, oid) ||
    carriesHooks(gitDir, oid, base, (specs ??= hookPathspecs(gitDir))) ||
    rangeChangesHooks(gitDir, oid, (olds ??= oldOids(was)), specs, base) ||
    rangeChangesManifestKeys(gitDir, oid, olds);
  const bad = (name: string): boolean => {
    if (hostile || name.startsWith('?')) return true;
    // Left unjudged by earlier rounds for LEFT_GRACE_MS: taken out unscreened (red team z, Z1).
    if (live && overdue(live, `log\0${gitDir}\0${name}`, Date.now())) return true;
    // Past a live round's bound: left for the next round or the check after the call (the logs' snapshot is not moved on).
    if (live && Date.now() > until && verdict.size > 0) {
      live.cut = true;
      leave(live, `log\0${gitDir}\0${name}`);
      return false;
    }
    let v = verdict.get(name);
    if (v === undefined) {
      const target = name.startsWith('@') ? wordTarget(gitDir, now, name.slice(1)) : name;
      v = target === HOSTILE || (target !== undefined && carries(target));
      verdict.set(name, v);
      live?.since.delete(`log\0${gitDir}\0${name}`);
    }
    return v;
  };
  const notes: string[] = [];
  for (const log of logs) {
    const lines = new Set(log.lines.filter((l) => l.fresh.some(bad)).map((l) => l.line));
    if (!log.forced && lines.size === 0) continue;
    const ok = dropLogLines(gitDir, log, lines);
    const what = log.forced
      ? 'a reflog that is no regular file (or too big to read)'
      : `${lines.size} reflog line(s) naming a commit carrying a git directory or changing the repository's hooks (the person's \`git checkout -\` or \`HEAD@{1}\` would go there)`;
    const done =
      ok === 'cut'
        ? `a directory on its way is a link, which was removed (git reads no reflog through it; the reflogs it led to are not the repository's)`
        : ok
          ? 'taken out'
          : 'could not be undone';
    notes.push(`${where}: ${log.name}: ${what}; ${done}`);
  }
  return notes;
}

/**
 * The screen of a rebase or cherry-pick todo's commit words (sequencerState.ts; red team q, Q10's
 * remainder): a word leads, as the sequencer reads it (`refs/rewritten/<word>`, then the word), to a
 * commit carrying a git directory or changing the hooks against the HEAD the command started from —
 * or to nothing yet while it looks like an abbreviated object id (a later command could write it).
 * Run in the repository's common directory (its hooks, its objects).
 */
export function todoScreen(before: RefSnapshots): (gitDir: string, word: string) => boolean {
  const until = Date.now() + LINES_BUDGET_MS;
  return (gitDir, word) => {
    if (word.startsWith('-') || Date.now() > until) return true; // past the budget: unscreened (V10)
    const common = commonDirOf(gitDir);
    const was = before.get(common);
    const base = was ? resolveName(was, 'HEAD').oids[0] : undefined;
    const olds = was ? oldOids(was) : new Set<string>();
    let found = false;
    for (const w of [`refs/rewritten/${word}`, word]) {
      const r = git(gitDir, ['rev-parse', '--verify', '-q', `${w}^{commit}`]);
      const oid = r.stdout.trim().toLowerCase();
      if (r.code !== 0 || !/^[0-9a-f]{40,64}$/.test(oid)) continue;
      found = true;
      const specs = hookPathspecs(common);
      // U14: the commits it brings in too (a tip that puts the hook back on a parent that replaces it).
      if (carriesGitDirectory(common, oid) || carriesHooks(common, oid, base, specs)) return true;
      if (rangeChangesHooks(common, oid, olds, specs, base) || rangeChangesManifestKeys(common, oid, olds)) return true;
    }
    return !found && /^[0-9a-f]{4,}$/i.test(word);
  };
}

/** One repository's screen: its notes, the refs as read, the entries put back and those left unjudged (live). */
export interface RepoScreened {
  notes: string[];
  now: RefState;
  back: Set<string>;
  left: Set<string>;
}

const entryKey = (e: string) => (e.startsWith('packed:') ? 'packed-refs' : e);

/** One repository's refs against `was` (undoCarriedRefs; liveRefs.ts while the command runs). */
export function screenRepoRefs(gitDir: string, was: RefState, where: string, live?: LiveRound): RepoScreened {
  return live ? inLiveRound(live.caches, () => screenRepo(gitDir, was, where, live)) : screenRepo(gitDir, was, where);
}

function screenRepo(gitDir: string, was: RefState, where: string, live?: LiveRound): RepoScreened {
  const notes: string[] = [];
  const logsNote = undoLogsLink(gitDir, was.logsDir, where);
  if (logsNote) notes.push(logsNote);
  const now = readRefState(gitDir);
  const packedNote = undoUnreadPacked(gitDir, was, now, where);
  if (packedNote) notes.push(packedNote);
  const truncated = now.truncated && !was.truncated;
  const moved = movedNames(was, now);
  const base = resolveName(was, 'HEAD').oids[0];
  const left: Moved[] = [];
  const verdicts =
    moved.length === 0 && !truncated
      ? new Map<Moved, string>()
      : judge(gitDir, moved, truncated, oldOids(was), base, live && { budgetMs: live.budgetMs, left, round: live });
  const done = new Map<string, boolean>();
  for (const [m, why] of verdicts) {
    let ok = true;
    for (const e of m.changed) {
      if (!done.has(entryKey(e))) done.set(entryKey(e), putBack(gitDir, was, e));
      ok &&= done.get(entryKey(e))!;
    }
    const name = m.name.replace(/^packed:/, '');
    const back = was.files.has(m.changed[0]!) || m.changed[0]!.startsWith('packed:') ? 'put back' : 'removed';
    notes.push(`${where}: ${name} ${why}; ${ok ? back : 'could not be undone'}`);
  }
  if (truncated) removeUnknownLoose(gitDir, was);
  notes.push(...undoCarriedLogs(gitDir, was, now, where, base, live));
  return {
    notes,
    now,
    back: new Set(done.keys()),
    left: new Set(left.flatMap((m) => m.changed.map(entryKey))),
  };
}

/**
 * After a sandboxed command: each name that leads to an object it did not lead to before and now
 * leads to a commit carrying a git directory (or could not be screened) is put back as it was, or
 * removed when new; one note per name.
 */
export function undoCarriedRefs(before: RefSnapshots, rel: (p: string) => string = (p) => p): string[] {
  const notes: string[] = [];
  for (const [gitDir, was] of before) {
    if (!fs.lstatSync(gitDir, { throwIfNoEntry: false })?.isDirectory()) continue;
    notes.push(...screenRepoRefs(gitDir, was, rel(workTreeOf(gitDir))).notes);
  }
  return notes.length > 50 ? [...notes.slice(0, 49), `… and ${notes.length - 49} more refs put back`] : notes;
}
