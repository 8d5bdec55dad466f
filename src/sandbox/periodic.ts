// A sweep that runs at once and then every `intervalMs` while at least one user (a worker of this
// process) wants it: the reaper's and the session temp directories' sweeps share this shape.

/**
 * A periodic task shared by the workers of one process: `start(once)` runs `once` now and, when no
 * interval runs yet, every `intervalMs` after; it returns that user's stop function.
 */
export function sharedPeriodic(intervalMs: number): { start(once: () => void): () => void } {
  let running: { timer: NodeJS.Timeout; users: number } | undefined;
  return {
    start(once) {
      once();
      if (!running) {
        const timer = setInterval(once, intervalMs);
        timer.unref();
        running = { timer, users: 0 };
      }
      running.users++;
      let stopped = false;
      return () => {
        if (stopped || !running) return;
        stopped = true;
        if (--running.users === 0) {
          clearInterval(running.timer);
          running = undefined;
        }
      };
    },
  };
}
