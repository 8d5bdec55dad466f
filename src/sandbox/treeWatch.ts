// Every `.git` in a directory a sandboxed command can write, at any depth (node_modules too), known
// as it appears (red team, issue 30, rounds c and d).
//
// One watcher per directory tree (a working directory, the session's temp directory, a directory
// of `sandbox.filesystem.allowWrite`, the runtime's own writable scratch directories), shared by the
// commands that run there and kept for LINGER_MS after the last one, so that a session's commands
// pay the walk of the tree once, not each: inotify (through fs.watch) on every directory, no depth
// limit, nothing skipped, no symlink followed. A new directory is watched, then read (so that what
// was made or renamed into it before its watch began is seen too); a `.git` (a directory or a
// `gitdir:` file) is recorded and, when a directory, watched for what is written into it (config,
// config.worktree, commondir, hooks/). The commands' guards (liveGuard.ts) subscribe to those
// events; the check after a command reads the recorded git directories instead of walking again.
//
// A bare repository — a directory holding `HEAD` and `objects/` and `refs/` (or a `commondir`), with
// no `.git` anywhere — is a git directory too: the person's git discovers it from inside, and its
// `core.worktree` gives it a work tree (`git status` runs its `core.fsmonitor`). It is recorded like
// a `.git` directory. So is every entry with a protected name (src/permissions/protectedPaths.ts:
// `.claude`, `.mcp.json`, `.vscode`, `.gitmodules`…) at any depth, node_modules included: the check
// after the call reads that record instead of a walk bounded by depth (sessionPlan.ts protectionScan).
//
// The kernel bounds it twice (inotifyLimits.ts; red team, issue 30, K6 and L10). Past the watch
// budget (a quarter of fs.inotify.max_user_watches) or where the kernel refuses a watch, a directory
// is blind: the tree is `complete: false` (the check after a command walks it whole), and while a
// command runs its blind directories are walked again and again, what is there announced (not a
// kill: `npm install` passes a budget of 2,048 on kernels with 8,192 watches). After a poll phase
// that may hold an overflow of the event queue, every tree is `complete: false` until a rescan (every
// directory read again, everything announced again): at once for a tree a command uses, else before
// its record is read. A watch whose events hold the worker's event loop (a renameat2 exchange loop:
// red team, issue 30, P7b) is closed and its directory read instead while it cools (watchFlood.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
// prettier-ignore
import { BARE_MARKERS, GIT_ENTRY_NAMES, entriesToConsider, fold, isRecorded, looksLikeGitDirectory, lstat } from './treeNames';
import * as limits from './inotifyLimits';
import * as flood from './watchFlood';
import { grantOwner, readdirOwned } from './anchored';

// prettier-ignore
export { overflowThreshold, queueOverflows, setOverflowThresholdForTests, setWatchBudgetForTests, watchBudget } from './inotifyLimits';

/** How long a tree stays watched after the last command that used it (the next call of a session reuses it). */
export const LINGER_MS = 120_000;

export { looksLikeGitDirectory } from './treeNames';

let watchesInUse = 0;

/** Every tree is suspect: its record is read again before it is trusted (at once while a command uses it). */
function allSuspect(): void {
  for (const t of trees.values()) t.overflowed();
}

/** One event from the kernel: when it may be past a queue overflow (inotifyLimits.ts), every tree is suspect. */
function counted(): void {
  if (limits.countEvent()) allSuspect();
}

/** A watch, and the identity of the directory it watches: a directory removed and made again at the same path often gets the same inode number back, never the same birth time. */
interface Watch extends flood.Metered {
  w: fs.FSWatcher;
  ino: number;
  born: number;
  /** Closes it and reads its directory instead for a while (it floods the event loop: watchFlood.ts). */
  cool(): void;
}

