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
// The only bound is the kernel's: a tree uses at most a quarter of the user's inotify watches
// (fs.inotify.max_user_watches). A tree that needs more, or a watch the kernel refuses, makes the
// tree `complete: false`: the check after each command then walks the whole tree for `.git`
// (unbounded; slow on such a tree, never blind) — the window while the command runs stays open
// there, and docs/security.md says so.
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

/** How long a tree stays watched after the last command that used it (the next call of a session reuses it). */
export const LINGER_MS = 120_000;

/** The entries of a git directory a watch looks at when something in it changes. */
const GIT_ENTRY_NAMES = new Set(['config', 'config.worktree', 'commondir', 'hooks', 'gitdir']);

const fold = (s: string) => s.normalize('NFC').toLowerCase();

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
 * (`node_modules/.bin/durable-agent`), or a package.json whose bins are watched (manifestBins.ts)?
 */
const isRecorded = (dir: string, folded: string): boolean =>
  isProtectedName(folded) ||
  isProtectedTailEntry(dir, folded) ||
  isWatchedManifest(dir, folded) ||
  (isLinkableNpmDir(dir, folded) && lstat(path.join(dir, folded))?.isSymbolicLink() === true);

/** The names whose appearance can make a directory a git directory (git's is_git_directory). */
const BARE_MARKERS = new Set(['HEAD', 'objects', 'refs', 'commondir']);

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

function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

function names(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

let budgetCache: number | undefined;
/** Watches all trees together may use: a quarter of the kernel's per-user inotify limit (8192 when unknown). */
export function watchBudget(): number {
  if (budgetCache !== undefined) return budgetCache;
  let limit = 8192;
  try {
    const n = Number(fs.readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8').trim());
    if (Number.isFinite(n) && n > 0) limit = n;
  } catch {
    // not Linux, or /proc unreadable: the old default
  }
  return (budgetCache = Math.max(1024, Math.floor(limit / 4)));
}

/** For tests: a smaller budget (undefined: the kernel's again). */
export function setWatchBudgetForTests(n: number | undefined): void {
  budgetCache = n;
}

let watchesInUse = 0;

/** A watch, and the identity of the directory it watches: a directory removed and made again at the same path often gets the same inode number back, never the same birth time. */
interface Watch {
  w: fs.FSWatcher;
  ino: number;
  born: number;
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
}

export type TreeListener = (p: string, kind: 'git' | 'marked') => void;

class Tree implements TreeWatch {
  private readonly watches = new Map<string, Watch>();
  private readonly gits = new Set<string>();
  private readonly marked = new Set<string>();
  private readonly listeners = new Set<TreeListener>();
  private full = true;
  private linger: NodeJS.Timeout | undefined;
  closed = false;

  constructor(readonly root: string) {
    this.add(root);
  }

  complete(): boolean {
    return this.full;
  }

  watched(): number {
    return this.watches.size;
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

  /** Watches `dir` (again when the directory at that path is a new one); false when it was watched already or cannot be. */
  private watch(dir: string, onEvent: (name: string | null) => void): boolean {
    const st = lstat(dir);
    if (!st?.isDirectory()) return false;
    const had = this.watches.get(dir);
    if (had && had.ino === st.ino && had.born === st.birthtimeMs) return false;
    if (had) this.drop(dir, had);
    if (watchesInUse >= watchBudget()) {
      this.full = false;
      return false;
    }
    try {
      const w = fs.watch(dir, { persistent: false }, (_e, name) => onEvent(name === null ? null : String(name)));
      const entry = { w, ino: st.ino, born: st.birthtimeMs };
      w.on('error', () => this.drop(dir, entry));
      this.watches.set(dir, entry);
      watchesInUse++;
      return true;
    } catch (err) {
      // A directory gone meanwhile is nothing to watch; a watch the kernel refused (ENOSPC) is a blind spot.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.full = false;
      return false;
    }
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
    if (st?.isDirectory()) this.add(p);
  }

  /** Watches `dir` and, below it, every directory (iteratively: no depth limit, no stack to exhaust). */
  private add(top: string): void {
    const todo = [top];
    while (todo.length > 0) {
      const dir = todo.pop()!;
      const fresh = this.watch(dir, (name) => {
        if (this.closed) return;
        if (name === null) for (const n of names(dir)) this.consider(dir, n);
        else this.consider(dir, name);
      });
      if (!fresh) continue;
      // What is there already (made, or renamed in, before the watch began).
      const here = names(dir);
      if (here.includes('HEAD') && looksLikeGitDirectory(dir)) this.bareEntry(dir);
      for (const n of here) {
        const p = path.join(dir, n);
        const folded = fold(n);
        if (folded === '.git') {
          this.gitEntry(p);
          continue;
        }
        if (isRecorded(dir, folded)) this.markedEntry(p);
        else this.insideMarked(dir);
        if (lstat(p)?.isDirectory()) todo.push(p);
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
      entries = fs.readdirSync(dir, { withFileTypes: true });
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
