// Files the PERSON's repository configuration names inside the project (red team, issue 30, M6):
// `.git/config` is protected, but what it points at was an ordinary project path — the directory
// `core.hooksPath` names (`.githooks`: the person's next `git commit` ran a hook a command rewrote)
// and the files `include.path` / `includeIf.*.path` include (absent: git ignores them; a command
// created one with `core.fsmonitor`, the person's `git status` ran it). They are protected like
// `.git/hooks` and `config.worktree`. So are the project files its drivers and filters run (M6c).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { regularText } from '../files/regularText';
import { parseGitConfig } from '../hostProcess/gitConfigText';
import { hookControlFiles } from '../permissions/commandFiles';
import type { HookedKeys } from './manifestBins';
import { hookPackageRuns } from './hookPackageRuns';
import { hookFrameworkRuns, withTemplateValues, type Reading } from './hookFrameworks';
import type { ProtectedEntry } from './protect';
import { isRepositoryDir } from './treeNames';

export { isRepositoryDir };

const MAX_CONFIG_BYTES = 1024 * 1024;

/** A config's (or a hook script's) text (no link followed, never a FIFO: files/regularText.ts). */
const readConfig = (file: string): string | undefined => regularText(file, MAX_CONFIG_BYTES);

const expand = (v: string, base: string) =>
  v === '~' || v.startsWith('~/') ? path.join(os.homedir(), v.slice(1)) : path.resolve(base, v);

/**
 * Does this config entry hold a command git runs by itself (a driver, a filter, a program)? Its
 * words may name project files (M6c). Aliases only when they run a shell (`!…`).
 */
function runsCommand(section: string, sub: string | undefined, key: string, value: string): boolean {
  if (section === 'alias') return value.startsWith('!');
  if (sub !== undefined)
    return (
      (section === 'filter' && ['clean', 'smudge', 'process'].includes(key)) ||
      (section === 'diff' && ['textconv', 'command'].includes(key)) ||
      (section === 'merge' && key === 'driver')
    );
  return (
    (section === 'core' && ['fsmonitor', 'sshcommand', 'editor', 'pager'].includes(key)) ||
    (section === 'gpg' && key === 'program') ||
    (section === 'sequence' && key === 'editor')
  );
}

