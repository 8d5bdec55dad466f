// The dev-environment integrations of a direnv `.envrc` (red team z, Z4): each evaluates or runs project
// files at the person's next `cd`, outside the sandbox, with no new `direnv allow` when they change —
//  - devenv (`use devenv`): devenv.nix (Nix, its `enterShell` shell code), devenv.local.nix, devenv.yaml and
//    devenv.local.yaml (their local `imports:`, in turn), devenv.lock; `.devenv` whole (its profile's bin is
//    on PATH);
//  - devbox (`eval "$(devbox generate direnv --print-envrc)"`, `eval "$(devbox shellenv …)"`, `use devbox`):
//    devbox.json (`shell.init_hook` is shell code) and devbox.lock, a local plugin's file and directory
//    (`include: ["path:./plugins/x/plugin.json"]`, its init_hook too), `.devbox` whole (its bin on PATH);
//  - flox (`eval "$(flox activate [-d dir])"`, `use flox`): that directory's `.flox` whole (manifest.toml's
//    `[hook] on-activate`, `[profile]`, the environment's bin);
//  - direnv's own `use guix`: guix.scm and manifest.scm, and `-m`/`--manifest`, `-f`/`--file` files (Scheme),
//    `-L`/`--load-path` directories whole.
// Any other `eval "$(tool …)"` line is not followed (docs/security.md). Bounded like the Nix readers.
import * as path from 'node:path';
import { jsonc, yamlValues } from './configText';
import { resolveWord, shellCommands } from './envrcWords';
import { flakeRefDir, withNixImports, type NixFollowed, type NixIo } from './nixFiles';

/** YAML or JSON configuration files followed through their local imports and plugins, at the most. */
const MAX_CONFIGS = 16;

/** Is `d` a directory to protect whole (not one that holds the `.envrc`: the project itself)? */
const wholeOk = (d: string, envrcDir: string) => path.relative(d, envrcDir).startsWith('..');

/** `out` plus what `more` names. */
function merge(out: NixFollowed, more: NixFollowed): NixFollowed {
  for (const k of ['files', 'dirs', 'hooks'] as const) out[k].push(...more[k]);
  return out;
}

const empty = (): NixFollowed => ({ files: [], dirs: [], hooks: [] });
const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
const local = (s: string) => /^(?:\.{1,2}\/|\/|\.{1,2}$)/.test(s);

