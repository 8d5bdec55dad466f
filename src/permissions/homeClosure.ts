// What a session may WRITE of HOME, and the one rule of what is closed to it (red team o, O11, O15, O8):
// a working directory that is HOME (a session started in `~`, `--add-dir ~`) or an ancestor of it
// (`/home`, `/`) does not open HOME's dot-entries — where tools keep their state, tokens and start-up
// files, existing or not — nor the person's program directories there (`~/bin`, PATH entries), nor
// what a dot-entry links to (a dotfiles checkout). Sandboxed commands get HOME read-only with its
// existing non-dot entries bound back writable (homeWritable, src/sandbox/policy.ts); the file tools
// ask (src/permissions/decide.ts, sessionClosed.ts). The read side of HOME's closure is homeReads.ts.
import { lstatSync, readdirSync, readlinkSync, realpathSync, type Dirent } from 'node:fs';
import * as path from 'node:path';
import { isInside } from './paths';
import { personPath } from '../hostProcess/programs';
import { closableHome, HOME_TOOLCHAIN_PATHS, pathEntries, realOrSelf, SNAP_DOT_ENTRY } from './homeReads';
import { startupTargets } from './startupSources';

/** Is HOME itself an entry of the PATH (its top-level files are then programs run by name)? */
function homeOnPath(home: string, pathVar: string | undefined): boolean {
  return (pathVar ?? '').split(path.delimiter).some((d) => path.isAbsolute(d) && path.resolve(d) === home);
}

const isDirectory = (p: string): boolean => lstatSync(p, { throwIfNoEntry: false })?.isDirectory() === true;

/** What a session's closure of HOME depends on: its home directory, working directories, the person's re-opened paths. */
export interface HomeScope {
  home: string | undefined;
  workingDirectories: readonly string[];
  /** The person's own `sandbox.filesystem.allowRead` (`~` expanded or not): re-opened for reads. */
  reopened?: readonly string[];
  /** The person's PATH (default: the one the process started with): its entries under HOME are not writable. */
  pathVar?: string;
}

/**
 * Where the person's programs are in HOME, outside its dot-entries: `~/bin` (Debian's and Ubuntu's
 * default `~/.profile` puts it first on PATH when it exists), the toolchain paths that are not
 * dot-entries (`~/go/bin`), the entries of the person's PATH under HOME (`~/work/infra/bin`), and
 * what their shell start-up files source or put on PATH from there with the installation around it
 * (`~/google-cloud-sdk`, `~/miniconda3`: startupSources.ts, red team q, Q6). A session whose working
 * directory is HOME (or its ancestor) must not write them either: the person's next shell runs
 * what is there (red team o, O11's `~/.local/bin/git`).
 */
export function homeProgramDirs(home: string, pathVar: string | undefined = personPath()): string[] {
  return [
    ...new Set([
      path.join(home, 'bin'),
      ...HOME_TOOLCHAIN_PATHS.filter((t) => !t.startsWith('~/.')).map((t) => path.join(home, t.slice(2))),
      ...pathEntries(pathVar, home),
      ...startupTargets(home),
    ]),
  ];
}

/**
 * Is the absolute path in a part of HOME closed to this session — what its sandboxed commands may not
 * read (`read`) or write (`write`)? The file tools' side of homeReads and homeWritable (one rule):
 *  - a working directory is HOME: HOME's dot-entries, existing or not (where tools keep their state,
 *    tokens and start-up files: `~/.bashrc.d`, `~/.config/autostart`, `~/.local/bin`); for reads
 *    the toolchains and what the person re-opened are open again;
 *  - otherwise all of HOME but the working directories inside it (for reads: but the toolchains and
 *    what the person re-opened) — a working directory that is an ancestor of HOME (`/home`, `/`)
 *    does not open it (red team o, O11).
 * A working directory inside HOME (`~/proj`, `--add-dir ~/.dotfiles`) is open. Pass every form of a
 * path (paths.ts pathForms): a symlink into a closed part is closed by its real form.
 */
export function closedHomePath(p: string, scope: HomeScope, access: 'read' | 'write'): boolean {
  return closedHomeMatcher(scope, access)(p);
}

