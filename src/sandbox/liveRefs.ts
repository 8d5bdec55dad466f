// While a sandboxed command runs: the refs it moves screened as after the call (red team v, V8).
//
// The ref screen (movedRefs.ts) ran after the call only, while the live guard (liveGuard.ts) undid a
// new `.git`, a protected name and a staged hook as they appeared: a long command (a background task,
// a dev server: hours) that made P1 (a commit replacing the person's hook) and `git update-ref
// refs/heads/fix` and then slept left the branch there, and the person's `git checkout fix` and next
// commit meanwhile ran the agent's hook. So each repository of the command's ref snapshot is watched —
// its top (packed-refs, HEAD, FETCH_HEAD, ORIG_HEAD, every pseudoref, `refs` and `logs` themselves)
// and every directory below `refs/` and `logs/` (no link followed) — and a change runs the same
// screen against the snapshot: at once (after a few milliseconds that let git finish its burst of
// writes), then at most once a REFS_INTERVAL_MS per repository, longer when a round took long (the
// wait is IDLE_FACTOR times its length). A round's screening git stops after ROUND_BUDGET_MS (one
// name, and one reflog word, judged at least): names and reflog lines not judged by then are left for
// the next round, not put back. The snapshot is not moved on, and a round's verdicts are its own
// (verdictCache.ts): the objects it reads are not verified yet — a loose object under P1's id
// holding a harmless commit's bytes, let stand, then replaced by P1's own, would pass as the
// command's harmless work — so the check after the call, which verifies the objects first, judges
// every moved ref and reflog line again. A ref put back is counted like any undo of the guard: written again after two put-backs,
// the command is stopped (L2). A stopped am's or rebase's state files and todo are screened while the
// command runs once at rest (liveTodos.ts, ZZ2). What stays after the call only: the objects' screen
// (movedObjects.ts) and a directory past MAX_WATCHES, or past MAX_ALL_WATCHES over the snapshot's
// repositories (then the repository is looked at every REFS_INTERVAL_MS instead).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { screenRepoRefs, type RefSnapshots, type RepoScreened } from './movedRefs';
import { PSEUDOREF } from './refFiles';
import { workTreeOf } from './repoConfigTargets';
import type { LiveRound, RoundCaches } from './verdictCache';

/** The least time between two rounds of one repository. */
export const REFS_INTERVAL_MS = 1000;
/** The screening git one round may run (each call up to screenGit's own timeout); the rest waits for the next round. */
const ROUND_BUDGET_MS = 200;
/** The wait after a round is at least this many times its length: rounds take a tenth of the event loop at most. */
const IDLE_FACTOR = 9;
/** A burst of git's writes (lock, rename, reflog) settles this long before the first round. */
const SETTLE_MS = 20;
/** Directories watched per repository (refs/ and logs/ below it); past it, the repository is polled. */
const MAX_WATCHES = 512;
/** Directories watched per command over all its repositories (nested ones too: Z6); past it, polled. */
const MAX_ALL_WATCHES = 4096;

/** Does a change of this entry at a git directory's top move a ref (or the reflogs' or refs' directory)? */
const atTop = (name: string | null) =>
  name === null || name === 'refs' || name === 'logs' || name === 'packed-refs' || PSEUDOREF.test(name);

export interface RefsWatch {
  stop(): void;
  /** Rounds run so far (tests). */
  rounds(): number;
}

interface Hooks {
  /** The guard's notes (the check after the call reports them). */
  live: string[];
  /** An entry put back (liveGuard.ts hostileWatch: a command that keeps moving it back is stopped). */
  undid: (p: string) => void;
  /** The working directories (the notes name a repository relative to its own). */
  roots: readonly string[];
}

const relIn = (roots: readonly string[]) => (p: string) => {
  const r = roots.find((x) => p === x || p.startsWith(x + path.sep));
  return r ? path.relative(r, p) || '.' : p;
};

