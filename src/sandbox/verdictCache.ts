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
