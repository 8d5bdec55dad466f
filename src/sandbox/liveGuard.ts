// While a sandboxed command runs: a repository it creates is neutralised as it appears, not only
// after the call (red team, issue 30).
//
// The deny list is fixed when the command starts, and no mount can deny a `.git` in a directory
// that does not exist yet: a command may `git init sub` and give `sub/.git/config` a
// `core.fsmonitor` (or write `sub/.git` as a `gitdir:` file naming a git directory it wrote
// elsewhere). undoProtectedWrites (protect.ts) undoes that after the call, but the person's own git
// runs meanwhile: an editor that detects nested repositories runs `git status` in them, a shell
// prompt runs git wherever the person stands, and the repository's fsmonitor runs as the user.
// So while the command runs, every directory it can write is watched (treeWatch.ts: every depth,
// node_modules too, the session's temp directory and the sandbox's other writable directories, so
// that a symlink in the project to a repository built there leads to a watched one): a new `.git`
// is undone the moment it appears, by the same rules as after the call (a new config keeps only
// keys that run nothing, a new hook is removed, a new `.git` file or `commondir` is removed), and
// watched for what is written into it later. What this leaves: the time between a write and its
// undo (the watcher's event, then one round of checks), and a tree past the kernel's watch budget
// (checked whole after the call) — docs/security.md says so.
//
// The other protected names too (red team, issue 30, J4): a background command (up to hours) or a
// sandboxed MCP server that writes `packages/x/.claude/settings.json`, `.mcp.json`, `.claude/agents/…`
// in a directory that did not exist (no deny list can name it) would otherwise have it read by a
// session the person starts there meanwhile. An entry with a protected name in a working directory
// that was not there with content when the command started is removed as soon as it has content
// (the same undo as after the call: not under the deny list, its parent not swapped for a symlink,
// no symlink followed); the check after the call then finds nothing left of it.
//
// A loop holds that window open (red team, issue 30, L2): a background command that writes
// `packages/x/.claude/settings.json` again as soon as it is undone keeps it there nearly all the
// time, and the person's `run` in packages/x reads it. So a command is stopped (its process group
// and every process of its call killed, by whoever started it: onHostile) as soon as it writes
// again, twice, a path that the guard undid for it, or once HOSTILE_UNDOS entries were undone for it in all
// (a loop that rotates the path through symlinks); the notice says so with the undone paths. The
// working directories, and every writable `filesystem.allowWrite` directory (K10: a sibling
// checkout), are guarded alike (GuardedProtection.nameRoots).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { undoStagedHooks, type StagedSnapshots } from './stagedHooks';
import {
  addProtectedEntries,
  gitDirScan,
  hasContent,
  undoProtectedWrites,
  type ProtectedEntry,
  type ProtectedScan,
} from './protect';
import { undoManifestBins, type ManifestState } from './manifestBins';
import { isLintManifest, undoLintKeys, type LintState } from './lintKeys';
import { treeWatch, type TreeListener } from './treeWatch';
import { reachOwned } from './anchored';
import { detach } from './hardLinks';
import { SLICE_MS } from './loopSlices';
import type { RefSnapshots } from './movedRefs';
import type { TodoSnapshots } from './sequencerState';
import { watchRefs } from './liveRefs';
import { watchSequencers } from './liveTodos';

/** What the guard compares with: the protection of the command (src/sandbox/sessionPlan.ts). */
export interface GuardedProtection {
  scan: ProtectedScan;
  denyWrite: readonly string[];
  roots: readonly string[];
  /** Where an entry with a protected name is undone (the roots and the writable allowWrite directories); absent: the roots. */
  nameRoots?: readonly string[];
  /** Every directory the command can write (roots first): where a new `.git` is looked for. */
  gitRoots?: readonly string[];
  /** What the guard undid while the command ran (the check after the call reports it with its own). */
  live?: string[];
  /** The durable-agent bin and control keys of each package.json when the command started (manifestBins.ts). */
  manifests?: ReadonlyMap<string, ManifestState>;
  /** The linter keys of each pyproject.toml, setup.cfg and tox.ini when the command started (lintKeys.ts). */
  lint?: ReadonlyMap<string, LintState>;
  /** The index of each working directory's repository when the command started (stagedHooks.ts, Q16). */
  staged?: StagedSnapshots;
  /** The refs of those repositories when the command started, moved on by what the guard let stand (liveRefs.ts, V8). */
  refs?: RefSnapshots;
  /** Their sequencer state when the command started (sequencerState.ts; liveTodos.ts, ZZ2). */
  todos?: TodoSnapshots;
  /** Their git directories, with their linked worktrees' (movedObjects.ts). */
  objects?: { gitDirs: readonly string[] };
}