/** Watches `dir` (`st`: its identity); each event metered (watchFlood.ts): a hot watch's `cool` closes it. */
function startWatch(
  dir: string,
  st: fs.Stats,
  onEvent: (name: string | null) => void,
  cool: (w: Watch) => void,
): Watch {
  const entry: Watch = { ...flood.fresh(), w: undefined!, ino: st.ino, born: st.birthtimeMs, cool: () => cool(entry) };
  const listen = () =>
    fs.watch(dir, { persistent: false }, (_e, name) => {
      counted();
      const hot = flood.meter(entry);
      if (hot) {
        for (const h of hot) (h as Watch).cool();
        // What the closed watches still had queued is dropped unseen, and with it the count that
        // would have told an overflow of the queue (K6): every tree is read again, as after one.
        allSuspect();
      }
      onEvent(name === null ? null : String(name));
    });
  try {
    entry.w = listen();
  } catch (err) {
    // A directory the command made unreadable (chmod 000) is given back to its owner, then watched.
    if ((err as NodeJS.ErrnoException).code !== 'EACCES' || grantOwner(dir) === undefined) throw err;
    entry.w = listen();
  }
  return entry;
}

export interface TreeWatch {
  readonly root: string;
  /** Every watch it needed was given: the recorded `.git` entries are all there are. */
  complete(): boolean;
  /** The `.git` entries seen (directories or files) and the bare git directories, those that still exist. */
  gitEntries(): string[];
  /** The entries with a protected name seen (not `.git`), those that still exist. */
  protectedEntries(): string[];
  /**
   * Called with a `.git` path (kind `git`) when it appears or something in it changes, and with an
   * entry with a protected name (kind `marked`) when it appears or something below it changes
   * (liveGuard.ts undoes both while a command runs); returns the unsubscribe.
   */
  subscribe(fn: TreeListener): () => void;
  /** Directories watched now. */
  watched(): number;
  /** Directories that could not be watched (past the budget, refused): walked while a command runs. */
  blind(): number;
  /** Directories whose watch flooded the event loop (watchFlood.ts): read again and again instead for now. */
  hot(): number;
}

export type TreeListener = (p: string, kind: 'git' | 'marked') => void;

class Tree implements TreeWatch {
  private readonly watches = new Map<string, Watch>();
  private readonly gits = new Set<string>();
  private readonly marked = new Set<string>();
  private readonly listeners = new Set<TreeListener>();
  /** The tops of what is not watched (each unread below it): past the budget, or refused by the kernel. */
  private readonly blindTops = new Set<string>();
  /** Directories whose watch was closed for flooding the event loop: read instead while they cool. */
  private readonly hotDirs = new flood.Cooling();
  /** The event queue may have overflowed since the last full read. */
  private suspect = false;
  private readonly rescans = new limits.Rescans(() => {
    if (!this.closed && this.suspect) this.rescan();
  });
  private pollTimer: NodeJS.Timeout | undefined;
  private linger: NodeJS.Timeout | undefined;
  closed = false;

  constructor(readonly root: string) {
    this.add(root, false);
  }

  complete(): boolean {
    return this.blindTops.size === 0 && this.hotDirs.size === 0 && !this.suspect;
  }

  hot(): number {
    return this.hotDirs.size;
  }

  watched(): number {
    return this.watches.size;
  }

  blind(): number {
    return this.blindTops.size;
  }

  /** The queue may have overflowed: a full read before the record is trusted again, soon when a command runs. */
  overflowed(): void {
    if (this.closed) return;
    this.suspect = true;
    if (this.listeners.size > 0) this.rescans.schedule();
  }

  /** Every directory read again (watched when new), every `.git` and entry with a protected name announced again. */
  rescan(): void {
    this.rescans.timed(() => {
      this.suspect = false;
      this.add(this.root, true);
    });
  }

  /** Before the record is read: a tree whose queue may have overflowed is read again first. */
  fresh(): void {
    if (this.suspect && !this.closed) this.rescan();
  }

