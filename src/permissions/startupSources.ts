// What the person's shell start-up files run from HOME's non-dot entries (red team q, Q6). A session
// in HOME writes HOME's existing non-dot entries; installers tell people to source files that live
// there (`~/google-cloud-sdk/path.bash.inc`, `~/miniconda3/etc/profile.d/conda.sh`,
// `~/powerlevel10k/powerlevel10k.zsh-theme`, `eval "$(perl -I$HOME/perl5/lib/perl5 -Mlocal::lib)"`,
// `source ~/venv/bin/activate`, `export PATH=$HOME/flutter/bin:$PATH`): appended to, the person's next
// shell runs them. A rule rather than a list: the start-up files (and what they source, bounded) are
// read for every path under HOME they name; each such path outside the dot-entries is write-denied
// with the installation around it. A list of installers' own directories backs the rule up (a
// start-up file that names them through a variable the reading cannot follow).
import { lstatSync, readdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import * as path from 'node:path';
import { regularText } from '../files/regularText';
import { isInside } from './paths';
import { HOME_TOOLCHAIN_PATHS } from './homeReads';

/** The shell start-up files under HOME (bash, zsh, sh, ksh, fish, X sessions). */
const STARTUP_FILES = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.bash_aliases',
  '.profile',
  '.zshrc',
  '.zprofile',
  '.zshenv',
  '.zlogin',
  '.zlogout',
  '.kshrc',
  '.mkshrc',
  '.xprofile',
  '.xsessionrc',
  '.xinitrc',
  '.config/fish/config.fish',
];
/**
 * The person's other configurations that run a program by its path with no shell start-up (red team
 * s, S2): git's (`core.hooksPath = ~/githooks` runs at every commit in every repository; `alias.x =
 * !~/scripts/x.sh`, `credential.helper`, `core.sshCommand`, `init.templateDir`, includes), ssh's
 * (`ProxyCommand`, `LocalCommand`, `Match exec`, `KnownHostsCommand`), npm's and yarn's
 * (`script-shell`, `node-options=--require`), direnv's and mise's own (a user stdlib sourced on every
 * prompt, a global `_.source`), tmux's (`run-shell`), gpg-agent's (`pinentry-program`). Read like
 * the start-up files: every path under HOME their text names.
 */
const PERSON_CONFIG_FILES = [
  '.gitconfig',
  '.config/git/config',
  '.ssh/config',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.direnvrc',
  '.config/direnv/direnvrc',
  '.config/mise/config.toml',
  '.tool-versions',
  '.tmux.conf',
  '.config/tmux/tmux.conf',
  '.gnupg/gpg-agent.conf',
  '.vimrc',
  '.config/nvim/init.vim',
  '.config/nvim/init.lua',
];
/**
 * Directories whose every file a start-up file commonly sources (`~/.bashrc.d/*`, fish's `conf.d`),
 * and whose every file runs a program by itself: direnv's user library, systemd's user units
 * (`ExecStart=%h/…`), the desktop's autostart entries (`Exec=`; S2).
 */
const STARTUP_DIRS = [
  '.bashrc.d',
  '.zshrc.d',
  '.profile.d',
  '.config/fish/conf.d',
  '.config/direnv/lib',
  '.config/systemd/user',
  '.config/autostart',
];

/** Installers' own directories in HOME, written-to by no project: the backstop of the rule. */
export const INSTALLER_ROOTS: readonly string[] = [
  'google-cloud-sdk',
  'miniconda',
  'miniconda2',
  'miniconda3',
  'anaconda',
  'anaconda2',
  'anaconda3',
  'miniforge',
  'miniforge3',
  'mambaforge',
  'micromamba',
  'perl5',
  'powerlevel10k',
  'emsdk',
  'flutter',
  'homebrew',
  'linuxbrew',
  'spack',
  'n',
  'z',
  'zsh-autosuggestions',
  'zsh-syntax-highlighting',
  'esp',
];

/** An installation's conventional sub-directories: a named path in one stands for the installation. */
const INSTALL_PARTS = new Set([
  'bin',
  'sbin',
  'etc',
  'profile.d',
  'conf.d',
  'shell',
  'shells',
  'completion',
  'completions',
  'scripts',
  'lib',
  'libexec',
  'share',
  'conf',
  'init',
  'plugins',
  'themes',
]);

/**
 * How much is read (red team s's lead: one 64-file budget shared by the start-up files, a
 * `~/.bashrc.d` of 40 snippets and what the files source left the files `.bashrc` sources unread,
 * and what those source writable). Level by level, each with its own budget: the start-up files and
 * configurations, and each STARTUP_DIRS directory's first MAX_DIR_FILES files (by name), then what
 * they name, then what that names…, MAX_LEVEL_FILES files at each of MAX_LEVELS further levels. A
 * file past a budget is still a target (its naming file was read), what it names is not known.
 */
const MAX_DIR_FILES = 256;
const MAX_LEVEL_FILES = 128;
const MAX_LEVELS = 6;
const MAX_BYTES = 512 * 1024;

