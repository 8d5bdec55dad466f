// The file tools' side of the package.json rule (issue 30, gaps G1/G2; src/sandbox/manifestBins.ts):
// a Write or Edit that adds or changes a durable-agent bin or a control key of a package.json, or
// writes a `durable-agent` into a directory a package.json's `directories.bin` names, is refused in
// every permission mode — the sandbox undoes the same change after a command, and acceptEdits (or
// bypassPermissions) would otherwise let the file tools make it unasked.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { binFileRefusal, manifestEditRefusal } from '../sandbox/manifestBins';

/** The path as written and with its directory's real path (a symlinked directory leads elsewhere). */
function forms(abs: string): string[] {
  try {
    const real = path.join(fs.realpathSync.native(path.dirname(abs)), path.basename(abs));
    return real === abs ? [abs] : [abs, real];
  } catch {
    return [abs];
  }
}

/**
 * Why writing `after` at `abs` is refused, or undefined. `before` gives the current content (null:
 * the file is new); it is read only for a package.json.
 */
export async function manifestWriteRefusal(
  abs: string,
  after: string,
  before: () => Promise<string | null>,
): Promise<string | undefined> {
  const all = forms(abs);
  for (const f of all) {
    const why = binFileRefusal(f);
    if (why) return why;
  }
  if (!all.some((f) => path.basename(f).toLowerCase() === 'package.json')) return undefined;
  const old = await before();
  for (const f of all) {
    const why = manifestEditRefusal(f, old, after);
    if (why) return why;
  }
  return undefined;
}
