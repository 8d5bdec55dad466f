// The Nix files a direnv `use nix` / `use flake` evaluates, read without running Nix (red team v, V12; red
// team z, Z2, Z2b, Z3): the files `use` names, then what their path literals name, in turn. A literal of any
// extension is a file Nix reads (`importTOML ./devshell.toml`, `builtins.readFile ./nix/hook.txt`, niv's
// `./. + "/sources.json"`): protected; read as Nix only when it is `.nix` or has no extension (a directory:
// its `default.nix`). A directory literal used with `+` or listed (`readDir ./modules`,
// `listFilesRecursive`) is protected whole, absent names too — a NEW file there is what Nix picks up — unless
// it holds the `.envrc` (the project itself: its `.nix` files and its subdirectories' `default.nix` then).
// `-I name=path`, `-I path` and NIX_PATH entries resolve `<name>` / `<name/sub>`. Linear readers, bounded
// by MAX_NIX_FILES, MAX_WHOLE_DIRS and the listing's LIST_MAX.
import * as path from 'node:path';
import { tomlStrings } from './configText';
import { resolveWord } from './envrcWords';

/** What the Nix readers may look at: a file's text, whether a path is a directory, a directory's entries. */
export interface NixIo {
  read: (file: string) => string | undefined;
  isDir: (p: string) => boolean;
  /** A directory's entries (LIST_MAX at the most; none when it cannot be read). */
  list: (dir: string) => { name: string; dir: boolean }[];
}

/** A `<name>` search path (`-I nixpkgs=./nix/pinned`; no name: `-I ./nix`, `<x>` is `./nix/x`). */
export interface SearchPath {
  name?: string;
  dir: string;
}

/** What the Nix evaluation reads: files (protected), directories protected whole, shellHook texts. */
export interface NixFollowed {
  files: string[];
  dirs: string[];
  hooks: string[];
}

/** A directory's entries read at the most (the project itself read for `.nix` names). */
export const LIST_MAX = 256;
/** Files followed through path literals, at the most (per `.envrc`). */
const MAX_NIX_FILES = 64;
/** Directories protected whole, at the most (per `.envrc`). */
const MAX_WHOLE_DIRS = 32;

/** Files each Nix `use` reads (Nix code, evaluated by the person's direnv), in the directory it names. */
const USE_FILES: Record<string, string[]> = {
  nix: ['shell.nix', 'default.nix'],
  flake: ['flake.nix', 'flake.lock'],
};
/** Options of `nix-shell` / `nix print-dev-env` and how many words each takes after it. */
const NIX_OPTION_WORDS: Record<string, number> = {
  '-A': 1,
  '--attr': 1,
  '-I': 1,
  '--arg': 2,
  '--argstr': 2,
  '--option': 2,
  '--override-input': 2,
  '--profile': 1,
};

/** A search path entry (`nixpkgs=./nix/pinned`, `./nix`) from `dir`; undefined for a URL or channel. */
export function searchPath(entry: string, dir: string): SearchPath | undefined {
  const m = /^(?:([\w.+-]+)=)?(.*)$/s.exec(entry)!;
  if (/^[\w+.-]+:/.test(m[2]!)) return undefined;
  const p = resolveWord(m[2]!, dir);
  return p === undefined ? undefined : { ...(m[1] ? { name: m[1] } : {}), dir: p };
}

/** The search paths of a NIX_PATH value (`$NIX_PATH` and URLs left out). */
export const nixPathValue = (value: string, dir: string): SearchPath[] =>
  value
    .split(/:(?!\/\/)/)
    .filter((p) => !/^\$\{?NIX_PATH\}?$/.test(p))
    .map((p) => searchPath(p, dir))
    .filter((p): p is SearchPath => p !== undefined);

/** What a `use nix <args>` / `use flake <installable>` names: files, `-I` search paths, `--arg` expressions. */
export interface UseArgs {
  files: string[];
  search: SearchPath[];
  exprs: string[];
}

