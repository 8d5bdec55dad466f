// HOME is closed by default (issue 30, round o). A list of known credential files is never finished:
// every round of red team found a tool whose token file it missed (`~/.config/someapp/token`,
// `~/secrets.env`, a browser profile, a shell history). So sandboxed commands read nothing in the
// home directory but what they need: the session's own directories there, the toolchains builds
// read (below), the files the sandbox itself provides there, and what the person re-opens with
// `sandbox.filesystem.allowRead` in their own settings (src/cli/settings.ts: never a project's).
// The credential list (credentialList.ts) still holds inside what is allowed back.
//
// A working directory that IS the home directory (a session started in `~`): the home directory is
// the project then, but its dot-entries (where tools keep their state and tokens) stay closed, but
// for the toolchains. No closure at all when HOME is unset, relative or `/`: hiding it would hide
// the whole file system.
import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { isInside } from './paths';

/**
 * Where builds read in the home directory (reviewed one by one: programs, caches of downloaded
 * packages, version managers — none holds a token by its tool's convention; the token files beside
 * them stay out: `~/.cargo/credentials.toml`, `~/.npmrc`, `~/.m2/settings.xml`,
 * `~/.gradle/gradle.properties`, and inside `~/.cache` and `~/.gem` the credential list denies).
 * Shell start-up files are NOT here: people export tokens in them, and a non-interactive bash
 * reads none of them.
 */
export const HOME_TOOLCHAIN_PATHS: readonly string[] = [
  '~/.cargo/bin',
  '~/.cargo/registry',
  '~/.cargo/git',
  '~/.rustup',
  '~/.nvm',
  '~/.volta',
  '~/.fnm',
  '~/.local/share/fnm',
  '~/.npm/_cacache',
  '~/.npm/_npx',
  // The caches builds read, by name: ~/.cache whole holds shell histories, editors' undo files, mail
  // and cloud-drive caches, IDE plugins' tokens (red team o, O5).
  '~/.cache/pip',
  '~/.cache/pypoetry',
  '~/.cache/pipenv',
  '~/.cache/uv',
  '~/.cache/go-build',
  '~/.cache/golangci-lint',
  '~/.cache/node-gyp',
  '~/.cache/node/corepack',
  '~/.cache/ms-playwright',
  '~/.cache/puppeteer',
  '~/.cache/Cypress',
  '~/.cache/electron',
  '~/.cache/prisma',
  '~/.cache/deno',
  '~/.cache/bazel',
  '~/.cache/bazelisk',
  '~/.cache/typescript',
  '~/.cache/yarn',
  '~/.cache/pnpm',
  '~/.cache/pre-commit',
  '~/.cache/sccache',
  '~/.cache/ccache',
  '~/.cache/ruff',
  '~/.cache/black',
  '~/.cache/mypy',
  '~/.cache/coursier',
  '~/.cache/zig',
  '~/.cache/fontconfig',
  '~/.local/bin',
  '~/.local/lib',
  '~/.local/share/pnpm',
  '~/.local/share/mise',
  '~/.local/share/pipx',
  '~/.local/share/uv/tools',
  '~/.local/share/uv/python',
  '~/.yarn/berry/cache',
  '~/go/pkg/mod',
  '~/go/bin',
  '~/.m2/repository',
  '~/.gradle/caches',
  '~/.gradle/wrapper',
  '~/.pyenv',
  '~/.sdkman',
  '~/.deno',
  '~/.bun/bin',
  '~/.bun/install/cache',
  '~/.gem',
  '~/.rbenv',
  '~/.asdf',
  '~/.tool-versions',
  '~/.nuget/packages',
  // The .NET SDK's installation, not ~/.dotnet whole (its CurrentUser certificate store: O5).
  '~/.dotnet/dotnet',
  '~/.dotnet/sdk',
  '~/.dotnet/sdk-manifests',
  '~/.dotnet/shared',
  '~/.dotnet/host',
  '~/.dotnet/packs',
  '~/.dotnet/templates',
  '~/.dotnet/tools',
  '~/.pub-cache',
  '~/.elan',
  '~/.ghcup',
  '~/.config/git/ignore',
  '~/.config/git/attributes',
  // The person's own hook scripts, skills and plugins: their user-scope hooks and the agent's Bash
  // run them (`~/.claude/hooks/format.sh`, a skill's `scripts/`). Their settings, credentials and
  // transcripts beside them stay closed.
  '~/.claude/hooks',
  '~/.claude/skills',
  '~/.claude/plugins',
];

/** The home directory a closure applies to: absolute, and not the root. */
export function closableHome(home: string | undefined): string | undefined {
  if (!home || !path.isAbsolute(home)) return undefined;
  const h = path.resolve(home);
  return h === '/' ? undefined : h;
}

export function realOrSelf(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return p;
  }
}

/** A path (relative to HOME) in a dot-entry of a snap's own HOME, `snap/<app>/<revision or common>/.<x>` (red team q, Q9). */
export const SNAP_DOT_ENTRY = /^snap\/[^/]+\/[^/]+\/\./;

/**
 * The dot-entries of every snap's own HOME that exist: `~/snap/<app>/<revision>/.config`,
 * `.local/share`… (a snapped app's tokens, cookies and vaults: doctl, Bitwarden, Slack, VS Code).
 * Each revision and `common` directory, not the `current` link (it leads to one of them). Bounded.
 */
