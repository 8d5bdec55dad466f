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
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { inAnchoredDirectory, removeEntry } from './anchored';
import { linkText, ownBytes, putBackLink } from './keptBytes';

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

/**
 * The nested keys of the same kind: `directories.bin`, which npm lists RECURSIVELY, each file's
 * name a bin (@npmcli/package-json `binDir`; red team n, N5c) — a project rarely has one, so adding
 * or changing it is put back like a control key, whatever lies below it.
 */
const NESTED_CONTROL_KEYS: readonly (readonly string[])[] = [['directories', 'bin']];

/**
 * What the person's own git hooks run through a package.json (src/sandbox/repoConfigTargets.ts
 * `hookManifestKeys`): the `scripts.<name>` their `npm run <name>` runs (husky's `npm run -s
 * precommit`: red team o, O6), and the bins their `npx <name>` runs (the project's own bin of that
 * name comes first, as durable-agent's does).
 */
export interface HookedKeys {
  scripts: readonly string[];
  bins: readonly string[];
  /** Top-level keys besides (`workspaces`, when a hook runs a script in every workspace: Q5). */
  keys?: readonly string[];
}

/**
 * The entry of a hooked-keys map (and of a baseline) that holds the keys watched in EVERY manifest of
 * the working directories, new ones too: a hook that runs `npm run lint --workspaces` (`pnpm -r`,
 * `lerna run`, `turbo run`) runs the `scripts.lint` of a workspace a command adds (red team q, Q5).
 */
export const EVERY_MANIFEST = '*';

/** The keys watched in `manifest`: its own and those of every manifest. */
export function hookedFor(map: ReadonlyMap<string, HookedKeys>, manifest: string): HookedKeys | undefined {
  const own = map.get(manifest);
  const every = map.get(EVERY_MANIFEST);
  if (!every) return own;
  if (!own) return every;
  const union = (a: readonly string[] = [], b: readonly string[] = []) => [...new Set([...a, ...b])].sort();
  return {
    scripts: union(own.scripts, every.scripts),
    bins: union(own.bins, every.bins),
    keys: union(own.keys, every.keys),
  };
}

/** Is this the name of a manifest whose durable-agent bin is watched (a package.json outside node_modules)? */
export function isWatchedManifest(dir: string, folded: string): boolean {
  return folded === 'package.json' && !dir.split(/[\\/]/).includes('node_modules');
}

/** What in one manifest makes the person's tools run something: compared before and after a change. */
export interface ManifestState {
  /** What makes `npx durable-agent` (or a bin a hook runs) run something here ('' when nothing). */
  bin: string;
  /** Each control key present (a JSON array of its path → its value as JSON text). */
  keys: Record<string, string>;
  /** The hooks' keys watched in this manifest besides the fixed ones (the same after the command). */
  hooked?: HookedKeys;
  /**
   * Over MAX_MANIFEST_BYTES, or a JSON the check cannot look through (nested too deep): its identity
   * (npm and the tools read it; the undo cannot judge it).
   */
  unjudged?: string;
  /** Its bytes when the command started (put back whole when it grew past MAX_MANIFEST_BYTES). */
  raw?: Buffer;
  /** It was there, but its bytes could not be read as the project's own file (a link on the way: V13c). */
  unkept?: true;
  /**
   * The link's own text when the path was a symbolic link: what is put back (never the bytes read
   * through it, which may be a file the sandbox cannot read: red team v, V13).
   */
  link?: string;
}

const NONE: ManifestState = { bin: '', keys: {} };
const NO_HOOKS: HookedKeys = { scripts: [], bins: [] };

/** Larger manifests are not parsed: one a command made or changed is put back whole (N5b). */
export const MAX_MANIFEST_BYTES = 8 << 20;
/** How many entries of a `directories.bin` tree are looked at for a bin (more: taken as holding one). */
const MAX_BIN_DIR_ENTRIES = 10_000;

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
  return isObject(json) ? json : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The value at `keys` (own properties only: `__proto__` is a key like any other in JSON). */
