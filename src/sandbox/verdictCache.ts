// The screens' caches of verdicts on objects (movedRefs.ts, controlCommits.ts) and the live guard's
// rounds (liveRefs.ts; red team v, V8). A round while a command runs reads objects the objects'
// screen (movedObjects.ts) has not verified yet: a loose object under P1's id holding a harmless
// commit's bytes, judged harmless by a round and then replaced by P1's own, would pass the check after
// the call if that verdict were remembered by id. So inside a round every verdict is kept in the
// round's own maps (one per cache), and the shared caches — filled by checks after a call, which
// verify the objects first — are only read.
type AnyCache = Map<string, unknown>;

/** The maps of one command's live rounds, by shared cache. */
export type RoundCaches = WeakMap<AnyCache, AnyCache>;

let round: RoundCaches | undefined;

/** Runs `fn` with `caches` standing in for the shared caches' writes. */
export function inLiveRound<T>(caches: RoundCaches, fn: () => T): T {
  const outer = round;
  round = caches;
  try {
    return fn();
  } finally {
    round = outer;
  }
}

function localOf<T>(shared: Map<string, T>): Map<string, T> | undefined {
  if (!round) return undefined;
  let m = round.get(shared as AnyCache) as Map<string, T> | undefined;
  if (!m) round.set(shared as AnyCache, (m = new Map<string, T>()) as AnyCache);
  return m;
}

/** A verdict: the round's own first (inside a round), then the shared cache's. */
export function recall<T>(shared: Map<string, T>, key: string): T | undefined {
  return (round ? localOf(shared)?.get(key) : undefined) ?? shared.get(key);
}

/** Keeps a verdict (in the round's own map inside a round), the oldest dropped past `max`; returns it. */
export function keep<T>(shared: Map<string, T>, key: string, v: T, max: number): T {
  const cache = localOf(shared) ?? shared;
  if (cache.size >= max) cache.delete(cache.keys().next().value!);
  cache.set(key, v);
  return v;
}

/**
 * A round while the command runs (liveRefs.ts): what is not judged within `budgetMs` is left for the
 * next round, not put back — for LEFT_GRACE_MS at most: a name (or reflog word) left that long is put
 * back (taken out) unscreened. Red team z, Z1: each round judges one name at least, in order, packed
 * refs last, and rounds are IDLE_FACTOR times their length apart; forty slow-to-judge branches made
 * first kept P1's packed branch unjudged for minutes while the command slept, and the person's
 * checkout of it ran the agent's hook. The check after the call judges every name again.
 */
export interface LiveRound {
  budgetMs: number;
  /** The verdicts of this command's rounds (never the shared caches'). */
  caches: RoundCaches;
  /** When each name or reflog word was first left unjudged (this command's rounds). */
  since: Map<string, number>;
  /** Set when reflog lines were left unjudged. */
  cut?: boolean;
  /** The time by which a round must run to put back what is left (set when something was left). */
  dueBy?: number;
}

/** How long a round may leave a moved name or reflog word unjudged before it is put back unscreened. */
export const LEFT_GRACE_MS = 1_500;

/** Has `key` been left unjudged for LEFT_GRACE_MS? */
export const overdue = (live: LiveRound, key: string, now: number) => {
  const t = live.since.get(key);
  return t !== undefined && now - t >= LEFT_GRACE_MS;
};

/** `key` is left unjudged by this round (for the next, until LEFT_GRACE_MS after it was first left). */
export function leave<T>(live: LiveRound, key: string, left?: T[], item?: T): void {
  const t = live.since.get(key) ?? Date.now();
  live.since.set(key, t);
  live.dueBy = Math.min(live.dueBy ?? Infinity, t + LEFT_GRACE_MS);
  if (left && item !== undefined) left.push(item);
}