  /**
   * While a command runs on a tree with blind directories: each walked (what is there announced,
   * recorded), again and again, as long as the tree has listeners.
   */
  private pollBlind(): void {
    const idle = () => this.closed || this.listeners.size === 0 || this.blindTops.size + this.hotDirs.size === 0;
    if (this.pollTimer || idle()) return;
    const tick = () => {
      this.pollTimer = undefined;
      if (idle()) return;
      const start = Date.now();
      // Hot directories read as an event there would be (what is there announced); watched again once cooled.
      this.hotDirs.poll(
        start,
        (dir) => (this.closed ? undefined : flood.controlStamp(dir, this.gits.has(dir), this.marked, lstat)),
        (dir, onEvent) => this.watch(dir, onEvent) !== 'none' && onEvent(null),
      );
      // Watches of directories removed since (the kernel dropped them; the count did not) given back first.
      if (watchesInUse >= limits.watchBudget()) for (const t of trees.values()) t.pruneGone();
      for (const top of [...this.blindTops]) {
        if (!lstat(top)?.isDirectory()) {
          this.blindTops.delete(top);
          continue;
        }
        // Watched now if watches were freed meanwhile (then read as a new directory), else walked.
        if (watchesInUse < limits.watchBudget()) {
          this.blindTops.delete(top);
          this.add(top, true);
        } else this.walkBlind(top);
      }
      this.pollTimer = setTimeout(tick, limits.blindPollDelay(Date.now() - start));
      this.pollTimer.unref();
    };
    this.pollTimer = setTimeout(tick, 0);
    this.pollTimer.unref();
  }

  /** The watch of `dir` floods the event loop: closed, the directory read while a command runs instead, until it cools. */
  private cool(dir: string, entry: Watch, onEvent: (name: string | null) => void): void {
    if (this.closed || this.watches.get(dir) !== entry) return;
    this.drop(dir, entry);
    this.hotDirs.start(dir, onEvent, Date.now());
    this.pollBlind();
  }

  /** Drops the watches of directories no longer there (or another directory now at that path). */
  pruneGone(): void {
    for (const [dir, entry] of this.watches) {
      const st = lstat(dir);
      if (!st?.isDirectory() || st.ino !== entry.ino || st.birthtimeMs !== entry.born) this.drop(dir, entry);
    }
  }

  /** A blind directory's whole subtree, read without watching: its `.git` entries and protected names announced. */
  private walkBlind(top: string): void {
    const found = findTreeEntries(top);
    for (const g of found.gits) {
      this.gits.add(g);
      this.notify(g);
    }
    for (const m of found.marked) {
      this.marked.add(m);
      this.notify(m, 'marked');
    }
  }

  gitEntries(): string[] {
    for (const g of this.gits) if (!lstat(g)) this.gits.delete(g);
    return [...this.gits];
  }

  protectedEntries(): string[] {
    for (const m of this.marked) if (!lstat(m)) this.marked.delete(m);
    return [...this.marked];
  }

  subscribe(fn: TreeListener): () => void {
    this.listeners.add(fn);
    clearTimeout(this.linger);
    this.pollBlind();
    return () => {
      this.listeners.delete(fn);
      this.touch();
    };
  }