/** The least time between two rounds of checks (the events of a round coalesced); the first round runs at once. */
const CHECK_INTERVAL_MS = 5;
/** How often, and how far apart, a config whose lock is taken is looked at again before it is rewritten anyway. */
const LOCK_RETRIES = 50;
const LOCK_RETRY_MS = 10;
/** Undos of one path after which the command is stopped: written again twice after the guard undid it (a loop does that in milliseconds; a command writing two files into one new protected directory, the guard undoing it in between, does it once). */
export const HOSTILE_REWRITES = 3;
/** Entries undone for one command after which it is stopped even when no path came back (paths rotated through symlinks). */
export const HOSTILE_UNDOS = 100;

/** What existed with content before the command (the plan's scan, or the guard's start) is not its write. */
function beforeOf(scan: ProtectedScan, planned: ProtectedScan, baseline: ReadonlySet<string>): ProtectedScan {
  const entries = new Map<string, ProtectedEntry>();
  for (const p of scan.entries.keys())
    entries.set(p, { path: p, kind: 'file', existed: planned.entries.get(p)?.existed === true || baseline.has(p) });
  return { entries, truncated: false };
}

/** Keys added meanwhile, run once per round: the first round at once, the next ones CHECK_INTERVAL_MS apart. */
function coalesce(run: (key: string) => void): { add(key: string): void; cancel(): void } {
  const due = new Set<string>();
  let timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  let last = 0;
  const round = () => {
    timer = undefined;
    last = Date.now();
    const now = [...due];
    due.clear();
    const t0 = performance.now();
    for (let i = 0; i < now.length; i++) {
      // A round past its slice goes on after the event loop's other work (a command that made a
      // thousand `.git` directories: red team u, U10), the keys it has not reached first.
      if (i > 0 && performance.now() - t0 >= SLICE_MS) {
        const rest = [...now.slice(i), ...due];
        due.clear();
        for (const k of rest) due.add(k);
        timer = setImmediate(round);
        return;
      }
      try {
        run(now[i]!);
      } catch {
        // One entry the command keeps out of reach: the check after the call is the backstop; the
        // worker (and every other session on it) goes on.
      }
    }
  };
  return {
    add: (key) => {
      due.add(key);
      if (timer) return;
      const wait = last + CHECK_INTERVAL_MS - Date.now();
      if (wait <= 0) timer = setImmediate(round);
      else {
        timer = setTimeout(round, wait);
        timer.unref();
      }
    },
    cancel: () => {
      clearTimeout(timer as NodeJS.Timeout);
      clearImmediate(timer as NodeJS.Immediate);
    },
  };
}

/** How often entries left empty are looked at again for a second name (EMPTY_POLL_MS), at least. */
const EMPTY_POLL_MS = 25;
/** The share of the worker's time those looks may take: the wait after a look is this many times its length (a twentieth at most). */
const EMPTY_POLL_IDLE_FACTOR = 19;

/**
 * Entries with a protected name that a command made but left empty (nothing to undo yet), looked at
 * every EMPTY_POLL_MS while the command runs: a hard link made to an empty file later fills it with
 * no event on the protected name (issue 30, gap G4: M13 within one command). One that gained a
 * second name or content goes to `recheck`. A look that takes long (20,000 empty directories under
 * a new `.claude`: red team p, P7) waits 19 times as long before the next, so the looks never take
 * more than a twentieth of the worker's event loop from the other sessions on it.
 */
