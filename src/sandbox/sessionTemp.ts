// Sessions apart (issue 30, DESIGN invariant 9): each session's temp directory (TMPDIR of its
// commands, holding `tasks/`, its background tasks' output files) and its Bash spool directory
// live on this worker under one root that only the worker's user may enter:
//
//   <os.tmpdir()>/durable-agent-sandbox/            0700, ours (refused when it is not)
//     <key>/                                        0700: TMPDIR, writable by the session's sandbox
//       tasks/<task>.output                         background tasks' and Monitors' output files
//     <key>.s/<run>/{out.sock,output}               0700: the live Bash spool, the worker's only
//
// `<key>` is 16 hex digits of the SHA-256 of the session id: sessions never collide, and privacy does
// not rest on the name being secret — every sandboxed command has the root read-denied with only its
// own `<key>` bound back (src/sandbox/policy.ts), and the file tools refuse every path under the root
// but the session's own directory (ToolPermissionContext.sessionsApart, src/permissions/sessionsApart.ts).
//
// Lifetime: a session's directories are removed when it ends (endSessionTemp: the in-process
// runner, and the worker's `sessionEnded` sink for Temporal sessions — never at continue-as-new),
// once no Bash run of it holds them on this worker (holdSessionTemp); DURABLE_AGENT_KEEP_SESSION_TEMP=1
// keeps them for debugging. Leftovers (a worker that crashed, a session terminated, another host's
// end) are swept when untouched for DURABLE_AGENT_SESSION_TEMP_MAX_AGE_HOURS (default 192: longer
// than the 7 days an idle session waits for a follow-up); every Bash call touches its directory.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sharedPeriodic } from './periodic';

export const KEEP_SESSION_TEMP_ENV = 'DURABLE_AGENT_KEEP_SESSION_TEMP';
export const SESSION_TEMP_MAX_AGE_ENV = 'DURABLE_AGENT_SESSION_TEMP_MAX_AGE_HOURS';
export const SESSION_TEMP_MAX_AGE_DEFAULT_HOURS = 192;
/** At most this many leftovers are removed per sweep (the next sweep takes the rest). */
export const SESSION_TEMP_SWEEP_MAX = 100;

/** A session directory's name (and, with `.s`, its spool directory's). */
const KEY_NAME = /^[0-9a-f]{16}(\.s)?$/;

/** The root of every session's temp and spool directories on this worker. */
/** The scratch directory a path really lies in (src/hostProcess/door.ts): where no session starts and no worker-side git runs. */
export { scratchHolding } from '../hostProcess/door';

export function sessionTempRoot(): string {
  return path.join(os.tmpdir(), 'durable-agent-sandbox');
}

function sessionKey(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex').slice(0, 16);
}

/** The path of the session's temp directory on this worker (sessionTempDir creates it). */
export function sessionTempPath(sessionId: string): string {
  return path.join(sessionTempRoot(), sessionKey(sessionId));
}

/** Where the session's background tasks write their output on this worker (Read may read it). */
export function sessionTasksPath(sessionId: string): string {
  return path.join(sessionTempPath(sessionId), 'tasks');
}

/** Where the worker spools the session's running Bash commands (no sandbox may read it, not even the session's). */
export function sessionSpoolPath(sessionId: string): string {
  return `${sessionTempPath(sessionId)}.s`;
}

const uid = (): number | undefined => (typeof process.getuid === 'function' ? process.getuid() : undefined);

/**
 * A directory of ours, private: created 0700 when missing; an existing one must be a real
 * directory (not a symlink) owned by the worker's user, and is made 0700. Anything else refuses.
 */
async function privateDir(dir: string): Promise<void> {
  await fs.mkdir(dir, { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err;
  });
  const st = await fs.lstat(dir);
  const me = uid();
  if (!st.isDirectory() || (me !== undefined && st.uid !== me)) {
    throw new Error(
      `${dir} is not a directory of this worker's user (${st.isSymbolicLink() ? 'a symlink' : st.isDirectory() ? `owned by uid ${st.uid}` : 'not a directory'}): refusing to keep session files there`,
    );
  }
  if ((st.mode & 0o777) !== 0o700) await fs.chmod(dir, 0o700);
}

/** The root, private (see privateDir). */
export async function sessionTempRootDir(): Promise<string> {
  const root = sessionTempRoot();
  await privateDir(root);
  return root;
}

/** The session's temp directory on this worker, created 0700 with its `tasks/`: writable inside the sandbox, TMPDIR of its commands. */
export async function sessionTempDir(sessionId: string): Promise<string> {
  await sessionTempRootDir();
  const dir = sessionTempPath(sessionId);
  await privateDir(dir);
  // `tasks/` exists before any command: the sandbox binds it back readable (and the session's Read finds it).
  await fs.mkdir(path.join(dir, 'tasks'), { mode: 0o700 }).catch(() => undefined);
  // Used now: the leftover sweep goes by this time.
  const now = new Date();
  await fs.utimes(dir, now, now).catch(() => undefined);
  return dir;
}

/** The session's spool directory on this worker (0700, worker only); one Bash run makes its own directory inside. */
export async function sessionSpoolDir(sessionId: string): Promise<string> {
  await sessionTempRootDir();
  const dir = sessionSpoolPath(sessionId);
  await privateDir(dir);
  return dir;
}

