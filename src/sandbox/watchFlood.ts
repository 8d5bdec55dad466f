// The tree watch's third bound (src/sandbox/treeWatch.ts; red team, issue 30, P7b): the rate of
// events. libuv reads the inotify queue in one callback of the poll phase until read(2) says
// EAGAIN, and runs every watcher's JS callback from there; a command that makes events faster than
// the worker's one JS thread handles them (a loop of renameat2(RENAME_EXCHANGE) on two directories:
// ~120,000 exchanges a second, six events each) keeps that read going for as long as it likes. No
// timer, no heartbeat, no other session's work runs meanwhile: the worker was lost.
//
// So every event is metered here, per watch, and a watch is "hot" when it delivered more than
// HOT_EVENTS_PER_SECOND events within a second, or when one read of the queue has lasted STALL_MS
// with at least STALL_EVENTS events (then the watches that delivered most of it). The tree closes a
// hot watch (the kernel queues nothing more for it: the read ends) and reads that directory again
// and again instead, as it walks the directories past the watch budget, for COOL_MS (doubled, up to
// COOL_MAX_MS, each time it is hot again within REHEAT_MS), then watches it again; what the closed
// watch still had queued is dropped unseen, and with it the count that tells a queue overflow
// (inotifyLimits.ts, K6), so every tree is read again as after one. Nothing is killed:
// a build that churns one directory is polled there for a while; what it writes is announced by the
// reads, later by up to the poll's delay (treeWatch.ts), and the check after the call walks the tree.

