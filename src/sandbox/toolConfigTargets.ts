// What the person's environment tools load in a project because a control file of theirs names it
// (red team q, Q14; red team r, R3, R6, R9). The control files themselves are protected names
// (`.envrc`, `mise.toml` and its spellings), and direnv and mise trust them once; what they name is
// then loaded again on every prompt with no new question: files of shell code or variables
// (direnv's `source_env`, `dotenv`; mise's `_.source`, `_.file`, its `[hooks]`' scripts) and
// directories put first on the person's PATH (`PATH_add bin`, `layout node`, mise's `_.path`,
// `_.python.venv`). uv reads `.python-version` as an interpreter request that may be a PATH to a
// program (`./tools/python`). One class, read at each command's start and after it (and by the file
// tools before a write), so that no further name per tool is needed:
//  - a file a control file names is protected like a hook script (denied; made by the command: removed);
//  - in a directory a control file puts on PATH, an entry named like a program on the person's PATH
//    (`git`, `ls`, `make`, `npm` …) is protected: the person's own is denied, a new one removed. In a
//    directory a package manager writes (node_modules/.bin, a virtualenv's bin) it is fingerprinted
//    instead (changed by the command: removed), as M7's `.bin` names are;
//  - a `.python-version` that names a path (not a version) is protected, and so is the program it
//    names: one the command writes is removed with it. Version requests (`3.12`) stay the agent's.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { regularText } from '../files/regularText';
import { personPath } from '../hostProcess/programs';
import { hookControlFiles } from '../permissions/commandFiles';
import { tomlKeys } from './configKeys';
import { dotenvPathDirs, envrcNames, pathValueDirs, type EnvrcIo, type NamedByConfig } from './envrcNames';
import { LIST_MAX } from './nixFiles';
import { fingerprint, type ProtectedEntry } from './protect';
import { lstat } from './treeNames';

const MAX_CONFIG_BYTES = 256 * 1024;

/** A control file's text (no link followed, never a FIFO: files/regularText.ts). */
const readSmall = (file: string): string | undefined => regularText(file, MAX_CONFIG_BYTES);

/** mise's project configs, relative to a directory (its `config_root`), as mise looks them up. */
const MISE_CONFIGS = [
  'mise.toml',
  '.mise.toml',
  'mise.local.toml',
  '.mise.local.toml',
  '.config/mise.toml',
  '.config/mise/config.toml',
  '.config/mise/config.local.toml',
  'mise/config.toml',
  'mise/config.local.toml',
  '.mise/config.toml',
];
const PYTHON_VERSION_FILES = ['.python-version', '.python-versions'];
/** asdf's and mise's version file (a protected name itself). */
const TOOL_VERSIONS = '.tool-versions';

type Kind = 'envrc' | 'mise' | 'python' | 'toolVersions';

/** What kind of control file `file` is (by its place), and the directory its relative paths start from. */
function configKind(file: string): { kind: Kind; root: string } | undefined {
  const name = path.basename(file).toLowerCase();
  const dir = path.dirname(file);
  if (name === '.envrc') return { kind: 'envrc', root: dir };
  if (name === TOOL_VERSIONS) return { kind: 'toolVersions', root: dir };
  if (PYTHON_VERSION_FILES.includes(name)) return { kind: 'python', root: dir };
  if (/^\.?mise(\.[^/]+)?\.toml$/.test(name)) {
    const up = path.basename(dir);
    return { kind: 'mise', root: up === '.config' ? path.dirname(dir) : dir };
  }
  if (name === 'config.toml' || name === 'config.local.toml' || name.endsWith('.toml')) {
    const parts = dir.split(path.sep);
    let i = parts.length - 1;
    while (i >= 0 && parts[i] !== 'mise' && parts[i] !== '.mise') i--;
    if (i > 0 && parts.length - i <= 2) {
      const base = parts.slice(0, i);
      if (base[base.length - 1] === '.config') base.pop();
      return { kind: 'mise', root: base.join(path.sep) || path.sep };
    }
  }
  return undefined;
}

/** The control files of these kinds in `dir` now (never throws: a `.config` FILE holds none — red team u, U8). */
function configsIn(dir: string): string[] {
  return ['.envrc', TOOL_VERSIONS, ...PYTHON_VERSION_FILES, ...MISE_CONFIGS]
    .map((n) => path.join(dir, n))
    .filter((f) => lstat(f)?.isFile());
}