/** A `.git` that is a file (a linked worktree, a submodule): the directory its `gitdir:` line names. */
export function gitDirOf(root: string): string | undefined {
  const dotGit = path.join(root, '.git');
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(dotGit, { throwIfNoEntry: false });
  } catch {
    return undefined; // a way to it that is no directory (ENOTDIR), unsearchable
  }
  if (st?.isDirectory()) return dotGit;
  if (!st?.isFile() || st.size > 4096) return undefined;
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(readConfig(dotGit) ?? '');
  const dir = m ? path.resolve(root, m[1]!) : undefined;
  try {
    return dir && fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Does the repository at the work tree `tree` run hooks of its own: an entry other than a `.sample` in its
 * hooks directory, or a `core.hooksPath` in its config? A repository a command made has none after the
 * check (its hooks removed, its config reduced to keys that run nothing): the person's come first in
 * the nested scan (red team u, U9: 70 empty `.git` directories pushed theirs out of its 64 places).
 */
export function hasOwnHooks(tree: string): boolean {
  const gitDir = gitDirOf(tree);
  if (gitDir === undefined) return false;
  const common = commonDirOf(gitDir);
  try {
    if (fs.readdirSync(path.join(common, 'hooks')).some((n) => !n.endsWith('.sample'))) return true;
  } catch {
    // no hooks directory
  }
  return /hookspath/i.test(readConfig(path.join(common, 'config')) ?? '');
}

/** Directories above a working directory looked at for the repository around it, at the most. */
const MAX_ENCLOSING = 32;

/**
 * The work tree of the repository around each working directory, as git finds it from there (the
 * nearest directory above with a `.git` that is a repository: red team t, T18 — a session in a
 * monorepo's `packages/x`, whose hooks run `sh packages/x/scripts/check.sh`). Looked for whatever the
 * working directory holds: a `.git` there (an empty one the command made, or a nested repository of
 * the person's) does not keep the hooks above from running the files below it (red team u, U6).
 */
export function enclosingTrees(roots: readonly string[]): string[] {
  const out = new Set<string>();
  for (const root of roots) {
    let dir = root;
    for (let i = 0; i < MAX_ENCLOSING && path.dirname(dir) !== dir; i++) {
      dir = path.dirname(dir);
      const gitDir = gitDirOf(dir);
      if (gitDir === undefined || !isRepositoryDir(gitDir)) continue;
      out.add(dir);
      break;
    }
  }
  return [...out];
}

/** The repository's common directory (a linked worktree's `commondir`; else the git directory itself). */
export function commonDirOf(gitDir: string): string {
  const c = readConfig(path.join(gitDir, 'commondir'))?.trim();
  return c ? path.resolve(gitDir, c) : gitDir;
}

const HOOK_SCRIPT_BYTES = 64 * 1024;

/**
 * The person's hooks directory (`core.hooksPath` or `<common dir>/hooks`) as git runs it: what its
 * links lead to inside the working directories (a hooks directory linked to `githooks/`, a
 * `pre-commit` linked to `scripts/pre-commit`: N1), and the project files each hook script runs
 * (`sh scripts/check.sh`, found as a session hook's are: O6).
 */
function hookTargets(
  hooks: string,
  root: string,
  roots: readonly string[],
  inside: (p: string) => boolean,
  readings: Reading[],
  git: { common: string; entries: Entry[] },
  found: readonly string[],
): Entry[] {
  const out: Entry[] = [];
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return undefined;
    }
  };
  const dir = real(hooks);
  if (dir === undefined) return out;
  if (dir !== path.resolve(hooks) && inside(dir)) out.push({ path: dir, kind: 'gitHooks' });
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  const scripts: string[] = [];
  // husky 9: `core.hooksPath = .husky/_`, whose stubs run the person's `.husky/<hook>` beside it.
  if (path.basename(dir) === '_' && path.basename(path.dirname(dir)) === '.husky')
    for (const d of fs.readdirSync(path.dirname(dir), { withFileTypes: true }))
      if (d.isFile() && fs.statSync(path.join(path.dirname(dir), d.name)).size <= HOOK_SCRIPT_BYTES)
        scripts.push(readConfig(path.join(path.dirname(dir), d.name)) ?? '');
  for (const d of names) {
    if (d.name.endsWith('.sample')) continue;
    const p = path.join(dir, d.name);
    // A link that leads nowhere yet runs what a command creates there.
    const target = d.isSymbolicLink() ? (real(p) ?? path.resolve(dir, fs.readlinkSync(p))) : p;
    if (target !== p && inside(target)) out.push({ path: target, kind: 'file', denyAbsent: true });
    const st = fs.statSync(target, { throwIfNoEntry: false });
    if (st?.isFile() && st.size <= HOOK_SCRIPT_BYTES) scripts.push(readConfig(target) ?? '');
  }
  // A comment runs nothing (`#!/usr/bin/env bash` named no file of the project's).
  const lines = scripts
    .flatMap((t) => t.split('\n'))
    .filter((l) => !/^\s*#/.test(l))
    .flatMap((l) => hookLineReadings(l, root));
  // A hook framework's launcher: what its configuration makes each commit run (hookFrameworks.ts).
  const framework = hookFrameworkRuns(
    scripts,
    [...lines, ...hookPackageRuns(lines, roots).lines],
    root,
    git.common,
    found,
  );
  out.push(...framework.entries.filter((e) => inside(e.path)));
  git.entries.push(...framework.gitEntries.filter((e) => inside(e.path)));
  for (const r of [...lines, ...framework.readings]) {
    readings.push(r);
    // A framework's `node x.js` line: the package.json files node reads stay the agent's (their keys that
    // run something are watched: manifestBins.ts), as for the package.json scripts a hook runs.
    const own = lines.includes(r);
    for (const f of hookControlFiles([{ command: r.command }], r.cwd, roots, os.homedir(), { runners: false }))
      if (own || path.basename(f) !== 'package.json') out.push({ path: f, kind: 'file' });
  }
  return out;
}

