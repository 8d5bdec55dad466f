// The person's `run` reads the project's control files only once they have settled (red team,
// issue 30, L2): a sandboxed command that writes `packages/x/.claude/settings.json` in a loop, each
// write undone by the live guard (src/sandbox/liveGuard.ts) and written again, keeps a file there
// nearly all the time; a `run` in packages/x would read it at some instant. The guard now stops
// such a command at its first re-creation; this is the CLI's own check, for whatever else writes
// there while the person starts a session (a guard that could not watch the tree, L10).
//
// The rule: a project control file (the directory's settings files, a `.mcp.json` in it or above
// it) whose change time is less than CONTROL_SETTLE_MS old is waited for, once, until it is that
// old (at most CONTROL_SETTLE_MS; a note says so); after the files are read, each one that was
// read must still be there and be at least that old — else `run` refuses with one line. One
// second is a hundred times the guard's reaction (an undo comes within milliseconds of the write): a
// file the guard undoes is never that old while it is there. Sound:
// the change time moves on every write, rename and chmod and no unprivileged process can set it
// back, so a file older than CONTROL_SETTLE_MS after the read held, when it was read, what it
// holds now. Not annoying: the person's own edit costs at most CONTROL_SETTLE_MS of waiting, once,
// and nothing when the files are older (the common case: no wait, a few lstat calls); only a file
// written again while `run` waits (a loop, an editor's autosave every second) is refused.
import * as fs from 'node:fs';
import { dirname, join, parse, resolve } from 'node:path';
import { UsageError } from './options';
import { insideAny, liveSandboxWriters, type LiveWriter } from '../sandbox/liveWriters';

/** A project control file younger than this is not read until it has settled. */
export const CONTROL_SETTLE_MS = 1000;

/** The project control files `run` in `cwd` reads: its settings files, and `.mcp.json` in it and its parents. */
export function projectControlFiles(cwd: string): string[] {
  const root = resolve(cwd);
  const out = [
    join(root, '.claude', 'settings.json'),
    join(root, '.durable-agent', 'settings.json'),
    join(root, '.claude', 'settings.local.json'),
  ];
  for (let d = root; d !== parse(d).root; d = dirname(d)) out.push(join(d, '.mcp.json'));
  return out;
}

/** How long ago the file (and, for a link, what it leads to) last changed; undefined when absent. */
function ageOf(p: string, now: number): number | undefined {
  let ctime: number | undefined;
  for (const st of [lstat(p), stat(p)]) if (st) ctime = Math.max(ctime ?? -Infinity, st.ctimeMs);
  return ctime === undefined ? undefined : now - ctime;
}

function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

function stat(p: string): fs.Stats | undefined {
  try {
    return fs.statSync(p);
  } catch {
    return undefined;
  }
}

/** Changed within the settle time (a change time a little ahead of our clock counts as now; one far ahead is a skewed clock, not a write). */
const young = (age: number | undefined) => age !== undefined && age > -5_000 && age < CONTROL_SETTLE_MS;

/**
 * Before the files are read: waits (once, at most CONTROL_SETTLE_MS) until none of `files` changed
 * within CONTROL_SETTLE_MS. `note` hears which file it waits for.
 */
