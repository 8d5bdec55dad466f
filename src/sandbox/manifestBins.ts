// The project's own package.json as a way into what the person runs without running a script.
//
// 1. The durable-agent bin (red team m, M14). `npx <name>` with no `--package` runs, before anything
//    in node_modules or a global install, a bin of that name that the package.json of the person's
//    directory declares: `"bin": {"durable-agent": …}`, a string `bin` of a package named
//    durable-agent, or a file of that name in its `directories.bin`.
// 2. The control keys (issue 30, gap G2): the key forms of protected control files. prettier,
//    stylelint, ESLint's legacy config and markdownlint-cli2 read their config (with `plugins`,
//    `parser`, `customRules` naming files they import) from package.json too, and an editor's
//    format/lint on save runs them; husky 4, lint-staged, commitlint, yorkie (`gitHooks`) and the
//    `pre-commit`/`pre-push` packages read package.json when the person's `git commit`/`git push`
//    runs their hook; corepack runs the package manager `packageManager` names (a URL too) on the
//    person's next `yarn`/`pnpm`. docs/security.md "package.json keys" says which keys and why.
//
// package.json is project code a session edits all the time, so it is not a protected file; what is
// undone is only a durable-agent bin or a control key that a sandboxed command added or changed: the
// bin removed, the key put back as it was (the rest of the command's edit stays), as it appears
// (liveGuard.ts) and after the call (sessionPlan.ts undoProtected). The file tools refuse an edit
// that makes the same change (`manifestEditRefusal`, Write and Edit). A package.json in node_modules
// is not one of these: npx and the tools read the project's own, and node_modules/.bin/durable-agent
// is a protected tail.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Keys of a package.json whose addition or change makes the person's tools run what it names (G2). */
export const MANIFEST_CONTROL_KEYS = [
  'prettier',
  'eslintConfig',
  'stylelint',
  'markdownlint-cli2',
  'husky',
  'lint-staged',
  'commitlint',
  'gitHooks',
  'pre-commit',
  'precommit',
  'pre-push',
  'prepush',
  'packageManager',
] as const;

/** Is this the name of a manifest whose durable-agent bin is watched (a package.json outside node_modules)? */
export function isWatchedManifest(dir: string, folded: string): boolean {
  return folded === 'package.json' && !dir.split(/[\\/]/).includes('node_modules');
}

/** What in one manifest makes the person's tools run something: compared before and after a change. */
export interface ManifestState {
  /** What makes `npx durable-agent` run something here ('' when nothing). */
  bin: string;
  /** Each control key present, as JSON text. */
  keys: Record<string, string>;
}

const NONE: ManifestState = { bin: '', keys: {} };

/** npm's name of a bin key (npm-normalize-package-bin: the last component, `\` and `:` as `/`). */
const binName = (key: string) => path.posix.basename(key.replace(/[\\:]/g, '/'));

/** A manifest's JSON as npm reads it (a leading BOM stripped, as json-parse-even-better-errors does). */
function parse(text: string): Record<string, unknown> | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
}

