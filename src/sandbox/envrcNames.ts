// What a direnv `.envrc` makes the person's shell load besides itself (red team q, Q14; red team r,
// R3). `.envrc` is a protected name and direnv asks for a new `direnv allow` when it changes — but
// not when a file it loads through direnv's standard library changes, nor when a directory it puts
// on PATH gains a program: `source_env_if_exists .envrc.local` (shell code), `dotenv` (`.env`,
// whose `PATH=` is exported), `PATH_add bin`, `layout node` (`node_modules/.bin` first on PATH),
// `layout python` (a virtualenv under `.direnv`), `use flake` (Nix code). Read here without running
// anything: the words of each simple command, `$PWD`/`$(pwd)`/`$(expand_path …)`/`~` resolved, a
// word with any other expansion left out (no path a parser can tell).
import * as os from 'node:os';
import * as path from 'node:path';

/** What one control file names: files it loads, and directories it puts on the person's PATH. */
export interface NamedByConfig {
  files: string[];
  /**
   * `managed`: a package manager writes there (node_modules/.bin, a virtualenv's bin). `names`: the
   * programs the person runs from it besides those named like theirs (a mise or asdf `path:` tool's own).
   */
  pathDirs: { dir: string; managed: boolean; names?: string[] }[];
  /**
   * Shell lines the person's shell runs in `cwd` (a Nix `shellHook`, red team v, V12): the files they
   * name are read like a hook's (hookControlFiles).
   */
  runs?: { cwd: string; lines: string[] }[];
}

/** The simple commands of a shell text, as words (quotes removed; `$…` and `$(…)` kept as written). */
export function shellCommands(text: string): string[][] {
  const out: string[][] = [];
  let cmd: string[] = [];
  let word: string | undefined;
  const endWord = () => {
    if (word !== undefined) cmd.push(word);
    word = undefined;
  };
  const endCmd = () => {
    endWord();
    if (cmd.length > 0) out.push(cmd);
    cmd = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '#' && word === undefined) {
      while (i < text.length && text[i] !== '\n') i++;
      endCmd();
    } else if (c === '\n' || c === ';' || c === '&' || c === '|' || c === '(' || c === ')' || c === '{' || c === '}') {
      if ((c === '(' || c === ')') && word !== undefined) word += c;
      else endCmd();
    } else if (c === ' ' || c === '\t' || c === '\r') endWord();
    else if (c === '\\') word = (word ?? '') + (text[++i] === '\n' ? '' : (text[i] ?? ''));
    else if (c === "'") {
      const j = text.indexOf("'", i + 1);
      word = (word ?? '') + text.slice(i + 1, j < 0 ? text.length : j);
      i = j < 0 ? text.length : j;
    } else if (c === '"') {
      let j = i + 1;
      let v = '';
      for (; j < text.length && text[j] !== '"'; j++) v += text[j] === '\\' ? (text[++j] ?? '') : text[j];
      word = (word ?? '') + v;
      i = j;
    } else if (c === '$' && text[i + 1] === '(') {
      // A command substitution whole: `$(expand_path bin)` is one word.
      let depth = 0;
      let j = i + 1;
      for (; j < text.length; j++) {
        if (text[j] === '(') depth++;
        else if (text[j] === ')' && --depth === 0) break;
      }
      word = (word ?? '') + text.slice(i, j + 1);
      i = j;
    } else word = (word ?? '') + c;
  }
  endCmd();
  return out;
}