// --- lifetime ------------------------------------------------------------------------------------

/** Per session key: the Bash runs (foreground, background, Monitor) holding its directories now. */
const holds = new Map<string, number>();
/** Sessions that ended while a run held their directories: removed when the last hold goes. */
const endedWhileHeld = new Set<string>();

export function keepSessionTemp(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const v = env[KEEP_SESSION_TEMP_ENV]?.trim().toLowerCase();
  return v !== undefined && v !== '' && v !== '0' && v !== 'false' && v !== 'no';
}

/** A run of the session uses its directories until the returned release is called (idempotent). */
export function holdSessionTemp(sessionId: string): () => void {
  const key = sessionKey(sessionId);
  holds.set(key, (holds.get(key) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (holds.get(key) ?? 1) - 1;
    if (left > 0) {
      holds.set(key, left);
      return;
    }
    holds.delete(key);
    if (endedWhileHeld.delete(key)) void removeKey(key).catch(() => undefined);
  };
}

async function removeKey(key: string): Promise<void> {
  const root = sessionTempRoot();
  for (const name of [key, `${key}.s`]) await removeOurs(root, name);
}

/**
 * Removes `root/name` when it is a directory of ours (by name and owner; a symlink is never
 * followed: fs.rm unlinks links, it does not descend through them). True when removed.
 */
async function removeOurs(root: string, name: string): Promise<boolean> {
  if (!KEY_NAME.test(name)) return false;
  const dir = path.join(root, name);
  const st = await fs.lstat(dir).catch(() => undefined);
  const me = uid();
  if (!st || !st.isDirectory() || (me !== undefined && st.uid !== me)) return false;
  await fs.rm(dir, { recursive: true, force: true });
  return true;
}

/**
 * The session ended (completed, failed, cancelled, stopped — never a continue-as-new): its temp and
 * spool directories on this worker go, now or when the last run holding them ends. Kept with
 * DURABLE_AGENT_KEEP_SESSION_TEMP=1. Returns what happened.
 */
export async function endSessionTemp(
  sessionId: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<'removed' | 'held' | 'kept'> {
  if (keepSessionTemp(env)) return 'kept';
  const key = sessionKey(sessionId);
  if ((holds.get(key) ?? 0) > 0) {
    endedWhileHeld.add(key);
    return 'held';
  }
  await removeKey(key);
  return 'removed';
}

export function sessionTempMaxAgeMs(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env[SESSION_TEMP_MAX_AGE_ENV]?.trim();
  const hours = raw ? Number(raw) : SESSION_TEMP_MAX_AGE_DEFAULT_HOURS;
  return (Number.isFinite(hours) && hours > 0 ? hours : SESSION_TEMP_MAX_AGE_DEFAULT_HOURS) * 3_600_000;
}

/**
 * Leftovers of sessions that ended long ago (a worker that crashed, a terminated session, an end
 * seen by another host): directories under the root named like ours, owned by the worker's user,
 * not symlinks, untouched for `maxAgeMs`, held by no run of this process. At most `max` per sweep.
 * Returns the names removed. Nothing when the root is not ours.
 */
export async function sweepSessionTemp(
  opts: { maxAgeMs?: number; max?: number; now?: number; root?: string } = {},
): Promise<string[]> {
  if (keepSessionTemp()) return [];
  const root = opts.root ?? sessionTempRoot();
  const maxAge = opts.maxAgeMs ?? sessionTempMaxAgeMs();
  const max = opts.max ?? SESSION_TEMP_SWEEP_MAX;
  const now = opts.now ?? Date.now();
  const rootSt = await fs.lstat(root).catch(() => undefined);
  const me = uid();
  if (!rootSt || !rootSt.isDirectory() || (me !== undefined && rootSt.uid !== me)) return [];
  const removed: string[] = [];
  for (const name of await fs.readdir(root)) {
    if (removed.length >= max) break;
    if (!KEY_NAME.test(name)) continue;
    const key = name.replace(/\.s$/, '');
    if ((holds.get(key) ?? 0) > 0) continue;
    // A session's spool goes with its directory: its age is the session directory's when there is one.
    const st = await fs.lstat(path.join(root, key)).catch(() => undefined);
    const own = await fs.lstat(path.join(root, name)).catch(() => undefined);
    const seen = Math.max(st?.mtimeMs ?? 0, own?.mtimeMs ?? 0);
    if (now - seen < maxAge) continue;
    if (await removeOurs(root, name).catch(() => false)) removed.push(name);
  }
  return removed;
}

const SWEEP_INTERVAL_MS = 60 * 60_000;
const periodic = sharedPeriodic(SWEEP_INTERVAL_MS);

/** Sweeps leftovers at once and then hourly while any worker of this process runs; returns the stop function. */
export function startSessionTempSweeping(log: (line: string) => void = (l) => console.warn(l)): () => void {
  const once = () =>
    void sweepSessionTemp().then(
      (names) => {
        if (names.length > 0)
          log(`durable-agent: removed ${names.length} session temp director(ies) left by sessions that ended long ago`);
      },
      () => undefined,
    );
  return periodic.start(once);
}
