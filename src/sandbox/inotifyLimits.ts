// The kernel's two bounds on the tree watch (src/sandbox/treeWatch.ts; red team, issue 30, K6 and
// L10): how many directories it may watch, and how many events one poll phase of the event loop may
// deliver before the kernel's event queue may have overflowed.
//
// libuv reads the inotify queue until it is empty in one callback of the poll phase and runs every
// watcher's callback from there, synchronously; a `setImmediate` runs only after that phase. So the
// events counted between two check phases are at least one whole drain of the queue, and the queue
// can only have overflowed (IN_Q_OVERFLOW, which libuv drops) when one drain held a full queue:
// max_queued_events. Half of it is the threshold, for the events the count cannot see (those of
// watches libuv no longer knows, those of another watcher in the process).
import * as fs from 'node:fs';

/**
 * The wait before the next walk of a tree's blind directories while a command uses it: five times
 * the last walk's own time (the walks take at most a sixth of a core), within 100 ms and 2 s.
 */
export const blindPollDelay = (tookMs: number): number => Math.min(2_000, Math.max(100, tookMs * 5));

/**
 * The least time between two rescans of a tree after possible queue overflows (a flood that goes
 * on overflows again and again): 100 ms, or three times the last rescan's own time (at most a
 * quarter of a core in a big tree).
 */
export const rescanGap = (tookMs: number): number => Math.max(100, tookMs * 3);

/** One tree's rescans after possible queue overflows: `run` at most once per rescanGap of the last rescan's own time. */
export class Rescans {
  private timer: NodeJS.Timeout | undefined;
  /** When the last rescan ended, and how long it took. */
  private last = 0;
  private took = 0;

  constructor(private readonly run: () => void) {}

  /** `run` soon (once, however often asked before it runs). */
  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.run();
      },
      Math.max(0, this.last + rescanGap(this.took) - Date.now()),
    );
    this.timer.unref();
  }

  /** A rescan, timed. */
  timed(rescan: () => void): void {
    const start = Date.now();
    rescan();
    this.last = Date.now();
    this.took = this.last - start;
  }

  cancel(): void {
    clearTimeout(this.timer);
  }
}

let budgetCache: number | undefined;
/**
 * Watches all trees together may use: a quarter of the kernel's per-user inotify limit (8192 when
 * unknown), or less when DURABLE_AGENT_WATCH_BUDGET says so (never more: fewer watches only means
 * more blind directories, walked instead; the tests use it to reach the budget without 50,000 mkdirs).
 */
export function watchBudget(): number {
  if (budgetCache !== undefined) return budgetCache;
  let limit = 8192;
  try {
    const n = Number(fs.readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8').trim());
    if (Number.isFinite(n) && n > 0) limit = n;
  } catch {
    // not Linux, or /proc unreadable: the old default
  }
  const budget = Math.max(1024, Math.floor(limit / 4));
  const lower = Number(process.env.DURABLE_AGENT_WATCH_BUDGET);
  return (budgetCache = Number.isInteger(lower) && lower > 0 ? Math.min(budget, lower) : budget);
}

/** For tests: a smaller budget (undefined: the kernel's again). */
export function setWatchBudgetForTests(n: number | undefined): void {
  budgetCache = n;
}

let thresholdCache: number | undefined;
/** Events of one poll phase that say the kernel's queue may have overflowed: half of fs.inotify.max_queued_events (16,384 when unknown). */
export function overflowThreshold(): number {
  if (thresholdCache !== undefined) return thresholdCache;
  let queue = 16_384;
  try {
    const n = Number(fs.readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim());
    if (Number.isFinite(n) && n > 0) queue = n;
  } catch {
    // not Linux, or /proc unreadable: the kernel's default
  }
  return (thresholdCache = Math.max(16, Math.floor(queue / 2)));
}

/** For tests: a smaller threshold (undefined: the kernel's again). */
export function setOverflowThresholdForTests(n: number | undefined): void {
  thresholdCache = n;
}

/** Events delivered since the last check phase of the event loop (one drain of the queue, or more). */
let burst = 0;
/** How many times a possible overflow was seen. */
let overflows = 0;

/** Counts one event from the kernel; true (once per poll phase) when the queue may have overflowed. */
export function countEvent(): boolean {
  if (++burst === 1) setImmediate(() => (burst = 0)).unref();
  if (burst !== overflowThreshold()) return false;
  overflows++;
  return true;
}

/** Possible queue overflows seen so far (tests, diagnostics). */
export function queueOverflows(): number {
  return overflows;
}
