// While a sandboxed command runs: a repository it creates is neutralised as it appears, not only
// after the call (red team, issue 30).
//
// The deny list is fixed when the command starts, and no mount can deny a `.git` in a directory
// that does not exist yet: a command may `git init sub` and give `sub/.git/config` a
// `core.fsmonitor` (or write `sub/.git` as a `gitdir:` file naming a git directory it wrote
// elsewhere). undoProtectedWrites (protect.ts) undoes that after the call, but the person's own git
// runs meanwhile: an editor that detects nested repositories runs `git status` in them, a shell
// prompt runs git wherever the person stands, and the repository's fsmonitor runs as the user.
// So while the command runs, the working directories are watched (inotify, through fs.watch) to the
// depth the scan reaches, node_modules skipped as it is: a new `.git` is undone the moment it
// appears, by the same rules as after the call (a new config keeps only keys that run nothing, a
// new hook is removed, a new `.git` file or `commondir` is removed), and watched for what is written
// into it later. What this leaves: the time between a write and its undo (the watcher's event, a
// few milliseconds), and repositories deeper than the scan or beyond the number of directories
// watched (MAX_WATCHED_DIRECTORIES) — docs/security.md says so.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  PROTECTED_SCAN_DEPTH,
  gitDirScan,
  undoProtectedWrites,
  type ProtectedEntry,
  type ProtectedScan,
} from './protect';

/** Directories one command's guard watches at most (each is an inotify watch). */
export const MAX_WATCHED_DIRECTORIES = 4096;

/** What the guard compares with: the protection of the command (src/sandbox/sessionPlan.ts). */
export interface GuardedProtection {
  scan: ProtectedScan;
  denyWrite: readonly string[];
  roots: readonly string[];
  /** What the guard undid while the command ran (the check after the call reports it with its own). */
  live?: string[];
}

/** The least time between two rounds of checks (the events of a round coalesced). */
const CHECK_INTERVAL_MS = 5;
/** How often, and how far apart, a config whose lock is taken is looked at again before it is rewritten anyway. */
const LOCK_RETRIES = 50;
const LOCK_RETRY_MS = 10;

/** The entries of a git directory the guard looks at when something in it changes. */
const GIT_ENTRY_NAMES = new Set(['config', 'config.worktree', 'commondir', 'hooks', 'gitdir']);

const fold = (s: string) => s.normalize('NFC').toLowerCase();

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

/** What existed with content before the command (the plan's scan, or the guard's start) is not its write. */
function beforeOf(scan: ProtectedScan, planned: ProtectedScan, baseline: ReadonlySet<string>): ProtectedScan {
  const entries = new Map<string, ProtectedEntry>();
  for (const p of scan.entries.keys())
    entries.set(p, { path: p, kind: 'file', existed: planned.entries.get(p)?.existed === true || baseline.has(p) });
  return { entries, truncated: false };
}

/** Keys added meanwhile, run once per round, rounds CHECK_INTERVAL_MS apart. */
function coalesce(run: (key: string) => void): { add(key: string): void; cancel(): void } {
  const due = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  return {
    add: (key) => {
      due.add(key);
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        const now = [...due];
        due.clear();
        for (const k of now) run(k);
      }, CHECK_INTERVAL_MS);
      timer.unref();
    },
    cancel: () => clearTimeout(timer),
  };
}

export interface LiveGuard {
  /** The directories watched now (tests, diagnostics). */
  watched(): number;
  stop(): void;
}

/** Starts watching before the command is spawned; stop() once it has ended. */
export function guardWhileRunning(protection: GuardedProtection): LiveGuard {
  const watchers = new Map<string, fs.FSWatcher>();
  const baseline = new Set<string>();
  let stopped = false;
  let starting = true;
  const live = (protection.live ??= []);

  const retries = new Map<string, number>();
  const check = (dotGit: string, force = false) => {
    if (stopped) return;
    const scan = gitDirScan(dotGit);
    const before = beforeOf(scan, protection.scan, baseline);
    if (starting) {
      for (const e of scan.entries.values()) if (e.existed) baseline.add(e.path);
      return;
    }
    // A config git is writing right now (its lock taken): looked at again shortly; after a while a
    // lock still there is one left behind, and the config is rewritten without it.
    const busy = (config: string) => {
      const n = (retries.get(config) ?? 0) + 1;
      retries.set(config, n);
      setTimeout(() => check(dotGit, n >= LOCK_RETRIES), LOCK_RETRY_MS).unref();
    };
    const notes = undoProtectedWrites(before, scan, protection.denyWrite, protection.roots, force ? undefined : busy);
    for (const note of notes) if (!live.includes(note)) live.push(note);
  };

  const watch = (dir: string, onEvent: (name: string | null) => void): boolean => {
    if (stopped || watchers.has(dir) || watchers.size >= MAX_WATCHED_DIRECTORIES) return false;
    try {
      const w = fs.watch(dir, { persistent: false }, (_event, name) => onEvent(name === null ? null : String(name)));
      w.on('error', () => {
        w.close();
        watchers.delete(dir);
      });
      watchers.set(dir, w);
      return true;
    } catch {
      return false;
    }
  };

  // Events coalesced: a command writing a config in a loop gets one check per CHECK_INTERVAL_MS (each
  // check may run git once, synchronously), not one per write — the worker's event loop stays free.
  const rounds = coalesce((d) => check(d));
  const later = (dotGit: string) => (stopped ? undefined : rounds.add(dotGit));

  const gitEntry = (dotGit: string) => {
    const st = lstat(dotGit);
    if (!st) return;
    if (st.isDirectory() && !st.isSymbolicLink()) {
      // What is written into it later (config, commondir; hooks inside `hooks/`).
      watch(dotGit, (name) => {
        if (name === null || GIT_ENTRY_NAMES.has(name)) {
          if (name === 'hooks') watch(path.join(dotGit, 'hooks'), () => later(dotGit));
          later(dotGit);
        }
      });
      watch(path.join(dotGit, 'hooks'), () => later(dotGit));
    }
    if (starting) check(dotGit);
    else later(dotGit);
  };

  const consider = (dir: string, depth: number, name: string) => {
    const p = path.join(dir, name);
    const f = fold(name);
    if (f === '.git') return gitEntry(p);
    if (f === 'node_modules') return;
    const st = lstat(p);
    if (st?.isDirectory() && !st.isSymbolicLink() && depth < PROTECTED_SCAN_DEPTH) add(p, depth + 1);
  };

  const add = (dir: string, depth: number) => {
    if (
      !watch(dir, (name) =>
        name === null ? names(dir).forEach((n) => consider(dir, depth, n)) : consider(dir, depth, name),
      )
    )
      return;
    // What is there already (made before the watch began: `mkdir -p a/b/.git` is one call).
    for (const n of names(dir)) consider(dir, depth, n);
  };

  for (const r of protection.roots) if (lstat(r)?.isDirectory()) add(path.resolve(r), 1);
  starting = false;
  return {
    watched: () => watchers.size,
    stop: () => {
      stopped = true;
      rounds.cancel();
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