/** devenv in `root`: its files, the local imports of its YAML (in turn), and its Nix followed. */
function devenv(root: string, io: NixIo, envrcDir: string): NixFollowed {
  const out = empty();
  const yaml = [path.join(root, 'devenv.yaml'), path.join(root, 'devenv.local.yaml')];
  const nix = [path.join(root, 'devenv.nix'), path.join(root, 'devenv.local.nix')];
  out.files.push(...yaml, path.join(root, 'devenv.lock'));
  const dot = path.join(root, '.devenv');
  if (wholeOk(dot, envrcDir)) out.dirs.push(dot);
  for (let i = 0; i < yaml.length && i < MAX_CONFIGS; i++) {
    const text = io.read(yaml[i]!);
    if (text === undefined) continue;
    const from = path.dirname(yaml[i]!);
    for (const item of yamlValues(text, 'imports').flatMap((v) => v.split(/\s+/))) {
      const s = item.replace(/^["']|["']$/g, '');
      if (!local(s)) continue; // an input's path (`devenv/frontend`): no project file
      const p = path.resolve(from, s);
      if (p.endsWith('.nix')) nix.push(p);
      else if (!yaml.includes(path.join(p, 'devenv.yaml'))) {
        nix.push(path.join(p, 'devenv.nix'));
        yaml.push(path.join(p, 'devenv.yaml'));
        out.files.push(path.join(p, 'devenv.yaml'));
      }
    }
    for (const url of yamlValues(text, 'url')) {
      const d = /^(?:path:|git\+file:)/.test(url) ? flakeRefDir(url, from) : undefined;
      if (d !== undefined) nix.push(path.join(d, 'flake.nix'), path.join(d, 'devenv.nix'), path.join(d, 'default.nix'));
    }
  }
  return merge(out, withNixImports(nix, io, envrcDir));
}

/** A devbox plugin or config's `shell.init_hook` lines. */
function initHooks(text: string | undefined): string[] {
  const o = text === undefined ? undefined : jsonc(text);
  const shell = o && typeof o === 'object' ? (o as { shell?: unknown }).shell : undefined;
  return shell && typeof shell === 'object' ? strings((shell as { init_hook?: unknown }).init_hook) : [];
}

/** devbox with `args` (its command's words after `devbox`): devbox.json, its lock and plugins, `.devbox`. */
function devbox(args: readonly string[], dir: string, io: NixIo): NixFollowed {
  const out = empty();
  const c = args.findIndex((a) => a === '-c' || a === '--config');
  if (c < 0) {
    const [here, ...up] = upTo(dir, 'devbox.json', io);
    for (const d of up) merge(out, devbox(['--config', d], dir, io));
    if (here === undefined) return out;
  }
  const named = c >= 0 ? resolveWord(args[c + 1] ?? '', dir) : dir;
  if (named === undefined) return out;
  const config = named.endsWith('.json') ? named : path.join(named, 'devbox.json');
  const root = path.dirname(config);
  out.files.push(config, path.join(root, 'devbox.lock'));
  if (wholeOk(path.join(root, '.devbox'), dir)) out.dirs.push(path.join(root, '.devbox'));
  const body = io.read(config);
  out.hooks.push(...initHooks(body));
  const o = body === undefined ? undefined : jsonc(body);
  const include = o && typeof o === 'object' ? strings((o as { include?: unknown }).include) : [];
  for (const inc of include.slice(0, MAX_CONFIGS)) {
    const s = inc.replace(/^path:/, '');
    if (!local(s)) continue; // `plugin:`, `github:`: no project file
    const p = path.resolve(root, s);
    const file = p.endsWith('.json') ? p : path.join(p, 'plugin.json');
    out.files.push(file);
    if (wholeOk(path.dirname(file), dir)) out.dirs.push(path.dirname(file));
    out.hooks.push(...initHooks(io.read(file)));
  }
  return out;
}

/**
 * Where a tool looks `name` up when no directory is given (devbox, flox: `dir`, then its parents): `dir` and
 * each parent up to the first that holds it (32 at the most; all of them when none does: one may be made).
 */
function upTo(dir: string, name: string, io: NixIo): string[] {
  const out: string[] = [];
  for (let d = dir; out.length < 32; d = path.dirname(d)) {
    out.push(d);
    if (io.read(path.join(d, name)) !== undefined || io.isDir(path.join(d, name)) || path.dirname(d) === d) break;
  }
  return out;
}

/** flox with `args` (after `flox activate`): that directory's `.flox` whole; a remote environment: none. */
function flox(args: readonly string[], dir: string, io: NixIo): NixFollowed {
  const out = empty();
  if (args.some((a) => a === '-r' || a === '--reference' || a.startsWith('--reference='))) return out;
  const d = args.findIndex((a) => a === '-d' || a === '--dir');
  const eq = args.find((a) => a.startsWith('--dir='))?.slice('--dir='.length);
  const given = eq ?? (d >= 0 ? (args[d + 1] ?? '') : undefined);
  const at = given === undefined ? upTo(dir, '.flox', io) : [resolveWord(given, dir)];
  for (const a of at) if (a !== undefined && wholeOk(path.join(a, '.flox'), dir)) out.dirs.push(path.join(a, '.flox'));
  return out;
}

/** direnv's `use guix <args>`: guix.scm, manifest.scm, and the files and load paths its options name. */
function guix(args: readonly string[], dir: string): NixFollowed {
  const out = empty();
  out.files.push(path.join(dir, 'guix.scm'), path.join(dir, 'manifest.scm'));
  const opts: Record<string, 'files' | 'dirs'> = { m: 'files', manifest: 'files', f: 'files', file: 'files' };
  Object.assign(opts, { L: 'dirs', 'load-path': 'dirs' });
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    const m = /^--([\w-]+)=(.*)$/s.exec(a) ?? /^-([mfL])(.+)$/s.exec(a) ?? /^--?([\w-]+)$/.exec(a);
    const to = m ? opts[m[1]!] : undefined;
    if (!m || !to) continue;
    const v = m[2] ?? args[++i];
    const p = v === undefined ? undefined : resolveWord(v, dir);
    if (p !== undefined && (to === 'files' || wholeOk(p, dir))) out[to].push(p);
  }
  return out;
}

/** The commands of the `$(…)` substitutions in `words` (`eval "$(devbox generate direnv --print-envrc)"`). */
function substituted(words: readonly string[]): string[][] {
  const out: string[][] = [];
  for (const w of words) for (const m of w.matchAll(/\$\(([^()]*)\)/g)) out.push(...shellCommands(m[1]!));
  return out;
}

/** What a dev-environment line of an `.envrc` in `dir` loads, or undefined for another line. */
export function devEnvNames(words: readonly string[], dir: string, io: NixIo): NixFollowed | undefined {
  const [cmd, ...args] = words;
  const use = cmd === 'use' ? args[0] : cmd?.startsWith('use_') ? cmd.slice(4) : undefined;
  const rest = cmd === 'use' ? args.slice(1) : args;
  if (use === 'devenv') {
    const at = rest.find((a) => !a.startsWith('-'));
    const root = at === undefined ? dir : resolveWord(at, dir);
    return root === undefined ? empty() : devenv(root, io, dir);
  }
  if (use === 'guix') return guix(rest, dir);
  if (use === 'devbox') return devbox(rest, dir, io);
  if (use === 'flox') return flox(rest, dir, io);
  let out: NixFollowed | undefined;
  for (const [tool, sub, ...more] of substituted(words)) {
    if (tool === 'devbox') out = merge(out ?? empty(), devbox([sub ?? '', ...more], dir, io));
    if (tool === 'flox' && sub === 'activate') out = merge(out ?? empty(), flox(more, dir, io));
    if (tool === 'devenv') out ??= empty(); // `eval "$(devenv direnvrc)"`: its library; `use devenv` reads the files
  }
  return out;
}