/** A request line of `.python-version` that is a path to a program (uv, rye), not a version. */
const pathRequest = (line: string) => {
  const l = line.trim();
  return (
    l !== '' &&
    !l.startsWith('#') &&
    (l.includes('/') || l.includes(path.sep) || l.startsWith('.') || l.startsWith('~'))
  );
};

/**
 * A `path:` tool version (mise's `[tools] node = "path:./tools/node"`, asdf's and mise's `.tool-versions`
 * `nodejs path:./tools/node`): the tool is that directory, its `bin` on the person's PATH (round t's
 * lead) — its programs named like the person's, and the tool's own name (`terraform` for
 * `aqua:hashicorp/terraform`), are protected there. Relative: from the config's directory.
 */
function pathVersionDir(tool: string, version: string, root: string): NamedByConfig['pathDirs'][number] | undefined {
  const m = /^path:(.+)$/.exec(version.trim());
  if (!m) return undefined;
  const dir = path.resolve(root, m[1]!.replace(/^~(?=\/|$)/, os.homedir()));
  const name = tool.split(/[:/]/).pop()!.replace(/@.*$/, '');
  return { dir: path.join(dir, 'bin'), managed: false, ...(name ? { names: [name] } : {}) };
}

/** What a `.tool-versions` names: the `bin` of each `path:` version. */
function toolVersionsNames(text: string, root: string): NamedByConfig {
  const pathDirs: NamedByConfig['pathDirs'] = [];
  for (const line of text.split('\n')) {
    const [tool, ...versions] = line.replace(/#.*$/, '').trim().split(/\s+/);
    for (const v of tool ? versions : []) {
      const d = pathVersionDir(tool!, v, root);
      if (d) pathDirs.push(d);
    }
  }
  return { files: [], pathDirs };
}

const strings = (raw: string) => [...raw.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2] ?? '');

/** What a mise config names: `_.source`/`_.file` files, `_.path` and `_.python.venv` directories, `[hooks]` scripts. */
function miseNames(text: string, root: string, roots: readonly string[]): NamedByConfig {
  const out: NamedByConfig = { files: [], pathDirs: [] };
  let keys: ReturnType<typeof tomlKeys>;
  try {
    keys = tomlKeys(text);
  } catch {
    return out;
  }
  const at = (s: string) => {
    const v = s.replace(/\{\{\s*config_root\s*\}\}/g, root).replace(/^~(?=\/|$)/, os.homedir());
    return v.includes('{{') || v.includes('$') ? undefined : path.resolve(root, v);
  };
  const hooks: string[] = [];
  for (const k of keys) {
    const [top, u, what, sub] = k.path;
    if (top === 'hooks' && k.path.length >= 2) hooks.push(...strings(k.value));
    if (top === 'tools' && u !== undefined)
      for (const v of strings(k.value)) {
        const d = pathVersionDir(u, v, root);
        if (d) out.pathDirs.push(d);
      }
    if (top === 'env' && u === 'PATH')
      out.pathDirs.push(
        ...strings(k.value)
          .flatMap((v) => pathValueDirs(v, root))
          .map((dir) => ({ dir, managed: false })),
      );
    if (top !== 'env' || u !== '_') continue;
    const paths = strings(k.value)
      .map(at)
      .filter((p): p is string => p !== undefined);
    if (what === 'source') out.files.push(...paths);
    else if (what === 'file') {
      out.files.push(...paths);
      for (const f of paths) out.pathDirs.push(...dotenvPathDirs(f, readSmall).map((dir) => ({ dir, managed: false })));
    } else if (what === 'path') out.pathDirs.push(...paths.map((dir) => ({ dir, managed: false })));
    else if (what === 'python' && sub === 'venv')
      out.pathDirs.push(
        ...paths.filter((p) => !p.endsWith('.toml')).map((p) => ({ dir: path.join(p, 'bin'), managed: true })),
      );
  }
  if (hooks.length > 0)
    out.files.push(
      ...hookControlFiles(
        hooks.map((command) => ({ command })),
        root,
        roots,
        os.homedir(),
        { runners: false },
      ),
    );
  return out;
}