/**
 * The Nix files a `use nix <args>` / `use flake <installable>` reads (round t's lead): `use nix ./ci/shell.nix`
 * (a file; a directory: its `default.nix`), `use flake ./nix#dev` / `path:./nix` (that directory's
 * flake.nix and flake.lock). With no argument, the defaults in the `.envrc`'s directory. `-p`/`--packages`
 * names packages, not files; a flake reference with a scheme (`github:`) is no project file. `-I` (Z3):
 * a search path; `--arg name expr`: Nix code (its path literals are followed).
 */
export function useFiles(kind: string, args: readonly string[], dir: string): UseArgs {
  const out: UseArgs = { files: [], search: [], exprs: [] };
  const defaults = USE_FILES[kind];
  if (!defaults) return out;
  const named: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-p' || a === '--packages') break;
    if (a === '-I' && args[i + 1] !== undefined) {
      const s = searchPath(args[i + 1]!, dir);
      if (s) out.search.push(s);
    }
    if (a === '--arg' && args[i + 2] !== undefined) out.exprs.push(args[i + 2]!);
    if (a.startsWith('-')) {
      i += NIX_OPTION_WORDS[a] ?? 0;
      continue;
    }
    named.push(a);
  }
  if (named.length === 0) out.files.push(...defaults.map((f) => path.join(dir, f)));
  for (const a of named) {
    const p = kind === 'flake' ? flakeRefDir(a, dir) : resolveWord(a, dir);
    if (p === undefined) continue;
    if (kind === 'nix' && p.endsWith('.nix')) out.files.push(p);
    else out.files.push(...(kind === 'nix' ? ['default.nix', 'shell.nix'] : defaults).map((f) => path.join(p, f)));
  }
  return out;
}

/**
 * The project directory a flake reference names (`./nix#dev`, `path:./nix`, `git+file:.?dir=nix/dev`:
 * `dir=` is a subdirectory), from `dir`; undefined for one with another scheme (`github:`, `nixpkgs:`:
 * no project file) or an expansion.
 */
export function flakeRefDir(ref: string, dir: string): string | undefined {
  const m = /^(?:path:|git\+file:(?:\/\/)?)?([^#?]*)(\?[^#]*)?/.exec(ref)!;
  const at = m[1]!;
  if (/^[\w+.-]+:/.test(at)) return undefined;
  const p = resolveWord(at === '' ? '.' : at, dir);
  const sub = /[?&]dir=([^&]*)/.exec(m[2] ?? '')?.[1];
  return p === undefined || sub === undefined ? p : path.resolve(p, decodeURIComponent(sub));
}

/** Path literals in Nix code (`import ./nix/shell.nix`, `${./scripts/env.sh}`, `./.`, `../x`). */
const NIX_PATHS = /(?<![\w/.-])(\.{1,2}(?:\/[\w.+-]+)+)(?![\w/])/g;
/** A flake input's project directory (`inputs.dev.url = "path:./nix/dev"`, `git+file:`): its flake.nix and lock. */
const FLAKE_INPUTS = /\burl\s*=\s*"((?:path:|git\+file:)[^"]*)"/g;
/** `<name>` / `<name/sub>` search path lookups. */
const ANGLE = /<([\w.+-]+)((?:\/[\w.+-]+)*)>/g;
/** `+ "plain string"` (no antiquotation) at lastIndex, and `+` alone. */
const PLUS_STRING = /\s*\+\s*"((?:[^"\\$]|\\.|\$(?!\{))*)"/y;
const PLUS = /\s*\+\s*(?:"([^"$\\]*))?/y;
/** Calls that read a directory's entries (nixpkgs lib, import-tree; packagesFromDirectoryRecursive's `directory =`). */
const LISTS = ['readDir', 'listFilesRecursive', 'importTree', 'import-tree'];