/** The person's user name (what `~<name>/` expands to HOME with); undefined when it cannot be read. */
function personName(): string | undefined {
  try {
    return userInfo().username || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The paths under HOME a start-up file's (or configuration's) text names: `$HOME/x`, `${HOME}/x`,
 * `~/x` (also after git's `!`) and `~<the person's name>/x`, systemd's `%h/x`, ssh's `%d/x`, `<home>/x`.
 */
export function namedHomePaths(text: string, home: string): string[] {
  const out: string[] = [];
  const quote = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const literal = quote(home);
  // `~<the person's name>/` (git, the shells) is HOME too, and ssh's `%d` (red team t, T10).
  const user = personName();
  const end = '(?=$|[\\s"\'`;|&()<>:])';
  const re = new RegExp(
    `(?:\\$HOME|\\$\\{HOME\\}|%h|%d|(?:^|(?<=[\\s"'=:(!]))~${user ? `(?:${quote(user)})?` : ''}|${literal})(/[^\\s"'\`;|&()<>:]*)?${end}`,
    'g',
  );
  for (const raw of text.split('\n')) {
    const line = raw.trimStart();
    if (line.startsWith('#')) continue;
    for (const m of line.matchAll(re)) {
      const before = line.slice(0, m.index).trimEnd();
      if (/(?:^|[\s;&|('"])(?:cd|pushd)$/.test(before)) continue; // a directory visited, not run
      const rest = m[1] ?? '';
      const glob = rest.search(/[*?[]/);
      const rel = glob < 0 ? rest : path.dirname(rest.slice(0, glob) + 'x');
      out.push(path.join(home, rel));
    }
  }
  return out;
}

const statOf = (p: string) => lstatSync(p, { throwIfNoEntry: false });

/** A toolchain's own tree outside the dot-entries (`~/go`: `~/go/bin` beside the module cache builds write). */
const TOOLCHAIN_TOPS = new Set(
  HOME_TOOLCHAIN_PATHS.filter((t) => !t.startsWith('~/.')).map((t) => t.slice(2).split('/')[0]!),
);

/**
 * The installation around a named path: its directory (itself when a directory), climbed over
 * INSTALL_PARTS — never to HOME, nor to a toolchain's own tree (`~/go/bin` stays `~/go/bin`).
 */
function installationOf(p: string, home: string): string | undefined {
  const st = statOf(p);
  // An absent `~/x/bin` (a PATH entry made later) is a directory; any other absent name a file.
  let dir = st?.isDirectory() || (!st && INSTALL_PARTS.has(path.basename(p))) ? p : path.dirname(p);
  const climbs = (d: string) => {
    const up = path.dirname(d);
    return up !== home && isInside(up, home) && !TOOLCHAIN_TOPS.has(path.relative(home, up));
  };
  while (INSTALL_PARTS.has(path.basename(dir)) && climbs(dir)) dir = path.dirname(dir);
  return dir === home || !isInside(dir, home) ? undefined : dir;
}

/** The paths under HOME one start-up file (or configuration) names; none when it is absent, a directory or unreadable. */
function startupFileNames(file: string, home: string): string[] {
  // Followed (a dotfiles `.bashrc` link is the shell's too); never a FIFO (files/regularText.ts).
  const text = regularText(file, MAX_BYTES, { follow: true, prefix: true });
  return text === undefined ? [] : namedHomePaths(text, home);
}

/**
 * What a session in HOME must not write because the person's shell runs it: every path under HOME
 * outside the dot-entries that the start-up files (and the files they name, level by level to the
 * budgets above) name, with the installation around it (the directory of a sourced file, climbed over
 * `bin`, `etc`, `profile.d`…: a sourced file sources its siblings, a PATH entry's programs load their
 * installation), and the installers' own directories that exist. Existing or not (a guarded
 * `[ -f ~/x.sh ] && . ~/x.sh` runs a file made later).
 */
export function startupTargets(home: string): string[] {
  const targets = new Set<string>();
  let level = [...STARTUP_FILES, ...PERSON_CONFIG_FILES].map((f) => path.join(home, f));
  for (const d of STARTUP_DIRS) {
    try {
      for (const n of readdirSync(path.join(home, d)).sort().slice(0, MAX_DIR_FILES)) level.push(path.join(home, d, n));
    } catch {
      // not there
    }
  }
  const seen = new Set<string>();
  for (let depth = 0; depth <= MAX_LEVELS && level.length > 0; depth++) {
    const next: string[] = [];
    for (const file of level) {
      if (seen.has(file)) continue;
      seen.add(file);
      for (const p of startupFileNames(file, home)) {
        if (p === home || !isInside(p, home)) continue;
        if (!seen.has(p) && statOf(p)?.isFile()) next.push(p);
        if (path.relative(home, p).startsWith('.')) continue; // in a dot-entry: closed anyway
        targets.add(p);
        const around = installationOf(p, home);
        if (around) targets.add(around);
      }
    }
    level = [...new Set(next)].filter((f) => !seen.has(f)).slice(0, MAX_LEVEL_FILES);
  }
  for (const r of INSTALLER_ROOTS) {
    const p = path.join(home, r);
    if (statOf(p)?.isDirectory()) targets.add(p);
  }
  return [...targets];
}
