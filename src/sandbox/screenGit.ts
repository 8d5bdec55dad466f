// The screens' own git (refRange.ts, renamedHooks.ts, movedRefs.ts): on a repository a sandboxed command
// could write, through the door, answering from the objects alone.
//
// Every run is synchronous: it holds the worker's one thread (the other sessions' heartbeats, the
// activities' cancellation) while git works. So each run is bounded (SCREEN_GIT_MS unless its caller
// says otherwise), and a screening as a whole can be too (withScreenBudget: red team y, Y1 — 200 refs
// screened one after another held the event loop 21.8 s under a 20 s budget looked at between refs).
// A run stopped by either bound reports `timedOut`: the screens count that as carrying what they look
// for (put back), never as clean; one stopped by the screening's budget also reports `overBudget`, a
// verdict the caches do not keep (it says nothing of the object).
import { runHostProcessSync, type HostRunResult } from '../hostProcess/door';
import { GIT_GUARD_ENV } from '../hostProcess/git';

/**
 * A screen's git run at most, unless its caller says otherwise (red team y, Y2: a tree of 16^7 empty
 * trees lists nothing while `ls-tree -r` walks it, and screenGit's old 10 s default held the worker).
 */
export const SCREEN_GIT_MS = 750;

/** When the screening under way must end (performance.now()), set by withScreenBudget. */
let deadline: number | undefined;

/**
 * Runs `fn` with every screenGit in it bounded by what is left of `ms` (nested: the nearer end wins);
 * past it each run returns at once, timed out and over budget.
 */
export function withScreenBudget<T>(ms: number, fn: () => T): T {
  const outer = deadline;
  const mine = performance.now() + ms;
  deadline = outer === undefined ? mine : Math.min(outer, mine);
  try {
    return fn();
  } finally {
    deadline = outer;
  }
}

/** Is the screening under way (withScreenBudget) past its budget? */
export const overBudget = (): boolean => deadline !== undefined && performance.now() >= deadline;

/** A screen's git result; `overBudget`: stopped (or not run) by the screening's budget, not by its own bound. */
export type ScreenResult = HostRunResult & { overBudget?: true };

/**
 * git on a repository the command could write: its hooks off, no lazy fetch, and nothing that stands
 * in for the commits themselves — no replace refs, no grafts file, no commit-graph (its changed-path
 * Bloom filters, which `commit-graph verify` does not check, tell a path-limited `rev-list` that a
 * commit changes nothing: red team v, V18). The answers come from the objects alone.
 */
export function screenGit(
  gitDir: string,
  args: readonly string[],
  input?: string,
  maxBuffer = 256 << 20,
  timeoutMs = SCREEN_GIT_MS,
  env: Readonly<Record<string, string>> = {},
): ScreenResult {
  const left = deadline === undefined ? Infinity : Math.floor(deadline - performance.now());
  if (left <= 0) return { code: null, signal: null, stdout: '', stderr: '', timedOut: true, overBudget: true };
  const r = runHostProcessSync(
    {
      purpose: 'git',
      command: 'git',
      args: [
        `--git-dir=${gitDir}`,
        '-c',
        'core.hooksPath=/dev/null',
        '-c',
        'core.fsmonitor=false',
        '-c',
        'core.commitGraph=false',
        '-c',
        'commitGraph.readChangedPaths=false',
        ...args,
      ],
      cwd: '/',
      env: {
        ...GIT_GUARD_ENV,
        HOME: '/nonexistent',
        GIT_NO_LAZY_FETCH: '1',
        GIT_NO_REPLACE_OBJECTS: '1',
        GIT_GRAFT_FILE: '/nonexistent',
        ...env,
      },
    },
    { timeoutMs: Math.min(timeoutMs, left), maxBuffer, ...(input === undefined ? {} : { input }) },
  );
  return r.timedOut && left < timeoutMs ? { ...r, overBudget: true } : r;
}

/** Did git fail to answer (out of time, over a bound, killed)? A screen counts that as carrying one. */
export const unanswered = (r: ScreenResult): boolean => r.timedOut || r.spawnError !== undefined || r.signal !== null;