function valueAt(j: Record<string, unknown>, keys: readonly string[]): unknown {
  let v: unknown = j;
  for (const k of keys) {
    if (!isObject(v) || !Object.hasOwn(v, k)) return undefined;
    v = v[k];
  }
  return v;
}

/** Sets (or, with `undefined`, deletes) the value at `keys`, making the objects on the way. */
function setAt(j: Record<string, unknown>, keys: readonly string[], value: unknown): void {
  let o = j;
  for (const k of keys.slice(0, -1)) {
    if (!isObject(o[k]) || !Object.hasOwn(o, k)) {
      if (value === undefined) return;
      Object.defineProperty(o, k, { value: {}, enumerable: true, writable: true, configurable: true });
    }
    o = o[k] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1]!;
  if (value === undefined) delete o[last];
  else Object.defineProperty(o, last, { value, enumerable: true, writable: true, configurable: true });
}

/** The control keys of a manifest: the fixed ones, `directories.bin`, the scripts the person's hooks run. */
function controlKeys(hooked: HookedKeys): (readonly string[])[] {
  return [
    ...MANIFEST_CONTROL_KEYS.map((k) => [k]),
    ...NESTED_CONTROL_KEYS,
    ...hooked.scripts.map((s) => ['scripts', s]),
    ...(hooked.keys ?? []).map((k) => [k]),
  ];
}

/**
 * Does the tree npm lists for `directories.bin` hold an entry of one of these names, at any depth
 * (npm globs `**`)? Symlinked directories are followed too and dot entries count (more than npm's
 * glob takes: a bin found that npm would miss costs the key, not a hole). Over MAX_BIN_DIR_ENTRIES
 * entries: taken as holding one.
 */
function binDirHas(top: string, names: ReadonlySet<string>): 'yes' | 'no' | 'too many' {
  const seen = new Set<string>();
  const stack = [top];
  let count = 0;
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      const real = fs.realpathSync.native(dir);
      if (seen.has(real)) continue;
      seen.add(real);
      entries = fs.readdirSync(real, { withFileTypes: true });
    } catch {
      continue; // gone, not a directory, a link loop: npm lists nothing there either
    }
    for (const e of entries) {
      if (++count > MAX_BIN_DIR_ENTRIES) return 'too many';
      if (names.has(e.name)) return 'yes';
      if (e.isDirectory() || e.isSymbolicLink()) stack.push(path.join(dir, e.name));
    }
  }
  return 'no';
}

/** npm's directory of `directories.bin` (securePath: `\\` as `/`, kept inside the package whatever `..` it has). */
const binDirOf = (dir: string, bin: string) => path.join(dir, path.join('/', bin.replace(/\\/g, '/')));