  /** Kept LINGER_MS from now unless a command subscribes meanwhile. */
  touch(): void {
    if (this.listeners.size > 0 || this.closed) return;
    clearTimeout(this.linger);
    this.linger = setTimeout(() => this.close(), LINGER_MS);
    this.linger.unref();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.linger);
    this.rescans.cancel();
    clearTimeout(this.pollTimer);
    for (const { w } of this.watches.values()) w.close();
    watchesInUse -= this.watches.size;
    this.watches.clear();
    trees.delete(this.root);
  }

  private notify(dotGit: string, kind: 'git' | 'marked' = 'git'): void {
    for (const fn of this.listeners) fn(dotGit, kind);
  }

  /** An entry with a protected name appeared at `p`: recorded, announced. */
  private markedEntry(p: string): void {
    this.marked.add(p);
    this.notify(p, 'marked');
  }

  /** Something changed in `dir`: the entry with a protected name it is in (if any) is announced. */
  private insideMarked(dir: string): void {
    if (this.marked.size === 0 || this.listeners.size === 0) return;
    for (let d = dir; d.length > this.root.length && d !== path.dirname(d); d = path.dirname(d))
      if (this.marked.has(d)) return this.notify(d, 'marked');
  }

  /**
   * Watches `dir` (again when the directory at that path is a new one): `new`, `had` (watched
   * already), `none` (not a directory, gone), `blind` (past the budget, or refused: recorded as a
   * blind top) or `hot` (not watched while it cools: read instead).
   */
  private watch(dir: string, onEvent: (name: string | null) => void): 'new' | 'had' | 'none' | 'blind' | 'hot' {
    const st = lstat(dir);
    if (!st?.isDirectory()) return 'none';
    if (this.hotDirs.holds(dir, onEvent)) return 'hot';
    const had = this.watches.get(dir);
    if (had && had.ino === st.ino && had.born === st.birthtimeMs) return 'had';
    if (had) this.drop(dir, had);
    if (watchesInUse >= limits.watchBudget()) return this.blindTop(dir);
    try {
      const entry = startWatch(dir, st, onEvent, (e) => this.cool(dir, e, onEvent));
      entry.w.on('error', () => this.drop(dir, entry));
      this.watches.set(dir, entry);
      watchesInUse++;
      return 'new';
    } catch (err) {
      // A directory gone meanwhile is nothing to watch; a watch the kernel refused (ENOSPC) is a blind spot.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
      return this.blindTop(dir);
    }
  }

  /** `dir` is not watched (nor read below): walked while a command runs, and the tree is not complete. */
  private blindTop(dir: string): 'blind' {
    this.blindTops.add(dir);
    this.pollBlind();
    return 'blind';
  }

  private drop(dir: string, entry: Watch): void {
    if (this.watches.get(dir) !== entry) return;
    entry.w.close();
    this.watches.delete(dir);
    watchesInUse--;
  }

  private gitEntry(dotGit: string): void {
    const st = lstat(dotGit);
    if (!st) return;
    this.gits.add(dotGit);
    if (st.isDirectory()) {
      // What is written into it later (config, commondir; hooks inside `hooks/`).
      this.watch(dotGit, (name) => {
        if (name !== null && !GIT_ENTRY_NAMES.has(name)) return;
        if (name === 'hooks' || name === null) this.watch(path.join(dotGit, 'hooks'), () => this.notify(dotGit));
        this.notify(dotGit);
      });
      this.watch(path.join(dotGit, 'hooks'), () => this.notify(dotGit));
    }
    this.notify(dotGit);
  }

  /** A directory that became a git directory (a bare repository): recorded, announced. */
  private bareEntry(dir: string): void {
    if (this.gits.has(dir)) return;
    this.gits.add(dir);
    this.notify(dir);
  }

  private consider(dir: string, name: string): void {
    const p = path.join(dir, name);
    const folded = fold(name);
    if (folded === '.git') return this.gitEntry(p);
    if (isRecorded(dir, folded) && lstat(p)) this.markedEntry(p);
    this.insideMarked(dir);
    // A bare repository's own entries (it is watched as a directory of the tree): what git reads there.
    if (this.gits.has(dir) && GIT_ENTRY_NAMES.has(name)) this.notify(dir);
    if (path.basename(dir) === 'hooks' && this.gits.has(path.dirname(dir))) this.notify(path.dirname(dir));
    if (BARE_MARKERS.has(name) && looksLikeGitDirectory(dir)) this.bareEntry(dir);
    const st = lstat(p);
    if (st?.isDirectory()) this.add(p, false);
  }

  /**
   * Watches `dir` and, below it, every directory (iteratively: no depth limit, no stack to exhaust);
   * `again`: directories watched already are read again too (a rescan: what the kernel's queue may
   * have dropped), and what is recorded there announced again.
   */
  private add(top: string, again: boolean): void {
    const todo = [top];
    while (todo.length > 0) {
      const dir = todo.pop()!;
      const got = this.watch(dir, (name) => {
        if (this.closed) return;
        if (name !== null) return this.consider(dir, name);
        // Everything there (a hot directory's read, watchFlood.ts): its plain files read cheaply.
        const here = entriesToConsider(dir, !this.gits.has(dir) && path.basename(dir) !== 'hooks');
        if (here.any) this.insideMarked(dir);
        for (const n of here.names) this.consider(dir, n);
      });
      if (got === 'none' || got === 'blind' || (got === 'had' && !again)) continue;
      // What is there already (made, or renamed in, before the watch began).
      let here: fs.Dirent[];
      try {
        here = readdirOwned(dir);
      } catch {
        continue;
      }
      if (here.some((e) => e.name === 'HEAD') && looksLikeGitDirectory(dir)) {
        if (again) this.gits.delete(dir);
        this.bareEntry(dir);
      }
      for (const e of here) {
        const p = path.join(dir, e.name);
        const folded = fold(e.name);
        if (folded === '.git') {
          this.gitEntry(p);
          continue;
        }
        if (isRecorded(dir, folded)) this.markedEntry(p);
        else this.insideMarked(dir);
        if (e.isDirectory()) todo.push(p);
      }
    }
  }
}