/** The bin directories under a `.direnv` (its layouts' virtualenvs and prefixes). */
function layoutBins(direnvDir: string): string[] {
  const out = [path.join(direnvDir, 'bin')];
  try {
    for (const d of fs.readdirSync(direnvDir, { withFileTypes: true }))
      if (d.isDirectory()) out.push(path.join(direnvDir, d.name, 'bin'));
  } catch {
    // no layout yet
  }
  return out;
}

const isDir = (p: string): boolean => {
  try {
    return fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false; // a file on the way (ENOTDIR), unreadable
  }
};

/** A directory's first LIST_MAX entries (none when it cannot be read; no link followed). */
function list(dir: string): { name: string; dir: boolean }[] {
  const out: { name: string; dir: boolean }[] = [];
  let d: fs.Dir | undefined;
  try {
    d = fs.opendirSync(dir);
    for (let e = d.readSync(); e && out.length < LIST_MAX; e = d.readSync())
      out.push({ name: e.name, dir: e.isDirectory() });
  } catch {
    // not there, or not a directory
  } finally {
    d?.closeSync();
  }
  return out;
}

const ENVRC_IO: EnvrcIo = { read: readSmall, isDir, list, layoutBins };

/** `named` with the files its shell lines run (a Nix `shellHook`), read like a hook's. */
function withRuns(named: NamedByConfig, roots: readonly string[]): NamedByConfig {
  for (const r of named.runs ?? [])
    named.files.push(
      ...hookControlFiles(
        r.lines.map((command) => ({ command })),
        r.cwd,
        roots,
        os.homedir(),
        { runners: false },
      ),
    );
  return named;
}

/** What one control file names (nothing for a file it cannot read). */
export function namedBy(file: string, roots: readonly string[]): NamedByConfig {
  const none: NamedByConfig = { files: [], pathDirs: [] };
  const k = configKind(file);
  const text = k && readSmall(file);
  if (!k || text === undefined) return none;
  if (k.kind === 'envrc') return withRuns(envrcNames(text, k.root, ENVRC_IO), roots);
  if (k.kind === 'mise') return miseNames(text, k.root, roots);
  if (k.kind === 'toolVersions') return toolVersionsNames(text, k.root);
  const lines = text.split('\n').filter(pathRequest);
  if (lines.length === 0) return none;
  // The file itself too: a version file naming a path is the person's (kept) or the command's (removed).
  return {
    files: [file, ...lines.map((l) => path.resolve(k.root, l.trim().replace(/^~(?=\/|$)/, os.homedir())))],
    pathDirs: [],
  };
}

/** Programs a person runs by name whatever their PATH holds besides. */
const BASE_PROGRAMS = [
  'git',
  'ls',
  'cat',
  'make',
  'sh',
  'bash',
  'env',
  'sudo',
  'ssh',
  'node',
  'npm',
  'npx',
  'python',
  'python3',
  'pip',
];
/** The system's own program directories: what a package manager's bin must not shadow. */
const SYSTEM_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];
const programCache = new Map<string, { at: number; names: Set<string> }>();

/**
 * The names of the programs on the person's PATH (cached for 60 s). `system`: those of the system's
 * own directories only — for a directory a package manager writes, where a dependency's bin may
 * share a name with a tool the person installed elsewhere (`tsc`, `eslint`) and is the project's.
 */
export function personPrograms(system = false): Set<string> {
  const dirs = system ? SYSTEM_DIRS : (personPath() ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d));
  const key = dirs.join('\0');
  const hit = programCache.get(key);
  if (hit && Date.now() - hit.at < 60_000) return hit.names;
  const names = new Set(BASE_PROGRAMS);
  for (const dir of dirs) {
    try {
      for (const n of fs.readdirSync(dir)) names.add(n);
    } catch {
      // not there
    }
  }
  programCache.set(key, { at: Date.now(), names });
  return names;
}

const inside = (p: string, roots: readonly string[]) =>
  roots.some((r) => {
    const rel = path.relative(r, p);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  });

type Entry = Omit<ProtectedEntry, 'existed'> & { existed?: boolean };

