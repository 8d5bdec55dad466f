// The bytes an undo may write back into the project (red team v, V13, V13b, V13c). The package.json and
// linter-key screens read a file as its tool does (npm follows a link), but what they keep to put back
// must be the project's own file: read again through the directory as checked (anchored.ts: no link
// anywhere on the way), a regular file with one name, never a file the sandbox cannot read — package.json
// linked to ~/.docker/config.json, or a directory on the way linked into HOME while the next call started,
// made the worker write the registry token into the project as "the file as it was". A path that was a
// link is put back as that link.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { anchoredFile, inAnchoredDirectory, removeEntry } from './anchored';

/**
 * `f`'s bytes read through its directory as checked, without following a link at any step; undefined
 * when that cannot be (a link on the way or at the end, not a regular file, another name for it, over `max`).
 */
export function ownBytes(f: string, max: number): Buffer | undefined {
  try {
    return anchoredFile(f, (pinned) => {
      const fd = fs.openSync(pinned, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
      try {
        const st = fs.fstatSync(fd);
        if (!st.isFile() || st.nlink !== 1 || st.size > max) return undefined;
        const buf = Buffer.alloc(Math.min(st.size + 1, max + 1));
        let got = 0;
        for (let n = 1; n > 0 && got < buf.length; got += n) n = fs.readSync(fd, buf, got, buf.length - got, got);
        return got > max ? undefined : buf.subarray(0, got);
      } finally {
        fs.closeSync(fd);
      }
    });
  } catch {
    return undefined;
  }
}

/** The text of the symbolic link at `f`, or undefined (no link, or none there). */
export function linkText(f: string): string | undefined {
  try {
    return fs.lstatSync(f, { throwIfNoEntry: false })?.isSymbolicLink() ? fs.readlinkSync(f) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Puts back the symbolic link `f` was (`link`, its text): whatever the command left there is replaced
 * by it — a link still the same is removed instead (what its target holds now is not the person's to
 * keep, and the link is all the undo may write). Through the directory as checked.
 */
export function putBackLink(f: string, link: string): 'put back as the link it was' | 'removed' {
  return inAnchoredDirectory(path.dirname(f), (at) => {
    const pinned = at(path.basename(f));
    const st = fs.lstatSync(pinned, { throwIfNoEntry: false });
    const same = st?.isSymbolicLink() && fs.readlinkSync(pinned) === link;
    if (st) removeEntry(pinned);
    if (same) return 'removed';
    fs.symlinkSync(link, pinned);
    return 'put back as the link it was';
  });
}