const trees = new Map<string, Tree>();

/** The tree watch of `root` (an absolute real path), started now (a synchronous walk) or shared. */
export function treeWatch(root: string): TreeWatch {
  const r = path.resolve(root);
  let t = trees.get(r);
  if (!t || t.closed) {
    t = new Tree(r);
    trees.set(r, t);
  }
  t.fresh();
  t.touch();
  return t;
}

/** Stops every tree watch (a worker's shutdown, tests). */
export function closeTreeWatches(): void {
  for (const t of [...trees.values()]) t.close();
}

/**
 * Every `.git` (and bare git directory) and every entry with a protected name below `root`, walked
 * without limit (the fallback of a tree that is not completely watched).
 */
export function findTreeEntries(root: string): { gits: string[]; marked: string[] } {
  const gits: string[] = [];
  const marked: string[] = [];
  const todo = [path.resolve(root)];
  while (todo.length > 0) {
    const dir = todo.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = readdirOwned(dir);
    } catch {
      continue;
    }
    if (entries.some((e) => e.name === 'HEAD') && looksLikeGitDirectory(dir)) gits.push(dir);
    for (const e of entries) {
      const p = path.join(dir, e.name);
      const folded = fold(e.name);
      if (folded === '.git') {
        gits.push(p);
        continue;
      }
      if (isRecorded(dir, folded)) marked.push(p);
      if (e.isDirectory()) todo.push(p);
    }
  }
  return { gits, marked };
}

/** Every `.git` below `root`, walked without limit. */
export function findGitEntries(root: string): string[] {
  return findTreeEntries(root).gits;
}

/** The git directories below `root` now: the watch's record, or a full walk when the watch is not complete. */
export function gitEntriesOf(root: string): string[] {
  const t = treeWatch(root);
  return t.complete() ? t.gitEntries() : findGitEntries(root);
}

/** The entries with a protected name below `root` now (any depth): the watch's record, or a full walk. */
export function protectedEntriesOf(root: string): string[] {
  const t = treeWatch(root);
  return t.complete() ? t.protectedEntries() : findTreeEntries(root).marked;
}

/**
 * Resolves once the watch events already queued by the kernel have been read and handled (the
 * poll phase of the event loop runs before these): the check after a command awaits it, so that a
 * repository made in the command's last instant is in the record it reads.
 */
export function settleTreeEvents(): Promise<void> {
  return new Promise((r) => setImmediate(() => setImmediate(r)));
}
