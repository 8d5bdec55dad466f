// The screens' long walks, in slices (red team u, U10): the plan before a sandboxed command and the
// checks after it do per-repository work — protected entries, snapshots of objects and sequencer
// state — for every `.git` below the writable directories, and a command that made a thousand of them
// had that work hold the worker's one thread for seconds, every session on it missing its heartbeats.
// The work is the same; between slices of it the event loop runs the other sessions' timers and I/O.
// A walk written as a generator (`yield` where it may pause) runs whole when a caller needs it at once
// (runAll) and in slices from an async caller (runSliced); an async loop asks a ticker.

/** How long one slice may hold the event loop before the loop gets its turn. */
export const SLICE_MS = 20;

/** Resolves after the event loop's pending timers and I/O have had their turn (an `await` alone lets only microtasks run). */
export const yieldToLoop = (): Promise<void> => new Promise((r) => setImmediate(r));

/** `await tick()` in a loop: gives the event loop its turn whenever `sliceMs` passed since the last one. */
export function loopTicker(sliceMs = SLICE_MS): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < sliceMs) return;
    await yieldToLoop();
    last = performance.now();
  };
}

/** A walk's generator, run to its end at once. */
export function runAll<T>(walk: Generator<unknown, T>): T {
  for (;;) {
    const step = walk.next();
    if (step.done) return step.value;
  }
}

/** A walk's generator, run to its end with the event loop's turn between slices (`tick`: shared by a caller's steps). */
export async function runSliced<T>(walk: Generator<unknown, T>, tick = loopTicker()): Promise<T> {
  for (;;) {
    const step = walk.next();
    if (step.done) return step.value;
    await tick();
  }
}

/** `run` for each of `items`, with the event loop's turn between slices: the results in order. */
export async function eachSliced<T, R>(items: readonly T[], run: (item: T) => R, tick = loopTicker()): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) {
    out.push(run(item));
    await tick();
  }
  return out;
}