/** What precedes a path literal in Nix code, as far as its reading goes. */
interface Preceding {
  /** Listed: `readDir ./modules`, `directory = ./pkgs`. */
  list: boolean;
  /** Bound to this name (`dir = ./x`, `{ dir ? ./x }`). */
  name?: string;
  /** Read as shell code (`shellHook = builtins.readFile ./x`) or TOML (`importTOML ./x`). */
  as?: 'hook' | 'toml';
}

/** A character of a Nix identifier or attribute path (`builtins.readDir`, `x86_64-linux`, `x'`). */
const wordChar = (c: string | undefined): boolean =>
  c !== undefined &&
  ((c >= 'a' && c <= 'z') ||
    (c >= 'A' && c <= 'Z') ||
    (c >= '0' && c <= '9') ||
    c === '_' ||
    c === "'" ||
    c === '.' ||
    c === '-');

/**
 * What precedes the literal at `at`, read backwards from it over 80 characters at the most (a regex tried
 * at each position of a window was quadratic in it, and a slice per literal fed the collector).
 */
function preceding(text: string, at: number): Preceding {
  const stop = Math.max(0, at - 80);
  const blank = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  const back = (j: number, skip: (c: string | undefined) => boolean) => {
    while (j >= stop && skip(text[j])) j--;
    return j;
  };
  const word = (j: number) => {
    const end = j + 1;
    j = back(j, wordChar);
    return { word: text.slice(j + 1, end), j };
  };
  let j = back(at - 1, (c) => blank(c) || c === '(');
  const c = text[j];
  if (c === '=' || c === '?') {
    if (c === '=' && /[=!<>]/.test(text[j - 1] ?? '')) return { list: false };
    const w = word(back(j - 1, blank));
    if (!/^[A-Za-z_][\w'-]*$/.test(w.word)) return { list: false };
    return { list: w.word === 'directory', name: w.word };
  }
  const w = word(j);
  const last = w.word.slice(w.word.lastIndexOf('.') + 1);
  if (LISTS.includes(last)) return { list: true };
  if (last === 'importTOML') return { list: false, as: 'toml' };
  if (last !== 'readFile') return { list: false };
  j = back(w.j, blank);
  const attr = text[j] === '=' ? word(back(j - 1, blank)).word : '';
  return attr === 'shellHook' || attr === 'enterShell' ? { list: false, as: 'hook' } : { list: false };
}

/** What a path `p` (a literal, or one built on a directory literal) makes Nix read: files, and whether they are Nix code. */
function literalFiles(p: string, from: string, isDir: (p: string) => boolean): { file: string; nix: boolean }[] {
  const last = path.basename(p);
  if (/\.nix$/.test(last)) return [{ file: p, nix: true }];
  if (/^\.?[^.]*$/.test(last) || last === '..' || last === '.') {
    if (!isDir(p)) return [{ file: p, nix: true }]; // an extension-less file (or none yet: it is held)
    const out = [{ file: path.join(p, 'default.nix'), nix: true }];
    // In a flake, a directory literal may be an input (`inputs.dev.url = "./nix/dev"`).
    if (path.basename(from) === 'flake.nix')
      out.push({ file: path.join(p, 'flake.nix'), nix: true }, { file: path.join(p, 'flake.lock'), nix: false });
    return out;
  }
  // Any other extension (Z2): data Nix reads, and often code (TOML a devshell runs, a readFile shellHook).
  return [{ file: p, nix: false }];
}

/** The evaluation's state while following: files in order, which are Nix, whole directories, hooks. */
class Follow {
  readonly files: string[] = [];
  readonly nix = new Set<string>();
  readonly dirs: string[] = [];
  readonly hooks: string[] = [];
  private readonly listed = new Set<string>();
  private readonly dirCache = new Map<string, boolean>();
  constructor(
    readonly io: NixIo,
    readonly envrcDir: string,
  ) {}

  /** io.isDir, once per path (a text may repeat a literal thousands of times). */
  readonly isDir = (p: string): boolean => {
    let v = this.dirCache.get(p);
    if (v === undefined && this.dirCache.size < 4 * LIST_MAX) this.dirCache.set(p, (v = this.io.isDir(p)));
    return v ?? this.io.isDir(p);
  };

  add(f: string, code: boolean): void {
    if (code) this.nix.add(f);
    if (!this.files.includes(f) && this.files.length < MAX_NIX_FILES) this.files.push(f);
  }

  /**
   * A directory Nix lists or builds paths on: protected whole (absent too), its `.nix` files and its
   * subdirectories' `default.nix` followed; one that holds the `.envrc` (the project) only those.
   */
  whole(d: string): void {
    if (this.listed.has(d) || this.listed.size >= MAX_WHOLE_DIRS) return;
    this.listed.add(d);
    const holdsProject = !path.relative(d, this.envrcDir).startsWith('..');
    if (!holdsProject) {
      this.dirs.push(d);
    }
    for (const e of this.io.list(d))
      if (e.dir) this.add(path.join(d, e.name, 'default.nix'), true);
      else if (e.name.endsWith('.nix')) this.add(path.join(d, e.name), true);
  }
}

/** What `p` makes Nix read, added to `s` (and read as a hook's lines when `as` says it is shell code or TOML). */
function addLiteral(s: Follow, p: string, from: string, as?: Preceding['as']): void {
  for (const l of literalFiles(p, from, s.isDir)) {
    s.add(l.file, l.nix);
    const body = as ? s.io.read(l.file) : undefined;
    if (body !== undefined) s.hooks.push(...(as === 'toml' ? tomlStrings(body) : [body]));
  }
}

/**
 * `base` followed at `end` by `+ …`: built on with plain strings (`./. + "/nix/dev.nix"`), that path; with
 * anything else (`./modules + "/${f}"`), the directory the built path is in, whole. False: no `+`. Reads
 * 400 characters past `end` at the most.
 */
function followPlus(s: Follow, text: string, base: string, end: number, from: string): boolean {
  let suffix = '';
  let at = end;
  for (PLUS_STRING.lastIndex = at; at - end < 400; PLUS_STRING.lastIndex = at) {
    const m = PLUS_STRING.exec(text);
    if (!m) break;
    suffix += m[1]!;
    at = PLUS_STRING.lastIndex;
  }
  PLUS.lastIndex = at;
  const more = PLUS.exec(text);
  if (more) {
    const built = suffix + (more[1] ?? '');
    const cut = built.lastIndexOf('/');
    s.whole(cut < 0 ? base : path.resolve(base + built.slice(0, cut + 1)));
  } else if (suffix !== '') addLiteral(s, path.resolve(base + suffix), from);
  return more !== null || suffix !== '';
}

/** Names bound to a path literal per file, at the most (boundDirs). */
const MAX_BOUND = 32;

/**
 * One path literal at `at` in `text` (the Nix file `from`): what it makes Nix read — built on (followPlus),
 * listed (`readDir ./modules`: whole), or itself; bound to a name (`dir = ./x;`): recorded in `names`.
 */
function followLiteral(s: Follow, text: string, lit: string, at: number, from: string, names: Map<string, string>) {
  const base = path.resolve(path.dirname(from), lit);
  if (followPlus(s, text, base, at + lit.length, from)) return;
  const before = preceding(text, at);
  if (before.list) return s.whole(base);
  if (before.name !== undefined && names.size < MAX_BOUND) names.set(before.name, base);
  addLiteral(s, base, from, before.as);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Names bound to a path literal (`dir = ./overlays;`) that the text builds on (followPlus) or lists (whole). */
function boundDirs(s: Follow, text: string, from: string, names: Map<string, string>): void {
  if (names.size === 0) return;
  const alt = [...names.keys()].map(escape).join('|');
  const used = new RegExp(
    `(?<![\\w'.-])(${alt})(?=\\s*\\+)|(?:readDir|listFilesRecursive|importTree|import-tree|\\bdirectory\\s*=)\\s*\\(?\\s*(${alt})(?![\\w'-])`,
    'g',
  );
  for (const m of text.matchAll(used)) {
    const d = names.get(m[1] ?? m[2]!)!;
    if (m[1] !== undefined) followPlus(s, text, d, m.index + m[1].length, from);
    else s.whole(d);
  }
}

/** A `<name/sub>` lookup through the search paths: every candidate (the first that exists wins in Nix). */
function followAngle(s: Follow, name: string, sub: string, search: readonly SearchPath[], from: string): void {
  for (const sp of search) {
    const p =
      sp.name === undefined ? path.join(sp.dir, name, sub) : sp.name === name ? path.join(sp.dir, sub) : undefined;
    if (p !== undefined) addLiteral(s, p, from);
  }
}

/**
 * `files` and what their path literals, flake `path:` inputs and `<name>` lookups name in turn (from each
 * file's directory; red team v, V12; red team z, Z2, Z2b, Z3), and the `shellHook` texts of the Nix files.
 * `exprs`: Nix code given on the command line (`--arg`), read as if in the `.envrc`'s directory.
 */
export function withNixImports(
  files: readonly string[],
  io: NixIo,
  envrcDir: string,
  search: readonly SearchPath[] = [],
  exprs: readonly string[] = [],
): NixFollowed {
  const s = new Follow(io, envrcDir);
  for (const f of files) s.add(f, f.endsWith('.nix'));
  const texts = exprs.map((text) => ({ text, from: path.join(envrcDir, '.envrc') }));
  for (let i = 0; i < texts.length + s.files.length; i++) {
    const t = i < texts.length ? texts[i]! : undefined;
    const f = t?.from ?? s.files[i - texts.length]!;
    if (!t && !s.nix.has(f)) continue;
    const text = t?.text ?? io.read(f) ?? '';
    const names = new Map<string, string>();
    for (const m of text.matchAll(NIX_PATHS)) followLiteral(s, text, m[1]!, m.index, f, names);
    boundDirs(s, text, f, names);
    for (const m of text.matchAll(FLAKE_INPUTS)) {
      const d = flakeRefDir(m[1]!, path.dirname(f));
      if (d !== undefined) for (const n of ['flake.nix', 'flake.lock']) s.add(path.join(d, n), n === 'flake.nix');
    }
    if (search.length > 0) for (const m of text.matchAll(ANGLE)) followAngle(s, m[1]!, m[2]!, search, f);
    s.hooks.push(...shellHooks(text));
  }
  return { files: s.files, dirs: s.dirs, hooks: s.hooks };
}

/**
 * The texts of a Nix file's `shellHook = '' … ''` / `"…"` attributes (devenv's `enterShell` too; an
 * antiquotation `${…}` kept as `$N`: a word no parser resolves).
 */
export function shellHooks(text: string): string[] {
  const out: string[] = [];
  let done = 0;
  for (const m of text.matchAll(/\b(?:shellHook|enterShell)\s*=\s*(''|")/g)) {
    // One inside an earlier hook's text (an unterminated one reaches the end) is not read again: linear.
    if (m.index < done) continue;
    const indented = m[1] === "''";
    let v = '';
    for (let i = m.index + m[0].length; i < text.length; i++) {
      const c = text[i]!;
      if (c === '$' && text[i + 1] === '{') {
        for (let depth = 0; i < text.length; i++) {
          if (text[i] === '{') depth++;
          else if (text[i] === '}' && --depth === 0) break;
        }
        v += '$N';
      } else if (indented && text.startsWith("''", i)) {
        const e = text[i + 2];
        if (e !== "'" && e !== '$' && e !== '\\') break;
        v += e === "'" ? "''" : e === '$' ? '$' : (text[i + 3] ?? '');
        i += e === '\\' ? 3 : 2;
      } else if (!indented && c === '"') break;
      else if (!indented && c === '\\') v += text[++i] ?? '';
      else v += c;
      done = i + 1;
    }
    out.push(v);
  }
  return out;
}