export async function waitForSettledControlFiles(
  files: readonly string[],
  note: (line: string) => void,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<void> {
  const now = Date.now();
  const changing = files.map((f) => ({ f, age: ageOf(f, now) })).filter((x) => young(x.age));
  if (changing.length === 0) return;
  const wait = Math.min(CONTROL_SETTLE_MS, Math.max(...changing.map((x) => CONTROL_SETTLE_MS - Math.max(0, x.age!))));
  note(`${changing[0]!.f} changed just now; reading it once it has settled (${Math.ceil(wait / 100) / 10} s)`);
  await sleep(wait + 10);
}

/**
 * Before and after the files are read: none of `files` changed since a sandboxed command that may
 * write it started and is still running (red team, issue 30, L10). The worker's live guard undoes a
 * protected file such a command makes, but only as fast as it can watch the tree (a tree past the
 * watch budget is walked every 0.1-2 s, longer under load): the file may be there when it is read.
 * Existing control files are read-only inside the sandbox, so a file the command made changed after
 * it started. A person's own edit meanwhile is refused too, naming the command: its guard would
 * undo a new control file anyway. `writers` is for tests.
 */
export function checkNoLiveWriter(files: readonly string[], writers: () => LiveWriter[] = liveSandboxWriters): void {
  // An empty file configures nothing: the worker's own placeholders for absent denied paths
  // (sandbox/placeholders.ts: an empty `.mcp.json` mount point while a command runs) are such.
  const present = files.filter((f) => (stat(f)?.size ?? 0) > 0 || (lstat(f)?.isSymbolicLink() ?? false));
  if (present.length === 0) return;
  const live = writers();
  if (live.length === 0) return;
  for (const f of present) {
    const real = realDir(f);
    const by = live.find((w) =>
      [f, real].some((p) => {
        const root = w.writable.find((d) => insideAny(p, [d]));
        const changed = root === undefined ? undefined : changedOnTheWay(p, root);
        return (
          changed !== undefined &&
          (changed.file >= w.startedMs - CLOCK_SLACK_MS || changed.way > w.startedMs + DIRECTORY_SLACK_MS)
        );
      }),
    );
    if (!by) continue;
    throw new UsageError(
      `${f} (or a directory on its way) changed while a sandboxed command that can write it is running (call ${by.callId}, started ${new Date(by.startedMs).toISOString()}): a session's command may have written it. Nothing was started; once that command has ended (or is stopped: durable-agent cancel, or TaskStop), check what the file holds and run again.`,
    );
  }
}

/**
 * When `file` last changed, and the latest change of a directory on its way below `root` (a
 * writable directory of a live call): renaming a directory changes its own change time, never those
 * of the files in it (red team t, T1: a settings file an earlier call left in `stash/cfg/`, moved in
 * with `mv stash/cfg packages/x/.claude` by a live call, keeps its old change time). `root` itself is
 * left out: a mount point cannot be renamed, and its entries change whenever the command makes a file.
 */
function changedOnTheWay(file: string, root: string): { file: number; way: number } | undefined {
  let changed: number | undefined;
  for (const st of [lstat(file), stat(file)]) if (st) changed = Math.max(changed ?? -Infinity, st.ctimeMs);
  if (changed === undefined) return undefined;
  let way = -Infinity;
  for (let d = dirname(file); d !== root && insideAny(d, [root]) && d !== dirname(d); d = dirname(d))
    way = Math.max(way, lstat(d)?.ctimeMs ?? -Infinity);
  return { file: changed, way };
}

/**
 * A directory on the way counts only when it changed clearly AFTER the call started: the worker
 * makes its placeholders for absent protected files (an empty `.claude/settings.json` beside the
 * person's settings.local.json) just before each call starts, which changes their directory; the
 * call's own commands start tens of milliseconds after (bwrap's mounts, its shell), and the start
 * read from /proc is known to a clock tick (10 ms) either way.
 */
const DIRECTORY_SLACK_MS = 25;

/**
 * File times come from the kernel's coarse clock (a tick behind Date.now()) and a bwrap's start is
 * known to 10 ms: a change this close before a call's start counts as after it.
 */
const CLOCK_SLACK_MS = 100;

/** `f` with its directory's links resolved (bwrap names real paths). */
function realDir(f: string): string {
  try {
    return join(fs.realpathSync(dirname(f)), parse(f).base);
  } catch {
    return f;
  }
}

/**
 * After the files are read: every one of `read` (the control files whose content was used) must
 * still exist and be at least CONTROL_SETTLE_MS old; else a UsageError (one line) says which.
 */
export function checkSettledControlFiles(read: readonly string[]): void {
  checkNoLiveWriter(read);
  const now = Date.now();
  for (const f of read) {
    const age = ageOf(f, now);
    // A control file with a second name is written through that name (red team, issue 30, N4).
    if ((lstat(f)?.nlink ?? 1) > 1 || (stat(f)?.nlink ?? 1) > 1)
      throw new UsageError(
        `${f} has another name (a hard link): whatever writes that name changes it unseen. Nothing was started; check what it holds and replace it with a copy of itself (cp, then mv over it).`,
      );
    if (age !== undefined && !young(age)) continue;
    throw new UsageError(
      `${f} ${age === undefined ? 'disappeared just after it was read' : 'changed again while it was being read'}: something is writing it right now (if not you, a running command — a session's background task? — is). Nothing was started; run again once it stays put, and check what it holds.`,
    );
  }
}