/** The state of a parsed manifest that lies in `dir`. */
function stateOf(j: Record<string, unknown>, dir: string, hooked: HookedKeys = NO_HOOKS): ManifestState {
  const names = new Set(['durable-agent', ...hooked.bins]);
  const name = typeof j.name === 'string' ? j.name.replace(/^@[^/]+\//, '') : '';
  let bin = '';
  if (typeof j.bin === 'string' && names.has(binName(name))) bin = `bin ${j.bin}`;
  else if (isObject(j.bin))
    for (const [k, v] of Object.entries(j.bin))
      if (names.has(binName(k))) bin = `bin ${binName(k)} ${typeof v === 'string' ? v : JSON.stringify(v)}`;
  const binDir = valueAt(j, ['directories', 'bin']);
  if (!bin && typeof binDir === 'string') {
    const found = binDirHas(binDirOf(dir, binDir), names);
    if (found !== 'no')
      bin = `directories.bin ${binDir}${found === 'too many' ? ' (too many entries to look through)' : ''}`;
  }
  const keys: Record<string, string> = {};
  for (const k of controlKeys(hooked)) {
    const v = valueAt(j, k);
    if (v !== undefined) keys[JSON.stringify(k)] = JSON.stringify(v);
  }
  return hooked === NO_HOOKS ? { bin, keys } : { bin, keys, hooked };
}

/** A stat's identity: a manifest too large to parse is compared by it. */
const identity = (st: fs.Stats) => `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;

/** What a read saw (`id`: the file it opened, a link followed: the write back goes only over that file, W1). */
type Read =
  | { json: Record<string, unknown>; state: ManifestState; raw: Buffer; id: Pick<fs.Stats, 'dev' | 'ino'> }
  | { unjudged: string }
  | undefined;

/** The path is no longer the file a read opened (a link followed then, or another file swapped in since). */
class NotTheFileRead extends Error {}

function read(file: string, hooked: HookedKeys = NO_HOOKS): Read {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK); // followed, as npm follows it
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return undefined;
    if (st.size > MAX_MANIFEST_BYTES) return { unjudged: identity(st) };
    // At most one byte more than the limit, whatever it grows to meanwhile.
    const buf = Buffer.alloc(Math.min(st.size + 1, MAX_MANIFEST_BYTES + 1));
    let got = 0;
    for (let n = 1; n > 0 && got < buf.length; got += n) n = fs.readSync(fd, buf, got, buf.length - got, got);
    if (got > MAX_MANIFEST_BYTES) return { unjudged: identity(fs.fstatSync(fd)) };
    const raw = buf.subarray(0, got);
    const json = parse(raw.toString('utf8'));
    if (!json) return undefined; // npm reads no manifest from it either (the same JSON.parse)
    try {
      return { json, state: stateOf(json, path.dirname(file), hooked), raw, id: { dev: st.dev, ino: st.ino } };
    } catch {
      return { unjudged: identity(st) }; // never skipped for failing the check: judged as a whole
    }
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The control keys `after` added or changed since `before` (a key removed is not one). */
function changedKeys(before: ManifestState, after: ManifestState): string[] {
  return Object.keys(after.keys).filter((k) => after.keys[k] !== before.keys[k]);
}

const keyName = (id: string) => (JSON.parse(id) as string[]).join('.');

/**
 * What each manifest's durable-agent bin and control keys are now: the baseline a command is
 * compared with. `hooked`: the keys the person's hooks name in a manifest (absent ones too: a
 * command may create it).
 */
export function manifestBins(
  files: readonly string[],
  hooked: ReadonlyMap<string, HookedKeys> = new Map(),
): Map<string, ManifestState> {
  const out = new Map<string, ManifestState>();
  const every = hooked.get(EVERY_MANIFEST);
  if (every) out.set(EVERY_MANIFEST, { ...NONE, hooked: every });
  for (const f of new Set([...files, ...hooked.keys()])) {
    if (f === EVERY_MANIFEST) continue;
    const h = hookedFor(hooked, f) ?? NO_HOOKS;
    const m = read(f, h);
    const link = linkText(f);
    const base: ManifestState = {
      ...(h === NO_HOOKS ? NONE : { ...NONE, hooked: h }),
      ...(link !== undefined ? { link } : {}),
    };
    if (!m) out.set(f, base);
    else if ('unjudged' in m) out.set(f, { ...base, unjudged: m.unjudged });
    // What was read (followed, as npm reads it) is judged; the bytes kept to put back are read again
    // through the directory as checked, never through a link (V13, V13c): none when there is one.
    else if (link !== undefined) out.set(f, { ...m.state, link });
    else {
      const raw = ownBytes(f, MAX_MANIFEST_BYTES);
      out.set(f, raw ? { ...m.state, raw } : { ...m.state, unkept: true });
    }
  }
  return out;
}

/** Writes `text` over `f` (never through a directory swapped for a symlink; a symlinked `f` is removed). */
export function rewrite(f: string, text: string | Buffer, read?: Pick<fs.Stats, 'dev' | 'ino'>): void {
  // Through the directory as checked (anchored.ts: red team P5b, a directory swapped for a symlink
  // to another project between a check and the write put the agent's package.json there).
  inAnchoredDirectory(path.dirname(f), (at) => {
    const pinned = at(path.basename(f));
    const st = fs.lstatSync(pinned);
    if (st.isSymbolicLink()) fs.unlinkSync(pinned);
    // `text` was made from the file `read` opened: written only over that same file (red team w, W1: read
    // through a link to a HOME JSON, then a plain file swapped in, and HOME's bytes were written there).
    else if (read !== undefined && (st.dev !== read.dev || st.ino !== read.ino)) throw new NotTheFileRead();
    else {
      // A fresh random name, created exclusively (red team q, Q20: a symlink the command planted at the
      // pid-named temporary made the worker write through it into another project's package.json).
      const tmp = at(`${path.basename(f)}.da-${randomBytes(12).toString('hex')}.tmp`);
      try {
        fs.writeFileSync(tmp, text, { flag: 'wx' });
        fs.renameSync(tmp, pinned);
      } catch (err) {
        removeEntry(tmp);
        throw err;
      }
    }
  });
}

/** Moves `f` aside (`<name>.set-aside`) or removes it, through its directory as checked. */
export function setAsideOrRemove(f: string, aside: boolean): void {
  inAnchoredDirectory(path.dirname(f), (at) => {
    const name = path.basename(f);
    if (aside) fs.renameSync(at(name), at(`${name}.set-aside`));
    else fs.unlinkSync(at(name));
  });
}

/**
 * A manifest the command made or changed that cannot be judged key by key — over MAX_MANIFEST_BYTES
 * (N5b), nested too deep to look through, or not writable back as JSON: put back as it was, removed
 * when it is new, set aside when it could not be judged before either (the person's, changed).
 */
function undoWhole(f: string, why: string, was: ManifestState): string {
  const what = `${why}: it cannot be checked for a bin or control keys, which npm and the person's tools would read`;
  try {
    if (was.link !== undefined) return `${f}: ${putBackLink(f, was.link)} (this call made it so; ${what})`;
    if (was.raw) rewrite(f, was.raw);
    else setAsideOrRemove(f, was.unjudged !== undefined || was.unkept === true);
    return `${f}: ${was.raw ? 'put back as it was' : was.unjudged || was.unkept ? `moved to ${path.basename(f)}.set-aside` : 'removed'} (this call made it so; ${what})`;
  } catch (err) {
    return `${f}: could not be undone (${what}): ${(err as Error).message}`;
  }
}