/** The state of a parsed manifest that lies in `dir`. */
function stateOf(j: Record<string, unknown>, dir: string): ManifestState {
  const name = typeof j.name === 'string' ? j.name.replace(/^@[^/]+\//, '') : '';
  let bin = '';
  if (typeof j.bin === 'string' && binName(name) === 'durable-agent') bin = `bin ${j.bin}`;
  else if (j.bin && typeof j.bin === 'object')
    for (const [k, v] of Object.entries(j.bin as Record<string, unknown>))
      if (binName(k) === 'durable-agent') bin = `bin ${String(v)}`;
  const dirs = j.directories as Record<string, unknown> | undefined;
  if (!bin && dirs && typeof dirs.bin === 'string') {
    const p = path.join(dir, dirs.bin, 'durable-agent');
    if (fs.lstatSync(p, { throwIfNoEntry: false })) bin = `directories.bin ${dirs.bin}`;
  }
  const keys: Record<string, string> = {};
  for (const k of MANIFEST_CONTROL_KEYS) if (Object.hasOwn(j, k)) keys[k] = JSON.stringify(j[k]) ?? 'undefined';
  return { bin, keys };
}

function read(file: string): { json: Record<string, unknown>; state: ManifestState } | undefined {
  try {
    const st = fs.statSync(file); // followed, as npm follows it
    if (!st.isFile() || st.size > 4 << 20) return undefined;
    const json = parse(fs.readFileSync(file, 'utf8'));
    return json && { json, state: stateOf(json, path.dirname(file)) };
  } catch {
    return undefined;
  }
}

/** The control keys `after` added or changed since `before` (a key removed is not one). */
function changedKeys(before: ManifestState, after: ManifestState): string[] {
  return Object.keys(after.keys).filter((k) => after.keys[k] !== before.keys[k]);
}

/** What each manifest's durable-agent bin and control keys are now: the baseline a command is compared with. */
export function manifestBins(files: readonly string[]): Map<string, ManifestState> {
  const out = new Map<string, ManifestState>();
  for (const f of files) out.set(f, read(f)?.state ?? NONE);
  return out;
}

/**
 * Removes a durable-agent bin that is new or changed since `before` from each manifest, and puts
 * back each control key the command added or changed (the file rewritten, the rest of it kept);
 * one note per manifest undone.
 */
export function undoManifestBins(
  files: readonly string[],
  before: ReadonlyMap<string, ManifestState>,
  rel: (p: string) => string = (p) => p,
): string[] {
  const notes: string[] = [];
  for (const f of files) {
    const m = read(f);
    if (!m) continue;
    const was = before.get(f) ?? NONE;
    const binChanged = m.state.bin !== '' && m.state.bin !== was.bin;
    const keys = changedKeys(was, m.state);
    if (!binChanged && keys.length === 0) continue;
    const j = m.json;
    if (binChanged) {
      if (typeof j.bin === 'string') delete j.bin;
      else if (j.bin && typeof j.bin === 'object')
        for (const k of Object.keys(j.bin))
          if (binName(k) === 'durable-agent') delete (j.bin as Record<string, unknown>)[k];
      if (m.state.bin.startsWith('directories.bin')) delete (j.directories as Record<string, unknown>).bin;
    }
    for (const k of keys) {
      const old = was.keys[k];
      if (old === undefined || old === 'undefined') delete j[k];
      else j[k] = JSON.parse(old) as unknown;
    }
    const what = [
      ...(binChanged
        ? [`removed the durable-agent bin (${m.state.bin}) the person's \`npx durable-agent\` there would run`]
        : []),
      ...(keys.length > 0
        ? [`put back ${keys.map((k) => `"${k}"`).join(', ')}, which the person's tools act on by themselves`]
        : []),
    ].join('; ');
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
      notes.push(`${rel(f)}: ${what} (this call added or changed it)`);
    } catch (err) {
      notes.push(`${rel(f)}: could not be undone (${what}): ${(err as Error).message}`);
    }
  }
  return notes;
}

/**
 * Why the file tools refuse to write `after` over `before` (null: a new file) at `file`, or
 * undefined: a package.json outside node_modules whose durable-agent bin or control keys the write
 * adds or changes (the same rule the sandbox applies after a command), in every permission mode.
 */
export function manifestEditRefusal(file: string, before: string | null, after: string): string | undefined {
  const dir = path.dirname(file);
  if (!isWatchedManifest(dir, path.basename(file).normalize('NFC').toLowerCase())) return undefined;
  const next = parse(after);
  if (!next) return undefined; // npm and the tools read no manifest from it
  const prev = before === null ? undefined : parse(before);
  const was = prev ? stateOf(prev, dir) : NONE;
  const now = stateOf(next, dir);
  const what: string[] = [];
  if (now.bin !== '' && now.bin !== was.bin)
    what.push(`a durable-agent bin (${now.bin}), which the person's \`npx durable-agent\` there would run`);
  const keys = changedKeys(was, now);
  if (keys.length > 0)
    what.push(
      `${keys.map((k) => `"${k}"`).join(', ')}, which the person's formatter, linter, git hooks or package manager act on by themselves`,
    );
  if (what.length === 0) return undefined;
  return `Refused to write ${file}: the edit adds or changes ${what.join(' and ')}. package.json keys of this kind are protected in every permission mode (docs/security.md "package.json keys"); leave them to the person.`;
}

/**
 * Why the file tools refuse to create or write `file`, named `durable-agent`, or undefined: a
 * package.json above it (outside node_modules) names its directory in `directories.bin`, so the
 * person's `npx durable-agent` there would run it.
 */
export function binFileRefusal(file: string): string | undefined {
  if (path.basename(file).toLowerCase() !== 'durable-agent') return undefined;
  const home = path.dirname(file);
  for (let dir = home; ; dir = path.dirname(dir)) {
    const m = isWatchedManifest(dir, 'package.json') ? read(path.join(dir, 'package.json')) : undefined;
    const bin = (m?.json.directories as Record<string, unknown> | undefined)?.bin;
    if (typeof bin === 'string' && path.resolve(dir, bin) === home)
      return `Refused to write ${file}: ${path.join(dir, 'package.json')} names its directory in "directories.bin", so the person's \`npx durable-agent\` there would run it (protected in every permission mode, docs/security.md "package.json keys").`;
    if (path.dirname(dir) === dir) return undefined;
  }
}
