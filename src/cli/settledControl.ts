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
 * After the files are read: every one of `read` (the control files whose content was used) must
 * still exist and be at least CONTROL_SETTLE_MS old; else a UsageError (one line) says which.
 */
export function checkSettledControlFiles(read: readonly string[]): void {
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