/** Watches one repository's refs; `changed` on any event there. */
function watchRepo(gitDir: string, changed: () => void, blind: () => void, all: { n: number }): () => void {
  const watches = new Map<string, { w: fs.FSWatcher; ino: number }>();
  let closed = false;
  // A path that cannot be looked at (longer than PATH_MAX: red team v, V1's chain; ELOOP, EACCES) is
  // not watched: the repository is polled instead. Nothing here throws into the event loop.
  const watchDir = (dir: string, top: boolean) => {
    try {
      watchIn(dir, top);
    } catch {
      blind();
    }
  };
  const watchIn = (dir: string, top: boolean) => {
    if (closed) return;
    const st = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (!st?.isDirectory()) return;
    const had = watches.get(dir);
    if (had?.ino === st.ino) return;
    had?.w.close();
    if (had) all.n--;
    watches.delete(dir);
    if (watches.size >= MAX_WATCHES || all.n >= MAX_ALL_WATCHES) return blind();
    const w = fs.watch(dir, { persistent: false }, (_e, name) => {
      const n = name === null ? null : String(name);
      if (top && !atTop(n)) return;
      changed();
      if (n !== null && (!top || n === 'refs' || n === 'logs')) watchDir(path.join(dir, n), false);
    });
    w.on('error', () => w.close());
    watches.set(dir, { w, ino: st.ino });
    all.n++;
    if (top) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true }))
      if (e.isDirectory()) watchDir(path.join(dir, e.name), false);
  };
  watchDir(gitDir, true);
  watchDir(path.join(gitDir, 'refs'), false);
  watchDir(path.join(gitDir, 'logs'), false);
  return () => {
    closed = true;
    for (const { w } of watches.values()) w.close();
    all.n -= watches.size;
  };
}

/** Starts with the command (liveGuard.ts); `refs` is the command's snapshot (read, never moved on). */
export function watchRefs(refs: RefSnapshots, hooks: Hooks): RefsWatch {
  let stopped = false;
  const next = new Map<string, number>();
  const timers = new Map<string, NodeJS.Timeout>();
  const polled = new Set<string>();
  const rel = relIn(hooks.roots);
  const caches: RoundCaches = new WeakMap();
  const since = new Map<string, number>();
  let rounds = 0;
  const due = (gitDir: string) => {
    if (stopped || timers.has(gitDir)) return;
    const wait = Math.max(SETTLE_MS, (next.get(gitDir) ?? 0) - Date.now());
    const t = setTimeout(() => {
      timers.delete(gitDir);
      round(gitDir);
    }, wait);
    t.unref();
    timers.set(gitDir, t);
  };
  const round = (gitDir: string) => {
    const was = refs.get(gitDir);
    if (stopped || !was) return;
    const t0 = performance.now();
    rounds++;
    let r: RepoScreened | undefined;
    let again = polled.has(gitDir);
    let dueBy: number | undefined;
    try {
      const bound: LiveRound = { budgetMs: ROUND_BUDGET_MS, caches, since };
      r = screenRepoRefs(gitDir, was, rel(workTreeOf(gitDir)), bound);
      if (bound.cut) again = true;
      dueBy = bound.dueBy;
      for (const n of r.notes) if (!hooks.live.includes(n)) hooks.live.push(n);
      for (const e of r.back) hooks.undid(path.join(gitDir, e));
    } catch {
      // The check after the call is the backstop (it runs the same screen, with its fallback).
    }
    // What a round left is put back once it waited LEFT_GRACE_MS (movedRefs.ts): the next round runs by then.
    const spaced = Date.now() + Math.max(REFS_INTERVAL_MS, (performance.now() - t0) * IDLE_FACTOR);
    next.set(gitDir, Math.min(spaced, (dueBy ?? Infinity) + SETTLE_MS));
    if (again || r?.left.size) due(gitDir);
  };
  const all = { n: 0 };
  const closers = [...refs.keys()]
    .filter((g) => fs.lstatSync(g, { throwIfNoEntry: false })?.isDirectory())
    .map((g) =>
      watchRepo(
        g,
        () => due(g),
        () => {
          polled.add(g);
          due(g);
        },
        all,
      ),
    );
  return {
    rounds: () => rounds,
    stop: () => {
      stopped = true;
      for (const t of timers.values()) clearTimeout(t);
      for (const c of closers) c();
    },
  };
}
