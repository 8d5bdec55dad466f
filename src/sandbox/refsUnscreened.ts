// The ref screen's fallback when it threw (red team v, V1). A throw used to leave every ref the
// command wrote on disk: the fail-closed record (uncheckedCalls.ts) held the agent's next command
// only, while the person's `git checkout fix` met P1's branch at once (and a worker restart forgot
// the record). So what the screen covers is undone on disk unscreened, from the snapshot taken when
// the command started: every loose ref and pseudoref as it was (a new one removed), packed-refs as
// it was. The agent's own commits made by that command are undone with the rest (it may commit again).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { putBack, removeUnknownLoose, type RefSnapshots } from './movedRefs';
import { PSEUDOREF, readPackedText, readRefFile, sameRefFile, type RefState } from './refFiles';
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