const TOO_LARGE = `over ${MAX_MANIFEST_BYTES >> 20} MiB or nested too deep`;

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
    // A manifest the baseline does not know (new): judged with the keys watched in every manifest.
    const was = before.get(f) ?? before.get(EVERY_MANIFEST) ?? NONE;
    const m = read(f, was.hooked);
    if (!m) continue;
    if ('unjudged' in m) {
      if (was.unjudged !== m.unjudged) notes.push(undoWhole(f, TOO_LARGE, was).replace(f, rel(f)));
      continue;
    }
    const binChanged = m.state.bin !== '' && m.state.bin !== was.bin;
    const keys = changedKeys(was, m.state);
    if (!binChanged && keys.length === 0) continue;
    // Its keys when the command started were read through a link on the way: none is written back (V13c).
    if (was.unkept) {
      notes.push(undoWhole(f, 'read through a link when the command started', was).replace(f, rel(f)));
      continue;
    }
    const j = m.json;
    const names = new Set(['durable-agent', ...(was.hooked?.bins ?? [])]);
    if (binChanged) {
      if (typeof j.bin === 'string') delete j.bin;
      else if (isObject(j.bin)) for (const k of Object.keys(j.bin)) if (names.has(binName(k))) delete j.bin[k];
      if (m.state.bin.startsWith('directories.bin')) setAt(j, ['directories', 'bin'], undefined);
    }
    for (const k of keys) {
      const old = was.keys[k];
      setAt(j, JSON.parse(k) as string[], old === undefined ? undefined : (JSON.parse(old) as unknown));
    }
    const what = [
      ...(binChanged ? [`removed the bin (${m.state.bin}) the person's \`npx\` there would run`] : []),
      ...(keys.length > 0
        ? [`put back ${keys.map((k) => `"${keyName(k)}"`).join(', ')}, which the person's tools act on by themselves`]
        : []),
    ].join('; ');
    let text: string;
    try {
      text = `${JSON.stringify(j, null, 2)}\n`;
    } catch {
      notes.push(undoWhole(f, 'nested too deep to write back', was).replace(f, rel(f)));
      continue;
    }
    try {
      // A link when the command started: the keys read through it are not written into the project (V13).
      if (was.link !== undefined) notes.push(`${rel(f)}: ${putBackLink(f, was.link)} (${what}; this call changed it)`);
      else {
        rewrite(f, text, m.id);
        notes.push(`${rel(f)}: ${what} (this call added or changed it)`);
      }
    } catch (err) {
      if (err instanceof NotTheFileRead) notes.push(undoWhole(f, 'replaced while undone', was).replace(f, rel(f)));
      else notes.push(`${rel(f)}: could not be undone (${what}): ${(err as Error).message}`);
    }
  }
  return notes;
}