/** A word as a path from `dir`, or undefined when it holds an expansion no parser can resolve. */
export function resolveWord(word: string, dir: string): string | undefined {
  let v = word
    .replace(/^(?:\$PWD|\$\{PWD\}|\$\(\s*pwd(?:\s+-[LP])?\s*\))(?=\/|$)/, dir)
    .replace(/^\$\(\s*expand_path\s+([^\s$`()]+)\s*\)/, (_m, a: string) => path.resolve(dir, a))
    .replace(/^(?:\$HOME|\$\{HOME\}|~)(?=\/|$)/, os.homedir());
  if (v === '' || /[$`*?[]/.test(v)) return undefined;
  if (v.endsWith('/') && v.length > 1) v = v.slice(0, -1);
  return path.resolve(dir, v);
}

/** The directories a `PATH=…` value puts on PATH (`$PATH` itself and unresolvable parts left out). */
export function pathValueDirs(value: string, dir: string): string[] {
  return value
    .split(':')
    .filter((p) => !/^\$\{?PATH\}?$/.test(p))
    .map((p) => resolveWord(p, dir))
    .filter((p): p is string => p !== undefined);
}

/** Directories a package manager writes (its bins change with every install): fingerprinted, not denied. */
const MANAGED = new Set(['node_modules', '.direnv', '.venv', 'vendor']);
const managed = (d: string) => d.split(path.sep).some((c) => MANAGED.has(c));

/** The directories a dotenv file's `PATH=` line puts on PATH (direnv's `dotenv`, mise's `_.file`). */
export function dotenvPathDirs(file: string, read: (file: string) => string | undefined): string[] {
  const out: string[] = [];
  for (const line of (read(file) ?? '').split('\n')) {
    const m = /^\s*(?:export\s+)?PATH\s*=\s*["']?([^"'\s#]*)/.exec(line);
    if (m) out.push(...pathValueDirs(m[1]!, path.dirname(file)));
  }
  return out;
}

/** The PATH directories of `layout <name>` (direnv's standard library), from the `.envrc`'s directory. */
function layoutDirs(name: string, dir: string, layoutBins: (direnvDir: string) => string[]): string[] {
  if (name === 'node') return [path.join(dir, 'node_modules', '.bin')];
  if (name === 'php') return [path.join(dir, 'vendor', 'bin')];
  // An in-project virtualenv (poetry's, pipenv's and uv's `.venv`), and every layout's `.direnv`.
  return [path.join(dir, '.venv', 'bin'), ...layoutBins(path.join(dir, '.direnv'))];
}

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

/**
 * The Nix files a `use nix <args>` / `use flake <installable>` reads (round t's lead): `use nix ./ci/shell.nix`
 * (a file; a directory: its `default.nix`), `use flake ./nix#dev` / `path:./nix` (that directory's
 * flake.nix and flake.lock). With no argument, the defaults in the `.envrc`'s directory. `-p`/`--packages`
 * names packages, not files; a flake reference with a scheme (`github:`) is no project file.
 */
function useFiles(kind: string, args: readonly string[], dir: string): string[] {
  const defaults = USE_FILES[kind];
  if (!defaults) return [];
  const named: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-p' || a === '--packages') break;
    if (a.startsWith('-')) {
      i += NIX_OPTION_WORDS[a] ?? 0;
      continue;
    }
    named.push(a);
  }
  if (named.length === 0) return defaults.map((f) => path.join(dir, f));
  const out: string[] = [];
  for (const a of named) {
    const p = kind === 'flake' ? flakeRefDir(a, dir) : resolveWord(a, dir);
    if (p === undefined) continue;
    if (kind === 'nix' && p.endsWith('.nix')) out.push(p);
    else out.push(...(kind === 'nix' ? ['default.nix', 'shell.nix'] : defaults).map((f) => path.join(p, f)));
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

/**
 * Path literals in Nix code (`import ./nix/shell.nix`, `${./scripts/env.sh}`, `import ./nix { … }`,
 * `callPackage ./tools/mytool {}`): those naming Nix or shell files, and those with no extension (a
 * directory: Nix evaluates its `default.nix`; a file: itself).
 */
const NIX_PATHS = /(?<![\w/.-])(\.{1,2}(?:\/[\w.+-]+)+)(?![\w/])/g;
/** A flake input's project directory (`inputs.dev.url = "path:./nix/dev"`, `git+file:`): its flake.nix and lock. */
const FLAKE_INPUTS = /\burl\s*=\s*"((?:path:|git\+file:)[^"]*)"/g;
/** Nix files followed through their path literals, at the most (per `.envrc`). */
const MAX_NIX_FILES = 64;

/** What a path literal `lit` in the Nix file `from` makes Nix read: files, and whether they are Nix code. */
function literalFiles(lit: string, from: string, isDir: (p: string) => boolean): { file: string; nix: boolean }[] {
  const p = path.resolve(path.dirname(from), lit);
  const last = path.basename(lit);
  if (/\.nix$/.test(last)) return [{ file: p, nix: true }];
  if (/\.(?:sh|bash)$/.test(last)) return [{ file: p, nix: false }];
  if (/^\.?[^.]*$/.test(last) || last === '..') {
    if (!isDir(p)) return [{ file: p, nix: true }]; // an extension-less file (or none yet: it is held)
    const out = [{ file: path.join(p, 'default.nix'), nix: true }];
    // In a flake, a directory literal may be an input (`inputs.dev.url = "./nix/dev"`).
    if (path.basename(from) === 'flake.nix')
      out.push({ file: path.join(p, 'flake.nix'), nix: true }, { file: path.join(p, 'flake.lock'), nix: false });
    return out;
  }
  return [];
}

/**
 * `files` and the Nix and shell files their path literals and flake `path:` inputs name in turn (from each
 * file's directory; red team v, V12), and the `shellHook` texts of the Nix files.
 */
function withNixImports(
  files: readonly string[],
  read: (file: string) => string | undefined,
  isDir: (p: string) => boolean,
): { files: string[]; hooks: string[] } {
  const out = [...files];
  const nix = new Set(files.filter((f) => f.endsWith('.nix')));
  const hooks: string[] = [];
  const add = (f: string, code: boolean) => {
    if (code) nix.add(f);
    if (!out.includes(f) && out.length < MAX_NIX_FILES) out.push(f);
  };
  for (let i = 0; i < out.length; i++) {
    const f = out[i]!;
    if (!nix.has(f)) continue;
    const text = read(f) ?? '';
    for (const m of text.matchAll(NIX_PATHS)) for (const l of literalFiles(m[1]!, f, isDir)) add(l.file, l.nix);
    for (const m of text.matchAll(FLAKE_INPUTS)) {
      const d = flakeRefDir(m[1]!, path.dirname(f));
      if (d !== undefined) for (const n of ['flake.nix', 'flake.lock']) add(path.join(d, n), n === 'flake.nix');
    }
    hooks.push(...shellHooks(text));
  }
  return { files: out, hooks };
}

/**
 * The texts of a Nix file's `shellHook = '' … ''` / `"…"` attributes (an antiquotation `${…}` kept as `$N`:
 * a word no parser resolves).
 */
export function shellHooks(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\bshellHook\s*=\s*(''|")/g)) {
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
    }
    out.push(v);
  }
  return out;
}

/**
 * What an `.envrc` in `dir` loads and puts on PATH. `read(file)`: a file's text (for `dotenv`'s
 * `PATH=` line), or undefined. `layoutDirs(dir)`: the bin directories under `.direnv` now.
 */
export function envrcNames(
  text: string,
  dir: string,
  read: (file: string) => string | undefined,
  layoutBins: (direnvDir: string) => string[],
  isDir: (p: string) => boolean = () => false,
): NamedByConfig {
  const files: string[] = [];
  const dirs: string[] = [];
  const hooks: string[] = [];
  const add = (w: string | undefined, to: string[]) => {
    const p = w === undefined ? undefined : resolveWord(w, dir);
    if (p !== undefined) to.push(p);
  };
  for (const words of shellCommands(text)) {
    const [cmd, ...args] = words;
    switch (cmd) {
      case 'source':
      case '.':
      case 'source_env':
      case 'source_env_if_exists':
        add(args[0], files);
        break;
      case 'dotenv':
      case 'dotenv_if_exists': {
        const f = resolveWord(args[0] ?? '.env', dir);
        if (f === undefined) break;
        files.push(f);
        // What the file exports as PATH is put on the person's PATH.
        dirs.push(...dotenvPathDirs(f, read));
        break;
      }
      case 'source_up':
      case 'source_up_if_exists': {
        // The nearest such file above (`.envrc` by default: a protected name).
        const name = args[0];
        if (name !== undefined && !/[/$`]/.test(name))
          for (let d = path.dirname(dir); ; d = path.dirname(d)) {
            files.push(path.join(d, name));
            if (path.dirname(d) === d) break;
          }
        break;
      }
      case 'load_prefix': {
        const p = args[0] === undefined ? undefined : resolveWord(args[0], dir);
        if (p !== undefined) dirs.push(path.join(p, 'bin'), path.join(p, 'sbin'));
        break;
      }
      case 'PATH_add':
        for (const a of args) add(a, dirs);
        break;
      case 'path_add':
        if (args[0] === 'PATH') for (const a of args.slice(1)) add(a, dirs);
        break;
      case 'layout':
        if (args[0] !== undefined) dirs.push(...layoutDirs(args[0], dir, layoutBins));
        break;
      case 'use': {
        const nix = withNixImports(useFiles(args[0] ?? '', args.slice(1), dir), read, isDir);
        files.push(...nix.files);
        hooks.push(...nix.hooks);
        break;
      }
      case 'export':
      default: {
        for (const w of cmd === 'export' ? args : words.filter((x) => /^PATH=/.test(x))) {
          const m = /^PATH=(.*)$/s.exec(w);
          if (m) dirs.push(...pathValueDirs(m[1]!, dir));
        }
      }
    }
  }
  const pathDirs = dirs.map((d) => ({ dir: d, managed: managed(d) }));
  // A shellHook runs in the person's shell at the `.envrc`'s directory (direnv's `use nix` / `use flake`).
  return hooks.length > 0 ? { files, pathDirs, runs: [{ cwd: dir, lines: hooks }] } : { files, pathDirs };
}
