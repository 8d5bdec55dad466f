// Where lefthook keeps the repositories of its `remotes:` (`remote:` before 1.0) in the git directory
// (`git rev-parse --git-path info`): `info/lefthook-remotes/<name>[-<ref>]` (1.2 and later),
// `info/remotes/<name>` before. It merges their configs into every run and pulls them with git there:
// writable by a command (`.git/info` is), they ran the agent's `run:` (session 26, round t's lead).
// Protected whole whenever lefthook's hook is there (absent: undone when a command makes them): whether
// a config uses remotes is the config's own business (`extends:`), and the directory means nothing to
// anything else. Their cached configs' `run:` lines run from the project's top: read as hook lines.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { regularText } from '../files/regularText';
import type { ProtectedEntry } from './protect';

const LEFTHOOK_REMOTES = ['lefthook-remotes', 'remotes'];
/** Remote repositories, and config files per remote, read for their `run:` lines at the most. */
const MAX_REMOTES = 32;
const CONFIG_BYTES = 256 * 1024;

type Entry = Omit<ProtectedEntry, 'existed'> & { existed?: boolean };

/**
 * The remotes' directories in the common git directory `commonDir` (entries to protect there) and the
 * `run:` lines of their cached configs (`configs:` / `config:` of the project's lefthook configurations
 * `bodies`, `lefthook.yml` by default), as `values(yaml, key)` reads YAML.
 */
export function lefthookRemotes(
  bodies: readonly string[],
  root: string,
  commonDir: string,
  values: (yaml: string, key: string) => string[],
): { entries: Entry[]; readings: { command: string; cwd: string }[] } {
  const out = { entries: [] as Entry[], readings: [] as { command: string; cwd: string }[] };
  const configs = new Set(['lefthook.yml']);
  for (const b of bodies)
    for (const v of [...values(b, 'configs'), ...values(b, 'config')])
      for (const c of v.split(/\s+/)) if (c !== '' && !c.startsWith('-')) configs.add(c);
  for (const name of LEFTHOOK_REMOTES) {
    const dir = path.join(commonDir, 'info', name);
    out.entries.push({ path: dir, kind: 'dir', ...(fs.existsSync(dir) ? {} : { absentUndone: true }) });
    let remotes: fs.Dirent[];
    try {
      remotes = fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory());
    } catch {
      continue; // none yet
    }
    for (const r of remotes.slice(0, MAX_REMOTES))
      for (const c of [...configs].slice(0, MAX_REMOTES)) {
        const body = regularText(path.join(dir, r.name, c), CONFIG_BYTES);
        for (const run of body === undefined ? [] : values(body, 'run')) out.readings.push({ command: run, cwd: root });
      }
  }
  return out;
}