/**
 * Why the file tools refuse to write `after` over `before` (null: a new file) at `file`, or
 * undefined: a package.json outside node_modules whose durable-agent bin or control keys the write
 * adds or changes (the same rule the sandbox applies after a command), in every permission mode.
 * `hooked`: the keys the person's git hooks name in it (repoConfigTargets.ts `hookManifestKeys`).
 */
export function manifestEditRefusal(
  file: string,
  before: string | null,
  after: string,
  hooked: HookedKeys = NO_HOOKS,
  parseOf = parse, // manifestCommits.ts: one parse of a blob at many paths (red team y, Y3)
): string | undefined {
  const dir = path.dirname(file);
  if (!isWatchedManifest(dir, path.basename(file).normalize('NFC').toLowerCase())) return undefined;
  const refuse = (what: string) =>
    `Refused to write ${file}: the edit ${what}. package.json keys of this kind are protected in every permission mode (docs/security.md "package.json keys"); leave them to the person.`;
  if (Buffer.byteLength(after) > MAX_MANIFEST_BYTES)
    return refuse(`makes it larger than ${MAX_MANIFEST_BYTES >> 20} MiB, too large to check for a bin or control keys`);
  const next = parseOf(after);
  if (!next) return undefined; // npm and the tools read no manifest from it
  const prev = before === null ? undefined : parseOf(before);
  let was: ManifestState;
  let now: ManifestState;
  try {
    was = prev ? stateOf(prev, dir, hooked) : NONE;
    now = stateOf(next, dir, hooked);
  } catch {
    return refuse('is nested too deep to check for a bin or control keys');
  }
  const what: string[] = [];
  if (now.bin !== '' && now.bin !== was.bin)
    what.push(`a bin (${now.bin}), which the person's \`npx\` (or git hook) there would run`);
  const keys = changedKeys(was, now);
  if (keys.length > 0)
    what.push(
      `${keys.map((k) => `"${keyName(k)}"`).join(', ')}, which the person's formatter, linter, git hooks or package manager act on by themselves`,
    );
  if (what.length === 0) return undefined;
  return refuse(`adds or changes ${what.join(' and ')}`);
}

/**
 * Why the file tools refuse to create or write `file`, named `durable-agent` (or a bin the person's
 * hooks run: `hookedOf`), or undefined: a package.json above it (outside node_modules) has a
 * `directories.bin` whose tree holds it (npm lists it recursively: N5c), so the person's `npx` there
 * would run it.
 */
export function binFileRefusal(
  file: string,
  hookedOf: (manifest: string) => HookedKeys = () => NO_HOOKS,
): string | undefined {
  const name = path.basename(file);
  const home = path.dirname(file);
  for (let dir = home; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    const names = new Set(['durable-agent', ...(isWatchedManifest(dir, 'package.json') ? hookedOf(pkg).bins : [])]);
    const named = names.has(name) || names.has(name.toLowerCase());
    const m = named && isWatchedManifest(dir, 'package.json') ? read(pkg) : undefined;
    if (m && 'unjudged' in m)
      return `Refused to write ${file}: ${pkg} is too large or nested too deep to check for a "directories.bin" holding it.`;
    const bin = m ? valueAt(m.json, ['directories', 'bin']) : undefined;
    if (typeof bin === 'string') {
      const rel = path.relative(binDirOf(dir, bin), home);
      if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel)))
        return `Refused to write ${file}: ${pkg} names a directory holding it in "directories.bin" (npm lists it recursively), so the person's \`npx ${name}\` there would run it (protected in every permission mode, docs/security.md "package.json keys").`;
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}
