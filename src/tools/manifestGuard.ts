// The file tools' side of the package.json rule (issue 30, gaps G1/G2; src/sandbox/manifestBins.ts)
// and of the Python linters' keys (src/sandbox/lintKeys.ts, N7): a Write or Edit that adds or changes
// a durable-agent bin or a control key of a package.json (a script the person's git hooks run too),
// or the linter keys of a pyproject.toml, setup.cfg or tox.ini, or writes a `durable-agent` below a
// directory a package.json's `directories.bin` names, is refused in
// every permission mode — the sandbox undoes the same change after a command, and acceptEdits (or
// bypassPermissions) would otherwise let the file tools make it unasked.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { binFileRefusal, hookedFor, manifestEditRefusal, type HookedKeys } from '../sandbox/manifestBins';
import { hookManifestKeys } from '../sandbox/repoConfigTargets';
import { isLintManifest, lintEditRefusal } from '../sandbox/lintKeys';
import { toolConfigWriteRefusal } from '../sandbox/toolConfigTargets';

const NO_HOOKS: HookedKeys = { scripts: [], bins: [] };

/**
 * The keys the person's git hooks run in `manifest` (`npm run precommit`: red team o, O6): those of
 * the repository whose working tree holds it (the nearest directory above with a `.git`), with those
 * watched in every manifest (a hook that runs a script in every workspace: red team q, Q5).
 */
function hookedOf(manifest: string): HookedKeys {
  for (let d = path.dirname(manifest); ; d = path.dirname(d)) {
    if (fs.lstatSync(path.join(d, '.git'), { throwIfNoEntry: false }))
      return hookedFor(hookManifestKeys([d]), manifest) ?? NO_HOOKS;
    if (path.dirname(d) === d) return NO_HOOKS;
  }
}

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
    const why = binFileRefusal(f, hookedOf) ?? toolConfigWriteRefusal(f, after);
    if (why) return why;
  }
  const lint = (f: string) => isLintManifest(path.dirname(f), path.basename(f).toLowerCase());
  if (!all.some((f) => path.basename(f).toLowerCase() === 'package.json' || lint(f))) return undefined;
  const old = await before();
  for (const f of all) {
    const why = lint(f) ? lintEditRefusal(f, old, after) : manifestEditRefusal(f, old, after, hookedOf(f));
    if (why) return why;
  }
  return undefined;
}
