// The sandboxed commands running on this machine right now, and where each may write (red team,
// issue 30, L10). The person's `run` uses it: a project control file written since a command that
// may write it started is not trusted, however well the worker's live guard could watch that tree
// (cli/settledControl.ts). Two sources, either one enough:
//  - the worker's announcements, `<session temp root>/ending/<id>.json` (the root is 0700 and hidden
//    from every sandbox: sessionTemp.ts), written before the command starts with the directories
//    it may write, marked ended when it exits, removed once the check after it is done (a command
//    that plants and exits leaves no process while that check walks a huge tree for seconds); an
//    ended one is believed ENDING_TTL_MS at the most, any one only while its worker lives;
//  - the outer bwrap of each call, which the worker starts and marks (DURABLE_AGENT_CALL, reaper.ts)
//    and which lives outside the sandbox's pid namespace, so the command cannot change what it
//    shows: its `--bind <dir> <dir>` words, and when it started (/proc/<pid>/stat). One whose mount
//    words went to a file (`--args <fd>`: a long deny list, which the agent grows with repositories,
//    red team s, S11) may write anything, as far as the person's `run` knows.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CALL_MARKER_ENV, ownerAlive, ownerId } from './reaper';
import { sessionTempRoot } from './sessionTemp';

export interface LiveWriter {
  pid: number;
  /** The call's id (after the worker's owner id in the marker). */
  callId: string;
  /** When its bwrap started (ms since the epoch, to the clock tick). */
  startedMs: number;
  /** The directories it may write (bound read-write), as bwrap names them. */
  writable: string[];
}

/** Linux's USER_HZ: /proc's clock ticks are 1/100 s on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

function read(p: string, enc: BufferEncoding = 'utf8'): string | undefined {
  try {
    return fs.readFileSync(p, enc);
  } catch {
    return undefined;
  }
}

/** When the machine booted, in ms since the epoch (to the clock tick: from /proc/uptime, not btime's whole seconds). */
function bootMs(): number | undefined {
  const up = Number((read('/proc/uptime') ?? '').split(' ')[0]);
  return Number.isFinite(up) && up > 0 ? Date.now() - up * 1000 : undefined;
}

/**
 * The `--bind X X` directories of a bwrap command line (sockets and files bound for the proxy are
 * left out); `/` when its mount words were passed in a file (`--args`): unknown, so everything.
 */
export function writableBinds(argv: readonly string[]): string[] {
  if (argv.includes('--args')) return ['/'];
  const out: string[] = [];
  for (let i = 0; i + 2 < argv.length; i++) {
    if (argv[i] !== '--bind' && argv[i] !== '--bind-try') continue;
    const [src, dest] = [argv[i + 1]!, argv[i + 2]!];
    i += 2;
    if (src !== dest || !path.isAbsolute(dest)) continue;
    try {
      if (fs.statSync(dest).isDirectory()) out.push(dest);
    } catch {
      // gone, or not ours to see: nothing the person's files are under
    }
  }
  return out;
}

/** Every sandboxed call running now (its bwrap; the worker's announcement) or ending (its check after it not done yet). */
export function liveSandboxWriters(): LiveWriter[] {
  return [...runningWriters(), ...announcedWriters()];
}

/** How long an ending call is announced at the most (a worker that died in its check leaves its file). */
export const ENDING_TTL_MS = 60_000;

const announceDir = () => path.join(sessionTempRoot(), 'ending');
const announced = new WeakMap<object, { file: string; entry: Announcement }>();

interface Announcement {
  owner: string;
  startedMs: number;
  /** Set once the command ended (its check after it not done yet). */
  endedMs?: number;
  writable: readonly string[];
}

/**
 * A sandboxed command is about to start (red team s, S11: what its bwrap shows is not always all it
 * may write: the runtime passes a long mount list through `--args`): announced to the person's
 * `run` until `endedChecked(key)`. `key` is the object both sides hold (the call's protection).
 */
export function callStarted(key: object, writable: readonly string[]): void {
  const dir = announceDir();
  try {
    if (!fs.lstatSync(sessionTempRoot()).isDirectory()) return;
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return;
  }
  const file = path.join(dir, `${randomBytes(9).toString('base64url')}.json`);
  const entry: Announcement = { owner: ownerId(), startedMs: Date.now(), writable };
  try {
    fs.writeFileSync(file, JSON.stringify(entry), { mode: 0o600, flag: 'wx' });
    announced.set(key, { file, entry });
  } catch {
    // best effort: the person's run then has the bwrap it sees and its one-second settle
  }
}

/** The command ended; the check after it (undoProtected) has not run yet: announced ENDING_TTL_MS at the most. */
export function callEnding(key: object): void {
  const a = announced.get(key);
  if (!a) return;
  try {
    fs.writeFileSync(a.file, JSON.stringify({ ...a.entry, endedMs: Date.now() }), { mode: 0o600 });
  } catch {
    // best effort, as above
  }
}

/** The check after the call is done (or the command never started): no longer announced. */
export function endedChecked(key: object): void {
  const a = announced.get(key);
  if (!a) return;
  announced.delete(key);
  fs.rmSync(a.file, { force: true });
}

function announcedWriters(now = Date.now()): LiveWriter[] {
  let names: string[];
  try {
    names = fs.readdirSync(announceDir());
  } catch {
    return [];
  }
  const out: LiveWriter[] = [];
  for (const n of names) {
    const raw = read(path.join(announceDir(), n));
    let e: { owner?: unknown; startedMs?: unknown; endedMs?: unknown; writable?: unknown };
    try {
      e = JSON.parse(raw ?? 'null') ?? {};
    } catch {
      continue;
    }
    const { owner, startedMs, endedMs, writable } = e;
    if (typeof owner !== 'string' || typeof startedMs !== 'number' || !Array.isArray(writable)) continue;
    if ((typeof endedMs === 'number' && now - endedMs > ENDING_TTL_MS) || !ownerAlive(owner)) continue;
    const dirs = writable.filter((w): w is string => typeof w === 'string');
    out.push({
      pid: Number(owner.split('.')[0]),
      callId: `${n.replace(/\.json$/, '')}${typeof endedMs === 'number' ? ' (ending)' : ''}`,
      startedMs,
      writable: dirs,
    });
  }
  return out;
}

function runningWriters(): LiveWriter[] {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const boot = bootMs();
  const out: LiveWriter[] = [];
  for (const e of entries) {
    if (!/^\d+$/.test(e) || read(`/proc/${e}/comm`)?.trim() !== 'bwrap') continue;
    const marker = (read(`/proc/${e}/environ`, 'latin1') ?? '')
      .split('\0')
      .find((kv) => kv.startsWith(`${CALL_MARKER_ENV}=`));
    const stat = read(`/proc/${e}/stat`);
    const argv = read(`/proc/${e}/cmdline`, 'latin1')?.split('\0');
    if (!marker || !stat || !argv || boot === undefined) continue;
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    if (!Number.isFinite(ticks)) continue;
    const value = marker.slice(CALL_MARKER_ENV.length + 1);
    out.push({
      pid: Number(e),
      callId: value.slice(value.indexOf('/') + 1),
      startedMs: boot + (ticks * 1000) / TICKS_PER_SECOND,
      writable: writableBinds(argv),
    });
  }
  return out;
}

/** Is `file` (an absolute path) inside one of `dirs`? */
export function insideAny(file: string, dirs: readonly string[]): boolean {
  return dirs.some((d) => {
    const rel = path.relative(d, file);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  });
}
