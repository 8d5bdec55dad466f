// Putting a ref entry back as a snapshot had it (movedRefs.ts, refsUnscreened.ts, liveRefs.ts): through
// its directory opened from `/` without following a link (anchored.ts; red team q, Q11).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readRefFile, sameRefFile, type RefFile, type RefState } from './refFiles';
import { DirectoryMoved, inAnchoredDirectory, removeAnchored } from './anchored';

/** Tries of one put-back whose directory a command keeps swapping for a link (DirectoryMoved). */
const TRIES = 8;

/** Runs `act` again while its directory moved (a command racing the put-back); the last error is thrown. */
export function retried(act: () => void): void {
  for (let i = 1; ; i++) {
    try {
      return act();
    } catch (err) {
      if (!(err instanceof DirectoryMoved) || i >= TRIES) throw err;
    }
  }
}

/** Makes the missing directories on the way to `rel` below the git directory, each in its pinned parent. */
function makeParents(gitDir: string, rel: string): void {
  const parts = rel.split('/').slice(0, -1);
  for (let i = 0; i < parts.length; i++)
    retried(() =>
      inAnchoredDirectory(path.join(gitDir, ...parts.slice(0, i)), (at) => {
        try {
          fs.mkdirSync(at(parts[i]!));
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        }
      }),
    );
}

type Written = RefFile | { kind: 'text'; text: string } | undefined;

/** `name` in a pinned directory (`at`) made `f`: what is there removed (a link as a link), `f` written beside it and renamed over it. */
function replaceIn(at: (name: string) => string, name: string, f: Written): void {
  const p = at(name);
  removeAnchored(path.dirname(p), path.basename(p));
  // One that was over the bound was not read: nothing to write back (removed: fail closed, V3).
  if (!f || (f.kind === 'file' && f.over)) return;
  if (f.kind === 'link') return fs.symlinkSync(f.target, p);
  const tmp = at(`${name}.da-undo-${randomBytes(6).toString('hex')}`);
  fs.writeFileSync(tmp, f.text, { encoding: 'latin1', flag: 'wx' });
  fs.renameSync(tmp, p);
}

/**
 * Puts `rel` below the git directory back as `f` (removed when undefined) through its directory
 * opened from `/` without following a link (anchored.ts; red team q, Q11): an lstat of each
 * directory and then a removal by path let a command that exchanged `.git/refs/heads` with a link
 * to the person's HOME in between make the worker remove the person's entry named like the ref.
 */
function writeBack(gitDir: string, rel: string, f: Written): void {
  const dir = path.join(gitDir, path.dirname(rel));
  if (f) makeParents(gitDir, rel);
  retried(() => {
    try {
      inAnchoredDirectory(dir, (at) => replaceIn(at, path.basename(rel), f));
    } catch (err) {
      // Nothing to remove where the directory is not there at all (a missing step, no link).
      if (f || !(err instanceof DirectoryMoved) || fs.lstatSync(dir, { throwIfNoEntry: false })) throw err;
    }
  });
}

/** Put an entry back as `was` had it; the packed refs as a whole. */
export function putBack(gitDir: string, was: RefState, entry: string): boolean {
  const rel = entry.startsWith('packed:') ? 'packed-refs' : entry;
  try {
    if (rel === 'packed-refs')
      writeBack(gitDir, rel, was.packedText === undefined ? undefined : { kind: 'text', text: was.packedText });
    else writeBack(gitDir, rel, was.files.get(rel));
    // A link that replaced a directory (`refs`, `refs/heads`): the refs that were below it, back.
    for (const [n, f] of was.files) if (n.startsWith(`${rel}/`)) writeBack(gitDir, n, f);
    if (rel === 'refs') for (const d of ['heads', 'tags']) makeParents(gitDir, `refs/${d}/-`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Past the walk's bound: every loose ref the command added is removed, every one it changed put
 * back; each directory listed and changed through its pinned descriptor (links not followed, Q11).
 */
export function removeUnknownLoose(gitDir: string, was: RefState, rel = 'refs'): void {
  const below: string[] = [];
  try {
    inAnchoredDirectory(path.join(gitDir, rel), (at) => {
      for (const e of fs.readdirSync(at(''), { withFileTypes: true })) {
        const name = `${rel}/${e.name}`;
        if (e.isDirectory()) below.push(name);
        else if (!was.files.has(name)) replaceIn(at, e.name, undefined);
        else if (!sameRefFile(was.files.get(name), readRefFile(at(e.name)))) replaceIn(at, e.name, was.files.get(name));
      }
    });
  } catch {
    return;
  }
  for (const name of below) removeUnknownLoose(gitDir, was, name);
}
