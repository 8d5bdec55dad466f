// What a direnv `.envrc` makes the person's shell load besides itself (red team q, Q14; red team r,
// R3). `.envrc` is a protected name and direnv asks for a new `direnv allow` when it changes — but
// not when a file it loads through direnv's standard library changes, nor when a directory it puts
// on PATH gains a program: `source_env_if_exists .envrc.local` (shell code), `dotenv` (`.env`,
// whose `PATH=` is exported), `PATH_add bin`, `layout node` (`node_modules/.bin` first on PATH),
// `layout python` (a virtualenv under `.direnv`), `use flake` (Nix code: nixFiles.ts), `use devenv`,
// devbox's and flox's `eval "$(…)"` lines, `use guix` (devEnvFiles.ts). Read here without running
// anything: the words of each simple command, `$PWD`/`$(pwd)`/`$(expand_path …)`/`~` resolved, a
// word with any other expansion left out (no path a parser can tell).
import * as path from 'node:path';
import { devEnvNames } from './devEnvFiles';
import { resolveWord, shellCommands } from './envrcWords';
import { nixPathValue, useFiles, withNixImports, type NixFollowed, type NixIo, type SearchPath } from './nixFiles';

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
  /**
   * Directories loaded whatever they hold (a Nix `readDir ./modules`, `.flox`, `.devenv`): protected whole,
   * absent ones undone when a command makes them (red team z, Z2b, Z4).
   */
  dirs?: string[];
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

/** What the `.envrc` readers may look at (nixFiles.ts NixIo), and the bin directories under a `.direnv` now. */
export interface EnvrcIo extends NixIo {
  layoutBins: (direnvDir: string) => string[];
}

/** What a Nix `use` (or a `use_nix` call) loads: its files followed (nixFiles.ts), with the NIX_PATH set so far. */
function useNames(kind: string, args: readonly string[], dir: string, io: NixIo, nixPath: readonly SearchPath[]) {
  const use = useFiles(kind, args, dir);
  // `use flake` evaluates purely: no search path applies.
  const search = kind === 'nix' ? [...use.search, ...nixPath] : [];
  return withNixImports(use.files, io, dir, search, use.exprs);
}

/** `use …` lines and `$(…)` integrations of one `.envrc` read, at the most. */
const MAX_USES = 32;

/** Is this integration line (`use …`, `eval "$(…)"`) new, and within MAX_USES (each follows up to 64 files)? */
function firstUse(seen: Set<string>, words: readonly string[]): boolean {
  const key = words.join('\0');
  if (seen.has(key) || seen.size >= MAX_USES) return false;
  seen.add(key);
  return true;
}

/**
 * nix-direnv's cache (`use nix`, `use flake`; devenv's direnvrc too): `.direnv/flake-profile-<hash>.rc`
 * and `nix-profile-….rc` are sourced as they are at the person's next `cd` while newer than the files
 * they watch — a write makes them so. `.direnv` whole; beside a `layout`'s virtualenv (which the agent's
 * `pip install` writes), its files and links at the top (a new one is not followed).
 */
function direnvCache(dir: string, io: NixIo, layout: boolean): { files: string[]; dirs: string[] } {
  const cache = path.join(dir, '.direnv');
  if (!layout) return { files: [], dirs: [cache] };
  return { files: io.list(cache).flatMap((e) => (e.dir ? [] : [path.join(cache, e.name)])), dirs: [] };
}

/**
 * What an `.envrc` in `dir` loads and puts on PATH. `io.read(file)`: a file's text (for `dotenv`'s
 * `PATH=` line, the Nix followed), or undefined; `io.layoutBins(dir)`: the bin directories under `.direnv` now.
 */
export function envrcNames(text: string, dir: string, io: EnvrcIo): NamedByConfig {
  const files: string[] = [];
  const dirs: string[] = [];
  const whole: string[] = [];
  const hooks: string[] = [];
  const nixPath: SearchPath[] = [];
  const add = (w: string | undefined, to: string[]) => {
    const p = w === undefined ? undefined : resolveWord(w, dir);
    if (p !== undefined) to.push(p);
  };
  const loaded = (n: NixFollowed) => {
    files.push(...n.files);
    whole.push(...n.dirs);
    hooks.push(...n.hooks);
  };
  let cached = false;
  let layout = false;
  const seen = new Set<string>();
  for (const words of shellCommands(text)) {
    const [cmd, ...args] = words;
    const use = cmd === 'use' ? args[0] : cmd?.startsWith('use_') ? cmd.slice(4) : undefined;
    cached ||= use === 'nix' || use === 'flake' || use === 'devenv';
    layout ||= cmd === 'layout' || cmd?.startsWith('layout_') === true;
    if ((use !== undefined || cmd === 'eval') && !firstUse(seen, words)) continue;
    const dev = devEnvNames(words, dir, io);
    if (dev) {
      loaded(dev);
      continue;
    }
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
        dirs.push(...dotenvPathDirs(f, io.read));
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
        if (args[0] !== undefined) dirs.push(...layoutDirs(args[0], dir, io.layoutBins));
        break;
      case 'use':
        loaded(useNames(args[0] ?? '', args.slice(1), dir, io, nixPath));
        break;
      case 'use_nix':
      case 'use_flake':
        loaded(useNames(cmd.slice(4), args, dir, io, nixPath));
        break;
      case 'export':
      default: {
        for (const w of cmd === 'export' ? args : words.filter((x) => /^(?:NIX_)?PATH=/.test(x))) {
          const m = /^(NIX_)?PATH=(.*)$/s.exec(w);
          // NIX_PATH (red team z, Z3): the `<name>` search paths of a later `use nix`.
          if (m?.[1]) nixPath.push(...nixPathValue(m[2]!, dir));
          else if (m) dirs.push(...pathValueDirs(m[2]!, dir));
        }
      }
    }
  }
  if (cached) loaded({ ...direnvCache(dir, io, layout), hooks: [] });
  const pathDirs = dirs.map((d) => ({ dir: d, managed: managed(d) }));
  const out: NamedByConfig = whole.length > 0 ? { files, pathDirs, dirs: whole } : { files, pathDirs };
  // A shellHook runs in the person's shell at the `.envrc`'s directory (direnv's `use nix` / `use flake`).
  return hooks.length > 0 ? { ...out, runs: [{ cwd: dir, lines: hooks }] } : out;
}
