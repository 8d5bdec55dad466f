// Waiting on an event instead of sleeping a fixed time: a loaded machine makes any fixed delay too
// short sometimes, and a generous one costs its full length every run.
import type { ChildProcess } from 'node:child_process';

/** Polls `fn` until it returns something truthy; fails after `timeoutMs`, naming what it waited for. */
export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/**
 * Stops a child process: `signal`, then SIGKILL if it has not exited within `graceMs`. Resolves
 * once it exited (at once if it already had) — an event, not a fixed pause before the SIGKILL.
 */
export async function stopChild(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGINT',
  graceMs = 15_000,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), graceMs)));
  if ((await Promise.race([exited, late])) === 'late') {
    child.kill('SIGKILL');
    await exited;
  }
  clearTimeout(timer);
}
