// While a sandboxed command runs: the sequencer state it leaves at rest screened as after the call
// (red team zz, ZZ2). The todo screen (sequencerState.ts: `exec` lines, picks of hostile commits,
// strategy options, a stopped am's patches) ran after the call only: a background task that stopped
// an interactive rebase at `break` with `exec <payload>` next, then slept, left the todo as it was,
// and the person's `git rebase --continue` meanwhile ran the payload on the host with their
// environment. (A worker lost mid-call never ran the check after it at all: ZZ1.) So each repository
// of the command's snapshot — and its linked worktrees' git directories — is looked at every
// POLL_MS: a sequencer directory (`rebase-merge`, `sequencer`, `rebase-apply`) whose entries have
// not changed for REST_MS is screened against the command's snapshot, as after the call. At rest
// only: a running rebase rewrites its todo at each step, and git reads the todo again after an
// `exec` that changed it, so a todo screened mid-run would drop the agent's own `--exec` steps; one
// still for REST_MS is a stopped rebase (or an exec step that long: its later exec lines are taken
// out, and named, as they would be after the call). Screening git is bounded as after the call
// (todoScreen's budget); the wait after a pass is IDLE_FACTOR times its length at least.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sequencerDirs } from './sequencerOptions';
import { undoTodoExecs, type TodoSnapshots, type TodoWordScreen } from './sequencerState';
import { todoScreen, type RefSnapshots } from './movedRefs';

/** How often the sequencer directories are looked at. */
const POLL_MS = 250;
/** A sequencer directory whose entries have not changed this long is at rest (a stopped operation). */
export const REST_MS = 750;
/** The wait after a pass that screened is at least this many times its length. */
const IDLE_FACTOR = 9;
/** Entries of one state directory looked at per poll at most (a stopped am holds a file per patch). */
const MAX_ENTRIES = 256;
const STATE_DIRS = ['rebase-merge', 'sequencer', 'rebase-apply'];

export interface TodosWatch {
  stop(): void;
  /** Passes that screened so far (tests). */
  passes(): number;
}

interface Hooks {
  /** The guard's notes (the check after the call reports them). */
  live: string[];
  /** Names a path relative to the working directories. */
  rel: (p: string) => string;
  /** A new screen of todo words (each with its own time budget). */
  screen?: () => TodoWordScreen;
}

/** A stamp of a git directory's sequencer state: undefined when it has none; and when it last changed. */
function stateStamp(gitDir: string): { stamp: string; changed: number } | undefined {
  const parts: string[] = [];
  let changed = 0;
  for (const d of sequencerDirs([gitDir]).flatMap((g) => STATE_DIRS.map((s) => path.join(g, s)))) {
    const st = fs.lstatSync(d, { throwIfNoEntry: false });
    if (!st) continue;
    parts.push(`${d}:${st.ino}:${st.mtimeMs}`);
    changed = Math.max(changed, st.mtimeMs, st.ctimeMs);
    if (!st.isDirectory()) continue;
    let names: string[];
    try {
      names = fs.readdirSync(d).slice(0, MAX_ENTRIES);
    } catch {
      continue;
    }
    for (const n of names) {
      const e = fs.lstatSync(path.join(d, n), { throwIfNoEntry: false });
      if (!e) continue;
      parts.push(`${n}:${e.ino}:${e.size}:${e.mtimeMs}:${e.ctimeMs}`);
      changed = Math.max(changed, e.mtimeMs, e.ctimeMs);
    }
  }
  return parts.length ? { stamp: parts.join('\n'), changed } : undefined;
}

/** Starts with the command (liveGuard.ts); `todos` is the command's snapshot (read, never moved on). */
export function watchTodos(todos: TodoSnapshots, gitDirs: readonly string[], hooks: Hooks): TodosWatch {
  let stopped = false;
  let passes = 0;
  const screened = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;
  const poll = () => {
    if (stopped) return;
    let wait = POLL_MS;
    for (const g of gitDirs) {
      try {
        const s = stateStamp(g);
        if (!s || screened.get(g) === s.stamp) continue;
        const quiet = Date.now() - s.changed;
        if (quiet < REST_MS) {
          wait = Math.min(wait, Math.max(50, REST_MS - quiet + 20));
          continue;
        }
        const t0 = performance.now();
        passes++;
        for (const n of undoTodoExecs(todos, [g], hooks.rel, hooks.screen?.()))
          if (!hooks.live.includes(n)) hooks.live.push(n);
        // What the pass wrote is its own: the stamp after it is the one at rest.
        screened.set(g, stateStamp(g)?.stamp ?? '');
        wait = Math.max(wait, (performance.now() - t0) * IDLE_FACTOR);
      } catch {
        // The check after the call is the backstop (it runs the same screen).
      }
    }
    timer = setTimeout(poll, wait);
    timer.unref();
  };
  timer = setTimeout(poll, POLL_MS);
  timer.unref();
  return {
    passes: () => passes,
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/** The path as a note names it: relative to the working directory holding it. */
const relIn = (roots: readonly string[]) => (p: string) => {
  const r = roots.find((x) => p === x || p.startsWith(x + path.sep));
  return r ? path.relative(r, p) || '.' : p;
};

/** The guard's watch of the command's sequencer state (liveGuard.ts), when the plan snapshotted it. */
export function watchSequencers(
  p: {
    roots: readonly string[];
    todos?: TodoSnapshots;
    objects?: { gitDirs: readonly string[] };
    refs?: RefSnapshots;
  },
  live: string[],
): TodosWatch | undefined {
  const { todos, objects, refs } = p;
  if (!todos || !objects) return undefined;
  return watchTodos(todos, objects.gitDirs, { live, rel: relIn(p.roots), screen: refs && (() => todoScreen(refs)) });
}
