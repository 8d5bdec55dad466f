// The project's own package.json as a way into the person's `npx durable-agent …` (red team m, M14).
//
// `npx <name>` with no `--package` runs, before anything in node_modules or a global install, a bin
// of that name that the package.json of the person's directory declares: `"bin": {"durable-agent":
// …}`, a string `bin` of a package named durable-agent, or a file of that name in its
// `directories.bin`. package.json is project code a session edits all the time, so it is not a
// protected file; what is undone is only a durable-agent bin that a sandboxed command added or
// changed: removed from the file (the rest of the command's edit stays), as it appears (liveGuard.ts)
// and after the call (sessionPlan.ts undoProtected). A package.json in node_modules is not one of
// these: npx reads the project's own, and node_modules/.bin/durable-agent is a protected tail.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Is this the name of a manifest whose durable-agent bin is watched (a package.json outside node_modules)? */
export function isWatchedManifest(dir: string, folded: string): boolean {
  return folded === 'package.json' && !dir.split(/[\\/]/).includes('node_modules');
}

interface Manifest {
  json: Record<string, unknown>;
  /** What makes `npx durable-agent` run something here ('' when nothing). */
  bin: string;
}

/** npm's name of a bin key (npm-normalize-package-bin: the last component, `\` and `:` as `/`). */
const binName = (key: string) => path.posix.basename(key.replace(/[\\:]/g, '/'));

function read(file: string): Manifest | undefined {
  let json: unknown;
  try {
    const st = fs.statSync(file); // followed, as npm follows it
    if (!st.isFile() || st.size > 4 << 20) return undefined;
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const j = json as Record<string, unknown>;
  const name = typeof j.name === 'string' ? j.name.replace(/^@[^/]+\//, '') : '';
  let bin = '';
  if (typeof j.bin === 'string' && binName(name) === 'durable-agent') bin = `bin ${j.bin}`;
  else if (j.bin && typeof j.bin === 'object')
    for (const [k, v] of Object.entries(j.bin as Record<string, unknown>))
      if (binName(k) === 'durable-agent') bin = `bin ${String(v)}`;
  const dirs = j.directories as Record<string, unknown> | undefined;
  if (!bin && dirs && typeof dirs.bin === 'string') {
    const p = path.join(path.dirname(file), dirs.bin, 'durable-agent');
    if (fs.lstatSync(p, { throwIfNoEntry: false })) bin = `directories.bin ${dirs.bin}`;
  }
  return { json: j, bin };
}

/** What each manifest's durable-agent bin is now ('' for none): the baseline a command is compared with. */
export function manifestBins(files: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of files) out.set(f, read(f)?.bin ?? '');
  return out;
}

/**
 * Removes a durable-agent bin that is new or changed since `before` from each manifest (the file
 * rewritten, the rest of it kept); one note per manifest undone.
 */
export function undoManifestBins(
  files: readonly string[],
  before: ReadonlyMap<string, string>,
  rel: (p: string) => string = (p) => p,
): string[] {
  const notes: string[] = [];
  for (const f of files) {
    const m = read(f);
    if (!m || m.bin === '' || m.bin === (before.get(f) ?? '')) continue;
    const j = m.json;
    if (typeof j.bin === 'string') delete j.bin;
    else if (j.bin && typeof j.bin === 'object')
      for (const k of Object.keys(j.bin))
        if (binName(k) === 'durable-agent') delete (j.bin as Record<string, unknown>)[k];
    if (m.bin.startsWith('directories.bin')) delete (j.directories as Record<string, unknown>).bin;
    try {
      // Never through a directory swapped for a symlink meanwhile; a package.json that is itself a
      // symlink is removed (its target may be outside what the call may write).
      if (fs.realpathSync.native(path.dirname(f)) !== path.dirname(f)) throw new Error('its directory moved');
      if (fs.lstatSync(f).isSymbolicLink()) fs.unlinkSync(f);
      else {
        const tmp = `${f}.da-${process.pid}.tmp`;
        fs.writeFileSync(tmp, `${JSON.stringify(j, null, 2)}\n`);
        fs.renameSync(tmp, f);
      }
      notes.push(
        `${rel(f)}: removed its durable-agent bin (${m.bin}), which this call added: the person's \`npx durable-agent\` there would run it`,
      );
    } catch (err) {
      notes.push(`${rel(f)}: its durable-agent bin could not be removed (${(err as Error).message})`);
    }
  }
  return notes;
}