/** closedHomePath with what it needs of the file system looked up once (for the many paths of one search). */
export function closedHomeMatcher(scope: HomeScope, access: 'read' | 'write'): (p: string) => boolean {
  const h = closableHome(scope.home);
  if (!h) return () => false;
  const homes = [...new Set([h, realOrSelf(h)])];
  // Each working directory in its logical and real form (a project reached through a link into HOME is open by both).
  const dirs = [...new Set(scope.workingDirectories.flatMap((w) => [path.resolve(w), realOrSelf(path.resolve(w))]))];
  const isHome = (w: string) => homes.includes(w) || homes.includes(realOrSelf(w));
  const inHomeDirs = dirs.filter((w) => !isHome(w) && homes.some((x) => w !== x && isInside(w, x)));
  const homeIsDir = dirs.some(isHome);
  const pathVar = scope.pathVar ?? personPath();
  // Only a write in a session in HOME asks about the program directories (looked up once, when first needed).
  let programDirs: string[] | undefined;
  const programs = () => (programDirs ??= homes.flatMap((x) => homeProgramDirs(x, pathVar)));
  // What a dot-entry links to (a dotfiles checkout): written, it is the start-up file (writes only).
  const linked = access === 'write' && homeIsDirOf(dirs, isHome) ? dotLinkTargets(h) : [];
  const open = (scope.reopened ?? [])
    .filter((r) => !/[*?[\]]/.test(r))
    .map((r) => (r === '~' ? h : r.startsWith('~/') ? path.join(h, r.slice(2)) : r))
    .filter((r) => path.isAbsolute(r))
    .map((r) => path.resolve(r));
  return (p) => {
    if (!path.isAbsolute(p)) return false;
    const abs = path.resolve(p);
    if (linked.some((t) => isInside(abs, t))) return true;
    const base = homes.find((x) => isInside(abs, x));
    if (base === undefined) return false;
    // Inside a working directory within HOME: open.
    if (inHomeDirs.some((w) => isInside(abs, w))) return false;
    const rel = path.relative(base, abs);
    if (homeIsDir) {
      if (rel === '') return false;
      // A snap's own HOME (`~/snap/<app>/<revision>/.config`) keeps its dot-entries closed like HOME's (Q9).
      if (!rel.startsWith('.') && !SNAP_DOT_ENTRY.test(rel))
        return (
          access === 'write' &&
          (programs().some((d) => isInside(abs, d)) || (homeOnPath(base, pathVar) && !rel.includes(path.sep)))
        );
    } else if (rel === '' && !dirs.some((w) => isInside(base, w))) return false; // HOME itself, outside every working directory: asked anyway
    if (access === 'write') return true;
    if (HOME_TOOLCHAIN_PATHS.some((t) => isInside(rel, t.slice(2)))) return false;
    return !open.some((r) => isInside(abs, r));
  };
}

const homeIsDirOf = (dirs: readonly string[], isHome: (w: string) => boolean): boolean => dirs.some(isHome);

/** How deep below HOME dotLinkTargets looks for links, and how many entries it reads below the dot-directories' own. */
const DOT_LINK_DEPTH = 3;
const DOT_LINK_BUDGET = 2_000;
/** Dot-entries no dotfiles manager links into (large caches): not walked. */
const DOT_LINK_SKIP = new Set([
  '.cache',
  '.npm',
  '.cargo',
  '.rustup',
  '.nvm',
  '.m2',
  '.gradle',
  '.git',
  '.local/share',
  '.local/lib',
  // The toolchains' own trees (`~/.pyenv`, `~/.sdkman`…): installers, not dotfiles managers, fill them.
  ...HOME_TOOLCHAIN_PATHS.map((t) => t.slice(2)).filter((t) => t.startsWith('.') && !t.includes('/')),
]);

/**
 * Where HOME's dot-entries that are symlinks lead outside them (red team o, O11, attacked): a dotfiles
 * checkout in `~/dotfiles` linked as `~/.bashrc`, `~/.config/nvim`, `~/.bashrc.local` (GNU stow, yadm's
 * alternates, home-manager out of store) — writing the checkout writes the start-up file. Each link's
 * target (its real path; a dangling link's would-be path) that is not itself in a dot-entry of HOME,
 * and is not HOME or an ancestor of it. Links to depth DOT_LINK_DEPTH in the dot-entries: HOME's own and
 * the dot-directories' direct entries always, deeper ones to a budget (looked up on each use: a link
 * the person makes counts at once).
 */
