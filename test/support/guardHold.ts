// The live guard's rows (red team, issue 30): a sandboxed command plants something the person's git
// would run, says so, and HOLDS until the test releases it; the test waits until the guard has undone
// the plant while the command still runs, then runs the person's git there. The guard's reaction
// window itself (one inotify event and a round of checks, docs/security.md "The window") is the
// documented residual: a person's git polling at random times hits it now and then on a loaded
// machine, so these rows look once the guard has reacted, and fail when it never does.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/** How long the test waits for the guard before it looks anyway (the marker then shows the plant ran). */
const GUARD_BOUND_MS = 30_000;
const EVERY_MS = 20;

/**
 * The end of a planting command (run in the project root): `armed` (a file there, and the output),
 * then a hold until the test writes `release` there (about 90 s at most, so it never hangs).
 */
export const HOLD =
  'touch armed; echo armed; i=0; while [ ! -e release ] && [ $i -lt 1800 ]; do sleep 0.05; i=$((i+1)); done';

/** `config` is there and names no core.fsmonitor (the guard rewrites a new config without it). */
export const configClean = (config: string): boolean => {
  try {
    return !/fsmonitor/i.test(readFileSync(config, 'utf8'));
  } catch {
    return false;
  }
};

/**
 * Waits until the command in `root` has planted (its `armed` file, or `marker`; as long as the command runs), then
 * until `undone()` holds while it still runs: false when the command ended first or the guard did not
 * react within GUARD_BOUND_MS of the plant.
 */
export async function guardReacted(
  root: string,
  call: Promise<unknown>,
  undone: () => boolean,
  /** The file the command makes when it has planted (a command of several phases names each). */
  marker = 'armed',
): Promise<boolean> {
  let ended = false;
  void call.then(
    () => (ended = true),
    () => (ended = true),
  );
  const tick = () => new Promise((r) => setTimeout(r, EVERY_MS));
  while (!ended && !existsSync(path.join(root, marker))) await tick();
  const deadline = Date.now() + GUARD_BOUND_MS;
  while (!ended && Date.now() < deadline) {
    if (undone()) return true;
    await tick();
  }
  return false;
}

/** Waits until the command in `root` has made its `armed` file while it still runs: false when it ended first. */
export async function planted(root: string, call: Promise<unknown>): Promise<boolean> {
  let ended = false;
  void call.then(
    () => (ended = true),
    () => (ended = true),
  );
  while (!ended && !existsSync(path.join(root, 'armed'))) await new Promise((r) => setTimeout(r, EVERY_MS));
  return !ended;
}

/** The person's git (`git status`, which runs core.fsmonitor) in each of `dirs`, a few times. */
export function personsGit(dirs: readonly string[], env: NodeJS.ProcessEnv, times = 5): void {
  for (let i = 0; i < times; i++)
    for (const d of dirs)
      if (existsSync(d)) spawnSync('git', ['status', '--porcelain'], { cwd: d, stdio: 'ignore', env });
}

/** Ends the command's hold, and waits for the command. */
function released<T>(root: string, call: Promise<T>): Promise<T> {
  release(root);
  return call;
}

/** Ends the command's hold. */
export function release(root: string): void {
  writeFileSync(path.join(root, 'release'), '');
}

/**
 * The whole row: wait for the guard while `call` holds, run the person's git in `dirs`, release,
 * await the call. Returns the call's result and whether the guard had reacted while it ran.
 */
export async function afterGuard<T>(
  root: string,
  call: Promise<T>,
  undone: () => boolean,
  dirs: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ result: T; reacted: boolean }> {
  try {
    const reacted = await guardReacted(root, call, undone);
    personsGit(dirs, env);
    return { result: await released(root, call), reacted };
  } catch (err) {
    release(root);
    throw err;
  }
}