/** The control files of these tools that apply in `roots`: there, in each ancestor, and `found` (deeper ones). */
function controlFilesFor(roots: readonly string[], found: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const r of roots)
    for (let d = path.resolve(r); ; d = path.dirname(d)) {
      for (const f of configsIn(d)) out.add(f);
      if (path.dirname(d) === d) break;
    }
  for (const f of found) if (configKind(f) && lstat(f)?.isFile()) out.add(f);
  return [...out];
}

/**
 * The entries of a PATH directory named like one of the person's programs (the directory itself when
 * it is a link: the link, and the entries of where it leads inside `roots`). `roots` themselves count
 * (`PATH_add .`).
 */
function addPathDir(
  { dir, managed, names }: NamedByConfig['pathDirs'][number],
  roots: readonly string[],
  out: Map<string, Entry>,
): void {
  if (!inside(dir, roots) && !roots.includes(dir)) return;
  let real = dir;
  if (lstat(dir)?.isSymbolicLink()) {
    out.set(dir, { path: dir, kind: 'file' });
    try {
      real = fs.realpathSync(dir);
    } catch {
      return;
    }
    if (!inside(real, roots)) return;
  }
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(real, { withFileTypes: true });
  } catch {
    return;
  }
  const programs = personPrograms(managed);
  for (const e of entries) {
    // A directory is never run by name (`test/` beside a `/usr/bin/test`): only what could be.
    if ((!programs.has(e.name) && !names?.includes(e.name)) || e.isDirectory()) continue;
    const p = path.join(real, e.name);
    if (out.has(p)) continue;
    out.set(p, managed ? { path: p, kind: 'file', loose: fingerprint(p) } : { path: p, kind: 'file' });
  }
}

/**
 * The protected entries the working directories' direnv, mise and uv control files name (see the
 * head of this file), inside `roots`. `found`: control files found deeper (the protection scan's
 * `.envrc` and mise configs, a `.python-version` beside a recorded pyproject.toml).
 */
export function toolConfigTargets(roots: readonly string[], found: Iterable<string> = []): Entry[] {
  const out = new Map<string, Entry>();
  for (const config of controlFilesFor(roots, found)) {
    const named = namedBy(config, roots);
    for (const f of named.files) if (inside(f, roots) && !out.has(f)) out.set(f, { path: f, kind: 'file' });
    for (const d of named.pathDirs) addPathDir(d, roots, out);
    // A directory loaded whole (a Nix `readDir`, `.flox`): denied; absent, undone when a command makes it.
    for (const d of named.dirs ?? [])
      if (inside(d, roots) && out.get(d)?.kind !== 'dir')
        out.set(d, { path: d, kind: 'dir', ...(lstat(d) ? {} : { absentUndone: true }) });
  }
  return [...out.values()];
}

/**
 * Why the file tools refuse to write `after` at `abs` in every mode, or undefined: a file a direnv or
 * mise control file above it loads, a program named like one of the person's in a directory such a
 * file puts on PATH, a `.python-version` naming a path. The sandbox undoes the same after a command.
 */
export function toolConfigWriteRefusal(abs: string, after: string): string | undefined {
  const name = path.basename(abs).toLowerCase();
  if (PYTHON_VERSION_FILES.includes(name) && after.split('\n').some(pathRequest))
    return `Refused to write ${abs}: a ${name} naming a path makes the person's uv run that program as their Python (docs/security.md, surface "what the person's environment tools load"); write a version (3.12) or leave it to the person.`;
  const roots = [path.parse(abs).root];
  for (let d = path.dirname(abs); ; d = path.dirname(d)) {
    for (const config of configsIn(d)) {
      const named = namedBy(config, roots);
      const why =
        named.files.includes(abs) || (named.dirs ?? []).some((d) => abs.startsWith(`${d}${path.sep}`))
          ? 'loads it with no new approval'
          : named.pathDirs.some(
                (p) =>
                  p.dir === path.dirname(abs) &&
                  (personPrograms(p.managed).has(path.basename(abs)) || p.names?.includes(path.basename(abs))),
              )
            ? `puts its directory on the person's PATH, and ${path.basename(abs)} is the name of one of their programs`
            : undefined;
      if (why)
        return `Refused to write ${abs}: the person's ${config} ${why}; it is protected in every permission mode (docs/security.md, surface "what the person's environment tools load"). Leave it to the person.`;
    }
    if (path.dirname(d) === d) return undefined;
  }
}