import type { Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { GIT_ENTRY_NAMES } from './treeNames';

/** One watch's share of the events: what the meter keeps on it. */
export interface Metered {
  /** When its current one-second window began (performance.now()), and its events in it. */
  windowStart: number;
  windowEvents: number;
  /** Its events in the current read of the queue (since the last check phase). */
  burstEvents: number;
}

/** A watch's events within one second past which it is hot. */
export const HOT_EVENTS_PER_SECOND = 5_000;
/** A read of the queue this long (ms) with at least STALL_EVENTS events: the event loop is held, the busiest watches are hot. */
export const STALL_MS = 50;
export const STALL_EVENTS = 1_000;
/** How long a hot directory is read instead of watched, the first time; doubled each time it is hot again within REHEAT_MS of the last, up to COOL_MAX_MS. */
export const COOL_MS = 1_000;
export const COOL_MAX_MS = 30_000;
export const REHEAT_MS = 10_000;

/** The share of a stalled read's events the watches made hot together cover (the busiest first). */
const HOT_SHARE = 0.9;

let burstStart = 0;
let burstEvents = 0;
let burstOpen = false;
const touched = new Set<Metered>();
let hotSeen = 0;

function endBurst(): void {
  burstOpen = false;
  burstEvents = 0;
  for (const m of touched) m.burstEvents = 0;
  touched.clear();
}

/** The busiest watches of the current read, together HOT_SHARE of its events; the read starts over. */
function busiest(): Metered[] {
  const all = [...touched].sort((a, b) => b.burstEvents - a.burstEvents);
  const hot: Metered[] = [];
  let covered = 0;
  for (const m of all) {
    if (covered >= burstEvents * HOT_SHARE) break;
    hot.push(m);
    covered += m.burstEvents;
  }
  endBurst();
  burstOpen = true;
  burstStart = performance.now();
  return hot;
}

/** Counts one event of watch `m`; the watches that are hot now (to be closed and read instead), or undefined. */
export function meter(m: Metered): Metered[] | undefined {
  const now = performance.now();
  if (!burstOpen) {
    burstOpen = true;
    burstStart = now;
    setImmediate(endBurst).unref();
  }
  burstEvents++;
  if (m.burstEvents++ === 0) touched.add(m);
  if (now - m.windowStart >= 1_000) {
    m.windowStart = now;
    m.windowEvents = 0;
  }
  let hot: Metered[] | undefined;
  if (++m.windowEvents > HOT_EVENTS_PER_SECOND) hot = [m];
  else if (burstEvents >= STALL_EVENTS && now - burstStart >= STALL_MS) hot = busiest();
  if (hot) {
    hotSeen += hot.length;
    for (const h of hot) h.windowEvents = 0;
  }
  return hot;
}

/** A new watch's meter. */
export const fresh = (): Metered => ({ windowStart: performance.now(), windowEvents: 0, burstEvents: 0 });

type OnEvent = (name: string | null) => void;

/** A directory's identity and change times (a hot directory is read again when they change); undefined: no directory. */
export const dirStamp = (st: Stats | undefined): string | undefined =>
  st?.isDirectory() ? `${st.ino}:${st.birthtimeMs}:${st.mtimeMs}:${st.ctimeMs}` : undefined;

/**
 * A cooling directory's stamp with its control entries' (a git directory's config, commondir, …; an
 * entry with a protected name in it, of those `marked`): a file rewritten in place changes no time of its directory,
 * and a flood of writes into other files there keeps the watch closed for up to COOL_MAX_MS (red
 * team s, S5: a new repository's config given core.fsmonitor then). `statOf` is lstat.
 */
export function controlStamp(
  dir: string,
  gitDirectory: boolean,
  marked: Iterable<string>,
  statOf: (p: string) => Stats | undefined,
): string | undefined {
  let out = dirStamp(statOf(dir));
  if (out === undefined) return undefined;
  const names = gitDirectory ? [...GIT_ENTRY_NAMES] : [];
  for (const m of marked) if (dirname(m) === dir) names.push(basename(m));
  for (const n of names) {
    const st = statOf(join(dir, n));
    out += st ? `|${n}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : `|${n}:-`;
  }
  return out;
}

/**
 * One tree's hot directories: each read (its watch's own handler, with no name: "something
 * changed here") while a command uses the tree, until it cools; then handed back to be watched.
 */
export class Cooling {
  private readonly hot = new Map<string, { until: number; cooldown: number; onEvent: OnEvent; stamp?: string }>();
  /** The last cooling of each directory that ended within REHEAT_MS (its backoff). */
  private readonly cooled = new Map<string, { cooldown: number; ended: number }>();

  get size(): number {
    return this.hot.size;
  }

  /** Whether `dir` is cooling now (then `onEvent` is what its reads run from now on). */
  holds(dir: string, onEvent: OnEvent): boolean {
    const h = this.hot.get(dir);
    if (h) h.onEvent = onEvent;
    return h !== undefined;
  }

  /** `dir`'s watch was just closed: COOL_MS, or twice its last cooling when it was hot again within REHEAT_MS. */
  start(dir: string, onEvent: OnEvent, now: number): void {
    const last = this.cooled.get(dir);
    const cooldown = last && now - last.ended < REHEAT_MS ? Math.min(COOL_MAX_MS, last.cooldown * 2) : COOL_MS;
    this.hot.set(dir, { until: now + cooldown, cooldown, onEvent });
  }

  /**
   * Each cooling directory that still is one read when its `stamp` (its identity and change times:
   * undefined when it is no directory) changed since the last read — entries made, removed or
   * renamed there (20,000 quiet directories under a new `.claude` are not announced again and
   * again: P7) — the others handed to `watchAgain` (which reads them once more under their watch).
   */
  poll(
    now: number,
    stampOf: (dir: string) => string | undefined,
    watchAgain: (dir: string, onEvent: OnEvent) => void,
  ): void {
    for (const [dir, h] of [...this.hot]) {
      const stamp = now < h.until ? stampOf(dir) : undefined;
      if (stamp !== undefined) {
        if (stamp !== h.stamp) h.onEvent(null);
        h.stamp = stamp;
        continue;
      }
      this.hot.delete(dir);
      this.cooled.set(dir, { cooldown: h.cooldown, ended: now });
      watchAgain(dir, h.onEvent);
    }
    for (const [dir, c] of this.cooled) if (now - c.ended > REHEAT_MS) this.cooled.delete(dir);
  }
}

/** Watches found hot so far (tests, diagnostics). */
export function hotWatches(): number {
  return hotSeen;
}
