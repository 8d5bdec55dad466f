// Bait secrets in the worker's environment for attack tests: set for the length of a call, then
// restored, so that what a started process saw can be searched for them.

/** Runs `f` with `vars` set in process.env, restoring every one of them afterwards. */
export function withEnv<T>(vars: Readonly<Record<string, string>>, f: () => Promise<T>): Promise<T> {
  const saved: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(vars)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  return f().finally(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
}