export function snapDotEntries(home: string): string[] {
  const out: string[] = [];
  const list = (dir: string): string[] => {
    try {
      return readdirSync(dir).slice(0, 200);
    } catch {
      return [];
    }
  };
  for (const app of list(path.join(home, 'snap'))) {
    for (const rev of list(path.join(home, 'snap', app))) {
      const dir = path.join(home, 'snap', app, rev);
      if (lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() !== true) continue;
      for (const n of list(dir)) if (n.startsWith('.')) out.push(path.join(dir, n));
    }
  }
  return out;
}

const exists = (p: string): boolean => lstatSync(p, { throwIfNoEntry: false }) !== undefined;

/** What a sandboxed command of the session may read of HOME. */
export interface HomeReadInput {
  home: string | undefined;
  /** What the command may write (working directories, its temp directory, `allowWrite`): open. */
  writable: readonly string[];
  /** Other paths it must read (its repository, its results, the sandbox's own files, `allowRead`). */
  readable: readonly string[];
  /** The PATH inside the sandbox: its entries under HOME are readable (the programs the command runs). */
  pathVar?: string;
}

export interface HomeReads {
  /** `home` (HOME closed), `dot-entries` (a working directory is HOME), or none. */
  closed: 'home' | 'dot-entries' | undefined;
  denyRead: string[];
  allowRead: string[];
  /** Is this absolute path open to a command of the plan? (For deny entries under HOME: worth mounting.) */
  reopens(p: string): boolean;
}

/**
 * The PATH entries under HOME (the programs the command runs; never HOME itself). Only the entry: an
 * installation around a `bin` is allowed back by a toolchain's name or not at all (O5). A script with
 * a token in a PATH directory is readable: the sandbox cannot give `x` without `r`.
 */
export function pathEntries(pathVar: string | undefined, home: string): string[] {
  return (pathVar ?? '')
    .split(path.delimiter)
    .filter((d) => path.isAbsolute(d))
    .map((d) => path.resolve(d))
    .filter((d) => d !== home && isInside(d, home));
}

/**
 * `p` to allow back, as entries that hold none of the writable directories: the runtime binds an
 * allowed path back after the writable ones, so an allowed ancestor of a writable directory would
 * make it read-only. Such an entry is replaced by its children, but the branch toward the writable
 * directory (and a writable directory itself is open already).
 */
function aroundWritable(p: string, writable: readonly string[], depth = 0): string[] {
  if (writable.some((w) => isInside(p, w))) return [];
  if (!writable.some((w) => isInside(w, p)) || depth > 8) return [p];
  let names: string[];
  try {
    names = readdirSync(p);
  } catch {
    return [];
  }
  return names.flatMap((n) => aroundWritable(path.join(p, n), writable, depth + 1));
}

/**
 * The read rules that close HOME for one command: a deny of HOME (or of its dot-entries when a
 * working directory is HOME) and what is allowed back inside it. Toolchains and PATH entries only
 * where they exist (the runtime mounts nothing for the others, and every entry costs it a look).
 */
export function homeReads(input: HomeReadInput): HomeReads {
  const home = closableHome(input.home);
  const none: HomeReads = { closed: undefined, denyRead: [], allowRead: [], reopens: () => true };
  if (!home) return none;
  const homes = [...new Set([home, realOrSelf(home)])];
  const inHome = (p: string) => homes.some((h) => isInside(p, h));
  const writable = input.writable.map((p) => path.resolve(p));
  const inHomeWritable = writable.filter((w) => inHome(w) && !homes.includes(w) && !homes.includes(realOrSelf(w)));
  const toolchains = HOME_TOOLCHAIN_PATHS.map((p) => path.join(home, p.slice(2)));
  const listed = [
    ...new Set(
      [
        ...[...toolchains, ...pathEntries(input.pathVar, home)].filter(exists),
        ...input.readable.map((p) => path.resolve(p)),
      ]
        .filter(inHome)
        .flatMap((p) => aroundWritable(p, inHomeWritable)),
    ),
  ];
  // One mount for a toolchain and the PATH entries inside it.
  const wanted = listed.filter((p) => !listed.some((o) => o !== p && isInside(p, o)));
  const open = [...inHomeWritable, ...wanted];
  const reopens = (p: string) => !inHome(p) || open.some((o) => isInside(p, o));
  // A working directory that is HOME: the dot-entries closed, but those a toolchain lies in whole.
  if (inHomeWritable.length < writable.filter(inHome).length) {
    let names: string[];
    try {
      names = readdirSync(home).filter((n) => n.startsWith('.'));
    } catch {
      return none;
    }
    const denyRead = [...names.map((n) => path.join(home, n)), ...snapDotEntries(home)].filter(
      (e) => !open.some((o) => isInside(e, o)),
    );
    const allowRead = wanted.filter((w) => denyRead.some((d) => isInside(w, d)));
    const dotOpen = (p: string) => !denyRead.some((d) => isInside(p, d)) || open.some((o) => isInside(p, o));
    return { closed: 'dot-entries', denyRead, allowRead, reopens: dotOpen };
  }
  // An ancestor of HOME that is a working directory (`/`, `/home`) does not open it: HOME is closed.
  return { closed: 'home', denyRead: [home], allowRead: wanted, reopens };
}