function emptyWatch(recheck: (p: string) => void): { add(p: string): void; stop(): void } {
  const suspects = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const schedule = (ms: number) => {
    timer = setTimeout(poll, ms);
    timer.unref();
  };
  const poll = () => {
    const t0 = performance.now();
    for (const p of suspects) {
      let st: fs.Stats | undefined | null;
      try {
        st = fs.lstatSync(p, { throwIfNoEntry: false });
      } catch {
        st = null; // out of reach (a directory on the way made unsearchable): the check gives the way back
      }
      if (st === undefined) suspects.delete(p);
      else if (st === null || hasContent(p)) {
        suspects.delete(p);
        recheck(p);
      }
    }
    timer = undefined;
    if (suspects.size > 0)
      schedule(Math.max(EMPTY_POLL_MS, Math.ceil((performance.now() - t0) * EMPTY_POLL_IDLE_FACTOR)));
  };
  return {
    add: (p) => {
      suspects.add(p);
      if (!timer) schedule(EMPTY_POLL_MS);
    },
    stop: () => {
      clearTimeout(timer);
      timer = undefined;
      suspects.clear();
    },
  };
}

/**
 * The files of a repository the command made that the guard let stand (its cleaned config), looked
 * at every EMPTY_POLL_MS for a second name (red team zz, ZZ3): `ln sub/.git/config sub/notes.txt`
 * after the guard cleaned the config, then `core.fsmonitor` appended through notes.txt — no event on
 * the config's path, and the hard-link check after the call came only when a background task ended.
 * A file that gained a name is replaced by a copy of itself (the other names keep the old inode) and
 * goes to `recheck` (what was written through the link meanwhile is cleaned again).
 */
function linkWatch(recheck: (dotGit: string) => void): {
  after(scan: ProtectedScan, baseline: ReadonlySet<string>, dotGit: string): void;
  stop(): void;
} {
  const files = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;
  const poll = () => {
    const t0 = performance.now();
    for (const [p, dotGit] of files) {
      const st = fs.lstatSync(p, { throwIfNoEntry: false });
      if (!st?.isFile()) files.delete(p);
      else if (st.nlink > 1) {
        try {
          detach(p, st);
        } catch {
          // out of reach: the check after the call detaches it
        }
        recheck(dotGit);
      }
    }
    timer = undefined;
    if (files.size > 0) {
      timer = setTimeout(poll, Math.max(EMPTY_POLL_MS, Math.ceil((performance.now() - t0) * EMPTY_POLL_IDLE_FACTOR)));
      timer.unref();
    }
  };
  return {
    /** After a check of `dotGit`: its files that are the command's (not in `baseline`) and still there, watched. */
    after: (scan, baseline, dotGit) => {
      for (const e of scan.entries.values())
        if (!baseline.has(e.path) && fs.lstatSync(e.path, { throwIfNoEntry: false })?.isFile())
          files.set(e.path, dotGit);
      if (!timer && files.size > 0) (timer = setTimeout(poll, EMPTY_POLL_MS)).unref();
    },
    stop: () => {
      clearTimeout(timer);
      timer = undefined;
      files.clear();
    },
  };
}

export interface LiveGuard {
  /** The directories watched now (tests, diagnostics). */
  watched(): number;
  /**
   * How to stop the command once it is found hostile (it wrote again a path the guard undid, or
   * HOSTILE_UNDOS were undone): called once with the notice (also in `live`); at once when it already is.
   */
  onHostile(stopCommand: (notice: string) => void): void;
  stop(): void;
}

/**
 * What was undone for one command (`undid`, each entry's path): a path undone HOSTILE_REWRITES times
 * was written again after its undo, again and again, or HOSTILE_UNDOS were undone — the command is hostile: the notice goes to `live`
 * and to each `onHostile` listener, once (one registered later hears it at once).
 */
function hostileWatch(
  live: string[],
  nameRoots: readonly string[],
): { undid: (p: string) => void; onHostile: LiveGuard['onHostile'] } {
  const shown = (p: string) => {
    const r = nameRoots.find((x) => p.startsWith(x + path.sep));
    return r ? path.relative(r, p) : p;
  };
  const undoneTimes = new Map<string, number>();
  let undos = 0;
  let hostile: string | undefined;
  const stoppers: Array<(notice: string) => void> = [];
  const undid = (p: string) => {
    undos++;
    const n = (undoneTimes.get(p) ?? 0) + 1;
    undoneTimes.set(p, n);
    if (hostile !== undefined) return;
    if (n >= HOSTILE_REWRITES)
      hostile = `${shown(p)}: written again after it was undone; a command that keeps re-creating a protected path holds the undo's window open, so it was stopped (its processes killed)`;
    else if (undos >= HOSTILE_UNDOS)
      hostile = `${undos} protected paths undone while this command ran (the last: ${shown(p)}); it was stopped (its processes killed)`;
    if (hostile === undefined) return;
    live.push(hostile);
    for (const stop of stoppers) stop(hostile);
  };
  return {
    undid,
    onHostile: (stopCommand) => {
      if (hostile !== undefined) stopCommand(hostile);
      else stoppers.push(stopCommand);
    },
  };
}