/** A word that starts with a substitution or variable and goes on with `/`: `"$(git rev-parse --show-toplevel)/x"`. */
const DYNAMIC_PREFIX = /(["']?)\$(?:\([^()]*(?:\([^()]*\)[^()]*)*\)|\{[^}]*\}|\w+)\1?(?=\/)/g;

/**
 * The ways a hook line may name files, as a parser can tell (O6b): as written from the work tree;
 * with a leading substitution or variable before a `/` read as the work tree (`$(git rev-parse
 * --show-toplevel)/scripts/x`, `$ROOT/x`); from each directory a `cd` (`pushd`) names; and a glob's directory
 * (`for f in scripts/*.sh`) whole.
 */
function hookLineReadings(line: string, root: string): { command: string; cwd: string }[] {
  const plain = withTemplateValues(line).replace(DYNAMIC_PREFIX, '.');
  const out = [{ command: plain, cwd: root }];
  for (const m of plain.matchAll(/(?:^|[;&|(]\s*)(?:cd|pushd)\s+(["']?)([^\s;&|"')]+)\1/g))
    out.push({ command: plain, cwd: path.resolve(root, m[2]!) });
  for (const m of plain.matchAll(/[^\s"'=]*[*?[][^\s"']*/g)) {
    const dir = m[0].slice(0, m[0].search(/[*?[]/)).replace(/[^/]*$/, '');
    if (dir !== '' && dir !== './') out.push({ command: `sh ${dir}`, cwd: root });
  }
  return out;
}

type Entry = Omit<ProtectedEntry, 'existed'> & { existed?: boolean };

/**
 * The person's system and global configs, in git's order (the repository's come after and win): a
 * relative `core.hooksPath = .githooks` there runs each repository's own `.githooks/` (O17), and a
 * driver's relative script each repository's file. Their includes are the person's, not the project's.
 */
function personConfigFiles(env: NodeJS.ProcessEnv = process.env): string[] {
  const home = os.homedir();
  const xdg = env.XDG_CONFIG_HOME ? path.resolve(env.XDG_CONFIG_HOME) : path.join(home, '.config');
  const global = env.GIT_CONFIG_GLOBAL
    ? [path.resolve(env.GIT_CONFIG_GLOBAL)]
    : [path.join(xdg, 'git', 'config'), path.join(home, '.gitconfig')];
  return [env.GIT_CONFIG_SYSTEM ? path.resolve(env.GIT_CONFIG_SYSTEM) : '/etc/gitconfig', ...global];
}

/**
 * For each of `repos` (the working directories, and the person's repositories below them: red team
 * t, T2) that is a repository's working tree (`.git` a directory, or a file naming one: a linked
 * worktree, a submodule — N2): the hooks directory its config's last
 * `core.hooksPath` names (relative: to the working tree, as git runs hooks there), what that
 * directory's (or `<common dir>/hooks`') links lead to and its scripts run, and the files its
 * `include.path` / `includeIf.<cond>.path` name (relative: to the config's directory), when they
 * lie inside `roots` (elsewhere no command can write them). `found`: the protected entries the walk
 * found below them (lint-staged's configurations in subdirectories: hookFrameworks.ts).
 */
export function repositoryConfigTargets(
  roots: readonly string[],
  repos: readonly string[] = roots,
  found: readonly string[] = [],
): Entry[] {
  const readings: Reading[] = [];
  const out = scanRepositories(roots, readings, repos, found);
  // The files the package.json scripts the hooks run name (`"precommit": "sh scripts/check.sh"`).
  const inside = insideOf(roots);
  const runs = hookPackageRuns(readings, roots);
  const absent = new Set(runs.absent);
  for (const f of runs.files)
    if (inside(f)) out.push({ path: f, kind: 'file', ...(absent.has(f) ? { absentUndone: true } : {}) });
  return out;
}

/**
 * What the person's git hooks run through a package.json, per package.json (absent ones too): the
 * `scripts.<name>` keys their `npm run <name>` (yarn, pnpm, bun; `npm test`…) runs, with the scripts
 * those run in turn, and the bins their `npx <name>` runs — protected key by key (manifestBins.ts;
 * red team o, O6 husky). The rest of package.json, and what a test script runs, stay the agent's.
 */
export function hookManifestKeys(
  roots: readonly string[],
  repos: readonly string[] = roots,
  found: readonly string[] = [],
): Map<string, HookedKeys> {
  const readings: Reading[] = [];
  scanRepositories(roots, readings, repos, found);
  return hookPackageRuns(readings, roots).keys;
}

const insideOf = (roots: readonly string[]) => (p: string) =>
  roots.some((r) => {
    const rel = path.relative(r, p);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  });

/**
 * The repositories at `repos` (the working directories, and the person's repositories below them:
 * red team t, T2): what their configuration runs, inside `roots`.
 */
function scanRepositories(
  roots: readonly string[],
  readings: Reading[],
  repos: readonly string[],
  found: readonly string[],
): Entry[] {
  const out: Entry[] = [];
  const inside = insideOf(roots);
  for (const root of repos) {
    const gitDir = gitDirOf(root);
    if (gitDir === undefined) continue;
    const common = commonDirOf(gitDir);
    const inGit = (p: string) => p.startsWith(gitDir + path.sep) || p.startsWith(common + path.sep);
    let hooksPath: string | undefined;
    const commands: string[] = [];
    for (const file of [...personConfigFiles(), path.join(common, 'config'), path.join(gitDir, 'config.worktree')]) {
      for (const e of parseGitConfig(readConfig(file) ?? '') ?? []) {
        if (e.value === undefined || e.value === '') continue;
        if (runsCommand(e.section, e.subsection, e.key, e.value)) commands.push(e.value.replace(/^!/, ''));
        if (e.section === 'core' && e.subsection === undefined && e.key === 'hookspath') hooksPath = e.value;
        else if ((e.section === 'include' || e.section === 'includeif') && e.key === 'path') {
          const p = expand(e.value, path.dirname(file));
          if (inside(p)) out.push({ path: p, kind: 'file', denyAbsent: true });
        }
      }
    }
    // The project files the config's own drivers run (`filter.x.clean = sh tools/strip.sh`: the
    // person's `git add` runs it; M6c), found as a hook's are.
    for (const f of hookControlFiles(
      commands.map((command) => ({ command })),
      root,
      roots,
      os.homedir(),
    ))
      if (!inGit(f)) out.push({ path: f, kind: 'file' });
    const hooks = hooksPath !== undefined ? expand(hooksPath, root) : path.join(common, 'hooks');
    if (hooksPath !== undefined && inside(hooks) && !inGit(hooks)) out.push({ path: hooks, kind: 'gitHooks' });
    // What a hook framework keeps in the git directory itself (lefthook's remotes): kept as it is.
    const git = { common, entries: [] as Entry[] };
    for (const e of hookTargets(hooks, root, roots, inside, readings, git, found)) if (!inGit(e.path)) out.push(e);
    out.push(...git.entries);
  }
  return out;
}

/** Submodules' git directories found below one repository's `modules/` at most (hostile trees: bounded). */
const MAX_MODULES = 128;
const MAX_MODULE_WALK = 2_000;

/** Is `dir` a git directory (a `HEAD` and an `objects` directory), links not followed? */
function looksLikeGitDir(dir: string): boolean {
  return (
    fs.lstatSync(path.join(dir, 'HEAD'), { throwIfNoEntry: false }) !== undefined &&
    fs.lstatSync(path.join(dir, 'objects'), { throwIfNoEntry: false })?.isDirectory() === true
  );
}

/**
 * The submodules' git directories of `gitDir` (red team q, Q18): `modules/<name>` — a name with `/`
 * is a path of directories (`modules/libs/ui`) — and theirs in turn (`modules/a/modules/b`). Links
 * are not followed; the walk is bounded.
 */
export function submoduleGitDirs(gitDir: string): string[] {
  const out: string[] = [];
  const queue = [path.join(gitDir, 'modules')];
  for (let i = 0; i < queue.length && i < MAX_MODULE_WALK && out.length < MAX_MODULES; i++) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(queue[i]!, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const d = path.join(queue[i]!, e.name);
      if (!looksLikeGitDir(d)) queue.push(d);
      else if (out.length < MAX_MODULES) {
        out.push(d);
        queue.push(path.join(d, 'modules'));
      }
    }
  }
  return out;
}

/**
 * The working tree of a git directory: the directory holding a `.git`; else the last `core.worktree`
 * of its own config (a submodule's `modules/<name>`: protected, the person's), relative to it.
 */
export function workTreeOf(gitDir: string): string {
  if (path.basename(gitDir) === '.git') return path.dirname(gitDir);
  let tree: string | undefined;
  for (const e of parseGitConfig(readConfig(path.join(gitDir, 'config')) ?? '') ?? [])
    if (e.section === 'core' && e.subsection === undefined && e.key === 'worktree' && e.value) tree = e.value;
  return tree === undefined ? path.dirname(gitDir) : path.resolve(gitDir, tree);
}
