// The protected-paths walk's view of one directory (protect.ts scanProtected, before and after
// every sandboxed command), kept while the directory is unchanged (stampedListing.ts; issue 32:
// per-call cost): how many entries it has (each counts against the walk's budget) and those the
// walk's classification may act on, with their place in the listing.
import type * as fs from 'node:fs';
import {
  PROTECTED_DIRECTORY_NAMES,
  isLinkableNpmDir,
  isProtectedFileName,
  isProtectedTailEntry,
} from '../permissions/protectedPaths';
import { StampedListings } from './stampedListing';

export const fold = (s: string) => s.normalize('NFC').toLowerCase();

/** The protected directory names the walk stops at (folded), but `.git`, `.yarn` and `.hg`, which it reads inside. */
export const DIR_NAMES = new Set<string>(
  PROTECTED_DIRECTORY_NAMES.filter((n) => n !== '.git' && n !== '.yarn' && n !== '.hg').map(fold),
);

/**
 * Could protect.ts classifyEntry add or stop at this entry of `dir` (`name` folded)? False only for
 * what it passes by on its name and type alone: neither a directory nor a name it knows.
 */
function mayClassify(dir: string, name: string, e: fs.Dirent): boolean {
  return (
    e.isDirectory() ||
    name === '.git' ||
    DIR_NAMES.has(name) ||
    isLinkableNpmDir(dir, name) ||
    isProtectedFileName(name) ||
    isProtectedTailEntry(dir, name)
  );
}

const walkListings = new StampedListings((dir, entries) => ({
  count: entries.length,
  visit: entries.flatMap((e, index) => {
    const name = fold(e.name);
    return mayClassify(dir, name, e) ? [{ index, e, name }] : [];
  }),
}));

/** A directory's entries as the walk visits them (none when it cannot be read). */
export function walkListing(dir: string): ReturnType<typeof walkListings.of> {
  try {
    return walkListings.of(dir);
  } catch {
    return { count: 0, visit: [] };
  }
}