/** What a package.json (its bin and keys) or a linter file (its keys) the guard heard of needed undone; undefined: neither. */
function manifestUndo(p: string, protection: GuardedProtection): string[] | undefined {
  if (protection.lint && isLintManifest(path.dirname(p), path.basename(p).toLowerCase()))
    return undoLintKeys([p], protection.lint, undefined, true);
  if (protection.manifests && path.basename(p) === 'package.json') return undoManifestBins([p], protection.manifests);
  return undefined;
}

/** Each repository's index is looked at most this often for hook paths staged meanwhile (each look may run git). */
const STAGED_INTERVAL_MS = 1000;

/**
 * Hook paths staged meanwhile in a repository's index, put back (the person's `git checkout -- .`
 * while a background command runs: Q16), told to `live`: at once, then at most every
 * STAGED_INTERVAL_MS per repository — a command rewriting its index in a loop does not keep the
 * worker's event loop busy.
 */
function stagedWatch(protection: GuardedProtection, live: string[], stopped: () => boolean) {
  const last = new Map<string, number>();
  const timers = new Set<string>();
  const run = (dotGit: string) => {
    last.set(dotGit, Date.now());
    const staged = protection.staged?.filter((s) => s.gitDir === dotGit) ?? [];
    for (const n of undoStagedHooks(staged, (p) => path.relative(path.dirname(dotGit), p)))
      if (!live.includes(n)) live.push(n);
  };
  return (dotGit: string): void => {
    if (stopped() || timers.has(dotGit) || !protection.staged?.some((s) => s.gitDir === dotGit)) return;
    const wait = (last.get(dotGit) ?? -Infinity) + STAGED_INTERVAL_MS - Date.now();
    if (wait <= 0) return run(dotGit);
    timers.add(dotGit);
    setTimeout(() => {
      timers.delete(dotGit);
      if (!stopped()) run(dotGit);
    }, wait).unref();
  };
}

/** What the guard does with a tree watch's news: a repository or a protected name to check in the next round, an index to look at. */
function treeEvents(
  rounds: { add(key: string): void },
  lookStaged: (dotGit: string) => void,
  stopped: () => boolean,
): TreeListener {
  return (p, kind) => {
    if (stopped()) return;
    if (kind === 'index') lookStaged(p);
    else rounds.add(`${kind === 'git' ? 'g' : 'm'}:${p}`);
  };
}

/** A directory on the way to `p` made unsearchable (chmod 000) hides nothing from the guard. */
function reachIn(roots: readonly string[], p: string): void {
  const root = roots.find((r) => p.startsWith(r + path.sep));
  if (root) reachOwned(root, p);
}

/**
 * An entry left because its parent was swapped for a symlink at that instant (a loop that swaps it
 * back and forth, K11): looked at again shortly, as long as the command runs, so that it is undone
 * once the parent is back — and a path written again after its undo stops the command.
 * At most LOCK_RETRIES times per entry (a parent left as a symlink is not the command's write).
 */
function retrier(stopped: () => boolean, add: (key: string) => void): (key: string) => void {
  const pending = new Set<string>();
  const tries = new Map<string, number>();
  return (key) => {
    const n = (tries.get(key) ?? 0) + 1;
    if (stopped() || pending.has(key) || n > LOCK_RETRIES) return;
    tries.set(key, n);
    pending.add(key);
    setTimeout(() => {
      pending.delete(key);
      if (!stopped()) add(key);
    }, LOCK_RETRY_MS).unref();
  };
}