export function dotLinkTargets(home: string | undefined): string[] {
  const h = closableHome(home);
  if (!h) return [];
  const homes = [...new Set([h, realOrSelf(h)])];
  const targets = new Set<string>();
  let left = DOT_LINK_BUDGET;
  const consider = (link: string) => {
    let target: string;
    try {
      target = realpathSync.native(link);
    } catch {
      try {
        const to = path.resolve(path.dirname(link), readlinkSync(link));
        target = path.join(realOrSelf(path.dirname(to)), path.basename(to));
      } catch {
        return;
      }
    }
    if (homes.some((x) => isInside(x, target))) return; // HOME or an ancestor: not a target to deny
    const base = homes.find((x) => isInside(target, x));
    if (base !== undefined && path.relative(base, target).startsWith('.')) return; // in a dot-entry: closed anyway
    targets.add(target);
  };
  // Breadth first (red team s, S12: one budget spent depth first in `.oh-my-zsh/plugins`,
  // `.vscode/extensions` and `.mozilla` left `~/.zshrc`'s link unread, and the file tools wrote its
  // target): HOME's dot-entries and what each dot-directory holds directly are read whole; the budget
  // bounds the deeper levels only, `.config`'s first (where dotfiles managers link).
  let level: { dir: string; rel: string }[] = [{ dir: h, rel: '' }];
  for (let depth = 0; depth < DOT_LINK_DEPTH && level.length > 0; depth++) {
    const next: { dir: string; rel: string }[] = [];
    for (const { dir, rel } of level) {
      let names: Dirent[];
      try {
        names = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of names) {
        if (depth >= 2 && --left < 0) break;
        if (depth === 0 && !e.name.startsWith('.')) continue;
        const r = rel ? `${rel}/${e.name}` : e.name;
        if (e.isSymbolicLink()) consider(path.join(dir, e.name));
        else if (e.isDirectory() && depth + 1 < DOT_LINK_DEPTH && !DOT_LINK_SKIP.has(r))
          next.push({ dir: path.join(dir, e.name), rel: r });
      }
    }
    level = next.sort((a, b) => Number(!a.rel.startsWith('.config/')) - Number(!b.rel.startsWith('.config/')));
  }
  return [...targets];
}

/** The kernel's own trees under `/`: never bound writable by an expansion of `/`. */
const KERNEL_DIRS = new Set(['/proc', '/sys', '/dev']);

/**
 * What sandboxed commands may write, with HOME's dot-entries left out (red team o, O11): when a
 * writable directory is HOME, it is replaced by HOME's entries that are not dot-entries (HOME itself is
 * then read-only: no dot-entry can be created in it, `~/.bashrc.d`, `~/.config/autostart`, `~/.local/bin`
 * — nor any other new entry: the Write tool makes one), and a writable ancestor of HOME (`/home`, `/`)
 * is replaced by its entries off the way to HOME. Symlinks are not bound (a link in HOME to a
 * dot-entry would open it; its target is writable by its own name or not at all). A HOME with no
 * writable directory that is HOME needs nothing here: the closure (homeReads) hides it whole behind
 * a scratch layer whose writes vanish with the command.
 */
export function homeWritable(
  allowWrite: readonly string[],
  home: string | undefined,
  pathVar: string | undefined = personPath(),
): string[] {
  const h = closableHome(home);
  if (!h) return [...allowWrite];
  const homes = [...new Set([h, realOrSelf(h)])];
  const isHome = (w: string) => homes.includes(w) || homes.includes(realOrSelf(w));
  const resolved = allowWrite.map((w) => path.resolve(w));
  if (!resolved.some(isHome)) return [...allowWrite];
  const out: string[] = [];
  const entries = (dir: string): string[] => {
    try {
      return readdirSync(dir).map((n) => path.join(dir, n));
    } catch {
      return [];
    }
  };
  const plainEntry = (e: string) => {
    const st = lstatSync(e, { throwIfNoEntry: false });
    return st !== undefined && (st.isDirectory() || st.isFile());
  };
  const expand = (dir: string, depth: number): void => {
    if (isHome(dir)) {
      // HOME itself on the person's PATH: its files are programs they run by name; only its directories are bound.
      const onPath = homeOnPath(dir, pathVar);
      for (const e of entries(dir))
        if (!path.basename(e).startsWith('.') && plainEntry(e) && !(onPath && !isDirectory(e))) out.push(e);
      return;
    }
    for (const e of entries(dir)) {
      if (KERNEL_DIRS.has(e) || !plainEntry(e)) continue;
      if (homes.some((x) => isInside(x, e)) && depth < 16) expand(e, depth + 1);
      else out.push(e);
    }
  };
  for (const w of resolved) {
    if (isHome(w) || homes.some((x) => w !== x && isInside(x, w))) expand(w, 0);
    else out.push(w);
  }
  return [...new Set(out)];
}
