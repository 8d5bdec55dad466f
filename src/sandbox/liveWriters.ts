// The sandboxed commands running on this machine right now, and where each may write (red team,
// issue 30, L10): read from the outer bwrap of each call, which the worker starts and marks
// (DURABLE_AGENT_CALL, see reaper.ts) and which lives outside the sandbox's pid namespace, so the
// command cannot change what it shows. Its command line holds the call's writable directories as
// `--bind <dir> <dir>`; /proc/<pid>/stat holds when it started. The person's `run` uses it: a
// project control file written since a command that may write it started is not trusted, however
// well the worker's live guard could watch that tree (cli/settledControl.ts).
//
// A command that plants and exits leaves no bwrap while the check after the call still walks the
// tree for what to undo (seconds in a tree of a hundred thousand directories): from its end until
// that check is done, the call is announced in `<session temp root>/ending/<id>.json` (the root is
// 0700 and hidden from every sandbox: sessionTemp.ts), for ENDING_TTL_MS at the most.
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

/** The `--bind X X` directories of a bwrap command line (sockets and files bound for the proxy are left out). */
export function writableBinds(argv: readonly string[]): string[] {
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

/** Every sandboxed call running now (its bwrap) or ending (its check after the call not done yet). */
export function liveSandboxWriters(): LiveWriter[] {
  return [...runningWriters(), ...endingWriters()];
}

/** How long an ending call is announced at the most (a worker that died in its check leaves its file). */
export const ENDING_TTL_MS = 60_000;

const endingDir = () => path.join(sessionTempRoot(), 'ending');
const endings = new WeakMap<object, string>();

/**
 * The command of `call` ended; the check after it (undoProtected) has not run yet: announced until
 * `endedChecked(call)`. `key` is the object both sides hold (the call's protection).
 */
export function callEnding(key: object, call: { startedMs: number; writable: readonly string[] }): void {
  const dir = endingDir();
  try {
    if (!fs.lstatSync(sessionTempRoot()).isDirectory()) return;
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return;
  }
  const file = path.join(dir, `${randomBytes(9).toString('base64url')}.json`);
  const entry = { owner: ownerId(), startedMs: call.startedMs, endedMs: Date.now(), writable: call.writable };
  try {
    fs.writeFileSync(file, JSON.stringify(entry), { mode: 0o600, flag: 'wx' });
    endings.set(key, file);
  } catch {
    // best effort: the person's run then relies on its one-second settle alone
  }
}

/** The check after the call is done: no longer announced. */
export function endedChecked(key: object): void {
  const file = endings.get(key);
  if (!file) return;
  endings.delete(key);
  fs.rmSync(file, { force: true });
}

function endingWriters(now = Date.now()): LiveWriter[] {
  let names: string[];
  try {
    names = fs.readdirSync(endingDir());
  } catch {
    return [];
  }
  const out: LiveWriter[] = [];
  for (const n of names) {
    const raw = read(path.join(endingDir(), n));
    let e: { owner?: unknown; startedMs?: unknown; endedMs?: unknown; writable?: unknown };
    try {
      e = JSON.parse(raw ?? 'null') ?? {};
    } catch {
      continue;
    }
    const { owner, startedMs, endedMs, writable } = e;
    if (typeof owner !== 'string' || typeof startedMs !== 'number' || typeof endedMs !== 'number') continue;
    if (!Array.isArray(writable) || now - endedMs > ENDING_TTL_MS || !ownerAlive(owner)) continue;
    const dirs = writable.filter((w): w is string => typeof w === 'string');
    out.push({
      pid: Number(owner.split('.')[0]),
      callId: `${n.replace(/\.json$/, '')} (ending)`,
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
