// The ref screen's fallback when it threw (red team v, V1). A throw used to leave every ref the
// command wrote on disk: the fail-closed record (uncheckedCalls.ts) held the agent's next command
// only, while the person's `git checkout fix` met P1's branch at once (and a worker restart forgot
// the record). So what the screen covers is undone on disk unscreened, from the snapshot taken when
// the command started: every loose ref and pseudoref as it was (a new one removed), packed-refs as
// it was. The agent's own commits made by that command are undone with the rest (it may commit again).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RefSnapshots } from './movedRefs';
import { putBack, removeUnknownLoose } from './refPutBack';
import { PSEUDOREF, readPackedText, readRefFile, readRefState, sameRefFile, type RefState } from './refFiles';
import { workTreeOf } from './repoConfigTargets';

/** Does `act` hold (a throw does not)? */
function holds(act: () => boolean): boolean {
  try {
    return act();
  } catch {
    return false;
  }
}

/** Every ref entry of one git directory put back as `was` had it; false when one could not be. */
function undoAll(gitDir: string, was: RefState): boolean {
  let ok = true;
  // What was there (pseudorefs, the files symrefs led to, loose refs): back when not the same, or unreadable.
  for (const [name, f] of was.files) {
    if (name === 'packed-refs') continue; // a link: the person's, left as it is
    if (holds(() => sameRefFile(f, readRefFile(path.join(gitDir, name))))) continue;
    ok = putBack(gitDir, was, name) && ok;
  }
  // A packed-refs the command wrote or changed (one the snapshot could not read is the person's).
  if (was.packedUnread === undefined && !was.files.has('packed-refs')) {
    const p = path.join(gitDir, 'packed-refs');
    const now = holds(() => fs.lstatSync(p, { throwIfNoEntry: false }) === undefined) ? undefined : readPackedText(p);
    if (now !== was.packedText) ok = putBack(gitDir, was, 'packed:') && ok;
  }
  // New loose refs below refs/ removed, changed ones put back (through pinned directories).
  removeUnknownLoose(gitDir, was);
  // New pseudorefs (FETCH_HEAD, ORIG_HEAD, any NAME git resolves) removed.
  let top: string[] = [];
  try {
    top = fs.readdirSync(gitDir).filter((n) => PSEUDOREF.test(n) && !was.files.has(n));
  } catch {
    ok = false;
  }
  for (const n of top) ok = putBack(gitDir, was, n) && ok;
  return ok;
}

/** After the ref screen threw: each repository's refs put back as the command found them; a note each. */
export function undoRefsUnscreened(before: RefSnapshots, rel: (p: string) => string = (p) => p): string[] {
  const notes: string[] = [];
  for (const [gitDir, was] of before) {
    if (!holds(() => fs.lstatSync(gitDir, { throwIfNoEntry: false })?.isDirectory() === true)) continue;
    const ok = undoAll(gitDir, was);
    notes.push(
      `${rel(workTreeOf(gitDir))}: the refs this call wrote could not be screened; every ref, pseudoref and packed-refs ${ok ? 'was put back as the call found them (new ones removed)' : 'the screen covers was put back where it could be (some could not)'}`,
    );
  }
  return notes;
}

/** Each repository's refs now, or undefined where they cannot be read (the state a retry starts from). */
export function refsNow(before: RefSnapshots): Map<string, RefState | undefined> {
  const out = new Map<string, RefState | undefined>();
  for (const gitDir of before.keys()) {
    try {
      out.set(gitDir, readRefState(gitDir));
    } catch {
      out.set(gitDir, undefined);
    }
  }
  return out;
}

/**
 * The snapshot a retried ref screen judges with (red team v, V16): `was`, but every entry that changed
 * since `post` — the state right after the failed call and its fallback — taken as it is now. Those
 * are the person's (the agent's commands there are refused until the retry passes): their own commit
 * to their hook, made after the refusal, is not put back as the failed call's. A reflog the person
 * appended to keeps the snapshot's identity (it is read again) and gains the names of the lines it
 * did not have after the call; the call's own lines stay unknown and are screened.
 */
export function sincePost(was: RefState, post: RefState, now: RefState): RefState {
  const files = new Map(was.files);
  for (const name of new Set([...post.files.keys(), ...now.files.keys()])) {
    if (sameRefFile(post.files.get(name), now.files.get(name))) continue;
    const f = now.files.get(name);
    if (f) files.set(name, f);
    else files.delete(name);
  }
  const packedMoved = post.packedText !== now.packedText || post.packedUnread !== now.packedUnread;
  const packed = packedMoved ? now : was;
  const out: RefState = { ...was, files, packed: packed.packed };
  delete out.packedText;
  delete out.packedUnread;
  if (packed.packedText !== undefined) out.packedText = packed.packedText;
  if (packed.packedUnread !== undefined) out.packedUnread = packed.packedUnread;
  if (was.logs && post.logs && now.logs) {
    const logs = new Map(was.logs);
    for (const [name, n] of now.logs) {
      const p = post.logs.get(name);
      if (!p && !logs.has(name)) logs.set(name, n); // a reflog the person made since (their new branch)
      if (!p || (p.ino === n.ino && p.size === n.size && p.ctimeMs === n.ctimeMs)) continue;
      const w = logs.get(name);
      if (!w?.names || !p.names || !n.names) continue; // unread: screened whole, as before
      const mine = [...n.names].filter((x) => !p.names!.has(x));
      logs.set(name, { ...w, names: new Set([...w.names, ...mine]) });
    }
    out.logs = logs;
  }
  return out;
}