/** Starts watching before the command is spawned; stop() once it has ended. */
export function guardWhileRunning(protection: GuardedProtection): LiveGuard {
  const baseline = new Set<string>();
  let stopped = false;
  const live = (protection.live ??= []);
  const nameRoots = (protection.nameRoots ?? protection.roots).map((r) => path.resolve(r));
  const { undid, onHostile } = hostileWatch(live, nameRoots);
  const lookStaged = stagedWatch(protection, live, () => stopped);
  const retries = new Map<string, number>();
  const again = retrier(
    () => stopped,
    (key) => rounds.add(key),
  );
  const check = (dotGit: string, force = false) => {
    if (stopped) return;
    const scan = gitDirScan(dotGit);
    const before = beforeOf(scan, protection.scan, baseline);
    // A config git is writing right now (its lock taken): looked at again shortly; after a while a
    // lock still there is one left behind, and the config is rewritten without it.
    const busy = (config: string) => {
      const n = (retries.get(config) ?? 0) + 1;
      retries.set(config, n);
      setTimeout(() => check(dotGit, n >= LOCK_RETRIES), LOCK_RETRY_MS).unref();
    };
    const notes = undoProtectedWrites(before, scan, protection.denyWrite, protection.roots, {
      ...(force ? {} : { busy }),
      undid,
      moved: () => again(`g:${dotGit}`),
    });
    for (const note of notes) if (!live.includes(note)) live.push(note);
    links.after(scan, baseline, dotGit); // what is left of a new repository: watched for a second name (ZZ3)
  };

  // An entry with a protected name (not `.git`) in a working directory or a writable allowWrite
  // directory (K10): undone when new with content.
  const inWork = (p: string) => nameRoots.some((r) => p.startsWith(r + path.sep));
  const checkMarked = (p: string) => {
    if (stopped || !inWork(p)) return;
    reachIn(nameRoots, p);
    const manifestNotes = manifestUndo(p, protection);
    if (manifestNotes) {
      for (const note of manifestNotes) {
        undid(p); // a command that keeps adding the bin is stopped like one that keeps writing a control file (L2)
        if (!live.includes(note)) live.push(note);
      }
      return;
    }
    const scan: ProtectedScan = { entries: new Map(), truncated: false };
    addProtectedEntries(scan, [p]);
    const notes = undoProtectedWrites(
      beforeOf(scan, protection.scan, baseline),
      scan,
      protection.denyWrite,
      nameRoots,
      {
        undid,
        moved: () => again(`m:${p}`),
      },
    );
    for (const note of notes) if (!live.includes(note)) live.push(note);
    if (fs.lstatSync(p, { throwIfNoEntry: false }) && !hasContent(p)) empty.add(p);
  };

  // Events coalesced: a command writing a config in a loop gets one check per CHECK_INTERVAL_MS (each
  // check may run git once, synchronously), not one per write — the worker's event loop stays free.
  const rounds = coalesce((k) => (k.startsWith('m:') ? checkMarked(k.slice(2)) : check(k.slice(2))));
  const empty = emptyWatch((p) => rounds.add(`m:${p}`));
  const links = linkWatch((dotGit) => rounds.add(`g:${dotGit}`));
  const roots = [...new Set([...protection.roots, ...(protection.gitRoots ?? [])].map((r) => path.resolve(r)))];
  const trees = roots.filter((r) => fs.lstatSync(r, { throwIfNoEntry: false })?.isDirectory()).map(treeWatch);
  // What is there already, with content, is not this command's (the plan's scan may have missed none of it: it reads the same record).
  const existing: ProtectedScan = { entries: new Map(), truncated: false };
  for (const t of trees) {
    for (const g of t.gitEntries()) for (const e of gitDirScan(g).entries.values()) if (e.existed) baseline.add(e.path);
    addProtectedEntries(existing, t.protectedEntries().filter(inWork));
  }
  for (const e of existing.entries.values()) if (e.existed) baseline.add(e.path);
  const unsubscribe = trees.map((t) => t.subscribe(treeEvents(rounds, lookStaged, () => stopped)));
  const refs = protection.refs && watchRefs(protection.refs, { live, undid, roots: nameRoots }); // V8
  const todoWatch = watchSequencers(protection, live); // ZZ2: a stopped rebase's todo, at rest
  return {
    watched: () => trees.reduce((n, t) => n + t.watched(), 0),
    onHostile,
    stop: () => {
      stopped = true;
      rounds.cancel();
      empty.stop();
      links.stop();
      refs?.stop();
      todoWatch?.stop();
      for (const u of unsubscribe) u();
    },
  };
}
