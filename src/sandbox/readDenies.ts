// The read denies a wrap is given: those that are there now (issue 32, CPU per sandboxed call).
//
// A call's `denyRead` lists every credential path the person may have (≈ 160 with the defaults),
// most of them absent. For each, @anthropic-ai/sandbox-runtime's Linux wrap (generateFilesystemArgs)
// asks the real path five times and stats it, and an absent one costs a thrown error each time: about
// a third of a sandboxed `true`'s CPU in this process. What it mounts for such an entry is nothing —
// `stat` fails with ENOENT or ENOTDIR, and an entry that is not there mounts nothing (its
// readDenyTargetOf). So the entries that stat says are absent are left out here, just before the wrap,
// in the same synchronous stretch, and the runtime judges the rest as before. Kept whatever stat says:
// - a pattern (`*`, `?`, `[…]`, `{…}`), an entry with `~` or a backslash, one not absolute or not
//   spelled as path.resolve spells it (the runtime reads those in ways of its own);
// - one that is, or lies above, a home directory's `.npm/_logs` or `.claude/debug`: the runtime makes
//   those writable by default unless a read deny covers them, judged by the entry's spelling, present
//   or not (sandbox-utils getDefaultWritePaths); and one at or above the home directory itself;
// - one stat cannot answer for (EACCES: a parent no one may search): the runtime then hides the
//   nearest directory it can inspect, which an absent entry never does;
// - all of them when none would be left (a wrap with no read deny at all is another policy).
// test/unit/sandbox-read-denies.test.ts checks that the wrapped command is the same, byte for byte,
// with the full list and with this one (present, absent, dangling and symlinked entries, an
// unsearchable parent, patterns, the home directory's defaults).
import { realpathSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CallRuntimeConfig } from './policy';

/** The home directories' writable defaults a read deny keeps closed (the runtime's HOME_CONVENIENCE_WRITE_DIRS). */
const HOME_DEFAULT_WRITES = ['.npm/_logs', '.claude/debug'];
const DEFAULT_WRITE_TAILS = ['/.npm', '/.npm/_logs', '/.claude', '/.claude/debug'];

const atOrAbove = (dir: string, p: string): boolean => p === dir || p.startsWith(dir === '/' ? '/' : `${dir}/`);

function realOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** Whether the runtime would read `entry` as a plain absolute name, the way path.resolve spells it. */
function plainName(entry: string): boolean {
  return path.isAbsolute(entry) && entry !== '/' && path.resolve(entry) === entry && !/[*?[\]{}~\\]/.test(entry);
}

/** Absent by stat (ENOENT, ENOTDIR): nothing the runtime would mount for it. */
function absent(entry: string): boolean {
  try {
    return statSync(entry, { throwIfNoEntry: false }) === undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOTDIR';
  }
}

/** `denyRead` without the plain entries that are absent now and cover no home default (see above). */
export function presentReadDenies(denyRead: readonly string[], homes: readonly string[]): string[] {
  const homeForms = [...new Set(homes.filter((h) => path.isAbsolute(h)).flatMap((h) => [h, realOr(h)]))];
  const defaults = homeForms.flatMap((h) => HOME_DEFAULT_WRITES.map((rel) => path.join(h, rel)));
  const kept = denyRead.filter(
    (entry) =>
      !plainName(entry) ||
      DEFAULT_WRITE_TAILS.some((tail) => entry.endsWith(tail)) ||
      defaults.some((d) => atOrAbove(entry, d)) ||
      !absent(entry),
  );
  return kept.length > 0 ? kept : [...denyRead];
}

/**
 * The call's configuration as the wrap is given it (Linux, where the runtime mounts per entry):
 * its read denies that are there now. Call it just before the wrap.
 */
export function wrapConfig(call: CallRuntimeConfig, platform: NodeJS.Platform = process.platform): CallRuntimeConfig {
  if (platform !== 'linux' || call.filesystem.disabled) return call;
  const homes = [os.homedir(), ...(process.env.HOME ? [process.env.HOME] : [])];
  const denyRead = presentReadDenies(call.filesystem.denyRead, homes);
  if (denyRead.length === call.filesystem.denyRead.length) return call;
  return { ...call, filesystem: { ...call.filesystem, denyRead } };
}
